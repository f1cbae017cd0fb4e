// zheev for small n with each matrix in shared memory (heev_team.cu): the drivers' view of it.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

#include "kernels/heev_block.hpp"

namespace sgpu {
namespace gpu {
namespace heev_team {

// Whether the shared-memory kernel takes order n and jobz (n <= 32, below the block path; its
// tuning table says where jobz N does better on the global-memory warp path). The benchmark's
// hook SGPU_HEEV_SMALL=global|shared forces either path.
bool serves(int n, bool wantz);

// Lanes per matrix for order n and jobz: the tuning table in heev_team.cu
// (SGPU_HEEV_TEAM=2|4|8|16|32 forces it).
int team_lanes(int n, bool wantz);

// Device workspace a matrix takes, bytes: the records of the orders whose eigenvalues come from
// heev_values between two kernels (the tuning table's sterf), else 0.
int64_t workspace_per_matrix(int n, bool wantz);

// Enqueues the batch on stream s (asynchronous; per-matrix info written on the device), its
// workspace in ws (grown as needed; in use until s passes this point) within ws_limit bytes (0: no
// limit of the caller's). 0 or SGPU_ERR_*.
int launch(bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w, int64_t strideW, int* info,
           int64_t batch, int64_t ws_limit, heev_block::Workspace* ws, cudaStream_t s);

}  // namespace heev_team
}  // namespace gpu
}  // namespace sgpu
