// The one path every entry point takes after its argument check: classify where each operand
// lives (once per call), pick the backend, make the memory usable by that backend, and call it.
#pragma once
#include <new>
#include <type_traits>
#include <vector>

#include "internal.hpp"
#include "stage_plan.hpp"

namespace sgpu {

// Fills a.kind[] (one pointer query per operand that the call touches) and returns a.
template <class Args>
Args& classify_operands(Args& a) {
  int k = 0;
  a.operands([&](auto*& p, size_t bytes, bool) { a.kind[k++] = p && bytes ? gpu::classify(p) : MemKind::kHost; });
  return a;
}

// No operand the call touches is in host memory.
template <class Args>
bool device_data(Args a) {
  int k = 0;
  bool dev = true;
  a.operands([&](auto*& p, size_t bytes, bool) {
    if (p && bytes && host_memory(a.kind[k])) dev = false;
    ++k;
  });
  return dev;
}

// Runs call(s) with s = a but every device-memory operand replaced by a host copy of its whole
// span (outputs too, so that the gaps between matrices go back exactly as they were), outputs
// copied back after a call that ran (success or per-matrix info). Operands whose spans overlap
// share one host buffer (stage_plan.hpp).
template <class Args, class Call>
int with_host_staging(const Args& a, Call call) {
  Args s = a;
  std::vector<Operand> ops;
  s.operands([&](auto*& p, size_t bytes, bool out) { ops.push_back(Operand{(void*)p, bytes, out}); });
  const StagePlan plan =
      plan_stage(ops.data(), ops.size(), [&](size_t k) { return a.kind[k] == MemKind::kDevice; });
  if (plan.groups.empty()) return call(s);
  std::vector<std::vector<unsigned char>> buffers;
  try {
    for (const StagePlan::Group& g : plan.groups) buffers.emplace_back(g.bytes);
  } catch (const std::bad_alloc&) {
    return SGPU_ERR_HOST_ALLOC;
  }
  for (size_t g = 0; g < plan.groups.size(); ++g)
    if (int c = gpu::copy(buffers[g].data(), reinterpret_cast<void*>(plan.groups[g].base), plan.groups[g].bytes))
      return c;
  size_t k = 0;
  s.operands([&](auto*& p, size_t, bool) {
    if (plan.group[k] >= 0) {
      p = static_cast<std::remove_reference_t<decltype(p)>>(static_cast<void*>(buffers[plan.group[k]].data() + plan.offset[k]));
      s.kind[k] = MemKind::kHost;
    }
    ++k;
  });
  const int st = call(s);
  if (st >= 0)
    for (size_t g = 0; g < plan.groups.size(); ++g)
      if (plan.groups[g].out)
        if (int c = gpu::copy(reinterpret_cast<void*>(plan.groups[g].base), buffers[g].data(), plan.groups[g].bytes))
          return c;
  return st;
}

// Calls cpu_call(ctx, a) or gpu_call(ctx, a) for routine r on ctx (a classified). The CPU backend computes on
// host-accessible memory, so device-memory operands are staged through host buffers for it; the
// GPU backend takes operands wherever they are (it streams or stages host memory itself).
template <class Args, class CpuCall, class GpuCall>
int dispatch(sgpu_context* ctx, Routine r, const CallSize& size, const Args& a, CpuCall cpu_call, GpuCall gpu_call) {
  const sgpu_backend_t b = choose_backend(ctx, r, device_data(a), size);
  if (b == SGPU_BACKEND_GPU) {
    if (gpu::device_count() == 0) return SGPU_ERR_NO_BACKEND;
    if (!gpu::has_routine(r)) return SGPU_ERR_NOT_SUPPORTED;
    return gpu_call(ctx, a);
  }
  return with_host_staging(a, [&](const Args& s) { return cpu_call(ctx, s); });
}

// After a resource or backend error (status < -1000) no matrix may read as done: every info[b]
// becomes SGPU_INFO_NOT_COMPUTED (-1), in host or device memory (best effort: a device that
// cannot take a memset keeps what it has). Returns status. a: the call's classified arguments.
template <class Args>
int mark_not_computed(int status, const Args& a) {
  if (status >= -1000 || !a.info || a.batch <= 0) return status;
  if (a.kind[Args::kInfo] == MemKind::kDevice) {
    static_assert(SGPU_INFO_NOT_COMPUTED == -1, "a memset of 0xFF bytes writes -1");
    (void)gpu::fill_bytes(a.info, 0xFF, sizeof(int) * (size_t)a.batch);
  } else {
    for (int64_t b = 0; b < a.batch; ++b) a.info[b] = SGPU_INFO_NOT_COMPUTED;
  }
  return status;
}

}  // namespace sgpu
