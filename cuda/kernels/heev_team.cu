// zheev for small n (up to 32) with every matrix in shared memory: a warp takes 32 / P
// consecutive matrices, copies them from the caller's column-major (MW) data into its slots with
// all 32 lanes on consecutive elements, each team of P lanes runs the shared core (core::heev:
// zhetd2, Q formed in place, then dsteqr or dsterf) on its slot, and the warp copies the
// eigenvalues (and vectors) back the same way. Each matrix passes through global memory once each
// way; every step in between works on shared memory. The slot is the matrix plus about 11 n
// doubles; Q is formed in place of the reflectors. Vectors come, by the table below, from the
// QL/QR chain (2 n doubles per lane: each lane's copy of its d and e) or by inverse iteration
// (dstein, then Q Z: a real n x n Z and 2 n + 1 doubles of scratch per lane). Where the table
// says sterf, inverse iteration's eigenvalues come from heev_values (dsterf one thread a matrix)
// after a first launch of the kernel: kReduce leaves T in a record per matrix (and, with vectors,
// Q in A); with vectors a second launch, kStein, takes the eigenvalues from the record and runs
// dstein into Z (global memory), and k_heev_qz forms A = Q Z; elsewhere the eigenvalues come from
// the team's own bisection. jobz N takes the values of the same row's method (the chain
// without its rotations, dsterf's by heev_values, dstebz's bisection), so that they are bitwise
// those of jobz V.
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
#include "kernels/heev_reg_reduce.hpp"
#include "kernels/heev_team.hpp"
#include "kernels/heev_values.hpp"
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

// A slot: A (n x ld complex; not where `matrix` is false), then w (n), then core::heev's workspace.
struct Slot {
  int ld;          // complex elements; odd, so a row's elements fall in distinct banks
  int64_t w, work, size;  // doubles
  __host__ __device__ Slot(int n, bool wantz, int lanes, int mode, bool matrix = true) {
    ld = n | 1;
    w = matrix ? 2 * (int64_t)n * ld : 0;
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
  double* rec;  // the stages: matrix b's record at rec + b record_doubles(n)
  double* zg;   // kStein and k_heev_qz: matrix b's Z at zg + b n^2 (ld n), columns ascending
};

// Stages of the inverse-iteration path where the eigenvalues come from heev_values between them
// (a kHeevTeam row's sterf): kWhole runs core::heev; kReduce the reduction up to the tridiagonal
// (with vectors Q, phase-scaled, into A), which it leaves in the matrix's record (heev_reg_reduce's
// layout: d, e, sigma, bad); kStein, after heev_values has put the eigenvalues and their order into
// the record, inverse iteration into Z in global memory, its columns in the eigenvalues' order (no
// matrix in its slot, so more matrices share an SM); then k_heev_qz, A = Q Z.
enum Stage { kWhole, kReduce, kStein };

// Whether a kernel's slot holds the vectors' workspace (Z and inverse iteration's scratch): the
// reduction stage needs none, so its slot is jobz N's and more matrices share an SM.
constexpr bool slot_vectors(bool wantz, int stage) { return wantz && stage != kReduce; }
// Whether a kernel's slot holds the matrix.
constexpr bool slot_matrix(int stage) { return stage != kStein; }

// A team's matrix into its record: d and |e| of T, sigma, and whether the matrix held NaN or Inf.
template <class Team>
__device__ void put_record(const Team& t, int n, const double* work, double sigma, bool bad, double* rec) {
  if (!bad)
    for (int i = t.first(0); i < n; i += t.step()) {
      rec[i] = work[i];
      if (i < n - 1) rec[n + i] = work[n + i];
    }
  if (t.leader()) {
    rec[heev_reg_reduce::record_sigma(n)] = sigma;
    rec[heev_reg_reduce::record_bad(n)] = bad ? 1.0 : 0.0;
  }
}

// From the record into core::heev's work: d, |e|, the eigenvalues (cw) and their order (sw's room).
template <class Team>
__device__ void get_record(const Team& t, int n, const double* rec, double* work) {
  int* order = reinterpret_cast<int*>(work + 3 * n);
  for (int i = t.first(0); i < n; i += t.step()) {
    work[i] = rec[i];
    if (i < n - 1) work[n + i] = rec[n + i];
    work[2 * n + i] = rec[heev_reg_reduce::record_w(n) + i];
    order[i] = (int)rec[heev_reg_reduce::record_order(n) + i];
  }
  t.sync();
}

// kN > 0: the order as a compile-time constant (g.n must equal it), so that the core's loops have
// known trip counts; 0: g.n at run time.
template <int P, bool kWantz, bool kInverse, int kN = 0, int kStage = kWhole>
__global__ void __launch_bounds__(32 * kMaxWarpsPerBlock) k_heev_team(const Args g) {
  static_assert(kStage == kWhole || kInverse, "the stages are inverse iteration's");
  static_assert(kStage != kStein || kWantz, "only jobz V has a stage after the eigenvalues");
  extern __shared__ double sm[];
  constexpr int kTeams = 32 / P;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, team = lane / P;
  const cuda::WarpTeam<P> t = cuda::WarpTeam<P>::make();
  const int n = kN ? kN : g.n;
  constexpr int kMode = mode_for(kInverse);
  const Slot sl(n, slot_vectors(kWantz, kStage), P, kMode, slot_matrix(kStage));
  double* slots = sm + (int64_t)warp * kTeams * sl.size;
  double* my = slots + team * sl.size;
  const int64_t wpb = blockDim.x / 32, stride = (int64_t)gridDim.x * wpb * kTeams;
  for (int64_t b0 = ((int64_t)blockIdx.x * wpb + warp) * kTeams; b0 < g.batch; b0 += stride) {
    const int cnt = (int)(g.batch - b0 < kTeams ? g.batch - b0 : kTeams);
    // Complex n x n as doubles: 2n rows, leading dimensions doubled.
    if (slot_matrix(kStage))
      warp_copy<true>(lane, cnt, 2 * n, n, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, slots, 2 * sl.ld, sl.size);
    __syncwarp();
    if (team < cnt) {
      Mat1<zc> a{reinterpret_cast<zc*>(my), 1, sl.ld};
      const Vec1<double> w{my + sl.w, 1};
      double* work = my + sl.work;
      if constexpr (kStage == kWhole) {
        const int r = core::heev(t, kWantz, g.lower, n, a, w, work, kMode);
        if (t.leader()) g.info[b0 + team] = r;
      } else if constexpr (kStage == kStein) {  // kReduce left A NaN where it held NaN or Inf
        const double* rec = g.rec + (b0 + team) * heev_reg_reduce::record_doubles(n);
        int r = n;
        if (rec[heev_reg_reduce::record_bad(n)] != 0.0) {
          if (t.leader())
            for (int i = 1; i <= n; ++i) w[i] = NAN;
        } else {
          get_record(t, n, rec, work);
          const Vec1<double> d{work, 1}, er{work + n, 1}, cw{work + 2 * n, 1};
          const Vec1<int> order{reinterpret_cast<int*>(work + 3 * (int64_t)n), 1};
          const Mat1<double> z{work + 10 * (int64_t)n, 1, core::heev_ldz(n)};
          double* scratch = work + 10 * (int64_t)n + (int64_t)n * core::heev_ldz(n);
          r = core::stein_all<1, tuning::kHeevTwistTeam ? 1 : 0>(t, n, d, er, cw, z, scratch);
          double* zb = g.zg + (b0 + team) * (int64_t)n * n;
          for (int c = 1; c <= n; ++c) {
            const int oc = order[c];
            for (int k = t.first(1); k <= n; k += t.step()) zb[(k - 1) + (int64_t)(c - 1) * n] = z(k, oc);
          }
          const double sigma = rec[heev_reg_reduce::record_sigma(n)];
          if (t.leader())
            for (int i = 1; i <= n; ++i) w[i] = sigma != 1.0 ? cw[order[i]] / sigma : cw[order[i]];
        }
        if (t.leader()) g.info[b0 + team] = r;
      } else if constexpr (kStage == kReduce) {
        double sigma = 1.0;
        const int st = core::heev_start(t, kWantz, g.lower, n, a, w, work, sigma);  // n >= 2: st is 0 or -1
        if (st == 0) {
          zc* zw = reinterpret_cast<zc*>(work + 4 * n);  // e, tau, y as heev lays them out
          const Vec1<zc> e{zw, 1}, tau{zw + n, 1}, y{zw + 2 * n, 1};
          if (kWantz) core::ungtr_inplace(t, n, a, tau);
          core::phase_scale(t, n, e, Vec1<double>{work + n, 1}, y, kWantz, n, a);
        }
        put_record(t, n, work, sigma, st != 0, g.rec + (b0 + team) * heev_reg_reduce::record_doubles(n));
      }
    }
    __syncwarp();
    if (kStage != kReduce) warp_copy<false>(lane, cnt, n, 1, g.w + b0 * g.sW, n, g.sW, slots + sl.w, n, sl.size);
    if (kWantz && slot_matrix(kStage))
      warp_copy<false>(lane, cnt, 2 * n, n, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, slots, 2 * sl.ld, sl.size);
    __syncwarp();
  }
}

// After kStein: A = Q Z for matrix b, Q in A (phase-scaled, from kReduce), Z at g.zg (columns in
// the eigenvalues' order). L lanes a matrix (a power of two >= N), lane r holding row r of Q in
// registers; every lane of a matrix reads the same element of Z (one broadcast), and the lanes of
// a column write consecutive rows. The sums run over k in order, as core::heev_inverse_vectors'.
constexpr int kQzWarps = 4;
template <int N>
__global__ void __launch_bounds__(32 * kQzWarps) k_heev_qz(const Args g) {
  constexpr int L = N <= 16 ? 16 : 32, kPerWarp = 32 / L;
  const int lane = threadIdx.x & 31, r = lane % L;
  const int64_t b = ((int64_t)blockIdx.x * kQzWarps + (threadIdx.x >> 5)) * kPerWarp + lane / L;
  if (b >= g.batch || r >= N) return;  // no warp-wide operation follows
  zc* A = reinterpret_cast<zc*>(g.A) + b * g.sA;
  if (g.rec[b * heev_reg_reduce::record_doubles(N) + heev_reg_reduce::record_bad(N)] != 0.0) {
    for (int c = 0; c < N; ++c) A[r + c * g.lda] = zc{NAN, NAN};  // as core::heev leaves them
    return;
  }
  const double* Z = g.zg + b * N * N;
  zc q[N];
#pragma unroll
  for (int k = 0; k < N; ++k) q[k] = A[r + k * g.lda];
  int c = 0;
#pragma unroll 1
  for (; c + 3 < N; c += 4) {
    double s0r = 0.0, s0i = 0.0, s1r = 0.0, s1i = 0.0, s2r = 0.0, s2i = 0.0, s3r = 0.0, s3i = 0.0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const double z0 = __ldg(Z + k + c * N), z1 = __ldg(Z + k + (c + 1) * N), z2 = __ldg(Z + k + (c + 2) * N),
                   z3 = __ldg(Z + k + (c + 3) * N);
      s0r += q[k].re * z0;
      s0i += q[k].im * z0;
      s1r += q[k].re * z1;
      s1i += q[k].im * z1;
      s2r += q[k].re * z2;
      s2i += q[k].im * z2;
      s3r += q[k].re * z3;
      s3i += q[k].im * z3;
    }
    A[r + c * g.lda] = zc{s0r, s0i};
    A[r + (c + 1) * g.lda] = zc{s1r, s1i};
    A[r + (c + 2) * g.lda] = zc{s2r, s2i};
    A[r + (c + 3) * g.lda] = zc{s3r, s3i};
  }
#pragma unroll 1
  for (; c < N; ++c) {
    double sr = 0.0, si = 0.0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
      const double zk = __ldg(Z + k + c * N);
      sr += q[k].re * zk;
      si += q[k].im * zk;
    }
    A[r + c * g.lda] = zc{sr, si};
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
// slots at the table's sizes take at most 44 KB (n = 32 with vectors at 32 lanes; jobz N at most
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
    if (r.inverse_v == inverse && (wantz ? !inverse && r.lanes_v == P : r.shared_n && !r.sterf && r.lanes_n == P))
      return true;
  return false;
}
// Whether a row's jobz N reduction stage (kReduce at a runtime order) takes P lanes.
constexpr bool dispatched_reduce(int P) {
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam)
    if (r.sterf && r.lanes_n == P) return true;
  return false;
}
constexpr bool sterf_rows_valid() {
  for (const tuning::HeevTeamRow& r : tuning::kHeevTeam)
    if (r.sterf && (!r.inverse_v || !r.shared_n || r.n < 2)) return false;
  return true;
}
static_assert(sterf_rows_valid(), "a kHeevTeam row takes heev_values without inverse iteration in shared memory");
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
// A row with sterf takes the kReduce and kStein kernels at its orders, the others kWhole; the
// stages a row does not take are null.
template <int N, int kStage>
constexpr Kernel fixed_order_kernel() {
  if constexpr ((kStage == kWhole) != row_for(N).sterf)
    return k_heev_team<row_for(N).lanes_v, true, true, N, kStage>;
  else
    return nullptr;
}
template <int kStage, int... I>
constexpr std::array<Kernel, sizeof...(I)> fixed_order_kernels(std::integer_sequence<int, I...>) {
  return {fixed_order_kernel<kFixedFrom + I, kStage>()...};
}
template <int kStage>
constexpr std::array<Kernel, kMaxN - kFixedFrom + 1> kFixedOrder =
    fixed_order_kernels<kStage>(std::make_integer_sequence<int, kMaxN - kFixedFrom + 1>{});
// k_heev_qz at the orders of the rows with sterf (null at the others).
template <int... I>
constexpr std::array<Kernel, sizeof...(I)> qz_kernels(std::integer_sequence<int, I...>) {
  return {(row_for(kFixedFrom + I).sterf ? k_heev_qz<kFixedFrom + I> : nullptr)...};
}
constexpr std::array<Kernel, kMaxN - kFixedFrom + 1> kQz =
    qz_kernels(std::make_integer_sequence<int, kMaxN - kFixedFrom + 1>{});

// jobz N's kReduce kernel for P lanes at a runtime order (null where no row takes it).
template <int P>
Kernel built_reduce() {
  if constexpr (dispatched_reduce(P))
    return k_heev_team<P, false, true, 0, kReduce>;
  else
    return nullptr;
}
Kernel reduce_kernel_for(int lanes) {
  switch (lanes) {
    case 2: return built_reduce<2>();
    case 4: return built_reduce<4>();
    case 8: return built_reduce<8>();
    case 16: return built_reduce<16>();
    case 32: return built_reduce<32>();
    default: return nullptr;
  }
}

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

namespace {

// Whether order n takes the stages (a row's sterf, at the table's lanes and method: the developer
// settings that force lanes or vectors run the whole kernel, with the team's bisection).
bool split(int n) { return n >= 2 && row_for(n).sterf && !env_lanes() && !env_vectors(); }

// The stages' records: as many matrices at a time as ws_limit allows (kMaxRecordBytes at most).
constexpr int64_t kMaxRecordBytes = int64_t(1) << 30;

}  // namespace

int64_t workspace_per_matrix(int n, bool wantz) {
  return serves(n, wantz) && split(n)
             ? (int64_t)sizeof(double) * (heev_reg_reduce::record_doubles(n) + (wantz ? (int64_t)n * n : 0))
             : 0;
}

int launch(bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w, int64_t strideW, int* info,
           int64_t batch, int64_t ws_limit, heev_block::Workspace* ws, cudaStream_t s) {
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
  auto warp_bytes = [&](int q, bool vectors, bool matrix = true) {
    return sizeof(double) * (size_t)Slot(n, vectors, q, mode_for(inverse), matrix).size * (32 / q);
  };
  for (; warp_bytes(p, wantz) > (size_t)optin; p *= 2)
    if (p == 32) return SGPU_ERR_DEVICE;
  const bool fixed = wantz && inverse && n >= kFixedFrom && p == row_for(n).lanes_v;
  const bool staged = split(n) && p == team_lanes(n, wantz) && (fixed || !wantz);
  // One block per group of matrices: the block scheduler balances the matrices' uneven iteration
  // counts (as eig_smem.cu measured for dgeev). vectors: the kernel's slot_vectors (a stage's
  // slot is no larger than the whole kernel's, so it fits where that one does).
  auto run = [&](Kernel k, const Args& g, bool vectors, bool matrix = true) {
    if (!k) return SGPU_ERR_DEVICE;
    const size_t wb = warp_bytes(p, vectors, matrix);
    const int max_warps = (int)std::min<size_t>(kMaxWarpsPerBlock, optin / wb);
    smem_slots::Shape shape;
    if (smem_slots::block_shape(k, wb, max_warps, shape) != 0) return SGPU_ERR_DEVICE;
    const int64_t per_block = (int64_t)shape.warps * (32 / p);
    const int64_t grid = std::min<int64_t>((g.batch + per_block - 1) / per_block, INT_MAX);
    k<<<(unsigned)grid, 32 * shape.warps, shape.smem, s>>>(g);
    return fault::launch_status() != cudaSuccess ? SGPU_ERR_DEVICE : 0;
  };
  const Args g{lower, n, static_cast<double*>(A), lda, strideA, w, strideW, info, batch, nullptr, nullptr};
  if (!staged) {
    // (At a row with sterf the compile-time order has no whole kernel: the runtime order's serves.)
    Kernel k = fixed ? kFixedOrder<kWhole>[n - kFixedFrom] : nullptr;
    if (!k)
      k = !wantz    ? (inverse ? kernel_for<false, true>(p) : kernel_for<false, false>(p))
          : inverse ? kernel_for<true, true>(p)
                    : kernel_for<true, false>(p);
    return run(k, g, wantz);
  }
  // The stages over as many matrices at a time as their records fit in.
  const int64_t per = workspace_per_matrix(n, wantz);
  const int64_t cap = ws_limit > 0 ? std::min(ws_limit, kMaxRecordBytes) : kMaxRecordBytes;
  if (cap < per) return SGPU_ERR_DEVICE_ALLOC;
  const int64_t chunk = std::min(batch, cap / per);
  const Kernel reduce = wantz ? kFixedOrder<kReduce>[n - kFixedFrom] : reduce_kernel_for(p);
  const Kernel stein = wantz ? kFixedOrder<kStein>[n - kFixedFrom] : nullptr;
  const Kernel qz = wantz ? kQz[n - kFixedFrom] : nullptr;
  double* rec = nullptr;
  if (int e = heev_block::workspace_reserve(ws, (size_t)(chunk * per), s, reinterpret_cast<void**>(&rec))) return e;
  int rc = 0;
  for (int64_t b0 = 0; b0 < batch && rc == 0; b0 += chunk) {
    Args c = g;
    c.A += 2 * b0 * strideA;
    c.w += b0 * strideW;
    c.info += b0;
    c.batch = std::min(chunk, batch - b0);
    c.rec = rec;
    c.zg = rec + chunk * heev_reg_reduce::record_doubles(n);
    rc = run(reduce, c, slot_vectors(wantz, kReduce));
    if (rc == 0) rc = heev_values::launch(wantz, n, rec, c.w, strideW, c.info, c.batch, s);
    if (rc == 0 && wantz) rc = run(stein, c, true, slot_matrix(kStein));
    if (rc == 0 && wantz) {
      const int per_block = kQzWarps * (n <= 16 ? 2 : 1);
      const int64_t grid = (c.batch + per_block - 1) / per_block;
      if (!qz || grid > INT_MAX) {
        rc = SGPU_ERR_DEVICE;
      } else {
        qz<<<(unsigned)grid, 32 * kQzWarps, 0, s>>>(c);
        rc = fault::launch_status() != cudaSuccess ? SGPU_ERR_DEVICE : 0;
      }
    }
  }
  return rc;
}

}  // namespace heev_team
}  // namespace gpu
}  // namespace sgpu
