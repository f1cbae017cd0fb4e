// The one path every entry point takes after its argument check: pick the backend, make the
// memory it was given usable by that backend, and call it.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <new>
#include <vector>

#include "internal.hpp"

namespace sgpu {

// Bytes spanned by `count` items of `rows` x `cols` elements (leading dimension ld, items `stride`
// apart) of `elem` bytes each; 0 when there is nothing.
inline size_t span_bytes(int64_t count, int64_t stride, int64_t ld, int64_t rows, int64_t cols, size_t elem) {
  if (count <= 0 || rows <= 0 || cols <= 0) return 0;
  return (size_t)((count - 1) * stride + (cols - 1) * ld + rows) * elem;
}

namespace detail {

// Runs call() with every device-memory operand replaced by a host copy of its whole span (outputs
// too, so that the gaps between matrices go back exactly as they were), outputs copied back after.
// Operands with the same device address (in place) share one host buffer.
template <class Call>
int with_host_staging(std::initializer_list<Operand> ops, Call call) {
  struct Stage {
    Operand op;
    void* original;
    size_t buffer;  // index into buffers
  };
  std::vector<Stage> staged;
  std::vector<std::vector<unsigned char>> buffers;
  try {
    for (const Operand& op : ops) {
      if (!*op.ptr || op.bytes == 0 || gpu::classify(*op.ptr) != gpu::MemKind::kDevice) continue;
      size_t b = buffers.size();
      for (const Stage& s : staged)
        if (s.original == *op.ptr) b = s.buffer;
      if (b == buffers.size()) buffers.emplace_back(op.bytes);
      else if (buffers[b].size() < op.bytes) buffers[b].resize(op.bytes);
      staged.push_back({op, *op.ptr, b});
    }
  } catch (const std::bad_alloc&) {
    return SGPU_ERR_HOST_ALLOC;
  }
  int st = 0;
  for (const Stage& s : staged)
    if (st == 0) st = gpu::copy(buffers[s.buffer].data(), s.original, s.op.bytes);
  for (const Stage& s : staged) *s.op.ptr = buffers[s.buffer].data();
  if (st == 0) st = call();
  for (const Stage& s : staged) *s.op.ptr = s.original;
  // Results go back only from a call that ran (st >= 0: success or per-matrix info).
  if (st >= 0)
    for (const Stage& s : staged)
      if (s.op.out) {
        int c = gpu::copy(s.original, buffers[s.buffer].data(), s.op.bytes);
        if (c != 0) return c;
      }
  return st;
}

}  // namespace detail

// Calls cpu_call() or gpu_call() for routine r on ctx. The CPU backend computes on host-accessible
// memory, so device-memory operands are staged through host buffers for it; the GPU backend on
// device-accessible memory, so host-memory operands are staged through device buffers for it.
template <class CpuCall, class GpuCall>
int dispatch(sgpu_context* ctx, Routine r, const CallSize& size, std::initializer_list<Operand> ops, CpuCall cpu_call,
             GpuCall gpu_call) {
  bool device_data = true;  // (only AUTO asks: a pointer query costs about a microsecond)
  if (ctx->backend == SGPU_BACKEND_AUTO)
    for (const Operand& op : ops)
      if (*op.ptr && op.bytes && gpu::classify(*op.ptr) == gpu::MemKind::kHost) device_data = false;
  const sgpu_backend_t b = choose_backend(ctx, r, device_data, size);
  if (b == SGPU_BACKEND_GPU) {
    if (gpu::device_count() == 0) return SGPU_ERR_NO_BACKEND;
    if (!gpu::has_routine(r)) return SGPU_ERR_NOT_SUPPORTED;
    if (gpu::streams_host(r)) return gpu::on_device(ctx, [&] { return gpu_call(); });
    return gpu::with_device_operands(ctx, ops.begin(), ops.size(), [&] { return gpu_call(); });
  }
  return detail::with_host_staging(ops, cpu_call);
}

// After a resource or backend error (status < -1000) no matrix may read as done: every info[b]
// becomes SGPU_INFO_NOT_COMPUTED (-1), in host or device memory (best effort: a device that
// cannot take a memset keeps what it has). Returns status.
inline int mark_not_computed(int status, int* info, int64_t batch) {
  if (status >= -1000 || !info || batch <= 0) return status;
  if (gpu::classify(info) == gpu::MemKind::kDevice) {
    static_assert(SGPU_INFO_NOT_COMPUTED == -1, "a memset of 0xFF bytes writes -1");
    (void)gpu::fill_bytes(info, 0xFF, sizeof(int) * (size_t)batch);
  } else {
    for (int64_t b = 0; b < batch; ++b) info[b] = SGPU_INFO_NOT_COMPUTED;
  }
  return status;
}

}  // namespace sgpu
