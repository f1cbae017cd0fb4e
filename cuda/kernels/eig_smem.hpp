// The shared-memory path of dhseqr and dgeev (eig_smem.cu): seed 000's SWB assignment, each
// matrix (and its Z / VL / VR) held in shared memory by a team of P lanes, 32 / P matrices per
// warp, the shared numerical core (compat/core/) running on it unchanged. The drivers' view.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

#include "kernels/eig_job.hpp"

namespace sgpu {
namespace gpu {
namespace eig_smem {

using Job = EigJob;


// Lanes per matrix for order n (values and vectors alike): tuning.hpp's kEigLanes; in developer
// builds SGPU_EIG_TEAM=1|2|4|8|16|32 forces it (the benchmark's sweep).
int team_lanes(int n);

// Fills the slot shape and launch shape; false when one matrix's slot does not fit in a block's
// shared memory (then the generic warp path serves the call).
bool plan(Job& j);

// Device workspace a matrix of the job needs (after plan), bytes: dgeev with vectors carries its
// active block, norm, balancing and Hessenberg form from phase to phase; 0 otherwise.
int64_t workspace_per_matrix(const Job& j);

// Enqueues the job on stream s (asynchronous; per-matrix info written on the device).
// 0 or SGPU_ERR_*.
int launch(const Job& j, cudaStream_t s);

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
