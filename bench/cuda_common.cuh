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

// The device's fp64 peak (FMA as two flops), GFLOP/s: 64 FMA units an SM on the data-centre parts
// (A100, H100, H200: compute capability 8.0 and 9.0), 2 elsewhere, at the SM clock the driver
// reports (H100 SXM: 132 SMs at 1.98 GHz, 33.5 TFLOP/s).
inline double fp64_peak_gflops(const cudaDeviceProp& prop) {
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess) return 0.0;
  const bool dc = (prop.major == 8 && prop.minor == 0) || prop.major == 9;
  return (dc ? 128.0 : 4.0) * prop.multiProcessorCount * khz * 1e-6;
}

}  // namespace bench
