// One eigensolver call (or piece of one) on device memory: the argument of every dhseqr, dgeev
// and zheev kernel family (kernels/eig_smem, eig_warp, heev_team, heev_block) and what the
// drivers (cuda/drivers/eig*.cpp) build.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace sgpu {
namespace gpu {

// One call's problem, on device memory (any ld and strides; pieces of a streamed call are
// packed). Plain data: it is the kernel's argument.
struct EigJob {
  bool geev = false;               // dgeev; else dhseqr (or zheev, below)
  // zheev: A complex (pairs of doubles; lda and sA in complex elements), wr receives w; wi, Z
  // and VL unused.
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
  int64_t call_batch = 0;          // zheev: the whole call's batch (its pieces, on any device, keep it)
  // Grid: one block per group of matrices (true), or only the blocks resident at once, each
  // looping over groups (false). The drivers' choice, measured (kernels/eig_smem.cu, launch()).
  bool block_per_group = false;
  // Device workspace the kernels may allocate for this job, bytes (0: their own caps only); set
  // by the pipeline from the context's device-memory limit.
  int64_t ws_limit = 0;
  // Filled by eig_smem::plan():
  int ld = 0;         // leading dimension of the matrices in a slot (odd: rows fall in distinct banks)
  int64_t slot = 0;   // doubles of shared memory per matrix
  int lanes = 0;      // P
  int warps = 0;      // warps per block
  size_t smem = 0;    // bytes of shared memory per block
};

}  // namespace gpu
}  // namespace sgpu
