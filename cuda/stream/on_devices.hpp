// Several GPUs: one host thread per device slot, each with its device current, so that
// every device's pipeline enqueues and waits independently of the others.
#pragma once
#include <cuda_runtime.h>

#include <system_error>
#include <thread>
#include <vector>

#include "sgpu.h"

namespace sgpu {
namespace gpu {

// Runs share(k) for k in [0, count): share(0) on the calling thread (whose current device is
// devices[0]), the others each on a host thread of its own with devices[k] current. Returns when
// every share is done: 0, or the first nonzero status in slot order (SGPU_ERR_DEVICE when a device
// cannot be made current, SGPU_ERR_HOST_ALLOC when a thread cannot start: that share is not run).
template <class Share>
int on_devices(const int* devices, int count, Share share) {
  std::vector<int> st(count > 0 ? count : 1, 0);
  std::vector<std::thread> threads;
  for (int k = 1; k < count; ++k) {
    try {
      threads.emplace_back([&, k] {
        if (cudaSetDevice(devices[k]) != cudaSuccess) {
          (void)cudaGetLastError();
          st[k] = SGPU_ERR_DEVICE;
          return;
        }
        st[k] = share(k);
      });
    } catch (const std::system_error&) {
      st[k] = SGPU_ERR_HOST_ALLOC;
    }
  }
  st[0] = share(0);
  for (std::thread& t : threads) t.join();
  for (int s : st)
    if (s) return s;
  return 0;
}

}  // namespace gpu
}  // namespace sgpu
