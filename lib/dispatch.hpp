// The one path every entry point takes after its argument check: pick the backend, make sure the
// memory it was given is memory that backend can use, and call it.
#pragma once
#include <initializer_list>

#include "internal.hpp"

namespace sgpu {

// Calls cpu_call() or gpu_call() for routine r on ctx. ptrs are the data pointers of the call:
// the CPU backend needs host-accessible memory (host, pinned or managed).
template <class CpuCall, class GpuCall>
int dispatch(sgpu_context* ctx, Routine r, std::initializer_list<const void*> ptrs, CpuCall cpu_call,
             GpuCall gpu_call) {
  const sgpu_backend_t b = choose_backend(ctx, r);
  if (b == SGPU_BACKEND_GPU) {
    if (gpu::device_count() == 0) return SGPU_ERR_NO_BACKEND;
    if (!gpu::has_routine(r)) return SGPU_ERR_NOT_SUPPORTED;
    return gpu_call();
  }
  for (const void* p : ptrs)
    if (p && gpu::classify(p) == gpu::MemKind::kDevice) return SGPU_ERR_NOT_SUPPORTED;
  return cpu_call();
}

}  // namespace sgpu
