// The one path every entry point takes after its argument check: pick the backend, make the
// memory it was given usable by that backend, and call it.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <new>
#include <vector>

#include "internal.hpp"
#include "stage_plan.hpp"

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
// Operands whose spans overlap share one host buffer (stage_plan.hpp).
template <class Call>
int with_host_staging(std::initializer_list<Operand> ops, Call call) {
  const StagePlan plan =
      plan_stage(ops.begin(), ops.size(), [](const Operand& op) { return gpu::classify(*op.ptr) == gpu::MemKind::kDevice; });
  std::vector<std::vector<unsigned char>> buffers;
  try {
    for (const StagePlan::Group& g : plan.groups) buffers.emplace_back(g.bytes);
  } catch (const std::bad_alloc&) {
    return SGPU_ERR_HOST_ALLOC;
  }
  int st = 0;
  for (size_t g = 0; g < plan.groups.size() && st == 0; ++g)
    st = gpu::copy(buffers[g].data(), reinterpret_cast<void*>(plan.groups[g].base), plan.groups[g].bytes);
  std::vector<void*> original(ops.size());
  size_t k = 0;
  for (const Operand& op : ops) {
    original[k] = *op.ptr;
    if (plan.group[k] >= 0) *op.ptr = buffers[plan.group[k]].data() + plan.offset[k];
    ++k;
  }
  if (st == 0) st = call();
  k = 0;
  for (const Operand& op : ops) *op.ptr = original[k++];
  // Results go back only from a call that ran (st >= 0: success or per-matrix info).
  if (st >= 0)
    for (size_t g = 0; g < plan.groups.size(); ++g)
      if (plan.groups[g].out) {
        int c = gpu::copy(reinterpret_cast<void*>(plan.groups[g].base), buffers[g].data(), plan.groups[g].bytes);
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
