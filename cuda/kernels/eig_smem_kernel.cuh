// dhseqr and dgeev with the matrices in shared memory: the kernel (eig_smem.cu has the driver and
// the why). A warp takes 32 / P consecutive matrices, copies them (with Z for compz V) from global
// memory into its slots with all 32 lanes on consecutive elements, then each team of P lanes runs
// the shared core (compat/core/) on its slot, and the warp copies the results back the same way.
// Each mode's instances are compiled in a translation unit of their own (eig_smem_<mode>.cu), so
// that a build spreads them over its cores.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "core/geev.hpp"
#include "core/hseqr.hpp"
#include "kernels/eig_smem.hpp"
#include "device/smem_slots.cuh"
#include "device/team.cuh"

namespace sgpu {
namespace gpu {
namespace eig_smem {

constexpr int kMaxWarpsPerBlock = 4;

// What a kernel instance computes (separate instances, so the eigenvalue-only kernels do not
// carry the vector code's registers).
enum Mode { kHseqrValues = 0, kHseqrVectors = 1, kGeevValues = 2, kGeevVectors = 3 };

inline int mode_of(const Job& j) {
  if (j.geev) return j.wantvl || j.wantvr ? kGeevVectors : kGeevValues;
  return j.compz ? kHseqrVectors : kHseqrValues;
}

// Where a slot's parts start (doubles from the slot's start). geev_values: dgeev without vectors
// (a compile-time constant in the kernels, so that the other modes' code does not test it).
struct SlotShape {
  int64_t z, vl, w, work;
  __host__ __device__ SlotShape(const Job& j, bool geev_values) {
    const int64_t nn = (int64_t)j.n * j.ld;
    const bool has_z = j.geev ? j.wantvr : j.compz != 0, has_vl = j.geev && j.wantvl;
    z = nn;
    vl = z + (has_z ? nn : 0);
    w = vl + (has_vl ? nn : 0);
    // dgeev without vectors: the work overlaps wr and wi (core::geev's work is dead by then), so
    // that more slots fit.
    work = w + (geev_values ? 0 : 2 * (int64_t)j.n);
  }
  __host__ __device__ int64_t end(const Job& j) const { return work + (j.geev ? core::geev_work(j.n) : 0); }
};

template <int P, int kMode>
__global__ void __launch_bounds__(32 * kMaxWarpsPerBlock) k_eig(const Job j) {
  extern __shared__ double sm[];
  constexpr int kTeams = 32 / P;
  constexpr bool kGeev = kMode >= kGeevValues;
  constexpr bool kVectors = kMode == kHseqrVectors || kMode == kGeevVectors;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const SlotShape sh(j, kMode == kGeevValues);
  const int n = j.n, ld = j.ld;
  double* slots = sm + (int64_t)warp * kTeams * j.slot;
  double* my = slots + team * j.slot;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams;
  const bool has_z = kVectors && (kGeev ? j.wantvr : true), has_vl = kGeev && kVectors && j.wantvl;
  const bool load_z = !kGeev && kVectors && j.compz == core::kCompzV;
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < j.batch; b0 += stride) {
    const int cnt = (int)(j.batch - b0 < kTeams ? j.batch - b0 : kTeams);
    smem_slots::warp_copy<true>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (load_z) smem_slots::warp_copy<true>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    __syncwarp();
    if (team < cnt) {
      const core::Mat1<double> a{my, 1, ld}, z{my + sh.z, 1, ld}, vl{my + sh.vl, 1, ld};
      const core::Vec1<double> wr{my + sh.w, 1}, wi{my + sh.w + n, 1};
      int r;
      if (kGeev)
        r = core::geev(t, kVectors && j.wantvl, kVectors && j.wantvr, n, a, wr, wi, vl, z, my + sh.work);
      else
        r = core::hseqr(t, j.wantt, kVectors ? j.compz : core::kCompzN, n, j.ilo, j.ihi, a, wr, wi, z);
      if (t.leader()) j.info[b0 + team] = r;
    }
    __syncwarp();
    smem_slots::warp_copy<false>(lane, cnt, n, 1, j.wr + b0 * j.sW, n, j.sW, slots + sh.w, n, j.slot);
    smem_slots::warp_copy<false>(lane, cnt, n, 1, j.wi + b0 * j.sW, n, j.sW, slots + sh.w + n, n, j.slot);
    // dgeev's A is "overwritten" with nothing a caller may use (LAPACK), so it is not written back.
    if (!kGeev) smem_slots::warp_copy<false>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (has_z) smem_slots::warp_copy<false>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    if (has_vl) smem_slots::warp_copy<false>(lane, cnt, n, n, j.VL + b0 * j.sVL, j.ldvl, j.sVL, slots + sh.vl, ld, j.slot);
    __syncwarp();
  }
}

using Kernel = void (*)(const Job);

// The kernel of mode kMode for P lanes (P in 2, 4, 8, 16, 32; in developer builds also 1, which
// only SGPU_EIG_TEAM reaches). Instantiated once per mode in eig_smem_<mode>.cu.
template <int kMode>
Kernel kernel_for_lanes(int lanes);

#ifdef SGPU_EIG_SMEM_INSTANTIATE
template <int kMode>
Kernel kernel_for_lanes(int lanes) {
  switch (lanes) {
#ifdef SGPU_DEV_HOOKS
    case 1: return k_eig<1, kMode>;
#endif
    case 2: return k_eig<2, kMode>;
    case 4: return k_eig<4, kMode>;
    case 8: return k_eig<8, kMode>;
    case 16: return k_eig<16, kMode>;
    default: return k_eig<32, kMode>;
  }
}
#endif

extern template Kernel kernel_for_lanes<kHseqrValues>(int);
extern template Kernel kernel_for_lanes<kHseqrVectors>(int);
extern template Kernel kernel_for_lanes<kGeevValues>(int);
extern template Kernel kernel_for_lanes<kGeevVectors>(int);

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
