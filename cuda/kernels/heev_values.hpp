// zheev's eigenvalues from records in heev_reg_reduce's layout (written by the register reduction
// or by the team path's reduction stage): one thread a matrix by dsterf, or from
// tuning::kHeevValuesBlockMinN a block a matrix by bisection (heev_values.cu).
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace heev_values {

// The eigenvalues of every matrix's tridiagonal T (d, e of its record at rec + b
// heev_reg_reduce::record_doubles(n)) as core::stebz_sterf finds them (T split where dstebz splits
// it, dsterf on each block) or, from tuning::kHeevValuesBlockMinN, as core::stebz does. wantz:
// into the record's eigenvalues and order, for the inverse iteration that follows (the block
// kernel's, the team path's last stage); else the matrix is done: w + b strideW gets them
// ascending, unscaled by the record's sigma, and info[b] = 0 (a record marked bad: NaN and info n). Asynchronous on stream s.
// 0 or SGPU_ERR_DEVICE (also for n above tuning::kHeevValuesBlockMaxN, the block's largest order).
int launch(bool wantz, int n, double* rec, double* w, int64_t strideW, int* info, int64_t batch, cudaStream_t s);

}  // namespace heev_values
}  // namespace gpu
}  // namespace sgpu
