// zheev's phase 1 at the block path's orders up to 128, the kernel itself (heev_reg_reduce.cu
// launches it; bench/heev_reg_reduce_probe.cu sweeps its geometries): the reduction of a Hermitian
// matrix to real tridiagonal form (zhetd2, uplo L, in heev_block.cu's fused form) with the whole
// matrix in the registers of one thread block, so that no step reads or writes memory beyond a few
// vectors in shared memory. TR x TC threads a matrix: thread (rl, cl) = (tid / TC, tid % TC) holds
// rows rl + TR i (i < RR) and columns cl + TC j (j < RC) of the full Hermitian matrix (a row's TC
// threads are consecutive lanes). Step k:
//   1. warp 0 applies the pending update (step k - 1's) in registers to column k, which the step
//      before left in shared memory, and forms zlarfg's reflector from it (its scalars from one
//      reciprocal square root and one reciprocal where the sum of squares is in range, else the
//      core's zlarfg with its rescaling, the column back in shared memory for it); it puts v,
//      zero above row k + 1, into shared memory, d_k, beta_k and tau_k into the record;
//   2. every thread applies the pending update to its part of the trailing matrix and sums its
//      part of y = A v, reduced over the row's lanes by shuffles; column k + 1's threads leave
//      their part of it in shared memory for the next step;
//   3. every warp forms alph = -(tau / 2)(tau y)^H v = -(|tau|^2 / 2) v^H A v from the warps'
//      shares of v^H A v (summed in step 2): the pending update is then v and
//      w = tau y + alph v, w formed where it is used (no barrier to publish it).
// Two barriers a step, after 1 and after 2 (the column's update by its owners, with a barrier
// after it, had 17.7% of the stall samples at 128): what warp 0 writes in step 1 while other warps
// may still read the step before's (v, tau) is double-buffered. Row and column blocks wholly
// outside the trailing matrix are skipped by a test that is the same for the whole block. Fewer
// threads a matrix put more matrices in flight, which the steps' chains of dependent reductions
// need more than threads (tuning.hpp).
// Where a thread's part outgrows its registers (from n = 64; the full matrix is the register
// file's size at 128), its first CS column blocks (j < CS, the first to leave the trailing matrix) live
// in dynamic shared memory, a thread's elements 16 bytes apart across the block (no bank
// conflicts), so that no step spills to local memory.
#pragma once
#include <cuda_runtime.h>

#include "core/heev.hpp"
#include "core/reflect.hpp"
#include "device/team.cuh"
#include "kernels/heev_reg_reduce.hpp"

namespace sgpu {
namespace gpu {
namespace heev_reg_reduce {

using core::zc;

// The batch: matrix b at A + b sA (uplo `lower`, ld lda), its record at rec + b record_doubles(n),
// its reflectors at V + b n^2 (n x n, ld n) where V is not null.
struct Args {
  bool lower;
  int n;
  const zc* A;
  int64_t lda, sA;
  double* rec;
  zc* V;
};

// Shared vectors as one 16-byte access (zc is 8-byte aligned; the arrays are 16).
__device__ __forceinline__ zc lds(const zc& x) {
  const double2 v = *reinterpret_cast<const double2*>(&x);
  return zc{v.x, v.y};
}
__device__ __forceinline__ void sts(zc& x, zc v) { *reinterpret_cast<double2*>(&x) = make_double2(v.re, v.im); }

// a - (p q^H + r s^H) for scalars, four fused multiply-adds a component.
__device__ __forceinline__ zc rank2(zc a, zc p, zc q, zc r, zc s) {
  return zc{fma(-p.re, q.re, fma(-p.im, q.im, fma(-r.re, s.re, fma(-r.im, s.im, a.re)))),
            fma(-p.im, q.re, fma(p.re, q.im, fma(-r.im, s.re, fma(r.re, s.im, a.im))))};
}
// y + x v and a b + c d, fused.
__device__ __forceinline__ zc fma_acc(zc y, zc x, zc v) {
  return zc{fma(x.re, v.re, fma(-x.im, v.im, y.re)), fma(x.re, v.im, fma(x.im, v.re, y.im))};
}
__device__ __forceinline__ zc fma2(zc a, zc b, zc c, zc d) {
  return zc{fma(a.re, b.re, fma(-a.im, b.im, fma(c.re, d.re, -c.im * d.im))),
            fma(a.re, b.im, fma(a.im, b.re, fma(c.re, d.im, c.im * d.re)))};
}

// A thread's part of the matrix: RR x RC elements, column blocks j < CS in shared memory (sm:
// CS RR NT of them, smem_bytes), the rest in registers.
template <int NT, int RR, int RC, int CS>
struct Part {
  static constexpr int kRegCols = RC - CS > 0 ? RC - CS : 1;
  zc r[RR][kRegCols];
  double2* sm;
  int tid;
  static constexpr size_t smem_bytes() { return sizeof(double2) * (size_t)CS * RR * NT; }
  __device__ __forceinline__ zc get(int i, int j) const {
    if (j < CS) {
      const double2 v = sm[(j * RR + i) * NT + tid];
      return zc{v.x, v.y};
    }
    return r[i][j >= CS ? j - CS : 0];
  }
  __device__ __forceinline__ void set(int i, int j, zc x) {
    if (j < CS) sm[(j * RR + i) * NT + tid] = make_double2(x.re, x.im);
    else r[i][j >= CS ? j - CS : 0] = x;
  }
};

// Matrix blockIdx.x of g.A into its record (heev_reg_reduce.hpp) and, where g.V is set, its
// reflectors. TR RR >= n and TC RC >= n; MB: blocks an SM the registers must allow; CS: column
// blocks in shared memory (the launch's dynamic shared memory: Part<>::smem_bytes()).
template <int TR, int TC, int RR, int RC, int MB, int CS = 0>
__global__ void __launch_bounds__(TR * TC, MB) k_reg_reduce(const Args g) {
  constexpr int NT = TR * TC, NW = NT / 32, NP = TR * RR > TC * RC ? TR * RR : TC * RC;
  static_assert(CS >= 0 && CS <= RC, "CS: column blocks in shared memory, at most RC");
  extern __shared__ double2 part_smem[];
  static_assert(NT % 32 == 0 && (TC & (TC - 1)) == 0 && TC <= 32, "a row's lanes: a power of two within a warp");
  __shared__ __align__(16) zc col[NP];    // column k before step k - 1's update
  __shared__ __align__(16) zc vs[2][NP];  // v of step k in vs[k & 1]; the pending one in the other
  __shared__ __align__(16) zc ys[2][NP];  // y = A v of step k in ys[k & 1]; the pending one in the other
  __shared__ __align__(16) zc wps[NP];    // the pending w, formed at the end of the step before
  __shared__ zc tau_s[2];  // tau of step k in tau_s[k & 1]
  __shared__ double red[2][NW];
  __shared__ double vys[NW];  // the warps' shares of v^H A v at step k
  const int n = g.n, tid = threadIdx.x, rl = tid / TC, cl = tid % TC, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const zc* A = g.A + b * g.sA;
  double* rec = g.rec + b * record_doubles(n);
  zc* V = g.V ? g.V + b * (int64_t)n * n : nullptr;

  // The Hermitian matrix from the referenced triangle (the diagonal's imaginary parts not
  // referenced, as in LAPACK), its NaN/Inf screen and max-abs norm.
  Part<NT, RR, RC, CS> a;
  a.sm = part_smem;
  a.tid = tid;
  double bad = 0.0, anrm = 0.0;
#pragma unroll
  for (int i = 0; i < RR; ++i)
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      const int r = rl + TR * i, c = cl + TC * j;
      zc x{0.0, 0.0};
      if (r < n && c < n) {
        const bool direct = g.lower ? r >= c : r <= c;
        x = direct ? A[r + c * g.lda] : core::conj(A[c + r * g.lda]);
        if (r == c) x.im = 0.0;
        if (!core::finite(x.re) || !core::finite(x.im)) bad = 1.0;
        anrm = core::dmax(anrm, core::zabs(x));
      }
      a.set(i, j, x);
    }
  for (int o = 16; o; o >>= 1) {
    bad = fmax(bad, __shfl_xor_sync(0xffffffffu, bad, o));
    anrm = fmax(anrm, __shfl_xor_sync(0xffffffffu, anrm, o));
  }
  if (lane == 0) {
    red[0][tid / 32] = bad;
    red[1][tid / 32] = anrm;
  }
  for (int x = tid; x < NP; x += NT) {
    sts(vs[0][x], zc{0.0, 0.0});
    sts(vs[1][x], zc{0.0, 0.0});
    sts(ys[0][x], zc{0.0, 0.0});
    sts(ys[1][x], zc{0.0, 0.0});
    sts(wps[x], zc{0.0, 0.0});
  }
  __syncthreads();
  for (int w = 0; w < NW; ++w) {
    bad = fmax(bad, red[0][w]);
    anrm = fmax(anrm, red[1][w]);
  }
  if (bad != 0.0) {
    if (tid == 0) rec[record_bad(n)] = 1.0;
    return;
  }
  // Scaled to an allowable range, as zheev.
  const double sigma = core::heev_scale(anrm);
  if (sigma != 1.0)
#pragma unroll
    for (int i = 0; i < RR; ++i)
#pragma unroll
      for (int j = 0; j < RC; ++j) a.set(i, j, sigma * a.get(i, j));
  if (tid == 0) {
    rec[record_sigma(n)] = sigma;
    rec[record_bad(n)] = 0.0;
  }
  // Column 0 for step 0 (nothing pending).
#pragma unroll
  for (int j = 0; j < RC; ++j) {
    if (cl + TC * j != 0) continue;
#pragma unroll
    for (int i = 0; i < RR; ++i) sts(col[rl + TR * i], a.get(i, j));
  }
  __syncthreads();

  // The pending update (step k - 1's): A -= vp wp^H + wp vp^H with vp in vs[pb] and
  // wp(r) = tau_p ys[pb](r) + alph_p vp(r) for k <= r < n, zero elsewhere, formed where it is
  // used (no barrier to publish it). Nothing is pending at k = 0: tau_p = alph_p = 0.
  zc tau_p{0.0, 0.0}, alph_p{0.0, 0.0};
  for (int k = 0; k < n - 1; ++k) {
    const int nb = k & 1, pb = nb ^ 1;
    const auto wp = [&](int r) {
      return r >= k && r < n ? fma2(tau_p, lds(ys[pb][r]), alph_p, lds(vs[pb][r])) : zc{0.0, 0.0};
    };
    // (1) Column k with the pending update, and its reflector:
    // H^H (alpha; x) = (beta; 0), alpha = col(k + 1), x = col(k + 2:n).
    if (tid < 32) {
      constexpr int NX = (NP + 31) / 32;
      const cuda::WarpTeam<32> t = cuda::WarpTeam<32>::make();
      const zc vpk = lds(vs[pb][k]), wpk = wp(k);
      const auto upd = [&](int r) { return rank2(lds(col[r]), lds(vs[pb][r]), wpk, wp(r), vpk); };
      const double dk = upd(k).re;
      const zc alpha = upd(k + 1);
      zc xr[NX];
      double ssq = 0.0;
#pragma unroll
      for (int q = 0; q < NX; ++q) {
        const int r = k + 2 + lane + 32 * q;
        xr[q] = r < n ? upd(r) : zc{0.0, 0.0};
        ssq += xr[q].re * xr[q].re + xr[q].im * xr[q].im;
      }
      ssq = t.sum(ssq);
      zc tau, inv;
      double beta;
      if (!core::zlarfg_scalars_in_range(n - k - 1, alpha, ssq, beta, tau, inv)) {
        // zlarfg's own path reads x, and may rescale it, in shared memory.
        const core::Vec<zc> x{col + (k + 2 < n ? k + 2 : n), 1};
#pragma unroll
        for (int q = 0; q < NX; ++q)
          if (k + 2 + lane + 32 * q < n) sts(col[k + 2 + lane + 32 * q], xr[q]);
        t.sync();
        beta = core::zlarfg_scalars(t, n - k - 1, alpha, x, core::znrm2(t, n - k - 2, x), tau, inv);
        t.sync();
#pragma unroll
        for (int q = 0; q < NX; ++q)
          if (k + 2 + lane + 32 * q < n) xr[q] = lds(col[k + 2 + lane + 32 * q]);
      }
#pragma unroll
      for (int q = 0; q < NX; ++q) {
        const int r = k + 2 + lane + 32 * q;
        if (r >= n) continue;
        const zc v = inv * xr[q];
        sts(vs[nb][r], v);
        if (V) V[r + (int64_t)k * n] = v;
      }
      // Rows k - 1 to k + 1 of v (vs[nb] held step k - 2's v, zero above row k - 1).
      if (lane == 0) {
        if (k >= 1) sts(vs[nb][k - 1], zc{0.0, 0.0});
        sts(vs[nb][k], zc{0.0, 0.0});
        sts(vs[nb][k + 1], zc{1.0, 0.0});
        rec[k] = dk;
        rec[n + k] = beta;
        rec[2 * n + 2 * k] = tau.re;
        rec[2 * n + 2 * k + 1] = tau.im;
        tau_s[nb] = tau;
      }
    }
    __syncthreads();
    // (2) The pending update and y = A v into ys[nb]; column k + 1 into col for the next step.
    zc vpr[RR], wpr[RR], yr[RR];
#pragma unroll
    for (int i = 0; i < RR; ++i) {
      const int r = rl + TR * i;
      vpr[i] = lds(vs[pb][r]);
      wpr[i] = lds(wps[r]);
      yr[i] = zc{0.0, 0.0};
    }
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      if (TC * j + TC - 1 <= k) continue;  // the same for the whole block
      const int c = cl + TC * j;
      const zc vc = lds(vs[nb][c]), vpc = lds(vs[pb][c]), wpc = lds(wps[c]);
#pragma unroll
      for (int i = 0; i < RR; ++i) {
        if (TR * i + TR - 1 <= k) continue;
        zc x = rank2(a.get(i, j), vpr[i], wpc, wpr[i], vpc);
        // Only a tile whose rows and columns overlap holds diagonal elements.
        if (TR * i < TC * j + TC && TC * j < TR * i + TR && rl + TR * i == c) x.im = 0.0;
        a.set(i, j, x);
        if (c == k + 1 && rl + TR * i > k) sts(col[rl + TR * i], x);
        yr[i] = fma_acc(yr[i], x, vc);
      }
    }
    // y's rows summed over their lanes, and this warp's share of v^H y = v^H A v (real: A is
    // Hermitian), a row's term once (every lane of a row holds its whole y_r).
    double vy = 0.0;
#pragma unroll
    for (int i = 0; i < RR; ++i) {
      if (TR * i + TR - 1 <= k) continue;
#pragma unroll
      for (int o = TC / 2; o; o >>= 1) {
        yr[i].re += __shfl_xor_sync(0xffffffffu, yr[i].re, o);
        yr[i].im += __shfl_xor_sync(0xffffffffu, yr[i].im, o);
      }
      const zc v = lds(vs[nb][rl + TR * i]);
      vy = fma(yr[i].re, v.re, fma(yr[i].im, v.im, vy));
      if (cl == 0) sts(ys[nb][rl + TR * i], yr[i]);
    }
#pragma unroll
    for (int o = TC; o < 32; o <<= 1) vy += __shfl_xor_sync(0xffffffffu, vy, o);
    if (lane == 0) vys[tid / 32] = vy;
    __syncthreads();
    // (3) This step's update becomes the pending one: alph = -(tau / 2)(tau y)^H v
    // = -(|tau|^2 / 2) v^H A v, the warps' shares summed in every warp (the same bits in each).
    const zc tau = tau_s[nb];
    alph_p = zc{-0.5 * (tau.re * tau.re + tau.im * tau.im) * cuda::warp_sum(lane < NW ? vys[lane] : 0.0), 0.0};
    tau_p = tau;
    // The next step's pending w once, for its update (after its first barrier): wp(r) there, bit
    // for bit. Warp 0 forms its own in step 1, where other warps may still be writing wps.
    for (int r = tid; r < NP; r += NT)
      sts(wps[r], r > k && r < n ? fma2(tau_p, lds(ys[nb][r]), alph_p, lds(vs[nb][r])) : zc{0.0, 0.0});
  }
  // d_n: the last element after the last update (step n - 2's, pending).
#pragma unroll
  for (int i = 0; i < RR; ++i)
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      const int r = rl + TR * i, c = cl + TC * j;
      if (r != n - 1 || c != n - 1) continue;
      const int pb = (n - 2) & 1;
      const zc v = lds(vs[pb][r]), w = fma2(tau_p, lds(ys[pb][r]), alph_p, v);
      rec[r] = (a.get(i, j) - (v * core::conj(w) + w * core::conj(v))).re;
    }
}

}  // namespace heev_reg_reduce
}  // namespace gpu
}  // namespace sgpu
