// cuBLAS, loaded at run time: the GPU paths that use it (zheev's eigenvector back-transformation
// at larger orders) look it up here and keep their own kernels when it is absent, so libsgpu.so
// still needs no CUDA library at load time (cudart is static) and runs wherever it did before.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace cublas {

struct Api {
  cublasStatus_t (*create)(cublasHandle_t*);
  cublasStatus_t (*destroy)(cublasHandle_t);
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
  cublasStatus_t (*zgemm_strided_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                          const cuDoubleComplex*, const cuDoubleComplex*, int, long long int,
                                          const cuDoubleComplex*, int, long long int, const cuDoubleComplex*,
                                          cuDoubleComplex*, int, long long int, int);
};

// The loaded library's entry points, or nullptr when libcublas (of the toolkit's major version) cannot be loaded or
// SGPU_CUBLAS=off; tried once per process, the outcome logged when SGPU_VERBOSE is set.
const Api* api();

}  // namespace cublas
}  // namespace gpu
}  // namespace sgpu
