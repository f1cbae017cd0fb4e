// Fault injection, compiled in only with -DSGPU_DEV_HOOKS=ON: the GPU backend's
// device allocations, pinned host allocations, kernel launches and copies count their occurrences
// by kind, and the armed occurrence fails as the real call would (the allocation or copy is not
// made; a launch reports failure after the kernel is queued, as an asynchronous launch error
// would). tests/test_faults.cu sweeps every occurrence of every kind of a call. Without the option
// hit() is a constant false and the library carries no trace of it.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "sgpu.h"

namespace sgpu {
namespace fault {

enum Kind { kDeviceAlloc = 0, kHostAlloc = 1, kLaunch = 2, kCopy = 3, kKinds = 4 };

#ifdef SGPU_DEV_HOOKS
bool hit(Kind k);  // counts one occurrence of k; true when it is the armed one
#else
constexpr bool hit(Kind) { return false; }
#endif

// The status of the launch just made: cudaGetLastError(), or a launch failure when armed.
inline cudaError_t launch_status() {
  const cudaError_t e = cudaGetLastError();
  return hit(kLaunch) ? cudaErrorLaunchFailure : e;
}

// The device-memory meter of fault-injection builds: the bytes the library holds on all devices
// through dev_malloc*/dev_free*, and their peak (tests/test_memcap.cu checks the context's limit
// with it). Nothing without the option.
#ifdef SGPU_DEV_HOOKS
void meter_alloc(void* p, size_t bytes);
void meter_free(void* p);
#else
inline void meter_alloc(void*, size_t) {}
inline void meter_free(void*) {}
#endif

// The CUDA calls that can fail, each counted as its kind.
inline cudaError_t dev_malloc(void** p, size_t bytes) {
  if (hit(kDeviceAlloc)) return cudaErrorMemoryAllocation;
  const cudaError_t e = cudaMalloc(p, bytes);
  if (e == cudaSuccess) meter_alloc(*p, bytes);
  return e;
}
inline cudaError_t dev_malloc_async(void** p, size_t bytes, cudaStream_t s) {
  if (hit(kDeviceAlloc)) return cudaErrorMemoryAllocation;
  const cudaError_t e = cudaMallocAsync(p, bytes, s);
  if (e == cudaSuccess) meter_alloc(*p, bytes);
  return e;
}
inline cudaError_t dev_free(void* p) {
  if (!p) return cudaSuccess;
  meter_free(p);
  return cudaFree(p);
}
inline cudaError_t dev_free_async(void* p, cudaStream_t s) {
  if (!p) return cudaSuccess;
  meter_free(p);
  return cudaFreeAsync(p, s);
}
inline cudaError_t host_malloc(void** p, size_t bytes) {
  return hit(kHostAlloc) ? cudaErrorMemoryAllocation : cudaMallocHost(p, bytes);
}
inline cudaError_t copy(void* dst, const void* src, size_t bytes) {
  return hit(kCopy) ? cudaErrorUnknown : cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
}
inline cudaError_t copy_async(void* dst, const void* src, size_t bytes, cudaStream_t s) {
  return hit(kCopy) ? cudaErrorUnknown : cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
}
inline cudaError_t copy2d_async(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows,
                                cudaStream_t s) {
  return hit(kCopy) ? cudaErrorUnknown : cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDefault, s);
}
inline cudaError_t memset_async(void* dst, int value, size_t bytes, cudaStream_t s) {
  return hit(kCopy) ? cudaErrorUnknown : cudaMemsetAsync(dst, value, bytes, s);
}

}  // namespace fault
}  // namespace sgpu

#ifdef SGPU_DEV_HOOKS
// Exported by fault-injection builds only (tests). Arms kind's k-th occurrence from now (k = 0:
// none) and zeroes its count; returns the occurrences counted since the previous arm.
extern "C" SGPU_API int64_t sgpu_fault_arm(int kind, int64_t k);
// The meter: bytes held now and the peak since the previous call (which restarts it from now).
extern "C" SGPU_API void sgpu_fault_device_bytes(int64_t* held, int64_t* peak);
#endif
