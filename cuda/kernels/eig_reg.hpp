// dgeev and dhseqr eigenvalues of small orders, one thread per matrix in registers
// (eig_reg.cu): the drivers' view.
#pragma once
#include <cuda_runtime.h>

#include "kernels/eig_job.hpp"

namespace sgpu {
namespace gpu {
namespace eig_reg {

// True when the register kernels serve job j: dgeev without vectors, or dhseqr with neither T
// nor Z, of order 1..tuning::kEigRegMaxN, and the shared-memory teams would run that order with
// tuning's P (a developer override of P changes their sums, and a call's eigenvalues must not
// depend on its job flags).
bool serves(const EigJob& j);

// Enqueues j (device pointers) on s. 0 or SGPU_ERR_*.
int launch(const EigJob& j, cudaStream_t s);

}  // namespace eig_reg
}  // namespace gpu
}  // namespace sgpu
