// zheev on the GPU for medium n: one thread block per matrix (seed 002's assignment), in four
// phases inside one kernel.
//   1. Householder tridiagonalization (zhetd2, uplo L) of a full Hermitian working copy W (in
//      shared memory when it fits, else a global workspace), in the fused form: one pass over the
//      trailing matrix per step both applies the previous step's rank-2 update and accumulates this
//      step's product y = A v, so each step reads and writes the trailing matrix once (threads own
//      rows: every access coalesced).
//   2. jobz V: the unitary factor formed in place (zungtr/zung2r), one warp per column.
//   3. The real symmetric tridiagonal (phase-scaled as seed 002 §3). jobz V: divide and conquer
//      (compat/core/stedc.hpp, the CPU's code): the leaves' QL/QR one warp each, side by side; then
//      level by level the merges side by side, each on a group of warps (roots, vectors and the
//      product's rows spread over the group), so the serial part is one leaf's chain, not the
//      whole matrix's (the one-thread QL chain it replaces took 11 of 15.7 ms at 180 x 128).
//      jobz N: bisection on Sturm counts (core/bisect.hpp, dstebz's method), one eigenvalue per
//      thread: dsterf's serial chain took 70% of the time at n = 128.
//   4. jobz V: eigenvectors = Q diag(phases) Z, written into the caller's A.
// The scalar pieces (zlarfg, the QL/QR chains, the merges) are the core's; the matrix-level loops are laid out
// for a block here. Per-matrix results never depend on other matrices: a NaN or a failed
// iteration affects only its own block.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "../compat/core/bisect.hpp"
#include "../compat/core/heev.hpp"
#include "../compat/core/reflect.hpp"
#include "../compat/core/stedc.hpp"
#include "../lib/internal.hpp"
#include "heev_block.hpp"
#include "team.cuh"

namespace sgpu {
namespace gpu {
namespace heev_block {

using core::Mat1;
using core::Vec;
using core::Vec1;
using core::zc;
using cuda::BlockTeam;
using cuda::warp_sum;

namespace {

// ---- tuning (measured: docs/performance.md, "zheev on the GPU") ---------------------------------
// Threads per block (one block per matrix) and the blocks per SM its 128 registers a thread allow.
// n <= kSmallN: 128 threads, 4 blocks per SM (rows are few; with vectors the per-matrix QL chain
// dominates, so more matrices in flight per SM); larger n: 256 threads, 2 blocks per SM.
constexpr int kThreads = 256;
constexpr int kThreadsSmall = 128;
constexpr int kSmallN = 64;
constexpr int kGemmCols = 8;      // eigenvector columns per thread in phase 4
constexpr int kPassUnroll = 8;    // loads in flight per thread in phase 1's pass
// Phase 3's merge products: tiled through shared memory from kTiledMinN rows (below it the core's
// plain loop); a group of S threads computes 64 x S/4 tiles, 4 x 4 per thread, kTileK terms per
// stage. The plain loop took 70% of the top merge at n = 512 (33 of 48 M cycles, probes at f88e7c9).
constexpr int kTiledMinN = 64;
constexpr int kTileRows = 64;
constexpr int kTileK = 8;

// Shared memory of one block, carved from the dynamic allocation.
struct Smem {
  double *red, *d, *er, *ph;
  zc *tau, *va, *vb, *wv, *ypart;
  int* info;
  double* tiles;  // jobz V: the merge products' tiles, one slice per warp group
  zc* w;          // W when it lives in shared memory
  double* z;      // Z when it lives in shared memory
};

__host__ __device__ inline int round_up(int x, int m) { return (x + m - 1) / m * m; }

// Doubles of global workspace divide and conquer takes per block: stedc's doubles, then its ints.
__host__ __device__ inline int64_t dc_doubles(int n) {
  return core::stedc_work(n) + (core::stedc_iwork(n) + 1) / 2;
}

// Phase 3's schedule: warps per merge at a level with `merges` merges (powers of two).
__host__ __device__ inline int warps_per_merge(int nw, int merges) { return nw > merges ? nw / merges : 1; }
// Tile doubles of a group of g warps.
__host__ __device__ inline int tile_doubles(int g) { return kTileK * (kTileRows + 8 * g); }
// Shared doubles for the tiles of every group of the level that needs the most.
__host__ __device__ inline int tiles_doubles(int n, int nw) {
  const core::StedcPlan pl = core::stedc_plan(n);
  int most = 0;
  for (int width = 1; width < pl.leaves; width *= 2) {
    if (pl.merge_size(width) < kTiledMinN) continue;
    const int g = warps_per_merge(nw, pl.merges(width));
    const int need = (nw / g) * tile_doubles(g);
    most = most > need ? most : need;
  }
  return most;
}

// Doubles of shared memory for n (without Z), in the order carve() lays them out.
__host__ __device__ inline int64_t smem_doubles(int n) {
  const int64_t yp = 2 * (int64_t)(n > kThreads ? n : kThreads);  // sized for either block size
  return 32 + 3 * (int64_t)n + 8 * (int64_t)n + yp + 1;
}

__device__ Smem carve(double* base, int n, int tiles, bool w_shared, bool z_shared) {
  Smem s;
  double* p = base;
  s.red = p; p += 32;
  s.d = p; p += n;
  s.er = p; p += n;
  s.ph = p; p += n;
  s.tau = reinterpret_cast<zc*>(p); p += 2 * n;
  s.va = reinterpret_cast<zc*>(p); p += 2 * n;
  s.vb = reinterpret_cast<zc*>(p); p += 2 * n;
  s.wv = reinterpret_cast<zc*>(p); p += 2 * n;
  const int yp = n > kThreads ? n : kThreads;
  s.ypart = reinterpret_cast<zc*>(p); p += 2 * yp;
  s.info = reinterpret_cast<int*>(p);
  p += 1;
  s.tiles = p;
  p += tiles;
  s.w = w_shared ? reinterpret_cast<zc*>(p) : nullptr;
  if (w_shared) p += 2 * (int64_t)n * n;
  s.z = z_shared ? p : nullptr;
  return s;
}

struct Args {
  int n;
  bool wantz, lower;
  zc* A;
  int lda;
  int64_t sA;
  double* w;
  int64_t sW;
  int* info;
  zc* Wg;      // n x n working copy per block (ld n) when it does not fit in shared memory, else null
  double* Zg;  // n x n real Z per block when it does not fit in shared memory, else null
  double* dc;  // jobz V: divide and conquer's workspace per block (doubles, then its ints)
  int tiles;   // jobz V: shared doubles for the merge products' tiles (tiles_doubles)
  int phases;  // 4: all; fewer stops early (benchmark hook SGPU_HEEV_PHASES: results incomplete)
};

// ---- phase 1: fused tridiagonalization ----------------------------------------------------------

// W (full Hermitian, n x n) -> d, |e|, tau, reflectors below the subdiagonal of W; e's signs go to
// the phases ph (real +-1 here: zlarfg's beta is real).
__device__ void tridiagonalize(const BlockTeam& t, const Smem& s, Mat1<zc> W, int n) {
  const int tid = threadIdx.x, T = blockDim.x;
  zc* vp = s.va - 1;  // 1-based: pending update's v (rows k..n)
  zc* vk = s.vb - 1;  // this step's v (rows k+1..n)
  zc* wp = s.wv - 1;  // pending update's w
  bool pending = false;  // vp, wp are zero before the first step
  for (int k = 1; k <= n - 1; ++k) {
    const int m = n - k;
    // (a) Bring column k up to date.
    if (pending)
      for (int r = k + tid; r <= n; r += T) {
        zc x = W(r, k) - (vp[r] * core::conj(wp[k]) + wp[r] * core::conj(vp[k]));
        if (r == k) x.im = 0.0;
        W(r, k) = x;
      }
    __syncthreads();
    if (tid == 0) s.d[k - 1] = W(k, k).re;
    // (b) Its reflector.
    zc tk;
    const double beta = core::zlarfg(t, m, W(k + 1, k), core::col(W, k + 2 <= n ? k + 2 : n, k), tk);
    for (int r = k + 1 + tid; r <= n; r += T) vk[r] = r == k + 1 ? zc{1.0, 0.0} : W(r, k);
    if (tid == 0) {
      s.er[k - 1] = beta;  // signed here; split into |beta| and phases after the loop
      s.tau[k - 1] = tk;
    }
    __syncthreads();
    // (c) One pass over the trailing matrix: A -= v w^H + w v^H (previous step), y += A v.
    // Thread (rs, g) owns rows k+1+rs (+RS...) and columns k+1+g (+G...).
    const int RS = T < round_up(m, 32) ? T : round_up(m, 32), G = T / RS;
    const int rs = tid % RS, g = tid / RS;
    if (g < G)
      for (int r = k + 1 + rs; r <= n; r += RS) {
        const zc vpr = vp[r], wpr = wp[r];
        zc acc{0.0, 0.0};
        int c = k + 1 + g;
        // kPassUnroll columns at a time: all loads issued before the stores (W may be in global
        // memory: the loads' latency is what this loop waits on).
        for (; c + (kPassUnroll - 1) * G <= n; c += kPassUnroll * G) {
          zc a[kPassUnroll];
#pragma unroll
          for (int u = 0; u < kPassUnroll; ++u) a[u] = W(r, c + u * G);
#pragma unroll
          for (int u = 0; u < kPassUnroll; ++u) {
            const int cu = c + u * G;
            zc x = a[u] - (vpr * core::conj(wp[cu]) + wpr * core::conj(vp[cu]));
            if (r == cu) x.im = 0.0;
            W(r, cu) = x;
            acc = acc + x * vk[cu];
          }
        }
        for (; c <= n; c += G) {
          zc x = W(r, c) - (vpr * core::conj(wp[c]) + wpr * core::conj(vp[c]));
          if (r == c) x.im = 0.0;
          W(r, c) = x;
          acc = acc + x * vk[c];
        }
        s.ypart[g * m + (r - k - 1)] = acc;
      }
    __syncthreads();
    // (d) y = tau A v; w = y - (tau/2)(y^H v) v becomes the pending update.
    zc dot{0.0, 0.0};
    for (int r = k + 1 + tid; r <= n; r += T) {
      zc y{0.0, 0.0};
      for (int q = 0; q < G; ++q) y = y + s.ypart[q * m + (r - k - 1)];
      y = tk * y;
      wp[r] = y;
      dot = dot + core::conj(y) * vk[r];
    }
    dot.re = t.sum(dot.re);
    dot.im = t.sum(dot.im);
    const zc alph = (-0.5) * (tk * dot);
    for (int r = k + 1 + tid; r <= n; r += T) wp[r] = wp[r] + alph * vk[r];
    zc* tmp = vp;
    vp = vk;
    vk = tmp;
    pending = true;
    __syncthreads();
  }
  if (tid == 0) {
    zc x = W(n, n);
    if (pending) x = x - (vp[n] * core::conj(wp[n]) + wp[n] * core::conj(vp[n]));
    s.d[n - 1] = x.re;
    // Phase scaling (seed 002 §3, core::phase_scale): T = D Tr D^H with Tr's off-diagonals |e|.
    double p = 1.0;
    s.ph[0] = 1.0;
    for (int k = 1; k <= n - 1; ++k) {
      const double b = s.er[k - 1];
      if (b < 0.0) p = -p;
      s.ph[k] = p;
      s.er[k - 1] = fabs(b);
    }
  }
  __syncthreads();
}

// ---- phase 2: Q in place (zungtr, uplo L) ---------------------------------------------------------

// Reflector i (i = 1..n-1) is v = (1, W(i+2:n, i)) on rows i+1..n with tau[i]. zung2r on the
// (n-1) x (n-1) trailing block, reading reflector i from column i while column i+1 receives Q's.
__device__ void form_q(const Smem& s, Mat1<zc> W, int n) {
  const int tid = threadIdx.x, T = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = T >> 5;
  zc* v = s.vb - 1;
  for (int i = n - 1; i >= 1; --i) {
    const zc ti = s.tau[i - 1];
    for (int r = i + 1 + tid; r <= n; r += T) v[r] = r == i + 1 ? zc{1.0, 0.0} : W(r, i);
    __syncthreads();
    // H(i) applied from the left to W(i+1:n, i+2:n): one warp per column.
    for (int c = i + 2 + warp; c <= n; c += nw) {
      double sr = 0.0, si = 0.0;
      for (int r = i + 1 + lane; r <= n; r += 32) {
        const zc x = core::conj(v[r]) * W(r, c);
        sr += x.re;
        si += x.im;
      }
      const zc sc = ti * zc{warp_sum(sr), warp_sum(si)};
      for (int r = i + 1 + lane; r <= n; r += 32) W(r, c) = W(r, c) - v[r] * sc;
    }
    for (int r = 1 + tid; r <= n; r += T)
      W(r, i + 1) = r <= i ? zc{0.0, 0.0} : r == i + 1 ? zc{1.0 - ti.re, -ti.im} : (-1.0) * (ti * v[r]);
    __syncthreads();
  }
  for (int r = 1 + tid; r <= n; r += T) W(r, 1) = zc{r == 1 ? 1.0 : 0.0, 0.0};
  __syncthreads();
}

// ---- phase 3 (jobz V): divide and conquer over the block's warps -------------------------------------

// A merge's product B = Q(lo.., ck) U for a group of S = 32 g threads: 64 x S/4 tiles of B, each
// thread 4 x 4 entries (rows ty + 16 a, columns tx + S/16 b), Q's and U's next kTileK terms staged
// in shared memory. Every entry is summed over i in order, as the core's plain loop.
struct TiledProduct {
  double* tiles;  // tile_doubles(g) of this group
  __device__ void operator()(const cuda::WarpGroupTeam& t, int N, int K, int lo, Mat1<double> q, const int* ck,
                             const double* U, double* B) const {
    if (N < kTiledMinN) {
      core::stedc_detail::PlainProduct{}(t, N, K, lo, q, ck, U, B);
      return;
    }
    const int S = t.step(), me = t.first(0), TC = S / 16, TN = 4 * TC;
    const int ty = me % 16, tx = me / 16;
    double* qs = tiles;                  // kTileK x kTileRows: qs[ii * kTileRows + rr]
    double* us = tiles + kTileK * kTileRows;  // kTileK x TN: us[ii + jj * kTileK]
    for (int r0 = 0; r0 < N; r0 += kTileRows)
      for (int j0 = 0; j0 < K; j0 += TN) {
        double acc[4][4];
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
          for (int b = 0; b < 4; ++b) acc[a][b] = 0.0;
        for (int i0 = 0; i0 < K; i0 += kTileK) {
          const int kk = K - i0 < kTileK ? K - i0 : kTileK;
          for (int x = me; x < kTileK * kTileRows; x += S) {
            const int ii = x / kTileRows, rr = x % kTileRows;
            qs[x] = (ii < kk && r0 + rr < N) ? q(lo + r0 + rr, ck[i0 + ii]) : 0.0;
          }
          for (int x = me; x < kTileK * TN; x += S) {
            const int ii = x % kTileK, jj = x / kTileK;
            us[x] = (ii < kk && j0 + jj < K) ? U[(i0 + ii) + (int64_t)(j0 + jj) * K] : 0.0;
          }
          t.sync();
          for (int ii = 0; ii < kk; ++ii) {
            double qa[4], ub[4];
#pragma unroll
            for (int a = 0; a < 4; ++a) qa[a] = qs[ii * kTileRows + ty + 16 * a];
#pragma unroll
            for (int b = 0; b < 4; ++b) ub[b] = us[ii + (tx + TC * b) * kTileK];
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
              for (int b = 0; b < 4; ++b) acc[a][b] += qa[a] * ub[b];
          }
          t.sync();
        }
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
          for (int b = 0; b < 4; ++b) {
            const int r = r0 + ty + 16 * a, j = j0 + tx + TC * b;
            if (r < N && j < K) B[r + (int64_t)j * N] = acc[a][b];
          }
      }
  }
};

// d, er -> eigenvalues ascending in d, eigenvectors in z; core::stedc's steps with the block split:
// each leaf on one warp, each merge on a group of warps (a level's merges side by side, the groups
// as large as the level's merges allow). work, iwork: stedc_work / stedc_iwork of this block.
// Returns core::stedc's info.
__device__ int divide_and_conquer(const BlockTeam& t, const Smem& s, Mat1<double> z, int n, double* work,
                                  int* iwork) {
  const Vec1<double> d{s.d, 1}, e{s.er, 1};
  const int tid = threadIdx.x, warp = tid >> 5, nw = blockDim.x >> 5;
  if (tid == 0) s.info[0] = 0;
  const core::StedcPlan pl = core::stedc_plan(n);
  const double anrm = core::stedc_prepare(t, pl, d, e, z);  // ends with a block barrier
  if (anrm == 0.0) return 0;
  const auto wt = cuda::WarpTeam<32>::make();
  for (int b = warp; b < pl.leaves; b += nw) {
    const int r = core::stedc_leaf(wt, pl, b, d, e, z);
    if (r != 0 && wt.leader()) atomicMax(&s.info[0], r);
  }
  __syncthreads();
  const int info = s.info[0];
  if (info == 0)
    for (int width = 1; width < pl.leaves; width *= 2) {
      const int merges = pl.merges(width);
      const int g = warps_per_merge(nw, merges);
      const cuda::WarpGroupTeam gt{(warp / g) * g * 32, g * 32, 1 + warp / g};
      const TiledProduct prod{s.tiles + (warp / g) * tile_doubles(g)};
      for (int j = warp / g; j < merges; j += nw / g)
        core::stedc_merge(gt, pl, width, j, d, e, z, work, iwork, prod);
      __syncthreads();
    }
  core::stedc_finish(t, pl, d, anrm);
  return info;
}

// ---- phase 4: X = Q diag(ph) Z into A ------------------------------------------------------------------

__device__ void back_transform(const Smem& s, Mat1<zc> W, Mat1<double> z, Mat1<zc> A, int n) {
  const int tid = threadIdx.x, T = blockDim.x;
  const int RS = T < round_up(n, 32) ? T : round_up(n, 32), G = T / RS;
  const int rs = tid % RS, g = tid / RS;
  if (g >= G) return;
  const int chunks = (n + kGemmCols - 1) / kGemmCols;
  for (int r = 1 + rs; r <= n; r += RS)
    for (int q = g; q < chunks; q += G) {
      int pc[kGemmCols];
#pragma unroll
      for (int j = 0; j < kGemmCols; ++j) {
        const int c = q * kGemmCols + j + 1;
        pc[j] = c <= n ? c : n;
      }
      double ar[kGemmCols] = {}, ai[kGemmCols] = {};
      for (int k = 1; k <= n; ++k) {
        const zc wq = W(r, k);
        const double p = s.ph[k - 1];
        const double qr = p * wq.re, qi = p * wq.im;
#pragma unroll
        for (int j = 0; j < kGemmCols; ++j) {
          const double zz = z(k, pc[j]);
          ar[j] += qr * zz;
          ai[j] += qi * zz;
        }
      }
#pragma unroll
      for (int j = 0; j < kGemmCols; ++j) {
        const int c = q * kGemmCols + j + 1;
        if (c <= n) A(r, c) = zc{ar[j], ai[j]};
      }
    }
}

// ---- the kernel ------------------------------------------------------------------------------------

template <int kT>
__global__ void __launch_bounds__(kT, kT == kThreadsSmall ? 4 : 2) k_heev_block(Args a) {
  extern __shared__ double smem[];
  const int n = a.n, tid = threadIdx.x, T = blockDim.x;
  const Smem s = carve(smem, n, a.tiles, a.Wg == nullptr, a.wantz && a.Zg == nullptr);
  const BlockTeam t{s.red};
  const int64_t b = blockIdx.x;
  Mat1<zc> A{a.A + b * a.sA, 1, a.lda};
  Mat1<zc> W{s.w ? s.w : a.Wg + b * (int64_t)n * n, 1, n};
  double* w = a.w + b * a.sW;

  // Working copy: the referenced triangle mirrored into a full Hermitian matrix (the diagonal's
  // imaginary parts are not referenced, as in LAPACK); NaN/Inf screen and max-abs norm.
  double bad = 0.0, anrm = 0.0;
  for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) {
    const int r = (int)(idx % n) + 1, c = (int)(idx / n) + 1;
    if (a.lower ? r < c : r > c) continue;
    zc x = A(r, c);
    if (r == c) x.im = 0.0;
    if (!core::finite(x.re) || !core::finite(x.im)) bad = 1.0;
    anrm = core::dmax(anrm, core::zabs(x));
    W(r, c) = x;
    W(c, r) = core::conj(x);
  }
  bad = t.max(bad);
  anrm = t.max(anrm);
  if (bad != 0.0) {
    for (int i = 1 + tid; i <= n; i += T) w[i - 1] = NAN;
    if (a.wantz)
      for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) A((int)(idx % n) + 1, (int)(idx / n) + 1) = zc{NAN, NAN};
    if (tid == 0) a.info[b] = n;
    return;
  }
  // Scale to an allowable range, as zheev.
  const double sigma = core::heev_scale(anrm);
  if (sigma != 1.0)
    for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) {
      zc& x = W((int)(idx % n) + 1, (int)(idx / n) + 1);
      x = sigma * x;
    }
  // The first step has no pending update: its vectors are zero (an exact no-op).
  for (int i = tid; i < n; i += T) s.va[i] = s.wv[i] = zc{0.0, 0.0};
  __syncthreads();

  tridiagonalize(t, s, W, n);
  const Vec1<double> d{s.d, 1}, er{s.er, 1};
  int info = 0;
  if (a.phases <= 1) {
    // (benchmark hook: stop after the reduction)
  } else if (!a.wantz) {
    // Values only: bisection, one eigenvalue per thread (core/bisect.hpp), into ph's space.
    core::bisect_all(t, n, d, er, Vec1<double>{s.ph, 1});
  } else {
    form_q(s, W, n);
    if (a.phases <= 2) {
      if (tid == 0) a.info[b] = 0;
      return;
    }
    Mat1<double> z{s.z ? s.z : a.Zg + b * (int64_t)n * n, 1, n};
    double* dw = a.dc + b * dc_doubles(n);
    info = divide_and_conquer(t, s, z, n, dw, reinterpret_cast<int*>(dw + core::stedc_work(n)));
    if (a.phases >= 4) back_transform(s, W, z, A, n);
  }
  // Eigenvalues, unscaled (only the converged ones when info > 0, as zheev).
  const int imax = info == 0 ? n : info - 1;
  const double* ev = a.wantz || a.phases <= 1 ? s.d : s.ph;
  for (int i = 1 + tid; i <= n; i += T) w[i - 1] = (sigma != 1.0 && i <= imax) ? ev[i - 1] / sigma : ev[i - 1];
  if (tid == 0) a.info[b] = info;
}

// Device workspace cached in the context between calls (grown on demand).
struct Workspace {
  void* p = nullptr;
  size_t bytes = 0;
  ~Workspace() {
    if (p) cudaFree(p);
  }
  int reserve(size_t want) {
    if (want <= bytes) return 0;
    if (p) cudaFree(p);
    p = nullptr;
    bytes = 0;
    if (cudaMalloc(&p, want) != cudaSuccess) {
      (void)cudaGetLastError();
      return SGPU_ERR_DEVICE_ALLOC;
    }
    bytes = want;
    return 0;
  }
};

constexpr size_t kMaxWorkspaceBytes = size_t(2) << 30;  // one call's working copies, at most

}  // namespace

bool serves(int n) { return n >= kMinN && n <= kMaxN; }

int launch(sgpu_context* ctx, bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w,
           int64_t strideW, int* info, int64_t batch) {
  cudaStream_t st = static_cast<cudaStream_t>(ctx->stream);
  int dev = 0, optin = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    return SGPU_ERR_DEVICE;
  // Shared memory first for W (phase 1 reads and writes it n times), then for Z. With vectors the
  // phases after the reduction are latency-bound, so W and Z go to shared memory only if the
  // blocks the registers allow per SM still fit: more matrices in flight beat faster accesses.
  const int T = n <= kSmallN ? kThreadsSmall : kThreads;
  const int per_sm = T == kThreadsSmall ? 4 : 2;
  const int tiles = wantz ? tiles_doubles(n, T / 32) : 0;
  const size_t base = sizeof(double) * ((size_t)smem_doubles(n) + tiles);
  const size_t wbytes = sizeof(zc) * (size_t)n * n, zbytes = sizeof(double) * (size_t)n * n;
  const size_t fit = wantz ? (size_t)optin / per_sm : (size_t)optin;
  const bool w_shared = base + wbytes + (wantz ? zbytes : 0) <= fit;
  const bool z_shared = wantz && base + (w_shared ? wbytes : 0) + zbytes <= fit;
  const size_t shmem = base + (w_shared ? wbytes : 0) + (z_shared ? zbytes : 0);
  if (shmem > (size_t)optin) return SGPU_ERR_DEVICE;
  auto kernel = T == kThreadsSmall ? k_heev_block<kThreadsSmall> : k_heev_block<kThreads>;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  const size_t wg = w_shared ? 0 : wbytes, zg = wantz && !z_shared ? zbytes : 0;
  const size_t dcb = wantz ? sizeof(double) * (size_t)dc_doubles(n) : 0;
  const size_t per = std::max<size_t>(wg + zg + dcb, 1);
  int64_t chunk = std::min<int64_t>(batch, std::max<int64_t>(1, (int64_t)(kMaxWorkspaceBytes / per)));
  chunk = std::min<int64_t>(chunk, int64_t(1) << 30);
  static const int phases = [] {
    const char* e = std::getenv("SGPU_HEEV_PHASES");
    return e ? std::max(1, std::min(4, std::atoi(e))) : 4;
  }();

  // The cached workspace when the context is free; a private one when another call holds it.
  std::unique_lock<std::mutex> lock(ctx->gpu_mutex, std::try_to_lock);
  Workspace priv;
  Workspace* ws = &priv;
  if (lock.owns_lock()) {
    if (!ctx->gpu_eig) ctx->gpu_eig = new Workspace;
    ws = static_cast<Workspace*>(ctx->gpu_eig);
    // The cached buffer may still be in use by an earlier asynchronous call on this stream:
    // stream order protects it, but regrowing frees it, so wait first.
    if (ws->bytes < per * (size_t)chunk && cudaStreamSynchronize(st) != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  if (int e = ws->reserve(per * (size_t)chunk)) return e;
  char* base_ws = static_cast<char*>(ws->p);
  for (int64_t b0 = 0; b0 < batch; b0 += chunk) {
    const int64_t nb = std::min(chunk, batch - b0);
    Args args;
    args.n = n;
    args.wantz = wantz;
    args.lower = lower;
    args.A = static_cast<zc*>(A) + b0 * strideA;
    args.lda = lda;
    args.sA = strideA;
    args.w = w + b0 * strideW;
    args.sW = strideW;
    args.info = info + b0;
    args.Wg = w_shared ? nullptr : reinterpret_cast<zc*>(base_ws);
    args.Zg = zg ? reinterpret_cast<double*>(base_ws + wg * (size_t)nb) : nullptr;
    args.dc = dcb ? reinterpret_cast<double*>(base_ws + (wg + zg) * (size_t)nb) : nullptr;
    args.phases = phases;
    args.tiles = tiles;
    kernel<<<(unsigned)nb, T, shmem, st>>>(args);
    if (cudaGetLastError() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  // A private workspace is freed on return: wait for the kernels that use it.
  if (ws == &priv && cudaStreamSynchronize(st) != cudaSuccess) return SGPU_ERR_DEVICE;
  return 0;
}

void release(sgpu_context* ctx) {
  delete static_cast<Workspace*>(ctx->gpu_eig);
  ctx->gpu_eig = nullptr;
}

}  // namespace heev_block
}  // namespace gpu
}  // namespace sgpu
