// dgeev and dhseqr eigenvalues of small orders: one thread per matrix, the matrix in registers
// (the kernel: eig_reg_kernel.cuh). At these orders a team of P lanes per matrix in shared memory
// spends its time on synchronizations, shared-memory round trips and 64-bit index arithmetic, and
// teams sharing a warp diverge; here a thread owns its matrix, every index is a compile-time
// constant, and nothing synchronizes between the load and the store. Measured against the teams
// in docs/tuning.md ("Register kernels"), which sets tuning::kEigRegMaxN.
#include "kernels/eig_reg.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "backend.hpp"
#include "device/dev_setting.hpp"
#include "device/fault.hpp"
#include "kernels/eig_reg_kernel.cuh"  // kernel_for (instances: eig_reg_geev.cu, eig_reg_hseqr.cu)
#include "kernels/eig_smem.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace eig_reg {


namespace {

// tuning::kEigRegMaxN, or lower in developer builds (SGPU_EIG_REG_MAX_N; 0: never).
int max_n() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_EIG_REG_MAX_N");
    return e ? std::min(std::atoi(e), tuning::kEigRegMaxN) : tuning::kEigRegMaxN;
  }();
  return v;
}

}  // namespace

bool serves(const EigJob& j) {
  if (j.heev || j.n < 1 || j.n > max_n()) return false;
  const bool values = j.geev ? !j.wantvl && !j.wantvr : !j.wantt && j.compz == 0;
  return values && eig_smem::team_lanes(j.n) == tuning::eig_lanes(j.n);
}

int launch(const EigJob& j, cudaStream_t s) {
  if (j.batch == 0) return 0;
  const Kernel k = j.geev ? kernel_for<true>(j.n) : kernel_for<false>(j.n);
  // One thread per matrix; the kernel loops over the batch when it outnumbers the grid's threads.
  const int64_t blocks = std::min<int64_t>((j.batch + kThreads - 1) / kThreads, int64_t(1) << 30);
  k<<<(unsigned)blocks, kThreads, 0, s>>>(j);
  if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  return 0;
}

}  // namespace eig_reg
}  // namespace gpu
}  // namespace sgpu
