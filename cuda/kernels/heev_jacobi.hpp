// zheev at the smallest orders, one thread a matrix by the cyclic Jacobi method in registers
// (heev_jacobi.cu, heev_jacobi_thread.hpp): the drivers' view of it.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace heev_jacobi {

// Whether it takes order n (1 to tuning::kHeevJacobiMaxN), with and without vectors.
bool serves(int n);

// Enqueues the batch on stream s (asynchronous; per-matrix info written on the device). No
// workspace. 0 or SGPU_ERR_DEVICE.
int launch(bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w, int64_t strideW, int* info,
           int64_t batch, cudaStream_t s);

}  // namespace heev_jacobi
}  // namespace gpu
}  // namespace sgpu
