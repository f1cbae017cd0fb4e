// The CUDA seam: device discovery, pointer classification and the GPU entry points the host
// core dispatches to. The GPU issues replace the NOT_SUPPORTED bodies with their drivers and
// flip has_routine(); nothing above this file changes.
#include <cuda_runtime.h>

#include <mutex>

#include "../lib/internal.hpp"

namespace sgpu {
namespace gpu {

int device_count() {
  static int count = -1;
  static std::once_flag once;
  std::call_once(once, [] {
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess) c = 0;
    (void)cudaGetLastError();  // a machine without a driver is not an error state for later calls
    count = c;
  });
  return count;
}

bool has_routine(Routine) { return false; }

MemKind classify(const void* p) {
  if (!p || device_count() == 0) return MemKind::kHost;
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return MemKind::kHost;
  }
  if (attr.type == cudaMemoryTypeDevice) return MemKind::kDevice;
  if (attr.type == cudaMemoryTypeManaged) return MemKind::kManaged;
  return MemKind::kHost;
}

int copy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return 0;
  if (cudaMemcpy(dst, src, bytes, cudaMemcpyDefault) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  return 0;
}

int dhseqr(sgpu_context*, char, char, int, int, int, double*, int, int64_t, double*, double*, int64_t, double*, int,
           int64_t, int*, int64_t) {
  return SGPU_ERR_NOT_SUPPORTED;
}
int dgeev(sgpu_context*, char, char, int, double*, int, int64_t, double*, double*, int64_t, double*, int, int64_t,
          double*, int, int64_t, int*, int64_t) {
  return SGPU_ERR_NOT_SUPPORTED;
}
int zheev(sgpu_context*, char, char, int, void*, int, int64_t, double*, int64_t, int*, int64_t) {
  return SGPU_ERR_NOT_SUPPORTED;
}
int scan_cols(sgpu_context*, int, sgpu_type_t, sgpu_type_t, int, int, const void*, int, int64_t, void*, int, int64_t,
              int64_t) {
  return SGPU_ERR_NOT_SUPPORTED;
}

}  // namespace gpu
}  // namespace sgpu
