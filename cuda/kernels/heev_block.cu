// zheev on the GPU for medium n: one thread block per matrix (seed 002's assignment), in three
// phases inside one kernel.
//   1. Householder tridiagonalization (zhetd2, uplo L) of a Hermitian working copy W (in shared
//      memory when it fits, else a global workspace), in the fused form: one pass over the trailing
//      matrix per step both applies the previous step's rank-2 update and accumulates this step's
//      product y = A v, so each step reads and writes the trailing matrix once (every access
//      coalesced). From kLowerPassMinN, where W is in global memory (without vectors), W is only
//      its lower triangle, and y comes from both triangles (each element's row part in its lane,
//      its column part summed over the warp's rows): half the traffic and half the elements.
//      Where the lower triangles in flight exceed L2 (HBM binds the passes), the steps go in
//      panels of kPanelNb (zlatrd, then zher2k): passes that only read, y corrected by the
//      panel's earlier reflectors, and one rank-2 kPanelNb update a panel.
//      Where heev_reg_reduce serves the order (its matrix in registers, kernels/
//      heev_reg_reduce.cuh), it runs this phase before the kernel, whose kRec instance starts
//      from its record (d, e, tau, sigma) and its reflectors in W's global image.
//   2. The real symmetric tridiagonal (phase-scaled as seed 002 §3). jobz V: divide and conquer
//      (compat/core/stedc.hpp, the CPU's code): the leaves' QL/QR one warp each, side by side; then
//      level by level the merges side by side, each on a group of warps (roots, vectors and the
//      product's rows spread over the group), so the serial part is one leaf's chain, not the
//      whole matrix's (the one-thread QL chain it replaces took 11 of 15.7 ms at 180 x 128).
//      The eigenvalues, with and without vectors: bisection on Sturm counts (core/bisect.hpp,
//      dstebz's method), one eigenvalue per thread (dsterf's serial chain took 70% of the time at
//      n = 128); with vectors it runs before divide and conquer, whose own values differ from
//      bisection's in the last bits. Up to kSteinMaxN phase 2 is zheevx's instead, with and
//      without vectors: T split where dstebz splits it, bisection block by block, and each
//      eigenvector by dstein's inverse iteration, a cluster a thread (core/stein.hpp, the team
//      path's code at 9-32); info > 0 then counts the vectors that did not converge. Where the
//      register reduction ran, the eigenvalues come from heev_values instead (between the two
//      kernels: dsterf on each of dstebz's blocks one thread a matrix, or from order 49 dstebz's
//      bisection a block a matrix; jobz N ends there).
//   3. jobz V: eigenvectors X = Q diag(phases) Z as zheevd's zunmtr: X starts as diag(phases) Z in
//      the caller's A, and the reflectors are applied to it kApplyNb at a time in the blocked form
//      I - V T V^H (zlarft), each pass reading and writing X once. Forming Q one reflector at a
//      time streamed the trailing Q through memory n times and was 120 of 311 ms at 180 x 512.
//      Where libcublas loads, the kernel only prepares X, V (in W's global image) and tau, and
//      the passes run after it as batched ZGEMMs in cuBLAS (apply_q_gemm), 40 -> 11 ms at
//      180 x 512.
// The scalar pieces (zlarfg, the QL/QR chains, the merges) are the core's; the matrix-level loops are laid out
// for a block here. Per-matrix results never depend on other matrices: a NaN or a failed
// iteration affects only its own block.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/bisect.hpp"
#include "core/heev.hpp"
#include "core/reflect.hpp"
#include "core/stedc.hpp"
#include "backend.hpp"
#include "device/fault.hpp"
#include "blas/cublas_dl.hpp"
#include "kernels/heev_apply_q.hpp"
#include "kernels/heev_block.hpp"
#include "kernels/heev_reg_reduce.hpp"
#include "kernels/heev_values.hpp"
#include "device/smem_slots.cuh"
#include "device/team.cuh"
#include "device/dev_setting.hpp"
#include "tuning.hpp"

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

// ---- tuning: tuning.hpp, where each value's reason is; the tile geometry below is structural ----
constexpr int kThreads = tuning::kHeevThreads;
constexpr int kThreadsSmall = tuning::kHeevThreadsSmall;
constexpr int kThreadsStein = tuning::kHeevThreadsStein;
constexpr int64_t kRegReduceMinBatch = tuning::kHeevRegReduceMinBatch;
constexpr int kRegReduceAnyBatchMinN = tuning::kHeevRegReduceAnyBatchMinN;
constexpr int kSmallN = tuning::kHeevSmallN;
constexpr int kApplyNb = tuning::kHeevApplyNb;
constexpr int kApplyRows = tuning::kHeevApplyRows;
constexpr int kGemmNb = tuning::kHeevGemmNb;
constexpr int kGemmMaxNb = tuning::kHeevGemmMaxNb;
constexpr int kGemmApplyMinN = tuning::kHeevGemmApplyMinN;
constexpr int kPassUnroll = tuning::kHeevPassUnroll;
constexpr int kLowerPassMinN = tuning::kHeevLowerPassMinN;
constexpr int kTiledMinN = tuning::kHeevTiledMinN;
constexpr int kPanelNb = tuning::kHeevPanelNb;
constexpr int kPanelUpdateUnroll = tuning::kHeevPanelUpdateUnroll;
constexpr int kSteinMaxN = tuning::kHeevSteinMaxN;
// Phase 2's merge products, tiled through shared memory from kTiledMinN rows (below it the core's
// plain loop): a group of S threads computes 64 x S/4 tiles, 4 x 4 per thread, kTileK terms per
// stage.
constexpr int kTileRows = 64;
constexpr int kTileK = 8;

// Shared memory of one block, carved from the dynamic allocation. The scratch region (from va on)
// holds phase 1's vectors, then phase 2's tiles, then phase 3's V and T, each overlaying the last.
static_assert(kThreads / 32 * 2 <= 30, "red holds 32 doubles: BlockTeam::sum2's two a warp, then alpha");
struct Smem {
  double* red;  // 32 doubles: the block reductions' (up to 2 a warp), then phase 1's alpha in 30..31
  double *d, *er, *ph;
  zc* tau;
  int* info;
  zc *va, *vb, *wv, *ypart;
  double* tiles;  // jobz V: the merge products' tiles, one slice per warp group
  double* dcv;    // jobz V: the merges' vectors (10 n doubles, then 6 n ints) when they fit, else null
  zc* apply;      // jobz V, phase 3: V (n - 1 rows x kApplyNb), then T (kApplyNb x kApplyNb)
  zc* w;          // W when it lives in shared memory
  double* z;      // Z when it lives in shared memory
  double* ss;     // inverse iteration's scratch when it lives in shared memory (after Z)
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

// Shared doubles for a level's merge vectors (core::stedc_merge's vwork and viwork); even, so that
// what follows stays 16-byte aligned.
__host__ __device__ inline int merge_vectors_doubles(int n) { return round_up(10 * n + (6 * n + 1) / 2, 2); }

// Phase 1's lower-storage pass: its warps as NR row groups x NC column groups (pass_row_groups
// gives NR). Each group keeps one n-vector of partial sums in shared memory, NR + NC of them in all
// (6 for 8 warps, 4 for 4; 8 x 1 would take 9); after them each warp's tile of column parts, 32
// rows x 4 columns (a row padded by one element, so that a quarter warp's 16-byte accesses fall in
// distinct banks both ways). 4 columns rather than kPassUnroll keep two blocks of 256 threads per
// SM at n = 512.
__host__ __device__ inline int pass_row_groups(int nw) { return nw >= 2 ? 2 : 1; }
__host__ __device__ inline int pass_slices(int nw) { return pass_row_groups(nw) + nw / pass_row_groups(nw); }
constexpr int kColTileCols = 4, kColTileLd = kColTileCols + 1;  // complex elements
static_assert(kPassUnroll % kColTileCols == 0, "pass_lower's column parts go through the tile 4 columns at a time");
// Doubles of phase 1's vectors (va, vb, wv, then the pass's partial sums, then pass_lower's tiles).
// pass_full needs G x m <= T partial sums, pass_lower (NR + NC) x m.
__host__ __device__ inline int64_t vectors_doubles(int n, int T, bool lower) {
  const int nw = T / 32;
  return 6 * (int64_t)n +
         (lower ? 2 * (int64_t)pass_slices(nw) * n + 2 * (int64_t)nw * 32 * kColTileLd : 2 * (int64_t)(n > T ? n : T));
}
// After the register reduction, where Z is in shared memory (`rows`), it is stored by rows, row i at
// (i - 1) ldz, ldz = n | 1: there the kernel only runs inverse iteration, a thread an eigenvector
// (a column) whose elements it touches one after another in every solve, so by rows a warp's
// threads touch consecutive doubles (distinct banks), where by columns (ld n, a multiple of 32)
// every access of a warp fell in one bank; the odd row stride keeps phase 3's reads, a warp down a
// column, in distinct banks too. 33 V 30.8 -> 25.9 ms, 48 V 25.6 -> 21.9, 64 V 25.1 -> 23.3 (H200,
// with kThreadsStein). Elsewhere Z stays by columns, ld n: in global memory the twisted vectors
// (from kHeevTwistMinN) are written outward from each one's own twist, so a warp's threads touch
// distinct rows in either layout, and by columns each thread fills whole sectors of its own.
__host__ __device__ inline int z_ld(int n, bool rows) { return rows ? (n | 1) : n; }
__host__ __device__ inline int64_t z_doubles(int n, bool rows) { return (int64_t)n * z_ld(n, rows); }
__device__ inline Mat1<double> z_view(double* p, int n, bool rows) {
  return rows ? Mat1<double>{p, z_ld(n, true), 1} : Mat1<double>{p, 1, n};
}
// Doubles of phase 3's V and T.
__host__ __device__ inline int64_t apply_doubles(int n) { return 2 * ((int64_t)n * kApplyNb + kApplyNb * kApplyNb); }
// Doubles of the scratch region: phase 1's vectors, phase 2's tiles (`tiles`: with the merge
// vectors when those are in shared memory) or phase 3's V and T, each
// overlaying the others (each phase ends with a block barrier, and none reads an earlier one's).
__host__ __device__ inline int64_t scratch_doubles(int n, int tiles, bool wantz, int T, bool lower) {
  const int64_t v = vectors_doubles(n, T, lower), p12 = v > tiles ? v : tiles;
  return wantz && apply_doubles(n) > p12 ? apply_doubles(n) : p12;
}
// Doubles of shared memory for n (without W and Z), in the order carve() lays them out.
__host__ __device__ inline int64_t smem_doubles(int n, int tiles, bool wantz, int T, bool lower) {
  return round_up(32 + 5 * n + 1, 2) + scratch_doubles(n, tiles, wantz, T, lower);
}

__device__ Smem carve(double* base, int n, int tiles, bool wantz, bool w_shared, bool z_shared, bool lower,
                      bool dc_shared, bool z_rows, bool stein_shared) {
  Smem s;
  double* p = base;
  s.red = p; p += 32;
  s.d = p; p += n;
  s.er = p; p += n;
  s.ph = p; p += n;
  s.tau = reinterpret_cast<zc*>(p); p += 2 * n;
  s.info = reinterpret_cast<int*>(p);
  p = base + round_up(32 + 5 * n + 1, 2);  // the scratch region 16-byte aligned: V is read as double2
  double* scratch = p;
  s.apply = reinterpret_cast<zc*>(p);
  s.va = reinterpret_cast<zc*>(p); p += 2 * n;
  s.vb = reinterpret_cast<zc*>(p); p += 2 * n;
  s.wv = reinterpret_cast<zc*>(p); p += 2 * n;
  s.ypart = reinterpret_cast<zc*>(p);
  s.tiles = scratch;
  s.dcv = dc_shared ? scratch + tiles_doubles(n, (int)blockDim.x / 32) : nullptr;
  p = scratch + scratch_doubles(n, tiles, wantz, (int)blockDim.x, lower);
  s.w = w_shared ? reinterpret_cast<zc*>(p) : nullptr;
  if (w_shared) p += 2 * (int64_t)n * n;
  s.z = z_shared ? p : nullptr;
  if (z_shared) p += z_doubles(n, z_rows);
  s.ss = stein_shared ? p : nullptr;
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
  zc* Wg;      // n x n working copy per block (ld n) when it does not fit in shared memory, else null;
               // with phase 3 by cuBLAS also where W is in shared memory (then V's image alone)
  bool w_shared;  // W in shared memory
  double* Zg;  // real Z per block (z_doubles) when it does not fit in shared memory, else null
  double* dc;  // jobz V: divide and conquer's workspace per block (doubles, then its ints), or stein's
  int64_t dc_per;  // doubles of dc per block
  int tiles;   // jobz V: shared doubles for phase 2 (tiles_doubles, + merge_vectors_doubles if dc_shared)
  bool dc_shared;  // jobz V: the merges' vectors in shared memory
  bool lower_pass;  // phase 1 on W's lower triangle (pass_lower), else on both (pass_full)
  int phases;  // 3: all; fewer stops early (benchmark hook SGPU_HEEV_PHASES: 1 reduction, 2 + D&C)
  zc* tau_g;   // jobz V by cuBLAS: the block's tau (n per block) goes here and phase 3 only prepares
  int gemm_nb;  // jobz V by cuBLAS: reflectors per pass
  zc* wpan;     // phase 1 in panels (tridiagonalize_panels): each block's Wp, n x kPanelNb; else null
  bool stein;   // phase 2 as zheevx (stebz, then stein's inverse iteration; a.dc its scratch, the
                // twisted vectors' in shared memory where stein_shared), else bisection and
                // divide and conquer
  bool stein_shared;
  const double* rec;  // phase 1 done by heev_reg_reduce: each block's record (rec_per doubles; W in
                      // global memory holds the reflectors where vectors are wanted); else null
  int64_t rec_per;
  double* xs_g;  // phase 3 on the tensor cores from Z (Z in global memory): each block's phases and
                 // Z's column order (2n doubles a block; heev_apply_q::XStart) instead of X into A
};

// ---- phase 1: fused tridiagonalization ----------------------------------------------------------

// W's elements as one 16-byte access (W is 16-byte aligned: its own workspace or shared memory).
// A zc access compiles to two 8-byte ones, each touching every sector of the warp's span: twice
// the sectors through L1 and L2 for the passes that read and write W n times.
__device__ __forceinline__ zc ld(const zc& x) {
  const double2 v = *reinterpret_cast<const double2*>(&x);
  return zc{v.x, v.y};
}
__device__ __forceinline__ void st(zc& x, zc v) { *reinterpret_cast<double2*>(&x) = make_double2(v.re, v.im); }

// Phase 1's pass over the trailing matrix (rows and columns k+1..n) at step k: apply the previous
// step's update A -= vp wp^H + wp vp^H and accumulate y = A v (v = vk) as partial sums in ypart,
// slice q of row r at ypart[q * m + (r - k - 1)]. Returns the number of slices.
//
// Full storage (both triangles of W): thread (rs, g) owns rows k+1+rs (+RS...) and columns
// k+1+g (+G...), each row's sum its own. Every element is read and written once per step.
__device__ __forceinline__ int pass_full(Mat1<zc> W, int n, int k, const zc* vp, const zc* wp, const zc* vk,
                                         zc* ypart) {
  const int tid = threadIdx.x, T = blockDim.x, m = n - k;
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
        for (int u = 0; u < kPassUnroll; ++u) a[u] = ld(W(r, c + u * G));
#pragma unroll
        for (int u = 0; u < kPassUnroll; ++u) {
          const int cu = c + u * G;
          zc x = a[u] - (vpr * core::conj(ld(wp[cu])) + wpr * core::conj(ld(vp[cu])));
          if (r == cu) x.im = 0.0;
          st(W(r, cu), x);
          acc = acc + x * ld(vk[cu]);
        }
      }
      for (; c <= n; c += G) {
        zc x = ld(W(r, c)) - (vpr * core::conj(ld(wp[c])) + wpr * core::conj(ld(vp[c])));
        if (r == c) x.im = 0.0;
        st(W(r, c), x);
        acc = acc + x * ld(vk[c]);
      }
      ypart[g * m + (r - k - 1)] = acc;
    }
  return G;
}

// Lower storage (W's lower triangle only, r >= c): x = A(r, c) adds x v_c to y_r (the row part,
// a lane's own sum) and, below the diagonal, conj(x) v_r to y_c (the column part, a sum over the
// warp's rows). Half the traffic of pass_full, for a pass that HBM bounds (W in global memory); the
// column sums make it slower where latency bounds the pass instead (see kLowerPassMinN). Warp
// (gr, gc) takes the block rows of 32 rows dealt to row group gr (below) with its lanes on rows,
// and in each the columns k+1+gc, +NC, ..., kPassUnroll at a time: their column parts go 4
// columns at a time through the warp's tile in shared memory, where 8 lanes sum each column's 32
// rows (4 each, then three shuffles): about a third of the instructions of a warp sum per column.
// Slices: NC of row parts, then NR of column parts (zeroed by the caller). Without Update the pass
// only reads (tridiagonalize_panels: the update waits for the panel's end).
template <bool Update>
__device__ __forceinline__ int pass_lower(Mat1<zc> W, int n, int k, const zc* vp, const zc* wp, const zc* vk,
                                          zc* ypart) {
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, nw = blockDim.x >> 5, m = n - k;
  const int NR = pass_row_groups(nw), NC = nw / NR, gr = warp % NR, gc = warp / NR;
  zc* yrow = ypart;           // NC x m: row parts, one slice per column group
  zc* ycol = ypart + NC * m;  // NR x m: column parts, one slice per row group
  double2* tile = reinterpret_cast<double2*>(ypart + (int64_t)pass_slices(nw) * n) + warp * 32 * kColTileLd;
  const int tu = lane & 3, tq = lane >> 2;  // this lane's column of the tile and eighth of its rows
  // Block rows dealt to the row groups largest first, in a snake (0 1 1 0 0 1 ...), so that the
  // groups' shares of the triangle are nearly equal (dealt in turn from the top, the group holding
  // the bottom block row took up to twice the other's work, and the other waited at the barrier).
  const int B = (m + 31) / 32;
  for (int p0 = 0; p0 < B; p0 += NR) {
    const int p = p0 + ((p0 / NR) % 2 == 0 ? gr : NR - 1 - gr);
    if (p >= B) continue;
    const int r0 = k + 1 + 32 * (B - 1 - p);
    const int r = r0 + lane;
    const bool live = r <= n;
    const zc vpr = Update && live ? vp[r] : zc{0.0, 0.0}, wpr = Update && live ? wp[r] : zc{0.0, 0.0};
    const zc vkr = live ? vk[r] : zc{0.0, 0.0};
    const int cend = r0 + 31 < n ? r0 + 31 : n;
    zc acc{0.0, 0.0};
    // The next columns' loads are issued before this chunk's arithmetic, so that a warp's loads
    // are in flight while it computes (the pass waits on their latency, not on the arithmetic).
    zc nx[kPassUnroll];
#pragma unroll
    for (int u = 0; u < kPassUnroll; ++u) {
      const int cu = k + 1 + gc + u * NC;
      nx[u] = live && cu <= cend && cu <= r ? ld(W(r, cu)) : zc{0.0, 0.0};
    }
    for (int c = k + 1 + gc; c <= cend; c += kPassUnroll * NC) {
      zc a[kPassUnroll];
#pragma unroll
      for (int u = 0; u < kPassUnroll; ++u) a[u] = nx[u];
      if (c + kPassUnroll * NC <= cend) {  // uniform over the warp
#pragma unroll
        for (int u = 0; u < kPassUnroll; ++u) {
          const int cu = c + (kPassUnroll + u) * NC;
          nx[u] = live && cu <= cend && cu <= r ? ld(W(r, cu)) : zc{0.0, 0.0};
        }
      }
#pragma unroll
      for (int u = 0; u < kPassUnroll; ++u) {
        const int cu = c + u * NC;
        zc p{0.0, 0.0};
        if (cu <= cend) {  // uniform over the warp
          zc x = a[u];
          if (Update) {
            x = x - (vpr * core::conj(ld(wp[cu])) + wpr * core::conj(ld(vp[cu])));
            if (r == cu) x.im = 0.0;
          }
          if (live && cu <= r) {
            if (Update) st(W(r, cu), x);
            acc = acc + x * ld(vk[cu]);
          }
          if (live && cu < r) p = core::conj(x) * vkr;
        }
        tile[lane * kColTileLd + u % kColTileCols] = make_double2(p.re, p.im);
        const int c0 = c + (u - (kColTileCols - 1)) * NC;  // the tile's first column
        if (u % kColTileCols == kColTileCols - 1 && c0 <= cend) {  // uniform over the warp
          __syncwarp();
          double sr = 0.0, si = 0.0;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const double2 q = tile[(4 * tq + j) * kColTileLd + tu];
            sr += q.x;
            si += q.y;
          }
#pragma unroll
          for (int o = 4; o < 32; o *= 2) {
            sr += __shfl_xor_sync(0xffffffffu, sr, o);
            si += __shfl_xor_sync(0xffffffffu, si, o);
          }
          const int ct = c0 + tu * NC;
          if (tq == 0 && ct <= cend) ycol[gr * m + (ct - k - 1)] = ycol[gr * m + (ct - k - 1)] + zc{sr, si};
          __syncwarp();  // the tile is read before the next columns overwrite it
        }
      }
    }
    if (live) yrow[gc * m + (r - k - 1)] = acc;
  }
  return NC + NR;
}

// Step k's column entry (r, x), r >= k, in the thread that holds it: d_k, the reflector's alpha
// (to red[30..31]), or a term of the sum of squares of x = W(k+2:n, k).
__device__ __forceinline__ void column_entry(const Smem& s, int k, int r, zc x, double& ssq) {
  if (r == k) {
    s.d[k - 1] = x.re;
  } else if (r == k + 1) {
    s.red[30] = x.re;
    s.red[31] = x.im;
  } else {
    ssq += x.re * x.re + x.im * x.im;
  }
}

// Step k's reflector from the column's entries: one block reduction to zlarfg's norm
// (core::znrm2's plain sum; its scaled form where that sum leaves the safe range; the reduction's
// barriers publish column k, d_k and alpha), then zlarfg's tau and the scale inv of x. Returns beta.
__device__ __forceinline__ double column_reflector(const BlockTeam& t, const Smem& s, Mat1<zc> W, int n, int k,
                                                   double ssq, zc& tk, zc& inv) {
  ssq = t.sum(ssq);
  const zc alpha{s.red[30], s.red[31]};
  const Vec<zc> x = core::col(W, k + 2 <= n ? k + 2 : n, k);
  const double xnorm = ssq >= core::kSsqMin && ssq <= core::kSsqMax ? sqrt(ssq) : core::znrm2(t, n - k - 1, x);
  return core::zlarfg_scalars(t, n - k, alpha, x, xnorm, tk, inv);
}

// Thread 0, after the last step: d_n, then the phases.
__device__ void finish_tridiagonal(const Smem& s, int n, double dn) {
  s.d[n - 1] = dn;
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

// W (Hermitian, n x n; both triangles, or the lower one when `lower`) -> d, |e|, tau, reflectors
// below the subdiagonal of W; e's signs go to the phases ph (real +-1 here: zlarfg's beta is real).
__device__ __noinline__ void tridiagonalize(const BlockTeam& t, const Smem& s, Mat1<zc> W, int n, bool lower) {
  const int tid = threadIdx.x, T = blockDim.x;
  zc* vp = s.va - 1;  // 1-based: pending update's v (rows k..n)
  zc* vk = s.vb - 1;  // this step's v (rows k+1..n)
  zc* wp = s.wv - 1;  // pending update's w
  bool pending = false;  // vp, wp are zero before the first step
  for (int k = 1; k <= n - 1; ++k) {
    const int m = n - k;
    // (a) Bring column k up to date, and in the same pass take its entries (column_entry).
    double ssq = 0.0;
    for (int r = k + tid; r <= n; r += T) {
      zc x = ld(W(r, k));
      if (pending) {
        x = x - (vp[r] * core::conj(wp[k]) + wp[r] * core::conj(vp[k]));
        if (r == k) x.im = 0.0;
        st(W(r, k), x);
      }
      column_entry(s, k, r, x, ssq);
    }
    // (b) Its reflector: v = (1, inv x) into W and vk in one pass.
    zc tk, inv;
    const double beta = column_reflector(t, s, W, n, k, ssq, tk, inv);
    for (int r = k + 1 + tid; r <= n; r += T) {
      if (r == k + 1) {
        vk[r] = zc{1.0, 0.0};
      } else {
        const zc y = inv * ld(W(r, k));
        st(W(r, k), y);
        vk[r] = y;
      }
    }
    if (lower) {  // pass_lower's column parts are sums: zero them
      const int NR = pass_row_groups(T >> 5), NC = (T >> 5) / NR;
      for (int x = tid; x < NR * m; x += T) s.ypart[NC * m + x] = zc{0.0, 0.0};
    }
    if (tid == 0) {
      s.er[k - 1] = beta;  // signed here; split into |beta| and phases after the loop
      s.tau[k - 1] = tk;
    }
    __syncthreads();
    // (c) One pass over the trailing matrix: A -= v w^H + w v^H (previous step), y += A v.
    const int S = lower ? pass_lower<true>(W, n, k, vp, wp, vk, s.ypart) : pass_full(W, n, k, vp, wp, vk, s.ypart);
    __syncthreads();
    // (d) y = tau A v; w = y - (tau/2)(y^H v) v becomes the pending update.
    zc dot{0.0, 0.0};
    for (int r = k + 1 + tid; r <= n; r += T) {
      zc y{0.0, 0.0};
      for (int q = 0; q < S; ++q) y = y + s.ypart[q * m + (r - k - 1)];
      y = tk * y;
      wp[r] = y;
      dot = dot + core::conj(y) * vk[r];
    }
    t.sum2(dot.re, dot.im);
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
    finish_tridiagonal(s, n, x.re);
  }
  __syncthreads();
}

// W(r, c) -= sum_{l < nbk} V(r, l) conj(Wp(c, l)) + Wp(r, l) conj(V(c, l)) for kt <= c <= r <= n
// (zher2k, lower; V and Wp as in tridiagonalize_panels): items of 32 rows (the lanes) x kUpdCols
// columns dealt to the warps in turn, an item's elements loaded before its nbk rank-2 steps.
constexpr int kUpdCols = 8;
__device__ __forceinline__ void panel_update(Mat1<zc> W, int n, int k0, int kt, int nbk, const zc* wpan) {
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  const int B = (n - kt + 1 + 31) / 32;
  int item = 0;
  for (int p = 0; p < B; ++p) {
    const int r0 = kt + 32 * p, r = r0 + lane, cend = r0 + 31 < n ? r0 + 31 : n;
    const bool live = r <= n;
    for (int c0 = kt; c0 <= cend; c0 += kUpdCols, ++item) {
      if (item % nw != warp) continue;
      zc a[kUpdCols];
#pragma unroll
      for (int u = 0; u < kUpdCols; ++u) {
        const int cu = c0 + u;
        a[u] = live && cu <= cend && cu <= r ? ld(W(r, cu)) : zc{0.0, 0.0};
      }
#pragma unroll(kPanelUpdateUnroll)
      for (int l = 0; l < nbk; ++l) {
        const zc* wl = wpan + (int64_t)l * n - 1;  // 1-based column l of Wp
        const zc vr = live ? ld(W(r, k0 + l)) : zc{0.0, 0.0}, wr = live ? ld(wl[r]) : zc{0.0, 0.0};
#pragma unroll
        for (int u = 0; u < kUpdCols; ++u) {
          const int cu = c0 + u;
          if (cu <= cend) a[u] = a[u] - (vr * core::conj(ld(wl[cu])) + wr * core::conj(ld(W(cu, k0 + l))));
        }
      }
#pragma unroll
      for (int u = 0; u < kUpdCols; ++u) {
        const int cu = c0 + u;
        if (live && cu <= cend && cu <= r) {
          zc x = a[u];
          if (r == cu) x.im = 0.0;
          st(W(r, cu), x);
        }
      }
    }
  }
}

// Phase 1 in panels of kPanelNb steps (zlatrd, then zher2k), on W's lower triangle: within a
// panel the passes only read the trailing matrix as it stood at the panel's start, and y is
// corrected by the panel's earlier reflectors, y = A v - V (Wp^H v) - Wp (V^H v); the panel's
// rank-2 jn update then reaches the trailing matrix in one read and write (panel_update). Where
// HBM binds the passes (W beyond L2), a step's traffic falls from a read and a write to about a
// read. V(r, l) = W(r, k0 + l) (its unit element W(k0 + l + 1, k0 + l) stored), Wp(r, l) =
// wpan[l n + r - 1] (n x kPanelNb in global memory).
__device__ __noinline__ void tridiagonalize_panels(const BlockTeam& t, const Smem& s, Mat1<zc> W, int n, zc* wpan) {
  const int tid = threadIdx.x, T = blockDim.x, warp = tid >> 5, lane = tid & 31, nw = T >> 5;
  constexpr int NB = kPanelNb;
  zc* vk = s.vb - 1;  // 1-based: this step's v (rows k+1..n)
  zc* u = s.wv;       // u[l] = Wp(:, l)^H v, u[NB + l] = V(:, l)^H v over the step's rows k+1..n
  const int NR = pass_row_groups(nw), NC = nw / NR;
  for (int k0 = 1; k0 <= n - 1; k0 += NB) {
    const int jn = n - k0 < NB ? n - k0 : NB;  // steps in this panel
    for (int j = 0; j < jn; ++j) {
      const int k = k0 + j, m = n - k;
      // (a) Column k with the panel's earlier steps applied (zlatrd's two gemv), and its entries.
      double ssq = 0.0;
      for (int r = k + tid; r <= n; r += T) {
        zc x = ld(W(r, k));
        for (int l = 0; l < j; ++l) {
          const zc* wl = wpan + (int64_t)l * n - 1;
          x = x - (ld(W(r, k0 + l)) * core::conj(ld(wl[k])) + ld(wl[r]) * core::conj(ld(W(k, k0 + l))));
        }
        if (r == k) x.im = 0.0;
        st(W(r, k), x);
        column_entry(s, k, r, x, ssq);
      }
      // (b) Its reflector v = (1, inv x) into W (the 1 included) and vk.
      zc tk, inv;
      const double beta = column_reflector(t, s, W, n, k, ssq, tk, inv);
      for (int r = k + 1 + tid; r <= n; r += T) {
        const zc y = r == k + 1 ? zc{1.0, 0.0} : inv * ld(W(r, k));
        st(W(r, k), y);
        vk[r] = y;
      }
      for (int q = tid; q < NR * m; q += T) s.ypart[NC * m + q] = zc{0.0, 0.0};
      if (tid == 0) {
        s.er[k - 1] = beta;
        s.tau[k - 1] = tk;
      }
      __syncthreads();
      // (c) The panel's 2j dot products, one warp each, then the pass over the trailing matrix
      // (reads only).
      for (int q = warp; q < 2 * j; q += nw) {
        const int l = q < j ? q : q - j;
        const zc* wl = wpan + (int64_t)l * n - 1;
        double sr = 0.0, si = 0.0;
        for (int r = k + 1 + lane; r <= n; r += 32) {
          const zc p = core::conj(q < j ? ld(wl[r]) : ld(W(r, k0 + l))) * vk[r];
          sr += p.re;
          si += p.im;
        }
        sr = warp_sum(sr);
        si = warp_sum(si);
        if (lane == 0) u[q < j ? l : NB + l] = zc{sr, si};
      }
      const int S = pass_lower<false>(W, n, k, nullptr, nullptr, vk, s.ypart);
      __syncthreads();
      // (d) y = tau (A v - V u1 - Wp u2); w = y - (tau/2)(y^H v) v into Wp's column j.
      zc* wj = wpan + (int64_t)j * n - 1;
      zc dot{0.0, 0.0};
      for (int r = k + 1 + tid; r <= n; r += T) {
        zc y{0.0, 0.0};
        for (int q = 0; q < S; ++q) y = y + s.ypart[q * m + (r - k - 1)];
        for (int l = 0; l < j; ++l) y = y - (ld(W(r, k0 + l)) * u[l] + ld(wpan[(int64_t)l * n + r - 1]) * u[NB + l]);
        y = tk * y;
        wj[r] = y;
        dot = dot + core::conj(y) * vk[r];
      }
      t.sum2(dot.re, dot.im);
      const zc alph = (-0.5) * (tk * dot);
      for (int r = k + 1 + tid; r <= n; r += T) st(wj[r], wj[r] + alph * vk[r]);
      __syncthreads();
    }
    // The panel's update of the trailing matrix, rows and columns k0 + jn .. n.
    panel_update(W, n, k0, k0 + jn, jn, wpan);
    __syncthreads();
  }
  if (tid == 0) finish_tridiagonal(s, n, W(n, n).re);
  __syncthreads();
}

// ---- phase 2 (jobz V): divide and conquer over the block's warps -------------------------------------

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
        core::stedc_merge(gt, pl, width, j, d, e, z, work, iwork, prod, s.dcv,
                          s.dcv ? reinterpret_cast<int*>(s.dcv + 10 * n) : nullptr);
      __syncthreads();
    }
  core::stedc_finish(t, pl, d, anrm);
  return info;
}

// ---- phase 3 (jobz V): X = Q D Z into A (zunmtr: side L, trans N, uplo L) -----------------------------

// y = V^H x summed over the warp's lanes, then u = T y: every lane gets every u (lane j < NB forms
// u_j = sum_{k >= j} T(j, k) y_k, then each u_j is broadcast from its lane).
__device__ __forceinline__ void warp_t_times(double (&yr)[kApplyNb], double (&yi)[kApplyNb], const zc* Ts, int lane) {
  constexpr int NB = kApplyNb;
  double ur = 0.0, ui = 0.0;
  const int jl = lane % NB;
#pragma unroll
  for (int k = 0; k < NB; ++k) {
    const double a = warp_sum(yr[k]), b = warp_sum(yi[k]);
    if (k >= jl) {
      const zc tk = Ts[jl + k * NB];
      ur += tk.re * a - tk.im * b;
      ui += tk.re * b + tk.im * a;
    }
  }
#pragma unroll
  for (int j = 0; j < NB; ++j) {
    yr[j] = __shfl_sync(0xffffffffu, ur, j);
    yi[j] = __shfl_sync(0xffffffffu, ui, j);
  }
}

// One warp applies I - V T V^H to column xc (rows i0+1..n, m of them), lanes on rows: y = V^H x,
// u = T y, x -= V u. Each lane issues kApplyRows loads of the column before using them.
__device__ __forceinline__ void apply_column(const double2* V2, const zc* Ts, zc* xc, int m, int lane) {
  constexpr int NB = kApplyNb, RU = kApplyRows;
  double yr[NB], yi[NB];
#pragma unroll
  for (int j = 0; j < NB; ++j) yr[j] = yi[j] = 0.0;
  for (int rb = lane; rb < m; rb += 32 * RU) {
    zc x[RU];
#pragma unroll
    for (int u = 0; u < RU; ++u) x[u] = rb + 32 * u < m ? xc[rb + 32 * u] : zc{0.0, 0.0};
#pragma unroll
    for (int u = 0; u < RU; ++u) {
      if (rb + 32 * u >= m) break;
#pragma unroll
      for (int j = 0; j < NB; ++j) {  // conj(v) x
        const double2 v = V2[rb + 32 * u + j * m];
        yr[j] += v.x * x[u].re + v.y * x[u].im;
        yi[j] += v.x * x[u].im - v.y * x[u].re;
      }
    }
  }
  warp_t_times(yr, yi, Ts, lane);
  for (int rb = lane; rb < m; rb += 32 * RU) {
    zc x[RU];
#pragma unroll
    for (int u = 0; u < RU; ++u) x[u] = rb + 32 * u < m ? xc[rb + 32 * u] : zc{0.0, 0.0};
#pragma unroll
    for (int u = 0; u < RU; ++u) {
      const int rr = rb + 32 * u;
      if (rr >= m) break;
#pragma unroll
      for (int j = 0; j < NB; ++j) {  // x -= v u
        const double2 v = V2[rr + j * m];
        x[u].re -= v.x * yr[j] - v.y * yi[j];
        x[u].im -= v.x * yi[j] + v.y * yr[j];
      }
      xc[rr] = x[u];
    }
  }
}

// Reflector i (i = 1..n-1) is H(i) = I - tau_i v v^H with v = (1, W(i+2:n, i)) on rows i+1..n, and
// Q = H(1) H(2) ... H(n-1). X starts as D Z (D = diag(ph)); passes from the last reflectors to the
// first apply H(i0) ... H(i1) = I - V T V^H (T upper triangular: zlarft, forward, columnwise).
// Column c of X is the eigenvector of the c-th smallest eigenvalue: Z's column ord[c - 1] where
// ord is given (phase 2 by inverse iteration, whose columns follow T's blocks), else column c.
__device__ inline void start_x(const Smem& s, Mat1<double> z, const int* ord, Mat1<zc> X, int n) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  for (int c = 1 + warp; c <= n; c += nw) {
    const int zc_ = ord ? ord[c - 1] : c;
    for (int r = 1 + lane; r <= n; r += 32) X(r, c) = zc{s.ph[r - 1] * z(r, zc_), 0.0};
  }
}

__device__ __noinline__ void apply_q(const Smem& s, Mat1<zc> W, Mat1<double> z, const int* ord, Mat1<zc> X, int n) {
  const int tid = threadIdx.x, T = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = T >> 5;
  constexpr int NB = kApplyNb;
  start_x(s, z, ord, X, n);
  zc* Vs = s.apply;           // m x NB: V(rr, j) at Vs[rr + j * m], row i0 + 1 + rr
  zc* Ts = s.apply + (n - 1) * NB;  // T(j, k) at Ts[j + k * NB]
  for (int i1 = n - 1; i1 >= 1; i1 -= NB) {
    const int i0 = i1 - NB + 1 > 1 ? i1 - NB + 1 : 1, nb = i1 - i0 + 1, m = n - i0;
    __syncthreads();  // the previous pass is done with Vs and Ts, and its X is written
    // V with its zeros and unit diagonal explicit; columns nb..NB-1 (a short first pass) zero.
    for (int x = tid; x < m * NB; x += T) {
      const int j = x / m, rr = x - j * m, r = i0 + 1 + rr, i = i0 + j;
      Vs[x] = (j >= nb || r < i + 1) ? zc{0.0, 0.0} : r == i + 1 ? zc{1.0, 0.0} : W(r, i);
    }
    __syncthreads();
    // T's strictly upper part before the triangular product: T(k, j) = -tau_j V(:, k)^H v_j,
    // one warp per pair k < j (v_j is zero above row j).
    for (int p = warp; p < NB * NB; p += nw) {
      const int k = p % NB, j = p / NB;
      if (k > j) continue;
      const zc tj = j < nb ? s.tau[i0 + j - 1] : zc{0.0, 0.0};
      if (k == j) {
        if (lane == 0) Ts[k + j * NB] = tj;
        continue;
      }
      double sr = 0.0, si = 0.0;
      for (int rr = j + lane; rr < m; rr += 32) {
        const zc x = core::conj(Vs[rr + k * m]) * Vs[rr + j * m];
        sr += x.re;
        si += x.im;
      }
      const zc dot{warp_sum(sr), warp_sum(si)};
      if (lane == 0) Ts[k + j * NB] = (-1.0) * (tj * dot);
    }
    for (int x = tid; x < NB * NB; x += T)
      if (x % NB > x / NB) Ts[x] = zc{0.0, 0.0};
    __syncthreads();
    // T(0:j-1, j) = T(0:j-1, 0:j-1) T(0:j-1, j), column by column (zlarft's ztrmv).
    if (tid == 0)
      for (int j = 1; j < NB; ++j)
        for (int k = 0; k < j; ++k) {
          zc acc{0.0, 0.0};
          for (int l = k; l < j; ++l) acc = acc + Ts[k + l * NB] * Ts[l + j * NB];
          Ts[k + j * NB] = acc;
        }
    __syncthreads();
    // X(i0+1:n, c) -= V (T (V^H X(i0+1:n, c))): one warp per column (X's rows are contiguous).
    const double2* V2 = reinterpret_cast<const double2*>(Vs);
    for (int c = 1 + warp; c <= n; c += nw) apply_column(V2, Ts, &X(i0 + 1, c), m, lane);
  }
}

// Phase 3 outside the kernel, the kernel's part: X = D Z into A (or, where xs is set, D and Z's
// column order there for heev_apply_q to start X from Z), each pass's V made explicit in Vg, W's
// global image (zeros above the unit diagonal, rows i0+1.. of columns i0..i1, passes of kGemmNb
// from the last reflector as apply_q_gemm takes them), and tau to global memory. Where W is in
// global memory Vg is W itself, whose diagonal and upper part are free after phase 1 (d and e are
// in shared memory); where W is in shared memory its reflectors are copied out.
__device__ __noinline__ void prepare_gemm_apply(const Smem& s, Mat1<zc> W, Mat1<zc> Vg, Mat1<double> z, const int* ord,
                                                Mat1<zc> X, int n, zc* tau_g, int nbg, double* xs) {
  const int tid = threadIdx.x, T = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = T >> 5;
  const bool copy = W.p != Vg.p;
  if (xs) {
    // X's start left to phase 3's kernel (heev_apply_q's XStart): the phases and Z's order.
    int* xo = reinterpret_cast<int*>(xs + n);
    for (int i = tid; i < n; i += T) {
      xs[i] = s.ph[i];
      xo[i] = ord ? ord[i] : i + 1;
    }
  } else {
    start_x(s, z, ord, X, n);
  }
  for (int i = 1 + warp; i <= n - 1; i += nw) {
    const int i1 = n - 1 - (n - 1 - i) / nbg * nbg, i0 = i1 - nbg + 1 > 1 ? i1 - nbg + 1 : 1;
    for (int r = i0 + 1 + lane; r <= (copy ? n : i + 1); r += 32)
      Vg(r, i) = r > i + 1 ? W(r, i) : r == i + 1 ? zc{1.0, 0.0} : zc{0.0, 0.0};
  }
  for (int i = tid; i < n - 1; i += T) tau_g[i] = s.tau[i];
}

// The pass's T from S = V^H V (k x k, ld nbg) in place, as zlarft (forward, columnwise):
// T(j, j) = tau_j, T(0:j-1, j) = -tau_j T(0:j-1, 0:j-1) S(0:j-1, j), zeros below. One block of
// nbg threads a matrix; thread r forms row r of T on its own, from S's strict upper triangle and
// its own earlier entries, both in one k x (k + 1) array of dynamic shared memory (T(r, l) stored
// transposed at (l, r), l >= r, below S): no barrier after the load.
__global__ void __launch_bounds__(kGemmMaxNb) k_larft(zc* S, int64_t sS, int nbg, const zc* tau_g, int n, int i0,
                                                      int k) {
  extern __shared__ double2 larft_sh[];
  zc* sh = reinterpret_cast<zc*>(larft_sh);
  zc* g = S + blockIdx.x * sS;
  const zc* tau = tau_g + blockIdx.x * (int64_t)n + (i0 - 1);
  const int r = threadIdx.x, ld = k + 1;
  for (int j = 0; j < k; ++j)
    if (r < j) sh[r + j * ld] = g[r + j * nbg];
  __syncthreads();
  if (r >= k) return;
  for (int j = r; j < k; ++j) {
    zc acc{0.0, 0.0};
    for (int l = r; l < j; ++l) acc = acc + sh[l + r * ld] * sh[l + j * ld];
    sh[j + r * ld] = j == r ? tau[j] : (-1.0) * (tau[j] * acc);
  }
  for (int j = 0; j < k; ++j) g[r + j * nbg] = j >= r ? sh[j + r * ld] : zc{0.0, 0.0};
}

// ---- phase 2 as zheevx ----------------------------------------------------------------------------

// T split where dstebz splits it, each block's eigenvalues by bisection (ascending within a block;
// order sorts them), or where vals is set taken from there (the record's eigenvalues and order,
// heev_values), and, with vectors, each eigenvector by inverse iteration on its block, a cluster a
// thread (Z's columns in the blocks' order; scratch: stein_member_work(n) doubles for each of the
// first min(T, n) threads; twist_scratch, where not null, the twisted vectors' instead,
// stein_twist_member_work(n) each, with vals only). The sorted eigenvalues, unscaled by sigma, go
// to w now (phase 3 overlays the scratch region where they were found), and the order to er's room
// (free once stein has read T), as ints. Returns stein's count of vectors that did not converge.
__device__ __noinline__ int tridiagonal_stein(const BlockTeam& t, const Smem& s, int n, bool wantz, Mat1<double> z,
                                              double* scratch, double* twist_scratch, double sigma, double* w,
                                              const double* vals) {
  const Vec1<double> d{s.d, 1}, er{s.er, 1};
  double* wu = reinterpret_cast<double*>(s.va);
  const Vec1<int> order{reinterpret_cast<int*>(wu + n), 1};
  int info = 0;
  if (vals) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      wu[i] = vals[i];
      order[i + 1] = (int)vals[n + i];
    }
    __syncthreads();
    if (wantz)
      info = core::stein_all<tuning::kHeevSteinAheadRec>(t, n, d, er, Vec1<double>{wu, 1}, z, scratch,
                                                         n >= tuning::kHeevTwistMinN, twist_scratch);
  } else if (wantz) {
    // One eigenvalue a thread at a time (K = 1): the block's threads (128 up to n = 64, then 256)
    // are about as many as the eigenvalues, and a second one side by side would be a dead count.
    info = core::stebz_stein<1>(t, n, d, er, Vec1<double>{wu, 1}, z, order, scratch, n >= tuning::kHeevTwistMinN);
  } else {
    core::stebz<1>(t, n, d, er, Vec1<double>{wu, 1}, order);
  }
  int* ord = reinterpret_cast<int*>(s.er);
  for (int i = 1 + (int)threadIdx.x; i <= n; i += (int)blockDim.x) {
    const double x = wu[order[i] - 1];
    w[i - 1] = sigma != 1.0 ? x / sigma : x;
    ord[i - 1] = order[i];
  }
  __syncthreads();
  return info;
}

// A matrix that held NaN or Inf: its eigenvalues NaN, and with vectors its A.
__device__ void poison(Mat1<zc> A, double* w, bool wantz, int n, double* xs) {
  const int tid = threadIdx.x, T = blockDim.x;
  for (int i = 1 + tid; i <= n; i += T) w[i - 1] = NAN;
  // where phase 3 starts X from Z: NaN phases and a valid column, so that X stays NaN
  if (xs)
    for (int i = tid; i < n; i += T) {
      xs[i] = NAN;
      reinterpret_cast<int*>(xs + n)[i] = 1;
    }
  if (wantz)
    for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) A((int)(idx % n) + 1, (int)(idx / n) + 1) = zc{NAN, NAN};
}

// Phase 1 done before this kernel (heev_reg_reduce): d, e, tau from the block's record. Returns
// sigma, or 0 where the matrix held NaN or Inf (its outputs then poisoned).
__device__ __forceinline__ double load_record(const Args& a, const Smem& s, Mat1<zc> A, int n, double* w) {
  const int tid = threadIdx.x, T = blockDim.x;
  const int64_t b = blockIdx.x;
  const double* rec = a.rec + b * a.rec_per;
  if (rec[heev_reg_reduce::record_bad(n)] != 0.0) {
    poison(A, w, a.wantz, n, a.xs_g ? a.xs_g + b * 2 * (int64_t)n : nullptr);
    if (tid == 0) a.info[b] = n;
    return 0.0;
  }
  for (int i = tid; i < n; i += T) {
    s.d[i] = rec[i];
    if (i < n - 1) {
      s.er[i] = rec[n + i];
      s.tau[i] = zc{rec[2 * n + 2 * i], rec[2 * n + 2 * i + 1]};
    }
  }
  __syncthreads();
  if (tid == 0) finish_tridiagonal(s, n, s.d[n - 1]);
  __syncthreads();
  return rec[heev_reg_reduce::record_sigma(n)];
}

// ---- the kernel ------------------------------------------------------------------------------------

// kRec: phase 1 done before this kernel (heev_reg_reduce; a.rec), else here. Two kernels rather
// than a branch: the branch alone costs the in-kernel reduction's registers (its spills nearly
// double).
// kThreadsStein's registers bounded for 8 blocks an SM (128 a thread): where Z is small (n = 33-48)
// shared memory lets more than 4 share an SM; bounded for 4 (178 registers) they took 33 V 31.2 ms
// against 25.9, 48 V 23.8 against 21.9 (H200).
template <int kT, bool kRec>
__global__ void __launch_bounds__(kT, kT == kThreadsStein ? 8 : kT == kThreadsSmall ? 4 : 2) k_heev_block(Args a) {
  extern __shared__ double smem[];
  const int n = a.n, tid = threadIdx.x, T = blockDim.x;
  const Smem s =
      carve(smem, n, a.tiles, a.wantz, a.w_shared, a.wantz && a.Zg == nullptr, a.lower_pass, a.dc_shared, kRec,
            a.stein_shared);
  const BlockTeam t{s.red};
  const int64_t b = blockIdx.x;
  Mat1<zc> A{a.A + b * a.sA, 1, a.lda};
  Mat1<zc> W{s.w ? s.w : a.Wg ? a.Wg + b * (int64_t)n * n : nullptr, 1, n};
  const Mat1<zc> Vg{a.Wg ? a.Wg + b * (int64_t)n * n : nullptr, 1, n};  // phase 3 by cuBLAS: V's global image
  double* w = a.w + b * a.sW;

  double sigma = 1.0;
  if constexpr (kRec) {
    sigma = load_record(a, s, A, n, w);
    if (sigma == 0.0) return;
  } else {
    // Working copy: the lower triangle of the Hermitian matrix (uplo U: the referenced triangle
    // conjugated into it), and for pass_full its mirror image in the upper one; the diagonal's
    // imaginary parts are not referenced, as in LAPACK. NaN/Inf screen and max-abs norm.
    double bad = 0.0, anrm = 0.0;
    for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) {
      const int r = (int)(idx % n) + 1, c = (int)(idx / n) + 1;
      if (a.lower ? r < c : r > c) continue;
      zc x = A(r, c);
      if (r == c) x.im = 0.0;
      if (!core::finite(x.re) || !core::finite(x.im)) bad = 1.0;
      anrm = core::dmax(anrm, core::zabs(x));
      if (a.lower || !a.lower_pass) W(r, c) = x;
      if (!a.lower || !a.lower_pass) W(c, r) = core::conj(x);
    }
    bad = t.max(bad);
    anrm = t.max(anrm);
    if (bad != 0.0) {
      poison(A, w, a.wantz, n, a.xs_g ? a.xs_g + b * 2 * (int64_t)n : nullptr);
      if (tid == 0) a.info[b] = n;
      return;
    }
    // Scale to an allowable range, as zheev.
    sigma = core::heev_scale(anrm);
    if (sigma != 1.0)
      for (int64_t idx = tid; idx < (int64_t)n * n; idx += T) {
        const int r = (int)(idx % n) + 1, c = (int)(idx / n) + 1;
        if (r < c && a.lower_pass) continue;
        W(r, c) = sigma * W(r, c);
      }
    // The first step has no pending update: its vectors are zero (an exact no-op).
    for (int i = tid; i < n; i += T) s.va[i] = s.wv[i] = zc{0.0, 0.0};
    __syncthreads();

    if (a.wpan) tridiagonalize_panels(t, s, W, n, a.wpan + b * (int64_t)n * kPanelNb);
    else tridiagonalize(t, s, W, n, a.lower_pass);
  }
  const Vec1<double> d{s.d, 1}, er{s.er, 1};
  int info = 0;
  if (a.phases <= 1) {
    // (benchmark hook: stop after the reduction)
  } else if (kRec || a.stein) {
    // As zheevx (tridiagonal_stein); Z's columns follow T's blocks, ord sorts them for phase 3.
    const Mat1<double> z = s.z ? z_view(s.z, n, kRec) : z_view(a.Zg + b * z_doubles(n, false), n, false);
    const double* vals = kRec ? a.rec + b * a.rec_per + heev_reg_reduce::record_w(n) : nullptr;
    info = tridiagonal_stein(t, s, n, a.wantz, z, a.dc + b * a.dc_per, s.ss, sigma, w, vals);
    const int* ord = reinterpret_cast<const int*>(s.er);
    if (a.wantz && a.phases >= 3) {
      if (a.tau_g)
        prepare_gemm_apply(s, W, Vg, z, ord, A, n, a.tau_g + b * n, a.gemm_nb,
                           a.xs_g ? a.xs_g + b * 2 * (int64_t)n : nullptr);
      else apply_q(s, W, z, ord, A, n);
    }
    if (tid == 0) a.info[b] = info;
    return;
  } else if constexpr (kRec) {
    // (the register reduction serves only the orders that take inverse iteration: shape_of)
  } else if (!a.wantz) {
    // Values only: bisection, one eigenvalue per thread (core/bisect.hpp), into ph's space.
    core::bisect_all(t, n, d, er, Vec1<double>{s.ph, 1});
  } else {
    // The eigenvalues are bisection's, as without vectors (bitwise the same), into the caller's w
    // before divide and conquer overwrites d and e; its own values differ in the last bits.
    core::bisect_all(t, n, d, er, Vec1<double>{w, 1});
    Mat1<double> z{s.z ? s.z : a.Zg + b * (int64_t)n * n, 1, n};
    double* dw = a.dc + b * a.dc_per;
    info = divide_and_conquer(t, s, z, n, dw, reinterpret_cast<int*>(dw + core::stedc_work(n)));
    if (a.phases >= 3) {
      if (a.tau_g) prepare_gemm_apply(s, W, Vg, z, nullptr, A, n, a.tau_g + b * n, a.gemm_nb, nullptr);
      else apply_q(s, W, z, nullptr, A, n);
    }
  }
  // Eigenvalues, unscaled (every one: bisection does not fail).
  const double* ev = a.phases <= 1 ? s.d : a.wantz ? w : s.ph;
  for (int i = 1 + tid; i <= n; i += T) w[i - 1] = sigma != 1.0 ? ev[i - 1] / sigma : ev[i - 1];
  if (tid == 0) a.info[b] = info;
}

}  // namespace

// Device workspace kept between launches on one stream (grown on demand; heev_block.hpp).
struct Workspace {
  void* p = nullptr;
  size_t bytes = 0;
  cublasHandle_t blas = nullptr;  // created on first use by phase 3's cuBLAS path
  ~Workspace() {
    fault::dev_free(p);
    if (blas) cublas::api()->destroy(blas);
  }
  void release() {
    fault::dev_free(p);
    p = nullptr;
    bytes = 0;
  }
  int reserve(size_t want) {
    if (want <= bytes) return 0;
    fault::dev_free(p);
    p = nullptr;
    bytes = 0;
    if (fault::dev_malloc(&p, want) != cudaSuccess) {
      (void)cudaGetLastError();
      return SGPU_ERR_DEVICE_ALLOC;
    }
    bytes = want;
    return 0;
  }
};

namespace {

constexpr size_t kMaxWorkspaceBytes = size_t(2) << 30;  // one call's working copies, at most

// Phase 3 by cuBLAS for `cnt` matrices whose kernel ran with tau_g: X = Q X, Q = H(1) ... H(n-1),
// in passes of nbg reflectors from the last, each I - V T V^H as zunmqr's blocked form:
// S = V^H V, T from S (k_larft), Y = V^H X, Y2 = T Y, X -= V Y2. V is W(i0+1:n, i0:i1) in place;
// X is rows i0+1..n of the caller's A. S, Y, Y2: nbg^2, nbg n, nbg n per matrix.
int apply_q_gemm(cublasHandle_t h, cudaStream_t st, int n, int nbg, int cnt, zc* A, int lda, int64_t sA, zc* Wg,
                 const zc* tau_g, zc* S, zc* Y, zc* Y2) {
  const cublas::Api* b = cublas::api();
  const cuDoubleComplex one{1.0, 0.0}, zero{0.0, 0.0}, minus{-1.0, 0.0};
  const long long sW = (long long)n * n, sS = (long long)nbg * nbg, sY = (long long)nbg * n;
  auto c = [](zc* p) { return reinterpret_cast<cuDoubleComplex*>(p); };
  if (sizeof(zc) * nbg * (nbg + 1) > 48 * 1024 && smem_slots::allow_max_smem(k_larft) != 0) return SGPU_ERR_DEVICE;
  if (b->set_stream(h, st) != CUBLAS_STATUS_SUCCESS) return SGPU_ERR_DEVICE;
  for (int i1 = n - 1; i1 >= 1; i1 -= nbg) {
    const int i0 = i1 - nbg + 1 > 1 ? i1 - nbg + 1 : 1, k = i1 - i0 + 1, m = n - i0;
    cuDoubleComplex* V = c(Wg + i0 + (int64_t)(i0 - 1) * n);  // W(i0 + 1, i0), 1-based
    cuDoubleComplex* X = c(A + i0);                          // X(i0 + 1, 1)
    if (b->zgemm_strided_batched(h, CUBLAS_OP_C, CUBLAS_OP_N, k, k, m, &one, V, n, sW, V, n, sW, &zero, c(S),
                                 nbg, sS, cnt) != CUBLAS_STATUS_SUCCESS)
      return SGPU_ERR_DEVICE;
    k_larft<<<cnt, nbg, sizeof(zc) * k * (k + 1), st>>>(S, sS, nbg, tau_g, n, i0, k);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
    if (b->zgemm_strided_batched(h, CUBLAS_OP_C, CUBLAS_OP_N, k, n, m, &one, V, n, sW, X, lda, sA, &zero, c(Y),
                                 nbg, sY, cnt) != CUBLAS_STATUS_SUCCESS ||
        b->zgemm_strided_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, k, n, k, &one, c(S), nbg, sS, c(Y), nbg, sY,
                                 &zero, c(Y2), nbg, sY, cnt) != CUBLAS_STATUS_SUCCESS ||
        b->zgemm_strided_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &minus, V, n, sW, c(Y2), nbg, sY, &one, X,
                                 lda, sA, cnt) != CUBLAS_STATUS_SUCCESS)
      return SGPU_ERR_DEVICE;
  }
  return 0;
}

// Phase 3 outside the kernel (on the tensor cores, or by cuBLAS) from this order; the developer
// setting SGPU_HEEV_APPLY=gemm|block|cublas takes it at every order, never, or by cuBLAS only.
int apply_mode() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_APPLY");
    return !e ? 0 : !std::strcmp(e, "gemm") ? 1 : !std::strcmp(e, "block") ? 2 : !std::strcmp(e, "cublas") ? 3 : 0;
  }();
  return v;
}
int gemm_apply_min_n() { return apply_mode() == 1 ? 0 : apply_mode() == 2 ? kMaxN + 1 : kGemmApplyMinN; }
// Phase 3 outside the kernel on the tensor cores (heev_apply_q) rather than by cuBLAS.
bool mma_apply(int n) { return apply_mode() != 3 && n <= tuning::kHeevMmaApplyMaxN && heev_apply_q::serves(); }
int gemm_nb() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_GEMM_NB");
    const int x = e ? std::atoi(e) : 0;
    return x >= 1 && x <= kGemmMaxNb ? x : kGemmNb;
  }();
  return v;
}

}  // namespace

// Phases run (the developer setting SGPU_HEEV_PHASES=1..3 stops after a phase, for profiles).
static int heev_phases() {
  static const int phases = [] {
    const char* e = dev::setting("SGPU_HEEV_PHASES");
    return e ? std::max(1, std::min(3, std::atoi(e))) : 3;
  }();
  return phases;
}

// Phase 1's pass by order: pass_lower from kLowerPassMinN where W is in global memory (without
// vectors); the developer setting SGPU_HEEV_PASS=full|lower forces one (0: lower everywhere).
static int lower_pass_min_n() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_PASS");
    if (e && !std::strcmp(e, "full")) return kMaxN + 1;
    if (e && !std::strcmp(e, "lower")) return 0;
    return kLowerPassMinN;
  }();
  return v;
}

// Phase 1 in panels (tridiagonalize_panels): 1 wherever the lower pass runs, 0 never, -1 by the
// rule in shape_of (the developer setting SGPU_HEEV_PANELS=on|off forces it).
static int panel_mode() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_PANELS");
    return e && !std::strcmp(e, "on") ? 1 : e && !std::strcmp(e, "off") ? 0 : -1;
  }();
  return v;
}

// Phase 1 by heev_reg_reduce where it serves the order; between kSmallN and kRegReduceAnyBatchMinN
// only for calls of at least kRegReduceMinBatch matrices: there the 96-row geometry pads the
// matrix, and after it the eigenvalues (heev_values) and inverse iteration (kThreadsStein threads)
// are slower for one matrix than this kernel's. By n and the
// call's batch only: the same with and without vectors.
// The developer setting SGPU_HEEV_REDUCE=block keeps phase 1 in this kernel everywhere, =reg takes
// heev_reg_reduce wherever it serves.
static bool reg_reduce(int n, int64_t call_batch) {
  static const int mode = [] {
    const char* e = dev::setting("SGPU_HEEV_REDUCE");
    return e && !std::strcmp(e, "block") ? 0 : e && !std::strcmp(e, "reg") ? 1 : -1;
  }();
  if (mode == 0 || !heev_reg_reduce::serves(n)) return false;
  return mode == 1 || n <= kSmallN || n >= kRegReduceAnyBatchMinN || call_batch >= kRegReduceMinBatch;
}

// Phase 2 as zheevx (inverse iteration) up to this order, else bisection and divide and conquer
// (the developer setting SGPU_HEEV_TRIDIAG=stein|dc forces one everywhere).
static int stein_max_n() {
  static const int v = [] {
    const char* e = dev::setting("SGPU_HEEV_TRIDIAG");
    if (e && !std::strcmp(e, "stein")) return kMaxN;
    if (e && !std::strcmp(e, "dc")) return 0;
    return kSteinMaxN;
  }();
  return v;
}

bool serves(int n) {
  // The developer setting SGPU_HEEV_BLOCK_MIN_N moves the threshold (the block path against the
  // team path at the orders where they meet).
  static const int min_n = [] {
    const char* e = dev::setting("SGPU_HEEV_BLOCK_MIN_N");
    const int v = e ? std::atoi(e) : 0;
    return v >= 2 && v <= kMaxN ? v : kMinN;
  }();
  return n >= min_n && n <= kMaxN;
}

bool values_kernel(int n, int64_t call_batch) { return serves(n) && reg_reduce(n, call_batch) && n <= stein_max_n(); }

Workspace* workspace_new() { return new (std::nothrow) Workspace; }
void workspace_delete(Workspace* ws) { delete ws; }

namespace {

// One launch's shape for order n: block size, shared-memory layout, and the global workspace a
// matrix takes (W and Z where they miss shared memory, the divide-and-conquer buffers, phase 3's
// cuBLAS operands).
struct Shape {
  int T = 0, tiles = 0, nbg = 0;
  bool lower_pass = false, w_shared = false, z_shared = false, gemm = false, dc_shared = false, stein = false;
  bool stein_shared = false;  // the twisted vectors' scratch in shared memory (after the register reduction)
  bool mma = false;  // phase 3 outside the kernel on the tensor cores (else, where gemm, by cuBLAS)
  bool x_from_z = false;  // mma, and X's start (diag(ph) Z(:, ord)) left to it: Z in global memory
  bool reg = false;  // phase 1 by heev_reg_reduce (then W, in global memory, only holds the reflectors)
  size_t shmem = 0, wg = 0, zg = 0, dcb = 0, pb = 0, gb = 0, rb = 0, per = 1;
};

int shape_of(bool wantz, int n, int64_t call_batch, Shape& sh) {
  int dev = 0, optin = 0, sms = 0, l2 = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) != cudaSuccess)
    return SGPU_ERR_DEVICE;
  // Shared memory first for W (phase 1 reads and writes it n times), then for Z, then for the
  // merges' vectors (their bookkeeping and secular equations are chains of dependent loads). With
  // vectors the phases after the reduction are latency-bound, so these go to shared memory only if
  // the blocks the registers allow per SM still fit: more matrices in flight beat faster accesses.
  // Phase 2 as zheevx up to stein_max_n, with and without vectors (the eigenvalues must agree).
  sh.stein = n <= stein_max_n();
  // The register reduction's record feeds heev_values, whose eigenvalues only inverse iteration
  // takes.
  sh.reg = reg_reduce(n, call_batch) && sh.stein;
  // After the register reduction the kernel runs only inverse iteration (a thread a vector, two
  // above 64: as many in flight an SM as 128 threads a block would keep) and phase 3; in calls
  // of at most tuning::kHeevSteinWideBatchPerSm matrices an SM, kThreadsSmall threads, a vector
  // each (up to 128).
  const bool wide = sh.reg && wantz && n > kThreadsStein &&
                    call_batch <= (int64_t)sms * tuning::kHeevSteinWideBatchPerSm;
  sh.T = sh.reg ? (wide ? kThreadsSmall : kThreadsStein) : n <= kSmallN ? kThreadsSmall : kThreads;
  const int per_sm = sh.T == kThreadsSmall || sh.T == kThreadsStein ? 4 : 2;
  sh.tiles = wantz && !sh.stein ? tiles_doubles(n, sh.T / 32) : 0;
  const size_t wbytes = sizeof(zc) * (size_t)n * n, zbytes = sizeof(double) * (size_t)z_doubles(n, sh.reg);
  const size_t fit = wantz ? (size_t)optin / per_sm : (size_t)optin;
  // pass_lower where W misses shared memory without vectors (with pass_full's layout): the same
  // pass with and without vectors, or the eigenvalues would differ in the last bits.
  const int pass_min = lower_pass_min_n();
  sh.lower_pass = n >= pass_min && (pass_min == 0 || sizeof(double) * (size_t)smem_doubles(n, 0, false, sh.T, false) +
                                                             wbytes > (size_t)optin);
  const size_t base = sizeof(double) * (size_t)smem_doubles(n, sh.tiles, wantz, sh.T, sh.lower_pass);
  sh.w_shared = !sh.reg && base + wbytes + (wantz ? zbytes : 0) <= fit;
  sh.z_shared = wantz && base + (sh.w_shared ? wbytes : 0) + zbytes <= fit;
  const size_t wz = (sh.w_shared ? wbytes : 0) + (sh.z_shared ? zbytes : 0);
  sh.shmem = base + wz;
  if (wantz && !sh.stein) {
    const int tiles = sh.tiles + merge_vectors_doubles(n);
    const size_t with = sizeof(double) * (size_t)smem_doubles(n, tiles, wantz, sh.T, sh.lower_pass) + wz;
    sh.dc_shared = with <= fit;
    if (sh.dc_shared) {
      sh.tiles = tiles;
      sh.shmem = with;
    }
  }
  // After the register reduction with vectors, the twisted vectors' scratch (the pivots: each
  // pass over them a chain of dependent loads) in shared memory where it fits beside the rest, in
  // calls of at most tuning::kHeevSteinSharedBatchPerSm matrices an SM. dstein's scratch, for the
  // vectors the twisted ones leave, stays in global memory (a.dc).
  const int members = std::min(sh.T, n);
  const size_t twist_bytes = sizeof(double) * (size_t)core::stein_twist_member_work(n) * (size_t)members;
  const size_t stein_bytes = sizeof(double) * (size_t)core::stein_member_work(n) * (size_t)members;
  sh.stein_shared = sh.reg && wantz && sh.shmem + twist_bytes <= (size_t)optin &&
                    call_batch <= (int64_t)sms * tuning::kHeevSteinSharedBatchPerSm;
  if (sh.stein_shared) sh.shmem += twist_bytes;
  if (sh.shmem > (size_t)optin) return SGPU_ERR_DEVICE;
  // Each region a multiple of 16 bytes, so that every one after it stays 16-byte aligned (W and
  // Wp are read as double2; cuBLAS takes tau, S, Y and Y2 as cuDoubleComplex): Z's n^2 doubles are
  // 8 bytes short of that for odd n.
  auto al16 = [](size_t x) { return (x + 15) / 16 * 16; };
  sh.zg = wantz && !sh.z_shared ? al16(zbytes) : 0;
  sh.dcb = !wantz ? 0 : al16(sh.stein ? stein_bytes : sizeof(double) * (size_t)dc_doubles(n));
  // Phase 3 outside the kernel (on the tensor cores, or by cuBLAS where the library loads) needs V
  // in global memory: in W's global image, which it takes in place (and which holds only V where W
  // is in shared memory).
  sh.mma = wantz && mma_apply(n);
  sh.gemm = wantz && heev_phases() >= 3 && n >= gemm_apply_min_n() && (sh.mma || cublas::api());
  sh.wg = (sh.w_shared && !sh.gemm) || (sh.reg && !wantz) ? 0 : wbytes;
  sh.rb = sh.reg ? al16(sizeof(double) * (size_t)heev_reg_reduce::record_doubles(n)) : 0;
  sh.nbg = sh.mma ? heev_apply_q::kNb : gemm_nb();
  // Where Z is in global memory phase 3's kernel reads it for X's start (a matrix's 16-column
  // blocks each read their columns), rather than the block writing X to A first for it to read.
  sh.x_from_z = sh.gemm && sh.mma && sh.stein && !sh.z_shared;
  // tau, then T (tensor cores; and the phases and Z's order where x_from_z) or S, Y and Y2 (cuBLAS)
  sh.gb = !sh.gemm ? 0
          : sh.mma ? sizeof(zc) * ((size_t)n + (size_t)heev_apply_q::scratch_elems(n) + (sh.x_from_z ? (size_t)n : 0))
                   : sizeof(zc) * ((size_t)n + (size_t)sh.nbg * sh.nbg + 2 * (size_t)sh.nbg * n);
  // Phase 1 in panels where the lower pass runs, if the lower triangles of the matrices in flight
  // (two blocks an SM) exceed L2: then HBM binds the passes, and panels nearly halve their
  // traffic; in L2 the panels' extra work costs more than it saves. By n and the call's batch
  // only: the same with and without vectors.
  const int64_t in_flight = std::min<int64_t>(call_batch, (int64_t)sms * per_sm);
  const bool beyond_l2 = (double)in_flight * 8.0 * n * n > (double)l2;
  const bool panels = sh.lower_pass && (panel_mode() == 1 || (panel_mode() < 0 && beyond_l2));
  sh.pb = panels ? sizeof(zc) * (size_t)n * kPanelNb : 0;
  sh.per = std::max<size_t>(sh.wg + sh.zg + sh.dcb + sh.pb + sh.gb + sh.rb, 1);
  return 0;
}

}  // namespace

int64_t workspace_per_matrix(bool wantz, int n, int64_t call_batch) {
  Shape sh;
  return shape_of(wantz, n, call_batch, sh) ? 0 : (int64_t)sh.per;
}

void workspace_trim(Workspace* ws, size_t max_bytes) {
  if (ws && ws->bytes > max_bytes) ws->release();
}

int workspace_reserve(Workspace* ws, size_t bytes, cudaStream_t s, void** p) {
  if (ws->bytes < bytes && cudaStreamSynchronize(s) != cudaSuccess) return SGPU_ERR_DEVICE;
  if (int e = ws->reserve(bytes)) return e;
  *p = ws->p;
  return 0;
}

int enqueue(Workspace* ws, cudaStream_t st, bool wantz, bool lower, int n, void* A, int lda, int64_t strideA,
            double* w, int64_t strideW, int* info, int64_t batch, int64_t call_batch, size_t max_ws) {
  Shape sh;
  if (int e = shape_of(wantz, n, call_batch, sh)) return e;
  static_assert(kThreadsStein % 32 == 0 && kThreadsStein < kThreadsSmall, "kThreadsStein: whole warps, below kThreadsSmall");
  auto kernel = sh.reg ? (sh.T == kThreadsSmall ? k_heev_block<kThreadsSmall, true> : k_heev_block<kThreadsStein, true>)
                : sh.T == kThreadsSmall ? k_heev_block<kThreadsSmall, false>
                                        : k_heev_block<kThreads, false>;
  if (smem_slots::allow_max_smem(kernel) != 0) return SGPU_ERR_DEVICE;
  const int phases = heev_phases();
  const size_t per = sh.per, wg = sh.wg, zg = sh.zg, dcb = sh.dcb, pb = sh.pb, shmem = sh.shmem;
  const bool gemm = sh.gemm, w_shared = sh.w_shared;
  const int nbg = sh.nbg, tiles = sh.tiles;
  const bool dc_shared = sh.dc_shared;
  const bool lower_pass = sh.lower_pass;
  // The workspace holds `chunk` matrices' working copies: within kMaxWorkspaceBytes, and within
  // max_ws where the context limits device memory (sgpu_context_set_device_memory_limit).
  const size_t most = max_ws ? std::min(max_ws, kMaxWorkspaceBytes) : kMaxWorkspaceBytes;
  if (per > most) return SGPU_ERR_DEVICE_ALLOC;
  int64_t chunk = std::min<int64_t>(batch, std::max<int64_t>(1, (int64_t)(most / per)));
  chunk = std::min<int64_t>(chunk, int64_t(1) << 30);

  // The buffer may still be in use by an earlier launch on this stream: stream order protects it,
  // but regrowing (or shrinking to the limit) frees it, so wait first.
  const bool shrink = ws->bytes > most;
  if ((shrink || ws->bytes < per * (size_t)chunk) && cudaStreamSynchronize(st) != cudaSuccess) return SGPU_ERR_DEVICE;
  if (shrink) ws->release();
  if (int e = ws->reserve(per * (size_t)chunk)) return e;
  if (gemm && !sh.mma && !ws->blas && cublas::api()->create(&ws->blas) != CUBLAS_STATUS_SUCCESS) {
    ws->blas = nullptr;
    return SGPU_ERR_DEVICE;
  }
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
    // Each matrix's Wp, W, Z, divide and conquer's buffers, the cuBLAS operands: each region
    // after the 16-byte ones (Wp, W: read as double2).
    args.wpan = pb ? reinterpret_cast<zc*>(base_ws) : nullptr;
    char* wbase = base_ws + pb * (size_t)nb;
    args.Wg = wg ? reinterpret_cast<zc*>(wbase) : nullptr;
    args.w_shared = w_shared;
    args.Zg = zg ? reinterpret_cast<double*>(wbase + wg * (size_t)nb) : nullptr;
    args.dc = dcb ? reinterpret_cast<double*>(wbase + (wg + zg) * (size_t)nb) : nullptr;
    args.dc_per = (int64_t)(dcb / sizeof(double));
    args.stein = sh.stein;
    args.stein_shared = sh.stein_shared;
    args.phases = phases;
    args.tiles = tiles;
    args.dc_shared = dc_shared;
    args.lower_pass = lower_pass;
    char* gbase = wbase + (wg + zg + dcb) * (size_t)nb;  // tau, S, Y, Y2 of the chunk's matrices
    zc* tau_g = reinterpret_cast<zc*>(gbase);
    zc* S = tau_g + (size_t)n * nb;
    zc* Y = S + (size_t)nbg * nbg * nb;
    zc* Y2 = Y + (size_t)nbg * n * nb;
    args.tau_g = gemm ? tau_g : nullptr;
    args.gemm_nb = nbg;
    // x_from_z: after T, n complex (2n doubles) a matrix
    args.xs_g = sh.x_from_z ? reinterpret_cast<double*>(S + (size_t)heev_apply_q::scratch_elems(n) * nb) : nullptr;
    // Phase 1's records after the cuBLAS operands.
    double* rec = sh.rb ? reinterpret_cast<double*>(gbase + sh.gb * (size_t)nb) : nullptr;
    args.rec = rec;
    args.rec_per = heev_reg_reduce::record_doubles(n);
    if (sh.reg) {
      // Phase 1 in registers, then the eigenvalues one thread a matrix; without vectors that is all.
      if (int e = heev_reg_reduce::launch(lower, n, args.A, lda, strideA, rec, wantz ? args.Wg : nullptr, nb, st))
        return e;
      if (phases >= 2)
        if (int e = heev_values::launch(wantz, n, rec, args.w, strideW, args.info, nb, st)) return e;
      if (!wantz) continue;
    }
    kernel<<<(unsigned)nb, sh.T, shmem, st>>>(args);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
    if (gemm && sh.mma) {
      const heev_apply_q::XStart xs{args.Zg, 1, n, z_doubles(n, false), args.xs_g};  // Z global: by columns
      if (int e = heev_apply_q::launch(n, (int)nb, args.A, lda, strideA, args.Wg, tau_g, S,
                                       sh.x_from_z ? &xs : nullptr, st))
        return e;
    } else if (gemm) {
      if (int e = apply_q_gemm(ws->blas, st, n, nbg, (int)nb, args.A, lda, strideA, args.Wg, tau_g, S, Y, Y2)) return e;
    }
  }
  return 0;
}

}  // namespace heev_block
}  // namespace gpu
}  // namespace sgpu
