// The shared-memory path of dhseqr and dgeev (eig_smem.cu): seed 000's SWB assignment, each
// matrix (and its Z / VL / VR) held in shared memory by a team of P lanes, 32 / P matrices per
// warp, the shared numerical core (compat/core/) running on it unchanged. The drivers' view.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace eig_smem {

// One call's problem, on device memory (any ld and strides; pieces of a streamed call are
// packed). Plain data: it is the kernel's argument.
struct Job {
  bool geev = false;               // dgeev; else dhseqr (or zheev, below)
  // zheev (n <= 32, the team kernels; eig_warp.cu's heev_enqueue): A complex (pairs of doubles;
  // lda and sA in complex elements), wr receives w; wi, Z and VL unused.
  bool heev = false;
  bool wantz = false, lower = false;  // zheev jobz V, uplo L
  bool wantt = false;              // dhseqr job S
  int compz = 0;                   // dhseqr: core::Compz
  int ilo = 1, ihi = 0;            // dhseqr
  bool wantvl = false, wantvr = false;  // dgeev
  int n = 0;
  double* A = nullptr;             // H (dhseqr) or A (dgeev)
  int lda = 0;
  int64_t sA = 0;
  double* wr = nullptr;
  double* wi = nullptr;
  int64_t sW = 0;
  double* Z = nullptr;             // dhseqr Z, dgeev VR
  int ldz = 0;
  int64_t sZ = 0;
  double* VL = nullptr;            // dgeev VL
  int ldvl = 0;
  int64_t sVL = 0;
  int* info = nullptr;
  int64_t batch = 0;
  // Grid: one block per group of matrices (true), or only the blocks resident at once, each
  // looping over groups (false). The drivers' choice, measured (eig_smem.cu, launch()).
  bool block_per_group = false;
  // Device workspace the kernels may allocate for this job, bytes (0: their own caps only); set
  // by the pipeline from the context's device-memory limit.
  int64_t ws_limit = 0;
  // Filled by plan():
  int ld = 0;         // leading dimension of the matrices in a slot (odd: rows fall in distinct banks)
  int64_t slot = 0;   // doubles of shared memory per matrix
  int lanes = 0;      // P
  int warps = 0;      // warps per block
  size_t smem = 0;    // bytes of shared memory per block
};

// Lanes per matrix for order n (values and vectors alike): tuning.hpp's kEigLanes; in developer
// builds SGPU_EIG_TEAM=1|2|4|8|16|32 forces it (the benchmark's sweep).
int team_lanes(int n);

// Fills the slot shape and launch shape; false when one matrix's slot does not fit in a block's
// shared memory (then the generic warp path serves the call).
bool plan(Job& j);

// Enqueues the job on stream s (asynchronous; per-matrix info written on the device).
// 0 or SGPU_ERR_*.
int launch(const Job& j, cudaStream_t s);

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
