// zheev's reduction to real tridiagonal form at the block path's orders up to 128, each matrix in
// the registers (above 64 partly in the shared memory) of one thread block (heev_reg_reduce.cu): the
// block path's view of it.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace heev_reg_reduce {

// Whether it reduces order n (from 2 to the last row of tuning::kHeevRegReduce).
bool serves(int n);

// One matrix's record, in doubles: d (n), e (n: the signed betas, e_k = beta_k, the last unused),
// tau (n complex, the last unused), then sigma (zheev's scale factor) and bad (nonzero: the
// referenced triangle held NaN or Inf; nothing else of the record is then set). Then, written
// by heev_values for the block kernel's inverse iteration: the eigenvalues of T (n, as
// core::stebz leaves them: each split block's ascending at its rows) and their ascending order
// (n, 1-based indices held as doubles).
__host__ __device__ inline int64_t record_doubles(int n) { return 6 * (int64_t)n + 2; }
__host__ __device__ inline int64_t record_sigma(int n) { return 4 * (int64_t)n; }
__host__ __device__ inline int64_t record_bad(int n) { return 4 * (int64_t)n + 1; }
__host__ __device__ inline int64_t record_w(int n) { return 4 * (int64_t)n + 2; }
__host__ __device__ inline int64_t record_order(int n) { return 5 * (int64_t)n + 2; }

// Reduces matrix b of A (uplo `lower`, ld lda, stride strideA complex elements) into rec + b *
// record_doubles(n) and, where V is not null, its reflectors into V + b n^2 (n x n, ld n, complex:
// reflector k's entries below its unit element in column k, rows k + 2.. (0-based), as zhetrd
// leaves them; nothing else of V is written). Asynchronous on stream s. 0 or SGPU_ERR_DEVICE.
int launch(bool lower, int n, const void* A, int lda, int64_t strideA, double* rec, void* V, int64_t batch,
           cudaStream_t s);

}  // namespace heev_reg_reduce
}  // namespace gpu
}  // namespace sgpu
