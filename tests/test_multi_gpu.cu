// Device lists (sgpu_context_set_devices): a batch on host memory shared out over
// the listed devices gives the same results as on one device (bitwise; zheev's cuBLAS-applied
// vectors within 1e-12), for every routine, from pageable and pinned memory, with and without a
// device-memory limit; device data runs on the first listed device; a missing device in the list
// gives SGPU_ERR_DEVICE with every info SGPU_INFO_NOT_COMPUTED. With one GPU the list is {0, 0}
// (two pipelines on one device: the same sharing, threads and per-slot caches). Skips (77)
// without a GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "sgpu.h"

#include "gpu_expect.hpp"
#include "device_cases.hpp"

using namespace cases;

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("test_multi_gpu: no GPU, skipped\n");
    return 77;
  }
  std::vector<int> list = {0, devices > 1 ? 1 : 0};
  if (devices > 2) list.push_back(2);
  std::printf("test_multi_gpu: %d GPUs, device list {", devices);
  for (int d : list) std::printf(" %d", d);
  std::printf(" }\n");
  sgpu_context_t one = nullptr, many = nullptr;
  if (sgpu_context_create(&one) || sgpu_context_set_backend(one, SGPU_BACKEND_GPU) || sgpu_context_create(&many) ||
      sgpu_context_set_backend(many, SGPU_BACKEND_GPU) || sgpu_context_set_devices(many, list.data(), (int)list.size()))
    return 1;
  const std::vector<Case> all = {
      eig_case(true, 'V', 'V', 12, 60000, 0),  eig_case(false, 'S', 'I', 30, 8000, 0),
      eig_case(true, 'N', 'V', 100, 300, 0),   heev_case('V', 24, 30000, 0),
      heev_case('V', 100, 900, 0),             heev_case('N', 64, 3000, 0),
      eig_case(true, 'V', 'V', 16, 3000, 3),   scan_case(SGPU_COL_MAJOR, 32, 32, 100000, 0),
      scan_case(SGPU_COL_MAJOR, 8192, 4096, 1, 0), scan_case(SGPU_ROW_MAJOR, 4096, 8192, 1, 0),
  };
  for (const Case& c : all) {
    for (Where w : {kPageable, kPinned, kDevice}) {
      const Result ref = c.run(one, w);
      EXPECT(ref.status == 0, "%s from %s memory on one device: status %d", c.name.c_str(), where_name(w), ref.status);
      char what[96];
      std::snprintf(what, sizeof what, "%s memory, %zu devices", where_name(w), list.size());
      same(c, c.run(many, w), ref, what);
      if (w == kDevice) continue;
      sgpu_context_set_device_memory_limit(many, size_t(8) << 20);
      std::snprintf(what, sizeof what, "%s memory, %zu devices, 8 MB limit", where_name(w), list.size());
      same(c, c.run(many, w), ref, what);
      sgpu_context_set_device_memory_limit(many, 0);
    }
    std::printf("%s: done\n", c.name.c_str());
  }
  // A device that is not there: the call fails as a whole, no matrix reads as done.
  {
    const int bad[2] = {0, devices + 3};
    sgpu_context_t ctx = nullptr;
    sgpu_context_create(&ctx);
    sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU);
    sgpu_context_set_devices(ctx, bad, 2);
    const Result r = eig_case(true, 'N', 'N', 8, 50000, 0).run(ctx, kPinned);
    EXPECT(r.status == SGPU_ERR_DEVICE, "missing device: status %d", r.status);
    int64_t wrong = 0;
    for (int i : r.info) wrong += i != SGPU_INFO_NOT_COMPUTED;
    EXPECT(wrong == 0, "missing device: %lld info entries not NOT_COMPUTED", (long long)wrong);
    sgpu_context_destroy(ctx);
  }
  // The same context again after the lists changed (slot caches follow their device).
  {
    const int rev[2] = {list[1], list[0]};
    sgpu_context_set_devices(many, rev, 2);
    const Case c = heev_case('V', 40, 4000, 0);
    same(c, c.run(many, kPageable), c.run(one, kPageable), "pageable memory, reversed list");
  }
  sgpu_context_destroy(one);
  sgpu_context_destroy(many);
  std::printf("test_multi_gpu: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
