// What the CUDA benchmark programs share: a checked CUDA call (a benchmark exits on a failed call)
// and the device, stream and timing events they all start with.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

namespace bench {

// Device 0's properties, a non-blocking stream and two events; false (after saying so) when the
// machine has no GPU.
inline bool open_gpu(cudaDeviceProp& prop, cudaStream_t& stream, cudaEvent_t& ev0, cudaEvent_t& ev1) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("no GPU: nothing to measure\n");
    return false;
  }
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CK(cudaEventCreate(&ev0));
  CK(cudaEventCreate(&ev1));
  return true;
}

}  // namespace bench
