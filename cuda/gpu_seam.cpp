// The CUDA seam: device discovery, pointer classification, copies and staging of host memory for
// the GPU drivers, and the table of which routines run on the GPU (the drivers: eig_warp.cu,
// scan_cols.cu); nothing above this layer changes when a driver is replaced.
#include <cuda_runtime.h>

#include <mutex>
#include <vector>

#include "../lib/internal.hpp"
#include "../lib/stage_plan.hpp"
#include "fault.hpp"

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

int with_device_operands(sgpu_context* ctx, const Operand* ops, size_t count, const std::function<int()>& call) {
  int prev = 0;
  if (cudaGetDevice(&prev) != cudaSuccess || cudaSetDevice(ctx->device) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  cudaStream_t s = static_cast<cudaStream_t>(ctx->stream);
  // Operands whose spans overlap share one device buffer (lib/stage_plan.hpp).
  StagePlan plan;
  try {
    plan = plan_stage(ops, count, [](const Operand& op) { return classify(*op.ptr) == MemKind::kHost; });
  } catch (const std::bad_alloc&) {
    cudaSetDevice(prev);
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
      original[k] = *ops[k].ptr;
      if (plan.group[k] >= 0) *ops[k].ptr = static_cast<unsigned char*>(dev[plan.group[k]]) + plan.offset[k];
    }
    st = call();
    for (size_t k = 0; k < count; ++k) *ops[k].ptr = original[k];
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
  cudaSetDevice(prev);
  return st;
}

// Which routines run on the GPU, and which AUTO may choose there (measured: docs/performance.md).
// dgeev, dhseqr and zheev stream host data themselves (eig_pipeline.cu). AUTO keeps host data on
// the CPU until measured (docs/performance.md).
// The scan on device data beats the CPU backend by orders of magnitude; on host data the PCIe
// copies alone (2 x 64 MB at 7-55 GB/s for a 4096^2 float matrix) take longer than the CPU
// backend's whole scan (1.1 ms on 16 cores), so AUTO keeps host data on the CPU.
bool has_routine(Routine) { return true; }
bool streams_host(Routine r) {
  return r == Routine::kScanCols || r == Routine::kDhseqr || r == Routine::kDgeev || r == Routine::kZheev;
}

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
