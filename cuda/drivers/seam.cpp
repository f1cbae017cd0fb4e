// The CUDA seam: device discovery, pointer classification, copies, the table of which routines
// run on the GPU (the backend interface, lib/backend.hpp), and the drivers' device selection and
// whole-span staging (seam.hpp). The routines themselves are in drivers/eig.cpp and scan.cpp.
#include <cuda_runtime.h>

#include <mutex>
#include <vector>

#include "drivers/seam.hpp"

#include "backend.hpp"
#include "device/fault.hpp"
#include "stage_plan.hpp"
#include "stream/cache.hpp"

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

MemKind classify(const void* p) {
  if (!p || device_count() == 0) return MemKind::kHost;
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return MemKind::kHost;
  }
  if (attr.type == cudaMemoryTypeDevice) return MemKind::kDevice;
  if (attr.type == cudaMemoryTypeManaged) return MemKind::kManaged;
  if (attr.type == cudaMemoryTypeHost) return MemKind::kPinned;
  return MemKind::kHost;
}

int copy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return 0;
  if (fault::copy(dst, src, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  return 0;
}

int fill_bytes(void* dst, int byte, size_t bytes) {
  if (bytes == 0) return 0;
  if (cudaMemset(dst, byte, bytes) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  return 0;
}

int with_device_operands(sgpu_context* ctx, Operand* ops, const bool* staged, size_t count,
                         const std::function<int()>& call) {
  cudaStream_t s = static_cast<cudaStream_t>(ctx->stream);
  StagePlan plan;
  try {
    plan = plan_stage(ops, count, [&](size_t k) { return staged[k]; });
  } catch (const std::bad_alloc&) {
    return SGPU_ERR_HOST_ALLOC;
  }
  std::vector<void*> dev(plan.groups.size(), nullptr), original(count, nullptr);
  int st = 0;
  for (size_t g = 0; g < plan.groups.size() && st == 0; ++g) {
    if (fault::dev_malloc(&dev[g], plan.groups[g].bytes) != cudaSuccess) {
      dev[g] = nullptr;
      st = SGPU_ERR_DEVICE_ALLOC;
      break;
    }
    // Outputs too: the gaps between matrices must come back as they were.
    if (fault::copy_async(dev[g], reinterpret_cast<void*>(plan.groups[g].base), plan.groups[g].bytes, s) != cudaSuccess)
      st = SGPU_ERR_DEVICE;
  }
  if (st == 0) {
    for (size_t k = 0; k < count; ++k) {
      original[k] = ops[k].p;
      if (plan.group[k] >= 0) ops[k].p = static_cast<unsigned char*>(dev[plan.group[k]]) + plan.offset[k];
    }
    st = call();
    for (size_t k = 0; k < count; ++k) ops[k].p = original[k];
    if (st >= 0) {
      for (size_t g = 0; g < plan.groups.size(); ++g)
        if (plan.groups[g].out &&
            fault::copy_async(reinterpret_cast<void*>(plan.groups[g].base), dev[g], plan.groups[g].bytes, s) != cudaSuccess)
          st = SGPU_ERR_DEVICE;
      // Only a staged call waits (its host outputs must be there on return); on device data the
      // call stays asynchronous, ordered on the context's stream.
      if (!plan.groups.empty() && cudaStreamSynchronize(s) != cudaSuccess) st = SGPU_ERR_DEVICE;
    }
  }
  for (void* d : dev)
    if (d) fault::dev_free(d);
  (void)cudaGetLastError();
  return st;
}

// Which routines run on the GPU, and which AUTO may choose there (measured: docs/performance.md).
// Every routine streams host data itself (stream/engine.hpp). The scan on device data beats the CPU backend by orders of magnitude; on host data the PCIe
// copies alone (2 x 64 MB at 7-55 GB/s for a 4096^2 float matrix) take longer than the CPU
// backend's whole scan (1.1 ms on 16 cores), so AUTO keeps host data on the CPU.
bool has_routine(Routine) { return true; }

int on_device(sgpu_context* ctx, const std::function<int()>& call) {
  int prev = 0;
  if (cudaGetDevice(&prev) != cudaSuccess || cudaSetDevice(ctx->device) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  const int st = call();
  cudaSetDevice(prev);
  return st;
}

void release_context(sgpu_context* ctx) { ctx->gpu_cache.clear(); }
// zheev, dgeev and dhseqr on device data: the GPU paths beat the CPU backend (which would also
// stage the data through the host) at every order measured (zheev by 10x or more; dgeev by 3x or
// more against the LAPACKE loop on 16 cores: docs/performance.md). Host data is lib/auto_model.hpp's
// (context.cpp, choose_backend()): only device data asks here.
bool auto_ready(Routine r, bool device_data) {
  return device_data && (r == Routine::kScanCols || r == Routine::kZheev || r == Routine::kDgeev ||
                         r == Routine::kDhseqr);
}

}  // namespace gpu
}  // namespace sgpu
