// zheev for small n (up to 32) with every matrix in shared memory: a warp takes 32 / P
// consecutive matrices, copies them from the caller's column-major (MW) data into its slots with
// all 32 lanes on consecutive elements, each team of P lanes runs the shared core (core::heev:
// zhetd2, Q formed in place, then dsteqr or dsterf) on its slot, and the warp copies the
// eigenvalues (and vectors) back the same way. Each matrix passes through global memory once each
// way; every step in between works on shared memory. The slot is the matrix plus about 11 n
// doubles; Q is formed in place of the reflectors. Vectors come, by the table below, from the
// QL/QR chain (2 n doubles per lane: each lane's copy of its d and e) or by inverse iteration
// (bisection, dstein, then Q Z: a real n x n Z and 2 n + 1 doubles of scratch per lane). jobz N
// takes the values of the same row's method (the chain without its rotations, or dstebz's
// bisection), so that they are bitwise those of jobz V.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <utility>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/heev.hpp"
#include "backend.hpp"
#include "device/fault.hpp"
#include "kernels/heev_team.hpp"
#include "device/smem_slots.cuh"
#include "device/team.cuh"
#include "device/dev_setting.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace heev_team {

namespace {

using core::Mat1;
using core::Vec1;
using core::zc;
using smem_slots::warp_copy;

constexpr int kMaxN = 32;
constexpr int kMaxWarpsPerBlock = 4;

// A slot: A (n x ld complex), then w (n), then core::heev's workspace.
struct Slot {
  int ld;          // complex elements; odd, so a row's elements fall in distinct banks
  int64_t w, work, size;  // doubles
  __host__ __device__ Slot(int n, bool wantz, int lanes, int mode) {
    ld = n | 1;
    w = 2 * (int64_t)n * ld;
    work = w + n;
    size = (work + core::heev_work(n, wantz, mode, lanes)) | 1;  // odd: neighbours' slots in distinct banks
  }
};

// core::heev's vectors (and with jobz N the values that go with them): kHeevInverse (inverse
// iteration) or kHeevNoStedc (the QL/QR chain).
constexpr int mode_for(bool inverse) { return inverse ? core::kHeevInverse : core::kHeevNoStedc; }

struct Args {
  bool lower;
  int n;
  double* A;  // complex, as pairs of doubles
  int64_t lda, sA;  // in complex elements
  double* w;
  int64_t sW;
  int* info;
  int64_t batch;
};

// kN > 0: the order as a compile-time constant (g.n must equal it), so that the core's loops have
// known trip counts; 0: g.n at run time.
template <int P, bool kWantz, bool kInverse, int kN = 0>
__global__ void __launch_bounds__(32 * kMaxWarpsPerBlock) k_heev_team(const Args g) {
  extern __shared__ double sm[];
  constexpr int kTeams = 32 / P;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const int n = kN ? kN : g.n;
  constexpr int kMode = mode_for(kInverse);
  const Slot sl(n, kWantz, P, kMode);
  double* slots = sm + (int64_t)warp * kTeams * sl.size;
  double* my = slots + team * sl.size;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams;
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < g.batch; b0 += stride) {
    const int cnt = (int)(g.batch - b0 < kTeams ? g.batch - b0 : kTeams);
    // Complex n x n as doubles: 2n rows, leading dimensions doubled.
    warp_copy<true>(lane, cnt, 2 * n, n, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, slots, 2 * sl.ld, sl.size);
    __syncwarp();
    if (team < cnt) {
      const int r = core::heev(t, kWantz, g.lower, n, Mat1<zc>{reinterpret_cast<zc*>(my), 1, sl.ld},
                               Vec1<double>{my + sl.w, 1}, my + sl.work, kMode);
      if (t.leader()) g.info[b0 + team] = r;
    }
    __syncwarp();
    warp_copy<false>(lane, cnt, n, 1, g.w + b0 * g.sW, n, g.sW, slots + sl.w, n, sl.size);
    if (kWantz)
      warp_copy<false>(lane, cnt, 2 * n, n, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, slots, 2 * sl.ld, sl.size);
    __syncwarp();
  }
}

using Kernel = void (*)(const Args);

// Lanes, memory and vectors by order and jobz: tuning.hpp's kHeevTeam (a row serves the orders up
// to its n; larger orders take the last row).
constexpr const tuning::HeevTeamRow& row_for(int n) {
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam)
    if (n <= r.n) return r;
  return tuning::kHeevTeam[sizeof tuning::kHeevTeam / sizeof tuning::kHeevTeam[0] - 1];
}

// The kernel for P lanes at a runtime order, or null where it is not built. Only the team sizes
// tuning::kHeevTeam dispatches are instantiated (today the chain: 2, 4, with and without vectors;
// inverse iteration: 8 without vectors; with vectors it runs at compile-time orders). One warp's
// slots at the table's sizes take at most 45 KB (n = 24 with vectors at 16 lanes; jobz N at most
// 22 KB), within the opt-in shared memory of every architecture from sm_80 on (99 KB or more), so
// the launch never widens P. Developer builds, whose settings may force any P, build every size.
#ifdef SGPU_DEV_HOOKS
constexpr bool kAllSizes = true;
#else
constexpr bool kAllSizes = false;
#endif
// Whether tuning::kHeevTeam dispatches P at a runtime order for this kind of call (jobz N only
// where its row keeps the matrix in shared memory; jobz V by inverse iteration never), read from
// the table itself so that the two cannot disagree.
constexpr bool dispatched(int P, bool wantz, bool inverse) {
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam)
    if (r.inverse_v == inverse && (wantz ? !inverse && r.lanes_v == P : r.shared_n && r.lanes_n == P)) return true;
  return false;
}
// jobz N on global memory (eig_warp.cu) takes dstebz's values: only where jobz V takes inverse
// iteration are they those of jobz V.
constexpr bool warp_path_values_match() {
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam)
    if (!r.shared_n && !r.inverse_v) return false;
  return true;
}
static_assert(warp_path_values_match(), "a kHeevTeam row sends jobz N to the global path but V to the chain");
template <int P, bool kWantz, bool kInverse>
constexpr bool kBuilt = kAllSizes || dispatched(P, kWantz, kInverse);

template <int P, bool kWantz, bool kInverse>
Kernel built() {
  if constexpr (kBuilt<P, kWantz, kInverse>)
    return k_heev_team<P, kWantz, kInverse>;
  else
    return nullptr;
}

// jobz V by inverse iteration runs at a compile-time order: one kernel for each order from the
// first that a row with inverse_v serves up to kMaxN, with that row's lanes. H100, ms, the order
// at run time against at compile time: 244 140 x 16 24.3 -> 21.5, 61 035 x 32 (16 lanes) 39.7 ->
// 37.9; jobz N gained nothing (9.1, 10.5), so it keeps one kernel for every order.
constexpr int first_inverse_order() {
  int n = kMaxN + 1;
  for (int m = kMaxN; m >= 1 && row_for(m).inverse_v; --m) n = m;
  return n;
}
constexpr int kFixedFrom = first_inverse_order();
static_assert(kFixedFrom <= kMaxN, "no kHeevTeam row takes inverse iteration");
template <int... I>
constexpr std::array<Kernel, sizeof...(I)> fixed_order_kernels(std::integer_sequence<int, I...>) {
  return {k_heev_team<row_for(kFixedFrom + I).lanes_v, true, true, kFixedFrom + I>...};
}
constexpr std::array<Kernel, kMaxN - kFixedFrom + 1> kFixedOrder =
    fixed_order_kernels(std::make_integer_sequence<int, kMaxN - kFixedFrom + 1>{});

template <bool kWantz, bool kInverse>
Kernel kernel_for(int lanes) {
  switch (lanes) {
    case 2: return built<2, kWantz, kInverse>();
    case 4: return built<4, kWantz, kInverse>();
    case 8: return built<8, kWantz, kInverse>();
    case 16: return built<16, kWantz, kInverse>();
    case 32: return built<32, kWantz, kInverse>();
    default: return nullptr;
  }
}

// The table's choice of vectors (and of jobz N's values with them) forced: the developer setting
// SGPU_HEEV_VECTORS=chain|inverse (to compare the two on the same build). 0: the table's; 1:
// inverse iteration; 2: the chain. jobz N on the global path (a row's shared_n false) keeps
// dstebz's values, so forcing the chain there gives jobz V other bits than jobz N.
int env_vectors() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_VECTORS");
    return !e ? 0 : std::strcmp(e, "inverse") == 0 ? 1 : std::strcmp(e, "chain") == 0 ? 2 : 0;
  }();
  return v;
}

int env_lanes() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_TEAM");
    const int p = e ? std::atoi(e) : 0;
    return p == 2 || p == 4 || p == 8 || p == 16 || p == 32 ? p : 0;
  }();
  return v;
}

}  // namespace

bool serves(int n, bool wantz) {
  static const bool global = [] {
    const char* e = dev::setting("SGPU_HEEV_SMALL");
    return e && std::strcmp(e, "global") == 0;
  }();
  static const bool shared = [] {
    const char* e = dev::setting("SGPU_HEEV_SMALL");
    return e && std::strcmp(e, "shared") == 0;
  }();
  if (global || n < 1 || n > kMaxN) return false;
  return wantz || shared || row_for(n).shared_n;
}

int team_lanes(int n, bool wantz) {
  if (int f = env_lanes()) return f;
  return wantz ? row_for(n).lanes_v : row_for(n).lanes_n;
}

int launch(bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w, int64_t strideW, int* info,
           int64_t batch, cudaStream_t s) {
  if (batch == 0) return 0;
  int dev = 0, optin = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  // The table's P, widened until one warp's slots fit in a block (n = 32 fits from P = 4 on the
  // H100's 227 KB).
  int p = team_lanes(n, wantz);
  const int forced = env_vectors();
  const bool inverse = forced ? forced == 1 : row_for(n).inverse_v;
  size_t warp_bytes = 0;
  for (;; p *= 2) {
    warp_bytes = sizeof(double) * (size_t)Slot(n, wantz, p, mode_for(inverse)).size * (32 / p);
    if (warp_bytes <= (size_t)optin) break;
    if (p == 32) return SGPU_ERR_DEVICE;
  }
  const int max_warps = (int)std::min<size_t>(kMaxWarpsPerBlock, optin / warp_bytes);
  const bool fixed = wantz && inverse && n >= kFixedFrom && p == row_for(n).lanes_v;
  const Kernel k = fixed    ? kFixedOrder[n - kFixedFrom]
                   : !wantz ? (inverse ? kernel_for<false, true>(p) : kernel_for<false, false>(p))
                   : inverse ? kernel_for<true, true>(p) : kernel_for<true, false>(p);
  if (!k) return SGPU_ERR_DEVICE;
  smem_slots::Shape shape;
  if (smem_slots::block_shape(k, warp_bytes, max_warps, shape) != 0) return SGPU_ERR_DEVICE;
  // One block per group of matrices: the block scheduler balances the matrices' uneven iteration
  // counts (as eig_smem.cu measured for dgeev).
  const int64_t per_block = (int64_t)shape.warps * (32 / p);
  const int64_t grid = std::min<int64_t>((batch + per_block - 1) / per_block, INT_MAX);
  const Args g{lower, n, static_cast<double*>(A), lda, strideA, w, strideW, info, batch};
  k<<<(unsigned)grid, 32 * shape.warps, shape.smem, s>>>(g);
  if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  return 0;
}

}  // namespace heev_team
}  // namespace gpu
}  // namespace sgpu
