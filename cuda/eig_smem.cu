// dhseqr and dgeev with the matrices in shared memory (seed 000 §4.4's SWB assignment, on Hopper):
// a warp takes 32 / P consecutive matrices, copies them (with Z for compz V) from global memory
// into its slots with all 32 lanes on consecutive elements, then each team of P lanes runs the
// shared core (compat/core/) on its slot, and the warp copies the results back the same way.
//
// Why no separate MW -> RW / EW rearrangement kernel (the seed's Table 4.1): the warp's copy reads
// the caller's MW data coalesced already (consecutive matrices are consecutive in memory), so a
// rearrangement pass would only add a read and a write of the whole batch. The seed's EW/MWB
// assignment ran the QR sweeps on global memory; here every step works on shared memory, and the
// whole batch passes through global memory once each way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "../compat/core/geev.hpp"
#include "../compat/core/hseqr.hpp"
#include "../lib/internal.hpp"
#include "fault.hpp"
#include "eig_smem.hpp"
#include "smem_slots.cuh"
#include "team.cuh"

namespace sgpu {
namespace gpu {
namespace eig_smem {

namespace {

using core::Mat1;
using core::Vec1;

constexpr int kMaxWarpsPerBlock = 4;

// What a kernel instance computes (separate instances, so the eigenvalue-only kernels do not
// carry the vector code's registers).
enum Mode { kHseqrValues = 0, kHseqrVectors = 1, kGeevValues = 2, kGeevVectors = 3 };

int mode_of(const Job& j) {
  if (j.geev) return j.wantvl || j.wantvr ? kGeevVectors : kGeevValues;
  return j.compz ? kHseqrVectors : kHseqrValues;
}

// Where a slot's parts start (doubles from the slot's start).
struct SlotShape {
  int64_t z, vl, w, work;
  __host__ __device__ SlotShape(const Job& j) {
    const int64_t nn = (int64_t)j.n * j.ld;
    const bool has_z = j.geev ? j.wantvr : j.compz != 0, has_vl = j.geev && j.wantvl;
    z = nn;
    vl = z + (has_z ? nn : 0);
    w = vl + (has_vl ? nn : 0);
    work = w + 2 * (int64_t)j.n;
  }
  __host__ __device__ int64_t end(const Job& j) const { return work + (j.geev ? core::geev_work(j.n) : 0); }
};

using smem_slots::warp_copy;

template <int P, int kMode>
__global__ void __launch_bounds__(32 * kMaxWarpsPerBlock) k_eig(const Job j) {
  extern __shared__ double sm[];
  constexpr int kTeams = 32 / P;
  constexpr bool kGeev = kMode >= kGeevValues;
  constexpr bool kVectors = kMode == kHseqrVectors || kMode == kGeevVectors;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const SlotShape sh(j);
  const int n = j.n, ld = j.ld;
  double* slots = sm + (int64_t)warp * kTeams * j.slot;
  double* my = slots + team * j.slot;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams;
  const bool has_z = kVectors && (kGeev ? j.wantvr : true), has_vl = kGeev && kVectors && j.wantvl;
  const bool load_z = !kGeev && kVectors && j.compz == core::kCompzV;
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < j.batch; b0 += stride) {
    const int cnt = (int)(j.batch - b0 < kTeams ? j.batch - b0 : kTeams);
    warp_copy<true>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (load_z) warp_copy<true>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    __syncwarp();
    if (team < cnt) {
      const Mat1<double> a{my, 1, ld}, z{my + sh.z, 1, ld}, vl{my + sh.vl, 1, ld};
      const Vec1<double> wr{my + sh.w, 1}, wi{my + sh.w + n, 1};
      int r;
      if (kGeev)
        r = core::geev(t, kVectors && j.wantvl, kVectors && j.wantvr, n, a, wr, wi, vl, z, my + sh.work);
      else
        r = core::hseqr(t, j.wantt, kVectors ? j.compz : core::kCompzN, n, j.ilo, j.ihi, a, wr, wi, z);
      if (t.leader()) j.info[b0 + team] = r;
    }
    __syncwarp();
    warp_copy<false>(lane, cnt, n, 1, j.wr + b0 * j.sW, n, j.sW, slots + sh.w, n, j.slot);
    warp_copy<false>(lane, cnt, n, 1, j.wi + b0 * j.sW, n, j.sW, slots + sh.w + n, n, j.slot);
    // dgeev's A is "overwritten" with nothing a caller may use (LAPACK), so it is not written back.
    if (!kGeev) warp_copy<false>(lane, cnt, n, n, j.A + b0 * j.sA, j.lda, j.sA, slots, ld, j.slot);
    if (has_z) warp_copy<false>(lane, cnt, n, n, j.Z + b0 * j.sZ, j.ldz, j.sZ, slots + sh.z, ld, j.slot);
    if (has_vl) warp_copy<false>(lane, cnt, n, n, j.VL + b0 * j.sVL, j.ldvl, j.sVL, slots + sh.vl, ld, j.slot);
    __syncwarp();
  }
}

using Kernel = void (*)(const Job);

template <int P>
Kernel kernel_for_mode(int mode) {
  switch (mode) {
    case kHseqrValues: return k_eig<P, kHseqrValues>;
    case kHseqrVectors: return k_eig<P, kHseqrVectors>;
    case kGeevValues: return k_eig<P, kGeevValues>;
    default: return k_eig<P, kGeevVectors>;
  }
}

Kernel kernel_for(const Job& j) {
  const int m = mode_of(j);
  switch (j.lanes) {
    case 1: return kernel_for_mode<1>(m);
    case 2: return kernel_for_mode<2>(m);
    case 4: return kernel_for_mode<4>(m);
    case 8: return kernel_for_mode<8>(m);
    case 16: return kernel_for_mode<16>(m);
    default: return kernel_for_mode<32>(m);
  }
}

int forced_lanes() {
  static const int v = [] {
    const char* e = std::getenv("SGPU_EIG_TEAM");
    const int p = e ? std::atoi(e) : 0;
    return p == 1 || p == 2 || p == 4 || p == 8 || p == 16 || p == 32 ? p : 0;
  }();
  return v;
}

// SGPU_EIG_GRID=group|resident: 1 or 2 (forces Job::block_per_group; the benchmark's hook), else 0.
int forced_grid() {
  static const int v = [] {
    const char* e = std::getenv("SGPU_EIG_GRID");
    if (!e) return 0;
    return std::strcmp(e, "group") == 0 ? 1 : std::strcmp(e, "resident") == 0 ? 2 : 0;
  }();
  return v;
}

struct DeviceLimits {
  int sms = 0, optin = 0, err = 0;
};
DeviceLimits limits() {
  DeviceLimits d;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    d.err = SGPU_ERR_DEVICE;
  }
  return d;
}

}  // namespace

// ---- tuning -------------------------------------------------------------------------------------
// Lanes per matrix, by order: from the sweep on the H100 (2026-11-22, dgeev of 50 000 random
// matrices (20 000 at n = 48, 10 000 at n = 64), device-resident, `TEAM_N=... bash
// bench/device_geev.sh`; docs/performance.md, "dhseqr/dgeev on the GPU"). One P per order for
// values and vectors alike: a team's sums depend on P, and a call's eigenvalues must not depend on
// the job flags. Values first where the two disagree, unless vectors gain much more (re-swept at
// d693125, after the bulge step's rework: n = 10: P = 2 costs values 8%, saves vectors 19% against
// P = 4; n = 15: P = 4 costs values 5%, saves vectors 22% against P = 8; n = 5: P = 1 and 2 equal
// within the spread). Orders between the measured ones take the next measured order's P.
//   n    5   10   15   20   30   48   64
//   P    2    2    4    8   16   32   32
int team_lanes(int n) {
  if (int f = forced_lanes()) return f;
  struct Row {
    int n, lanes;
  };
  static constexpr Row kTable[] = {{5, 2}, {10, 2}, {15, 4}, {20, 8}, {30, 16}, {48, 32}, {64, 32}};
  for (const Row& r : kTable)
    if (n <= r.n) return r.lanes;
  return 32;
}

bool plan(Job& j) {
  const DeviceLimits d = limits();
  if (d.err || j.n < 1) return false;
  j.ld = j.n | 1;
  j.slot = SlotShape(j).end(j) | 1;  // odd: the same element of neighbouring slots in distinct banks
  const int64_t bytes = j.slot * (int64_t)sizeof(double);
  // The table's P, widened until one warp's slots fit in a block.
  for (int p = team_lanes(j.n); p <= 32; p *= 2) {
    const int64_t warp_bytes = bytes * (32 / p);
    const int64_t warps = std::min<int64_t>(kMaxWarpsPerBlock, d.optin / warp_bytes);
    if (warps >= 1) {
      j.lanes = p;
      j.warps = (int)warps;
      j.smem = (size_t)(warps * warp_bytes);
      return true;
    }
  }
  return false;
}

int launch(const Job& job, cudaStream_t s) {
  if (job.batch == 0) return 0;
  const DeviceLimits d = limits();
  if (d.err) return d.err;
  Job j = job;
  const Kernel k = kernel_for(j);
  // Warps per block: the most warps resident per SM (smem_slots::block_shape).
  smem_slots::Shape shape;
  if (smem_slots::block_shape(k, j.smem / (size_t)j.warps, j.warps, shape) != 0) return SGPU_ERR_DEVICE;
  const int best_occ = shape.blocks_per_sm;
  j.warps = shape.warps;
  j.smem = shape.smem;
  // Grid: j.block_per_group (SGPU_EIG_GRID=group|resident forces it). One block per group of
  // matrices lets the hardware's block scheduler balance the matrices' uneven iteration counts;
  // only the resident blocks, each looping over a fixed share of groups, leaves the GPU idling on
  // the slowest shares but lets the streamed pipeline's pieces overlap each other's tails.
  // Measured on the H100 (docs/performance.md, "dhseqr/dgeev on the GPU": 625acc8), 500 000
  // matrices, group / resident, ms: device-resident n = 30 vectors 889 / 1214, values 178 / 199;
  // pinned n = 30 vectors 887 / 1052, values 180 / 181; pageable (staged) n = 30 values 241 / 183,
  // n = 10 vectors 63 / 45. So the drivers ask for one block per group except when staging.
  const int64_t per_block = (int64_t)j.warps * (32 / j.lanes);
  const int64_t groups = (j.batch + per_block - 1) / per_block;
  const int forced = forced_grid();
  const bool per_group = forced ? forced == 1 : j.block_per_group;
  const int64_t grid = std::min<int64_t>(per_group ? (int64_t)INT32_MAX : (int64_t)best_occ * d.sms, groups);
  k<<<(unsigned)grid, 32 * j.warps, j.smem, s>>>(j);
  if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  return 0;
}

}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
