// dhseqr and dgeev with the matrices in shared memory: the kernel (eig_smem.cu has the driver and
// the why). A warp takes 32 / P consecutive matrices, copies them (with Z for compz V) from global
// memory into its slots with all 32 lanes on consecutive elements, then each team of P lanes runs
// the shared core (compat/core/) on its slot, and the warp copies the results back the same way.
// dgeev with vectors runs as three such kernels, one a phase (k_geev_phase below).
// Each mode's instances are compiled in a translation unit of their own (eig_smem_<mode>.cu), so
// that a build spreads them over its cores.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

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
  constexpr bool kVectors = kMode == kHseqrVectors;
  static_assert(kMode != kGeevVectors, "dgeev with vectors runs in phases (k_geev_phase)");
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const SlotShape sh(j, kMode == kGeevValues);
  const int n = j.n, ld = j.ld;
  double* slots = sm + (int64_t)warp * kTeams * j.slot;
  double* my = slots + team * j.slot;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams;
  const bool load_z = kVectors && j.compz == core::kCompzV;
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < j.batch; b0 += stride) {
    const int cnt = (int)(j.batch - b0 < kTeams ? j.batch - b0 : kTeams);
    smem_slots::warp_copy<true>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (load_z) smem_slots::warp_copy<true>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    __syncwarp();
    if (team < cnt) {
      const core::Mat1<double> a{my, 1, ld}, z{my + sh.z, 1, ld};
      const core::Vec1<double> wr{my + sh.w, 1}, wi{my + sh.w + n, 1};
      int r;
      if (kGeev)
        r = core::geev(t, false, false, n, a, wr, wi, z, z, my + sh.work);
      else
        r = core::hseqr(t, j.wantt, kVectors ? j.compz : core::kCompzN, n, j.ilo, j.ihi, a, wr, wi, z);
      if (t.leader()) j.info[b0 + team] = r;
    }
    __syncwarp();
    smem_slots::warp_copy<false>(lane, cnt, n, 1, j.wr + b0 * j.sW, n, j.sW, slots + sh.w, n, j.slot);
    smem_slots::warp_copy<false>(lane, cnt, n, 1, j.wi + b0 * j.sW, n, j.sW, slots + sh.w + n, n, j.slot);
    // dgeev's A is "overwritten" with nothing a caller may use (LAPACK), so it is not written back.
    if (!kGeev) smem_slots::warp_copy<false>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (kVectors)
      smem_slots::warp_copy<false>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    __syncwarp();
  }
}

// dgeev with vectors in three kernels, one a phase of core::geev (geev_reduce, geev_schur,
// geev_vectors), so that each is small enough for the instruction cache: one kernel for all
// three waits 37% of its cycles on instruction fetches (Nsight Compute, n = 15, P = 4).
// VL/VR, wr and wi pass from phase to phase through the caller's device buffers; the active block,
// A's norm, the balancing's scale and the Hessenberg (then Schur) form through `carry`
// (geev_carry_doubles a matrix: A stays unchanged, as the header promises). Each phase loads every operand it stores, so a matrix a phase
// skips (input not finite: geev_reduce wrote its final outputs) goes back unchanged.
enum GeevPhase { kReduce = 0, kSchur = 1, kVectors = 2 };

// A matrix's carry: ilo, ihi, anrm, the scale (n), then H or T (n x n, leading dimension n).
__host__ __device__ inline int64_t geev_carry_doubles(int n) { return 3 + (int64_t)n * (n + 1); }

template <int P, int kPhase>
__global__ void __launch_bounds__(32 * kMaxWarpsPerBlock) k_geev_phase(const Job j, double* carry) {
  extern __shared__ double sm[];
  constexpr int kTeams = 32 / P;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const SlotShape sh(j, false);
  const int n = j.n, ld = j.ld;
  double* slots = sm + (int64_t)warp * kTeams * j.slot;
  double* my = slots + team * j.slot;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams, cs = geev_carry_doubles(n);
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < j.batch; b0 += stride) {
    const int cnt = (int)(j.batch - b0 < kTeams ? j.batch - b0 : kTeams);
    auto copy = [&](auto to_shared, int rows, int cols, double* g, int64_t ldg, int64_t sg, int64_t at, int lds) {
      smem_slots::warp_copy<decltype(to_shared)::value>(lane, cnt, rows, cols, g + b0 * sg, ldg, sg, slots + at, lds,
                                                        j.slot);
    };
    using In = std::true_type;
    using Out = std::false_type;
    double* carry_h = carry + 3 + n;
    if (kPhase == kReduce) copy(In{}, n, n, j.A, j.lda, j.sA, 0, ld);
    else copy(In{}, n, n, carry_h, n, cs, 0, ld);
    if (kPhase != kReduce) {
      if (j.wantvl) copy(In{}, n, n, j.VL, j.ldvl, j.sVL, sh.vl, ld);
      if (j.wantvr) copy(In{}, n, n, j.Z, j.ldz, j.sZ, sh.z, ld);
      copy(In{}, n, 1, j.wr, n, j.sW, sh.w, n);
      copy(In{}, n, 1, j.wi, n, j.sW, sh.w + n, n);
    }
    __syncwarp();
    if (team < cnt) {
      const int64_t b = b0 + team;
      double* cb = carry + b * cs;
      double* work = my + sh.work;
      const core::Mat1<double> a{my, 1, ld}, vr{my + sh.z, 1, ld}, vl{my + sh.vl, 1, ld};
      const core::Vec1<double> wr{my + sh.w, 1}, wi{my + sh.w + n, 1};
      core::GeevCarry c;
      if (kPhase == kReduce) {
        core::geev_reduce(t, j.wantvl, j.wantvr, n, a, wr, wi, vl, vr, work, c);
        for (int i = t.first(0); i < n; i += t.step()) cb[3 + i] = work[i];
        if (t.leader()) {
          cb[0] = c.ilo;
          cb[1] = c.ihi;
          cb[2] = c.anrm;
          if (c.ilo == 0) j.info[b] = n;
        }
      } else {
        c.ilo = (int)cb[0];
        c.ihi = (int)cb[1];
        c.anrm = cb[2];
        if (c.ilo > 0) {
          if (kPhase == kSchur) {
            const int r = core::geev_schur(t, j.wantvl, j.wantvr, n, a, wr, wi, vl, vr, work, c);
            if (t.leader()) j.info[b] = r;
          } else {
            for (int i = t.first(0); i < n; i += t.step()) work[i] = cb[3 + i];
            t.sync();
            core::geev_vectors(t, j.wantvl, j.wantvr, n, a, wr, wi, vl, vr, work, c, j.info[b]);
          }
        }
      }
    }
    __syncwarp();
    // geev_reduce writes every output of a matrix whose input is not finite; of the others, wr,
    // wi and (with both sets of vectors) VR are left to geev_schur, which overwrites them.
    if (kPhase != kVectors) copy(Out{}, n, n, carry_h, n, cs, 0, ld);
    if (j.wantvl) copy(Out{}, n, n, j.VL, j.ldvl, j.sVL, sh.vl, ld);
    if (j.wantvr) copy(Out{}, n, n, j.Z, j.ldz, j.sZ, sh.z, ld);
    copy(Out{}, n, 1, j.wr, n, j.sW, sh.w, n);
    copy(Out{}, n, 1, j.wi, n, j.sW, sh.w + n, n);
    __syncwarp();
  }
}

using Kernel = void (*)(const Job);
using PhaseKernel = void (*)(const Job, double*);

// The kernel of mode kMode for P lanes (P in 2, 4, 8, 16, 32; in developer builds also 1, which
// only SGPU_EIG_TEAM reaches). Instantiated once per mode in eig_smem_<mode>.cu.
template <int kMode>
Kernel kernel_for_lanes(int lanes);

// The phase kPhase of dgeev with vectors for P lanes (as kernel_for_lanes). Instantiated once
// per phase in eig_smem_geev_<phase>.cu.
template <int kPhase>
PhaseKernel phase_kernel_for_lanes(int lanes);

#ifdef SGPU_EIG_SMEM_INSTANTIATE
// pick(std::integral_constant<int, P>) for the P that `lanes` names (as kernel_for_lanes).
template <class Pick>
auto for_lanes(int lanes, Pick pick) {
  switch (lanes) {
#ifdef SGPU_DEV_HOOKS
    case 1: return pick(std::integral_constant<int, 1>{});
#endif
    case 2: return pick(std::integral_constant<int, 2>{});
    case 4: return pick(std::integral_constant<int, 4>{});
    case 8: return pick(std::integral_constant<int, 8>{});
    case 16: return pick(std::integral_constant<int, 16>{});
    default: return pick(std::integral_constant<int, 32>{});
  }
}
template <int kMode>
Kernel kernel_for_lanes(int lanes) {
  return for_lanes(lanes, [](auto p) -> Kernel { return k_eig<decltype(p)::value, kMode>; });
}
template <int kPhase>
PhaseKernel phase_kernel_for_lanes(int lanes) {
  return for_lanes(lanes, [](auto p) -> PhaseKernel { return k_geev_phase<decltype(p)::value, kPhase>; });
}
#endif

extern template PhaseKernel phase_kernel_for_lanes<kReduce>(int);
extern template PhaseKernel phase_kernel_for_lanes<kSchur>(int);
extern template PhaseKernel phase_kernel_for_lanes<kVectors>(int);
extern template Kernel kernel_for_lanes<kHseqrValues>(int);
extern template Kernel kernel_for_lanes<kHseqrVectors>(int);
extern template Kernel kernel_for_lanes<kGeevValues>(int);

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
