// The device-memory limit of a context (sgpu_context_set_device_memory_limit):
//  1. every routine, from pageable, pinned and device memory, packed (streamed in pieces) and with
//     gaps between matrices (staged whole, in sub-batches), under limits from a few MB up, gives
//     bitwise the results of the same call without a limit (zheev's cuBLAS-applied vectors within
//     1e-12), and in a fault-injection build (-DSGPU_DEV_HOOKS=ON: the library's device
//     allocations are metered) its peak device memory stays within the limit;
//  2. a limit too small for one matrix returns SGPU_ERR_DEVICE_ALLOC with every info
//     SGPU_INFO_NOT_COMPUTED and nothing else written;
//  3. on a GPU whose free memory is squeezed to the limit plus a margin, a large zheev that fails
//     without the limit succeeds with it, bitwise as before.
// Skips (77) without a GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sgpu.h"

#include "gpu_expect.hpp"
#include "device_cases.hpp"

#ifdef SGPU_DEV_HOOKS
extern "C" void sgpu_fault_device_bytes(int64_t* held, int64_t* peak);
#endif

using namespace cases;

namespace {

// The library's device bytes held now and the peak since the previous call ({-1, -1}: not metered).
struct Meter {
  int64_t held = -1, peak = -1;
};
Meter meter() {
  Meter m;
#ifdef SGPU_DEV_HOOKS
  sgpu_fault_device_bytes(&m.held, &m.peak);
#endif
  return m;
}

// Runs case c from each kind of memory without a limit (on ctx) and under each limit (each on a
// fresh context, so that its peak is its own: the meter counts every context's cached buffers),
// comparing the results; then once more under the smallest limit on ctx itself, whose caches the
// unlimited run filled: the call must trim them, so that ctx holds no more than the limit after it.
void limits_case(sgpu_context_t ctx, const Case& c, const std::vector<size_t>& limits, bool device_too) {
  for (Where w : {kPageable, kPinned, kDevice}) {
    if (w == kDevice && !device_too) continue;
    const Meter base = meter();
    sgpu_context_set_device_memory_limit(ctx, 0);
    const Result ref = c.run(ctx, w);
    EXPECT(ref.status == 0, "%s from %s memory without a limit: status %d", c.name.c_str(), where_name(w), ref.status);
    for (size_t lim : limits) {
      sgpu_context_t fresh = nullptr;
      sgpu_context_create(&fresh);
      sgpu_context_set_backend(fresh, SGPU_BACKEND_GPU);
      sgpu_context_set_device_memory_limit(fresh, lim);
      const Meter before = meter();
      const Result r = c.run(fresh, w);
      const Meter after = meter();
      sgpu_context_destroy(fresh);
      const int64_t peak = after.peak >= 0 ? after.peak - before.held : -1;
      char what[96];
      std::snprintf(what, sizeof what, "%s memory, limit %.2f MB", where_name(w), lim / 1048576.0);
      same(c, r, ref, what);
      if (peak >= 0)
        EXPECT(peak <= (int64_t)lim, "%s, %s: peak %.3f MB over the limit", c.name.c_str(), what, peak / 1048576.0);
      std::printf("%-40s %-30s peak %9.3f MB\n", c.name.c_str(), what, peak / 1048576.0);
    }
    sgpu_context_set_device_memory_limit(ctx, limits[0]);
    const Result r = c.run(ctx, w);
    const Meter after = meter();
    sgpu_context_set_device_memory_limit(ctx, 0);
    same(c, r, ref, "limited after an unlimited call on one context");
    if (after.held >= 0)
      EXPECT(after.held - base.held <= (int64_t)limits[0], "%s from %s: the context holds %.3f MB after a %.2f MB call",
             c.name.c_str(), where_name(w), (after.held - base.held) / 1048576.0, limits[0] / 1048576.0);
  }
}

// A limit too small for one matrix: SGPU_ERR_DEVICE_ALLOC, info all NOT_COMPUTED, outputs poisoned.
void too_small(sgpu_context_t ctx, const Case& c, Where w) {
  sgpu_context_set_device_memory_limit(ctx, 4096);
  const Result r = c.run(ctx, w);
  sgpu_context_set_device_memory_limit(ctx, 0);
  EXPECT(r.status == SGPU_ERR_DEVICE_ALLOC, "%s from %s, 4 KB limit: status %d", c.name.c_str(), where_name(w),
         r.status);
  int64_t wrong = 0;
  for (int i : r.info) wrong += i != SGPU_INFO_NOT_COMPUTED;
  EXPECT(wrong == 0, "%s, 4 KB limit: %lld info entries not NOT_COMPUTED", c.name.c_str(), (long long)wrong);
  const std::vector<unsigned char>& first = r.outs.size() > 1 && c.name.rfind("dhseqr", 0) == 0 ? r.outs[1] : r.outs[0];
  const double* d = reinterpret_cast<const double*>(first.data());
  int64_t written = 0;
  for (size_t k = 0; k < first.size() / sizeof(double); ++k) written += d[k] != kPoison;
  EXPECT(written == 0, "%s, 4 KB limit: %lld output elements written", c.name.c_str(), (long long)written);
}

// The limit against a real shortage: free device memory squeezed to limit + margin.
void squeezed(sgpu_context_t ctx) {
  const Case c = heev_case('V', 256, 1000, 0);  // 1 GB of input; unlimited it takes several GB
  const Result ref = c.run(ctx, kPinned);
  EXPECT(ref.status == 0, "%s reference: status %d", c.name.c_str(), ref.status);
  const size_t limit = size_t(256) << 20, margin = size_t(256) << 20;
  size_t free_b = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&free_b, &total));
  void* hog = nullptr;
  if (free_b > limit + margin && cudaMalloc(&hog, free_b - limit - margin) != cudaSuccess) hog = nullptr;
  size_t left = 0;
  CUDA_OK(cudaMemGetInfo(&left, &total));
  std::printf("squeeze: %.0f MB free of %.0f MB\n", left / 1048576.0, total / 1048576.0);
  // A fresh context: the first one's cached buffers would count against the squeeze.
  sgpu_context_t fresh = nullptr;
  sgpu_context_create(&fresh);
  sgpu_context_set_backend(fresh, SGPU_BACKEND_GPU);
  const Result unlimited = c.run(fresh, kPinned);
  std::printf("squeeze: without a limit the call returned %d (%s)\n", unlimited.status,
              unlimited.status == SGPU_ERR_DEVICE_ALLOC ? "out of device memory, as expected" : "it fit");
  EXPECT(unlimited.status == SGPU_ERR_DEVICE_ALLOC, "squeeze: the unlimited call was expected to run out (%d)",
         unlimited.status);
  sgpu_context_set_device_memory_limit(fresh, limit);
  const Result r = c.run(fresh, kPinned);
  same(c, r, ref, "squeezed, 256 MB limit");
  sgpu_context_destroy(fresh);
  if (hog) cudaFree(hog);
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("test_memcap: no GPU, skipped\n");
    return 77;
  }
  sgpu_context_t ctx = nullptr;
  if (sgpu_context_create(&ctx) || sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU)) return 1;
  std::printf("test_memcap: device allocations %s\n", meter().held >= 0 ? "metered" : "not metered (no fault-injection build)");
  const size_t MB = size_t(1) << 20;
  const std::vector<size_t> limits = {2 * MB, 5 * MB, 24 * MB};
  // Streamed (packed), each kernel path: smem teams, the generic warp path with its workspace
  // (dgeev with one vector set from n = 119: n = 120), zheev's team and warp paths and its block
  // path (with per-matrix workspace).
  limits_case(ctx, eig_case(true, 'V', 'V', 12, 4000, 0), limits, false);
  limits_case(ctx, eig_case(false, 'S', 'I', 30, 1500, 0), limits, false);
  limits_case(ctx, eig_case(true, 'N', 'V', 120, 100, 0), limits, true);
  limits_case(ctx, heev_case('V', 24, 3000, 0), limits, false);
  limits_case(ctx, heev_case('V', 100, 300, 0), {5 * MB, 24 * MB}, true);
  limits_case(ctx, heev_case('N', 64, 600, 0), limits, true);
  // Staged whole (gaps between matrices): sub-batches.
  limits_case(ctx, eig_case(true, 'V', 'V', 16, 3000, 3), limits, false);
  limits_case(ctx, heev_case('V', 40, 800, 5), limits, false);
  // The scan: packed small matrices, large column- and row-major ones, and unpacked small ones.
  limits_case(ctx, scan_case(SGPU_COL_MAJOR, 32, 32, 20000, 0), limits, false);
  limits_case(ctx, scan_case(SGPU_COL_MAJOR, 4096, 2048, 1, 0), limits, false);
  limits_case(ctx, scan_case(SGPU_ROW_MAJOR, 1024, 8192, 1, 0), limits, false);
  limits_case(ctx, scan_case(SGPU_COL_MAJOR, 20, 20, 30000, 7), limits, false);
  // Too small for one matrix.
  too_small(ctx, eig_case(true, 'V', 'V', 40, 200, 0), kPinned);
  too_small(ctx, heev_case('V', 100, 50, 0), kPageable);
  too_small(ctx, heev_case('V', 100, 50, 0), kDevice);
  too_small(ctx, eig_case(true, 'V', 'V', 100, 50, 3), kPageable);
  too_small(ctx, scan_case(SGPU_COL_MAJOR, 1 << 16, 64, 1, 0), kPinned);
  squeezed(ctx);
  sgpu_context_destroy(ctx);
  std::printf("test_memcap: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
