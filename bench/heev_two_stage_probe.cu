// sgpu_heev_two_stage_probe: how fast a two-stage reduction of a batch of Hermitian matrices to
// tridiagonal form, and the back-transformation it adds for vectors, run on the GPU (one thread
// block per matrix; n <= 512, a multiple of 8):
//   stage 1  dense -> band of width NB (zhetrd_he2hb's scheme): each panel of NB columns factored
//            by Householder QR in registers (zgeqr2, one block reduction a column; zlarft), then
//            the trailing matrix updated from its lower triangle by one Hermitian product
//            X = A (V T) and one rank-2 NB update A -= Y V^H + V Y^H, both over 32 x 32 tiles in
//            global memory with the next tiles' loads in flight; V, U = V T and X in shared memory.
//   stage 2  band -> tridiagonal by Householder bulge chasing (zhetrd_hb2st's scheme, one
//            reflector per bulge): the band and its bulges (2 NB diagonals) in shared memory, one
//            warp per sweep, sweeps pipelined two bulges apart (a sweep's step k touches no element
//            that step k + 2 of the sweep before it touches).
//   Q2       X = Q2 (the product of stage 2's reflectors), as jobz V would apply it to the
//            tridiagonal's eigenvectors: k_q2.
// Checks: the tridiagonal's eigenvalues (LAPACKE_dsterf) against LAPACKE_zheev's on the first
// matrices, max |dw| / (n eps max |w|); B Q2 - Q2 T on the first matrix (B the band), over
// n eps max |B|. A measurement for the design of the library's reduction (kernels/heev_block.cu),
// not a product path: no scaling of tiny or huge reflector norms (zlarfg's), no NaN handling, no
// Q1. Stage 1 also reports where block 0's cycles went.
// Usage: sgpu_heev_two_stage_probe n batch [reps]: NB = 8 with registers for one and for two
// blocks an SM, and NB = 16 where its shared memory fits.
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuda_common.cuh"
#include "heev_probe.cuh"

namespace {

using namespace probe;

__device__ inline cz inv(cz a) {
  const double d = 1.0 / abs2(a);
  return {a.r * d, -a.i * d};
}
__device__ inline double shx(double v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
__device__ inline cz shx(cz v, int o) { return {shx(v.r, o), shx(v.i, o)}; }
__device__ inline double warp_sum(double v) {
  for (int o = 16; o; o >>= 1) v += shx(v, o);
  return v;
}
__device__ inline cz warp_sum(cz v) { return {warp_sum(v.r), warp_sum(v.i)}; }

constexpr int kThreads = 256, kWarps = kThreads / 32;

// zlarfg's reflector without its rescaling: H^H (alpha; x) = (beta; 0), H = I - tau v v^H, v(0) = 1.
__device__ inline void reflector(cz alpha, double xnorm2, double& beta, cz& tau, cz& scale) {
  if (xnorm2 == 0 && alpha.i == 0) {
    beta = alpha.r, tau = mk(0), scale = mk(0);
    return;
  }
  beta = -copysign(sqrt(abs2(alpha) + xnorm2), alpha.r);
  tau = mk((beta - alpha.r) / beta, -alpha.i / beta);
  scale = inv(alpha - mk(beta));
}

// ---- stage 1 ------------------------------------------------------------------------------------
// Rows a thread holds of the panel (n <= 512).
constexpr int kRpt = 2;

// Sum over the block of CNT values per thread (vals), into out (every thread reads them).
template <int CNT>
__device__ __forceinline__ void block_sums(double (&vals)[CNT], double* red, double* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int x = 0; x < CNT; ++x) {
    const double s = warp_sum(vals[x]);
    if (lane == 0) red[warp * CNT + x] = s;
  }
  __syncthreads();
  for (int x = threadIdx.x; x < CNT; x += kThreads) {
    double s = 0;
    for (int w = 0; w < kWarps; ++w) s += red[w * CNT + x];
    out[x] = s;
  }
  __syncthreads();
}

// Column C of the panel's Householder QR (zgeqr2) on rows held in registers, then the next.
template <int NB, int C>
__device__ __forceinline__ void qr_column(cz (&pr)[kRpt][NB], int m, int kk, double* red, double* sums, cz (*rowc)[NB],
                                          cz* taus) {
  constexpr int c = C;
  // One reduction: |x(1:)|^2 (slot 0), then x^H P(c:, cc) for cc > c (slots 1 on); row c's owner
  // posts the row (alpha and P(c, cc)) in rowc[c % 2], which the reduction's barrier publishes.
  constexpr int CNT = 1 + 2 * (NB - c - 1);
  const int tid = threadIdx.x;
  if (c < kk) {
    double vals[CNT];
#pragma unroll
    for (int x = 0; x < CNT; ++x) vals[x] = 0;
#pragma unroll
    for (int s = 0; s < kRpt; ++s) {
      const int i = tid + kThreads * s;
      if (i > c && i < m) vals[0] += abs2(pr[s][c]);
      if (i >= c && i < m)
#pragma unroll
        for (int cc = c + 1; cc < NB; ++cc) {
          const cz d = cj(pr[s][c]) * pr[s][cc];
          vals[1 + 2 * (cc - c - 1)] += d.r, vals[2 + 2 * (cc - c - 1)] += d.i;
        }
      if (i == c)
#pragma unroll
        for (int cc = c; cc < NB; ++cc) rowc[c % 2][cc] = pr[s][cc];
    }
    block_sums<CNT>(vals, red, sums);
    const cz alpha = rowc[c % 2][c];
    double beta;
    cz tau, scale;
    reflector(alpha, sums[0], beta, tau, scale);
    // v = (x - beta e_c) scale, so v^H P(:, cc) = conj(scale) (x^H P(:, cc) - beta P(c, cc)); tau = 0
    // leaves the panel as it is (scale is 0 too).
#pragma unroll
    for (int cc = c + 1; cc < NB; ++cc) {
      const cz xp = mk(sums[1 + 2 * (cc - c - 1)], sums[2 + 2 * (cc - c - 1)]);
      const cz f = cj(tau) * cj(scale) * (xp - beta * rowc[c % 2][cc]);
#pragma unroll
      for (int s = 0; s < kRpt; ++s) {
        const int i = tid + kThreads * s;
        if (i >= c && i < m) pr[s][cc] -= (i == c ? mk(1) : pr[s][c] * scale) * f;
      }
    }
#pragma unroll
    for (int s = 0; s < kRpt; ++s) {
      const int i = tid + kThreads * s;
      if (i == c) pr[s][c] = mk(beta);
      else if (i > c) pr[s][c] = pr[s][c] * scale;
    }
    if (tid == 0) taus[c] = tau;
  }
  if constexpr (C + 1 < NB) qr_column<NB, C + 1>(pr, m, kk, red, sums, rowc, taus);
}

// out(p, q) = sum_i conj(L(i, p)) R(i, q) over m rows of two row-major arrays (row stride ld):
// warp w the rows p = w, w + 8, lanes over i.
template <int NB>
__device__ void gram(const cz* L, const cz* R, int ld, int m, cz (*out)[NB]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int p = warp; p < NB; p += kWarps) {
    cz acc[NB];
#pragma unroll
    for (int q = 0; q < NB; ++q) acc[q] = mk(0);
    for (int i = lane; i < m; i += 32) {
      const cz l = cj(L[i * ld + p]);
#pragma unroll
      for (int q = 0; q < NB; ++q) acc[q] += l * R[i * ld + q];
    }
#pragma unroll
    for (int q = 0; q < NB; ++q) {
      const cz t = warp_sum(acc[q]);
      if (lane == 0) out[p][q] = t;
    }
  }
}

// Stage 1's shared memory: two arrays of rows (m_max rounded up to 32) x NB (row stride NB + 1,
// conflict-free): U then V (slot 0), X then Y (slot 1); and one 32 x 32 tile of A (stride 33).
template <int NB>
struct S1Smem {
  static constexpr int SR = NB + 1, TS = 33;
  static __host__ __device__ int rows(int n) { return (n - NB + 31) / 32 * 32; }
  static __host__ __device__ size_t bytes(int n) { return sizeof(cz) * ((size_t)2 * rows(n) * SR + 32 * TS); }
};

// The 32 x 32 tile (I, K) of the trailing matrix: this thread's four elements (rows lane, columns
// warp + 8 j), zero outside the matrix.
__device__ inline void load_tile(const cz* A22, int n, int m, int I, int K, cz (&r)[4]) {
  const int i = I * 32 + (threadIdx.x & 31);
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int k = K * 32 + (threadIdx.x >> 5) + 8 * j;
    r[j] = i < m && k < m ? A22[(int64_t)k * n + i] : mk(0);
  }
}

// A complex sum of products as four real ones, so that consecutive terms do not wait on each other.
struct Acc {
  double rr = 0, ii = 0, ri = 0, ir = 0;
  __device__ void fma(cz a, cz b) { rr += a.r * b.r, ii += a.i * b.i, ri += a.r * b.i, ir += a.i * b.r; }
  __device__ cz sum() const { return {rr - ii, ri + ir}; }
};

// The lower tiles (I, K) column by column; next() is false past the last.
struct TileWalk {
  int tiles, I = 0, K = 0;
  __device__ explicit TileWalk(int t) : tiles(t) {}
  __device__ bool next() {
    if (K < tiles && ++I == tiles) I = ++K;
    return K < tiles;
  }
};

// Cycles block 0 spends in each part of stage 1 (panel QR, T and U, the product, Y, the update).
__device__ unsigned long long g_prof[8];

// Per matrix in global workspace: V (n x NB row-major), for the second use after U took its place.
// MB: blocks an SM the registers must allow (1: up to 255 registers a thread; 2: 128).
template <int NB, int MB>
__global__ void __launch_bounds__(kThreads, MB) k_stage1(cz* A, int n, int64_t batch, cz* work) {
  using SM = S1Smem<NB>;
  constexpr int SR = SM::SR, TS = SM::TS;
  constexpr int CNT = 2 * NB - 1;  // qr_column's largest reduction
  constexpr int QPT = NB / 4;      // outputs a thread computes of a tile's product (4 threads a row)
  extern __shared__ cz s1[];
  __shared__ cz T[NB][NB], G[NB][NB], M[NB][NB];
  __shared__ cz taus[NB], rowc[2][NB];
  __shared__ double red[kWarps * CNT], sums[CNT];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int R = SM::rows(n);
  cz* VU = s1;             // U during the product, V otherwise
  cz* XY = s1 + R * SR;    // X, then Y
  cz* tile = XY + R * SR;  // tile(i, k) = tile[i TS + k]
  unsigned long long prof[5] = {0, 0, 0, 0, 0}, t0 = clock64();
  auto mark = [&](int x) {
    const unsigned long long t = clock64();
    prof[x] += t - t0;
    t0 = t;
  };
  for (int64_t b = blockIdx.x; b < batch; b += gridDim.x) {
    cz* a = A + b * n * n;
    cz* Vg = work + b * n * NB;
    for (int j = 0;; j += NB) {
      const int r0 = j + NB, m = n - r0;
      if (m < 2) break;
      const int kk = min(NB, m - 1), tiles = (m + 31) / 32;
      cz* P = a + (int64_t)j * n + r0;  // the panel below the band: P(i, c) = P[c n + i]
      // Householder QR of the panel in registers: thread tid holds rows tid + 256 s.
      cz pr[kRpt][NB];
#pragma unroll
      for (int s = 0; s < kRpt; ++s) {
        const int i = tid + kThreads * s;
#pragma unroll
        for (int c = 0; c < NB; ++c) pr[s][c] = i < m ? P[c * n + i] : mk(0);
      }
      qr_column<NB, 0>(pr, m, kk, red, sums, rowc, taus);
      // R and the reflectors back to the panel; V to shared memory (zero rows up to R) and to the
      // workspace.
#pragma unroll
      for (int s = 0; s < kRpt; ++s) {
        const int i = tid + kThreads * s;
        if (i < m)
#pragma unroll
          for (int c = 0; c < NB; ++c) P[c * n + i] = pr[s][c];
        if (i < R)
#pragma unroll
          for (int c = 0; c < NB; ++c) {
            const cz v = i >= m || c >= kk || i < c ? mk(0) : i == c ? mk(1) : pr[s][c];
            VU[i * SR + c] = v;
            if (i < m) Vg[i * NB + c] = v;
            XY[i * SR + c] = mk(0);
          }
      }
      if (tid < NB && tid >= kk) taus[tid] = mk(0);
      __syncthreads();
      mark(0);
      // G = V^H V, then T (zlarft, forward, columnwise): lane p its row.
      gram<NB>(VU, VU, SR, m, G);
      __syncthreads();
      if (tid < NB) {
        const int p = tid;
        for (int q = 0; q < NB; ++q) {
          if (q < p) T[p][q] = mk(0);
          else if (q == p) T[p][q] = taus[q];
          else {
            cz t = mk(0);
            for (int r = p; r < q; ++r) t += T[p][r] * G[r][q];
            T[p][q] = mk(-1) * taus[q] * t;
          }
        }
      }
      __syncthreads();
      // U = V T in place, a thread a row (columns from the last: U(i, q) needs V(i, p <= q)).
      for (int i = tid; i < m; i += kThreads)
#pragma unroll
        for (int q = NB - 1; q >= 0; --q) {
          cz u = mk(0);
#pragma unroll
          for (int p = 0; p <= q; ++p) u += VU[i * SR + p] * T[p][q];
          VU[i * SR + q] = u;
        }
      // X = A22 U over the lower tiles (I, K), column by column: tile (I, K) adds A_IK U_K to X_I
      // (threads 0-127) and A_IK^H U_I to X_K (threads 128-255); a diagonal tile, Hermitian, only
      // the first. The next tile's loads are in flight during a tile's products.
      cz* A22 = a + (int64_t)r0 * n + r0;
      __syncthreads();
      mark(1);
      {
        TileWalk w(tiles), ahead(tiles);
        cz cur[4], nx[4];
        load_tile(A22, n, m, ahead.I, ahead.K, cur);
        if (ahead.next()) load_tile(A22, n, m, ahead.I, ahead.K, nx);
        const int half = tid >> 7, h = tid & 127, row = h / 4, q0 = (h % 4) * QPT;
        while (w.K < tiles) {
#pragma unroll
          for (int x = 0; x < 4; ++x) tile[lane * TS + warp + 8 * x] = cur[x];
          __syncthreads();
          const int cI = w.I, cK = w.K;
          w.next();
#pragma unroll
          for (int x = 0; x < 4; ++x) cur[x] = nx[x];
          if (ahead.next()) load_tile(A22, n, m, ahead.I, ahead.K, nx);
          Acc acc[QPT];
          if (cI == cK) {
            if (half == 0) {
              for (int k = 0; k < 32; ++k) {
                cz h2 = k < row ? tile[row * TS + k] : k == row ? mk(tile[row * TS + k].r) : cj(tile[k * TS + row]);
#pragma unroll
                for (int x = 0; x < QPT; ++x) acc[x].fma(h2, VU[(cK * 32 + k) * SR + q0 + x]);
              }
#pragma unroll
              for (int x = 0; x < QPT; ++x) XY[(cI * 32 + row) * SR + q0 + x] += acc[x].sum();
            }
          } else if (half == 0) {
            for (int k = 0; k < 32; ++k) {
              const cz t = tile[row * TS + k];
#pragma unroll
              for (int x = 0; x < QPT; ++x) acc[x].fma(t, VU[(cK * 32 + k) * SR + q0 + x]);
            }
#pragma unroll
            for (int x = 0; x < QPT; ++x) XY[(cI * 32 + row) * SR + q0 + x] += acc[x].sum();
          } else {
            for (int i = 0; i < 32; ++i) {
              const cz t = cj(tile[i * TS + row]);
#pragma unroll
              for (int x = 0; x < QPT; ++x) acc[x].fma(t, VU[(cI * 32 + i) * SR + q0 + x]);
            }
#pragma unroll
            for (int x = 0; x < QPT; ++x) XY[(cK * 32 + row) * SR + q0 + x] += acc[x].sum();
          }
          __syncthreads();
        }
      }
      mark(2);
      // V back in place of U; S = V^H X (into G), M = T^H S, Y = X - V M / 2 in place of X.
      for (int e = tid; e < m * NB; e += kThreads) VU[(e / NB) * SR + e % NB] = Vg[e];
      __syncthreads();
      gram<NB>(VU, XY, SR, m, G);
      __syncthreads();
      for (int e = tid; e < NB * NB; e += kThreads) {
        const int p = e / NB, q = e % NB;
        cz t = mk(0);
        for (int r = 0; r <= p; ++r) t += cj(T[r][p]) * G[r][q];
        M[p][q] = t;
      }
      __syncthreads();
      for (int e = tid; e < m * NB; e += kThreads) {
        const int i = e / NB, q = e % NB;
        cz t = mk(0);
#pragma unroll
        for (int p = 0; p < NB; ++p) t += VU[i * SR + p] * M[p][q];
        XY[i * SR + q] -= 0.5 * t;
      }
      __syncthreads();
      mark(3);
      // A22 -= Y V^H + V Y^H over the lower tiles: this thread's four elements of each (rows lane,
      // columns warp + 8 j), the next tile's loads in flight during a tile's update.
      {
        TileWalk w(tiles), ahead(tiles);
        cz cur[4], nx[4], nx2[4];
        load_tile(A22, n, m, ahead.I, ahead.K, nx);
        if (ahead.next()) load_tile(A22, n, m, ahead.I, ahead.K, nx2);
        while (w.K < tiles) {
#pragma unroll
          for (int x = 0; x < 4; ++x) cur[x] = nx[x], nx[x] = nx2[x];
          const int cI = w.I, cK = w.K;
          w.next();
          if (ahead.next()) load_tile(A22, n, m, ahead.I, ahead.K, nx2);
          const int i = cI * 32 + lane;
          if (i < m) {
            cz yr[NB], vr[NB];
#pragma unroll
            for (int q = 0; q < NB; ++q) yr[q] = XY[i * SR + q], vr[q] = VU[i * SR + q];
#pragma unroll
            for (int x = 0; x < 4; ++x) {
              const int k = cK * 32 + warp + 8 * x;
              if (k < m && k <= i) {
                Acc s1, s2;
#pragma unroll
                for (int q = 0; q < NB; ++q) s1.fma(yr[q], cj(VU[k * SR + q])), s2.fma(vr[q], cj(XY[k * SR + q]));
                cz v = cur[x] - s1.sum() - s2.sum();
                if (k == i) v.i = 0;
                A22[(int64_t)k * n + i] = v;
              }
            }
          }
        }
      }
      __syncthreads();
      mark(4);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (int x = 0; x < 5; ++x) g_prof[x] = prof[x];
}

// ---- stage 2 ------------------------------------------------------------------------------------
// The band and its bulges in shared memory: column c, rows c .. c + 2 NB - 1 at sb[c LDB + r - c].
template <int NB>
struct Band {
  static constexpr int LDB = 2 * NB;
  cz* sb;
  __device__ cz& at(int r, int c) const { return sb[c * LDB + (r - c)]; }
};

template <int NB>
__host__ __device__ inline int sweep_steps(int i, int n) {
  return (n - (i + 1) + NB - 1) / NB;  // steps k with i + 1 + k NB < n
}

// Where stage 2 stores reflector H(i, k) for k_q2, which applies them last first in time steps:
// H(i, k) at time 2 (n - 3 - i) + steps(i) - 1 - k, position ihi(t) - i among the (at most
// maxa) reflectors of its time step, so that a time step's reflectors lie side by side.
template <int NB>
struct Q2Order {
  int n, S, tt, maxa;
  __host__ __device__ explicit Q2Order(int n_) : n(n_), S(sweep_steps<NB>(0, n_)), tt(2 * (n_ - 3) + S), maxa(S / 2 + 2) {}
  __host__ __device__ int ihi(int t) const { return n - 3 - max(0, (t - S + 2) / 2); }
  __host__ __device__ int ilo(int t) const { return max(0, n - 3 - t / 2); }
  __host__ __device__ int time(int i, int k) const { return 2 * (n - 3 - i) + sweep_steps<NB>(i, n) - 1 - k; }
  __host__ __device__ int64_t slot(int64_t b, int i, int k) const {
    const int t = time(i, k);
    return (b * tt + t) * maxa + (ihi(t) - i);
  }
  __host__ __device__ size_t slots() const { return (size_t)tt * maxa; }  // per matrix
};

// A waiting sweep's pause between polls, so that polling leaves the issue slots to the sweeps at work.
constexpr unsigned kSpinNs = 32;

template <int NB>
__global__ void __launch_bounds__(kThreads) k_stage2(const cz* A, int n, int64_t batch, double* d, double* e, cz* ec,
                                                     cz* refl, cz* rtau) {
  const Q2Order<NB> ord(n);
  extern __shared__ cz sb[];
  __shared__ cz vb[kWarps][2][NB], wb[kWarps][NB];
  __shared__ cz taub[kWarps][2];
  __shared__ int prog[kWarps];
  constexpr int G = 32 / NB;  // lane groups: lane = lg NB + lr
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, lr = lane % NB, lg = lane / NB;
  const Band<NB> B{sb};
  for (int64_t b = blockIdx.x; b < batch; b += gridDim.x) {
    const cz* a = A + b * n * n;
    for (int x = tid; x < n * 2 * NB; x += kThreads) {
      const int c = x / (2 * NB), dd = x % (2 * NB), r = c + dd;
      cz v = dd <= NB && r < n ? a[(int64_t)c * n + r] : mk(0);
      if (dd == 0) v.i = 0;
      sb[x] = v;
    }
    if (tid < kWarps) prog[tid] = -1;
    __syncthreads();
    volatile int* vprog = prog;
    for (int i = warp; i < n - 2; i += kWarps) {
      const int ns = sweep_steps<NB>(i, n);
      const int nprev = i > 0 ? sweep_steps<NB>(i - 1, n) : 0;
      for (int k = 0; k < ns; ++k) {
        if (i > 0) {
          const int target = (i - 1) * 1024 + min(k + 2, nprev);
          while (vprog[(i - 1) % kWarps] < target) __nanosleep(kSpinNs);
          __threadfence_block();
        }
        const int p = i + 1 + k * NB, L = min(NB, n - p), pp = p - NB;
        const int ck = k == 0 ? i : pp;
        cz* vcur = vb[warp][k & 1];
        // (a) H_{k-1} from the right on rows [p, p + L) x columns [pp, pp + NB).
        if (k > 0) {
          const cz* vp = vb[warp][(k - 1) & 1];
          const cz tp = taub[warp][(k - 1) & 1];
          cz s = mk(0);
          if (lr < L)
            for (int c = lg; c < NB; c += G) s += B.at(p + lr, pp + c) * vp[c];
          for (int o = NB; o < 32; o <<= 1) s += shx(s, o);
          const cz f = tp * s;
          if (lr < L)
            for (int c = lg; c < NB; c += G) B.at(p + lr, pp + c) -= f * cj(vp[c]);
          __syncwarp();
        }
        // (b) The reflector that annihilates column ck below row p.
        const cz xl = lane < L ? B.at(p + lane, ck) : mk(0);
        const double xn = warp_sum(lane >= 1 ? abs2(xl) : 0.0);
        const cz alpha = mk(__shfl_sync(0xffffffffu, xl.r, 0), __shfl_sync(0xffffffffu, xl.i, 0));
        double beta;
        cz tau, scale;
        reflector(alpha, xn, beta, tau, scale);
        if (lane < NB) vcur[lane] = lane == 0 ? mk(1) : lane < L ? xl * scale : mk(0);
        if (lane == 0) taub[warp][k & 1] = tau;
        if (refl) {
          const int64_t slot = ord.slot(b, i, k);
          if (lane < NB) refl[slot * NB + lane] = lane == 0 ? mk(1) : lane < L ? xl * scale : mk(0);
          if (lane == 0) rtau[slot] = tau;
        }
        if (lane < L && !(tau.r == 0 && tau.i == 0)) B.at(p + lane, ck) = lane == 0 ? mk(beta) : mk(0);
        __syncwarp();
        // (c) H_k^H from the left on rows [p, p + L) x columns (pp, pp + NB).
        if (k > 0) {
          const int jj = lr;  // column pp + 1 + jj
          cz w = mk(0);
          if (jj < NB - 1)
            for (int l = lg; l < L; l += G) w += cj(vcur[l]) * B.at(p + l, pp + 1 + jj);
          for (int o = NB; o < 32; o <<= 1) w += shx(w, o);
          const cz f = cj(tau) * w;
          if (jj < NB - 1)
            for (int l = lg; l < L; l += G) B.at(p + l, pp + 1 + jj) -= vcur[l] * f;
        }
        // (d) H_k^H D H_k on the diagonal block D = A[p : p + L, p : p + L] (zhetd2's update).
        {
          cz y = mk(0);
          if (lr < L)
            for (int c = lg; c < L; c += G) {
              cz dv = c < lr ? B.at(p + lr, p + c) : c == lr ? mk(B.at(p + lr, p + lr).r) : cj(B.at(p + c, p + lr));
              y += dv * vcur[c];
            }
          for (int o = NB; o < 32; o <<= 1) y += shx(y, o);
          y = tau * y;
          const cz yv = warp_sum(lg == 0 && lr < L ? cj(y) * vcur[lr] : mk(0));
          const cz al = mk(-0.5) * tau * yv;
          const cz w = y + al * vcur[lr];
          if (lg == 0) wb[warp][lr] = w;
          __syncwarp();
          if (lr < L)
            for (int c = lg; c <= lr; c += G) {
              cz& x = B.at(p + lr, p + c);
              x -= vcur[lr] * cj(wb[warp][c]) + w * cj(vcur[c]);
              if (c == lr) x.i = 0;
            }
        }
        __syncwarp();
        __threadfence_block();
        if (lane == 0) vprog[warp] = i * 1024 + k + 1;
      }
      __syncwarp();
      if (lane == 0) vprog[warp] = i * 1024 + 1023;
    }
    __syncthreads();
    for (int x = tid; x < n; x += kThreads) {
      d[b * n + x] = B.at(x, x).r;
      if (x + 1 < n) e[b * n + x] = sqrt(abs2(B.at(x + 1, x)));
      if (x + 1 < n) ec[b * n + x] = B.at(x + 1, x);
    }
    __syncthreads();
  }
}

// ---- the back-transformation of stage 2 ---------------------------------------------------------
// X = Q2 Z (Z = I here), Q2 = H(0, 0) H(0, 1) ... H(n - 3, last) in the order stage 2 made them:
// one block per CW columns of X (all n rows in shared memory, row-major). The reflectors are
// applied last first, in time steps between block barriers (Q2Order): sweep i's step k (rows
// i + 1 + k NB, NB of them) at time 2 (n - 3 - i) + (steps(i) - 1 - k), which puts every H(i, k)
// after the H(i + 1, k) and H(i + 1, k - 1) it overlaps; the reflectors of one time step act on
// disjoint rows, a warp each (lanes: CW columns x 32 / CW row groups). A time step's reflectors,
// side by side in memory, are loaded into shared memory during the time step before.
// kCw: the columns of the narrowest slab (n a multiple of it).
constexpr int kCw = 8;

template <int NB, int CW>
__global__ void __launch_bounds__(kThreads) k_q2(const cz* refl, const cz* rtau, int n, int64_t batch, cz* X) {
  extern __shared__ cz xs[];
  constexpr int RG = 32 / CW;
  const Q2Order<NB> ord(n);
  cz* vb = xs + n * CW;             // [2][maxa NB]
  cz* tb = vb + 2 * ord.maxa * NB;   // [2][maxa]
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, col = lane % CW, rg = lane / CW;
  const int slabs = n / CW, per = ord.maxa * (NB + 1);
  for (int64_t job = blockIdx.x; job < batch * slabs; job += gridDim.x) {
    const int64_t b = job / slabs;
    const int c0 = (int)(job % slabs) * CW;
    const cz* rb = refl + b * ord.slots() * NB;
    const cz* tbg = rtau + b * ord.slots();
    for (int x = tid; x < n * CW; x += kThreads) xs[x] = mk(x / CW == c0 + x % CW ? 1.0 : 0.0);
    // Time step t's reflectors (maxa NB elements and maxa taus) into buffer t % 2.
    cz pre[3];
    auto fetch = [&](int t) {
#pragma unroll
      for (int q = 0; q < 3; ++q) {
        const int e = tid + q * kThreads;
        pre[q] = t < ord.tt && e < per ? (e < ord.maxa * NB ? rb[(int64_t)t * ord.maxa * NB + e]
                                                            : tbg[(int64_t)t * ord.maxa + e - ord.maxa * NB])
                                       : mk(0);
      }
    };
    auto stash = [&](int t) {
#pragma unroll
      for (int q = 0; q < 3; ++q) {
        const int e = tid + q * kThreads;
        if (e < per) {
          if (e < ord.maxa * NB) vb[(t & 1) * ord.maxa * NB + e] = pre[q];
          else tb[(t & 1) * ord.maxa + e - ord.maxa * NB] = pre[q];
        }
      }
    };
    fetch(0);
    stash(0);
    __syncthreads();
    for (int t = 0; t < ord.tt; ++t) {
      fetch(t + 1);
      const int ihi = ord.ihi(t), ilo = ord.ilo(t);
      for (int pos = warp; pos <= ihi - ilo; pos += kWarps) {
        const int i = ihi - pos, si = sweep_steps<NB>(i, n), tt = t - 2 * (n - 3 - i);
        if (tt < 0 || tt >= si) continue;
        const int k = si - 1 - tt, p = i + 1 + k * NB, L = min(NB, n - p);
        const cz* v = vb + (t & 1) * ord.maxa * NB + pos * NB;
        const cz tau = tb[(t & 1) * ord.maxa + pos];
        cz w = mk(0);
        for (int l = rg; l < L; l += RG) w += cj(v[l]) * xs[(p + l) * CW + col];
        for (int o = CW; o < 32; o <<= 1) w += shx(w, o);
        const cz f = tau * w;
        for (int l = rg; l < L; l += RG) xs[(p + l) * CW + col] -= v[l] * f;
      }
      stash(t + 1);
      __syncthreads();
    }
    for (int x = tid; x < n * CW; x += kThreads) X[b * n * n + (int64_t)(c0 + x % CW) * n + x / CW] = xs[x];
    __syncthreads();
  }
}

// Device buffers of one run: the input (A0) and its working copy, stage 1's workspace, the
// tridiagonal (d, |e|, complex e), stage 2's reflectors (NB each, and tau) and Q2.
struct Bufs {
  const cz* A0;
  cz *A, *work;
  double *d, *e;
  cz *ec, *refl, *rtau, *X;
};

template <int NB>
size_t q2_bytes(int n, int cw) {
  const Q2Order<NB> ord(n);
  return sizeof(cz) * ((size_t)n * cw + 2 * ord.maxa * (NB + 1));
}

// Best time of k_q2 with CW columns a block over the reflectors stage 2 left (-1: its shared
// memory does not fit).
template <int NB, int CW>
double time_q2(int n, int64_t batch, int reps, const Bufs& bf, cudaEvent_t ev[3]) {
  int optin = 0, sms = 0, per = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t bytes = q2_bytes<NB>(n, CW);
  if (bytes > (size_t)optin || n % CW) return -1;
  CK(cudaFuncSetAttribute(k_q2<NB, CW>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k_q2<NB, CW>, kThreads, bytes));
  const unsigned g = (unsigned)std::min<int64_t>(batch * (n / CW), (int64_t)sms * per * 8);
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(ev[0]));
    k_q2<NB, CW><<<g, kThreads, bytes>>>(bf.refl, bf.rtau, n, batch, bf.X);
    CK(cudaGetLastError());
    CK(cudaEventRecord(ev[1]));
    CK(cudaEventSynchronize(ev[1]));
    float a = 0;
    CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
    best = std::min(best, a);
  }
  return best;
}

// max |B X - X T| / (n eps max |B|) for one matrix: B the band (lower, width NB, column-major n x n
// storage of stage 1's output), X = Q2, T the tridiagonal (d, complex e below the diagonal).
double q2_residual(int n, int NB, const std::vector<cz>& band, const std::vector<cz>& X, const std::vector<double>& d,
                   const std::vector<cz>& ec) {
  auto bel = [&](int r, int c) -> cz {  // B(r, c) from the lower band
    if (std::abs(r - c) > NB) return mk(0);
    if (r == c) return mk(band[(size_t)c * n + r].r);
    return r > c ? band[(size_t)c * n + r] : cj(band[(size_t)r * n + c]);
  };
  auto tel = [&](int r, int c) -> cz {
    if (r == c) return mk(d[r]);
    if (r == c + 1) return ec[c];
    if (c == r + 1) return cj(ec[r]);
    return mk(0);
  };
  double bn = 0, res = 0;
  for (int r = 0; r < n; ++r)
    for (int c = std::max(0, r - NB); c <= std::min(n - 1, r + NB); ++c) bn = std::max(bn, std::sqrt(abs2(bel(r, c))));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      cz acc = mk(0);
      for (int k = std::max(0, r - NB); k <= std::min(n - 1, r + NB); ++k) acc += bel(r, k) * X[(size_t)c * n + k];
      for (int k = std::max(0, c - 1); k <= std::min(n - 1, c + 1); ++k) acc -= X[(size_t)k * n + r] * tel(k, c);
      res = std::max(res, std::sqrt(abs2(acc)));
    }
  return res / (n * 2.220446049250313e-16 * bn);
}

template <int NB, int MB>
bool run(int n, int64_t batch, int reps, const Bufs& bf, const std::vector<cz>& host, cudaEvent_t ev[3]) {
  const Q2Order<NB> ord(n);
  const size_t band = sizeof(cz) * (size_t)n * 2 * NB, q2b = q2_bytes<NB>(n, kCw);
  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  if (band + sizeof(cz) * kWarps * 3 * NB + 64 * kWarps > (size_t)optin) return false;
  const size_t s1b = S1Smem<NB>::bytes(n);
  if (s1b + 16 * 1024 > (size_t)optin) return false;
  CK(cudaFuncSetAttribute(k_stage1<NB, MB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s1b));
  CK(cudaFuncSetAttribute(k_stage2<NB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)band));
  CK(cudaFuncSetAttribute(k_q2<NB, kCw>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)q2b));
  int per1 = 0, per2 = 0, per3 = 0, sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per1, k_stage1<NB, MB>, kThreads, s1b));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per2, k_stage2<NB>, kThreads, band));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per3, k_q2<NB, kCw>, kThreads, q2b));
  const unsigned g = (unsigned)std::min<int64_t>(batch, 1 << 30);
  const unsigned g3 = (unsigned)std::min<int64_t>(batch * (n / kCw), (int64_t)sms * per3 * 8);
  auto stage1 = [&] {
    k_stage1<NB, MB><<<g, kThreads, s1b>>>(bf.A, n, batch, bf.work);
    CK(cudaGetLastError());
  };
  auto stage2 = [&] {
    k_stage2<NB><<<g, kThreads, band>>>(bf.A, n, batch, bf.d, bf.e, bf.ec, bf.refl, bf.rtau);
    CK(cudaGetLastError());
  };
  auto q2 = [&] {
    k_q2<NB, kCw><<<g3, kThreads, q2b>>>(bf.refl, bf.rtau, n, batch, bf.X);
    CK(cudaGetLastError());
  };
  std::vector<float> t1, t2, t3;
  for (int r = 0; r < reps; ++r) {
    CK(cudaMemcpy(bf.A, bf.A0, sizeof(cz) * n * n * batch, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(ev[0]));
    stage1();
    CK(cudaEventRecord(ev[1]));
    stage2();
    CK(cudaEventRecord(ev[2]));
    CK(cudaEventSynchronize(ev[2]));
    float a = 0, c = 0;
    CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
    CK(cudaEventElapsedTime(&c, ev[1], ev[2]));
    t1.push_back(a), t2.push_back(c);
    CK(cudaEventRecord(ev[0]));
    q2();
    CK(cudaEventRecord(ev[1]));
    CK(cudaEventSynchronize(ev[1]));
    CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
    t3.push_back(a);
  }
  const double q2w16 = time_q2<NB, 16>(n, batch, reps, bf, ev), q2w32 = time_q2<NB, 32>(n, batch, reps, bf, ev);
  unsigned long long prof[8];
  CK(cudaMemcpyFromSymbol(prof, g_prof, sizeof prof));
  int khz = 0;
  CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  std::printf("  stage 1, block 0, ms: QR %.3f, T and U %.3f, product %.3f, Y %.3f, update %.3f\n", prof[0] / (khz * 1.0),
              prof[1] / (khz * 1.0), prof[2] / (khz * 1.0), prof[3] / (khz * 1.0), prof[4] / (khz * 1.0));
  std::sort(t1.begin(), t1.end());
  std::sort(t2.begin(), t2.end());
  std::sort(t3.begin(), t3.end());
  // Eigenvalues of the tridiagonal against zheev's on the first matrices.
  const int check = (int)std::min<int64_t>(batch, 8);
  std::vector<double> hd(n * check), he(n * check);
  CK(cudaMemcpy(hd.data(), bf.d, sizeof(double) * n * check, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(he.data(), bf.e, sizeof(double) * n * check, cudaMemcpyDeviceToHost));
  const double worst = eig_ratio(n, check, host, hd, he);
  // Q2 on the first matrix: B Q2 = Q2 T.
  CK(cudaMemcpy(bf.A, bf.A0, sizeof(cz) * n * n * batch, cudaMemcpyDeviceToDevice));
  stage1();
  std::vector<cz> hb((size_t)n * n), hx((size_t)n * n), hec(n);
  std::vector<double> hd0(n);
  CK(cudaMemcpy(hb.data(), bf.A, sizeof(cz) * n * n, cudaMemcpyDeviceToHost));
  stage2();
  q2();
  CK(cudaMemcpy(hx.data(), bf.X, sizeof(cz) * n * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hd0.data(), bf.d, sizeof(double) * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hec.data(), bf.ec, sizeof(cz) * n, cudaMemcpyDeviceToHost));
  const double q2r = q2_residual(n, NB, hb, hx, hd0, hec);
  std::printf("| %4d | %6lld | %2d/%d | %8.3f | %8.3f | %8.3f | %8.3f | %d, %d, %d | %.3g | %8.3f, %8.3f, %8.3f | %.3g |\n",
              n, (long long)batch, NB, MB, t1[0], t2[0], t1[0] + t2[0], t1[t1.size() / 2] + t2[t2.size() / 2], per1, per2,
              per3, worst, t3[0], q2w16, q2w32, q2r);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s n batch [reps]\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const int64_t batch = std::atoll(argv[2]);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("no GPU: nothing to measure\n");
    return 0;
  }
  if (n < 16 || n % kCw || batch < 1 || reps < 1) {
    std::fprintf(stderr, "n: a multiple of %d from 16\n", kCw);
    return 2;
  }
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cz> host((size_t)n * n * batch);
  for (auto& z : host) z = mk(u(rng), u(rng));
  cz *A0, *A, *work, *ec, *refl, *rtau, *X;
  double *d, *e;
  // Stage 2's reflectors in k_q2's order (Q2Order), NB elements and a tau each.
  const size_t slots = std::max(Q2Order<8>(n).slots(), Q2Order<16>(n).slots()) * batch;
  const size_t relems = std::max(Q2Order<8>(n).slots() * 8, Q2Order<16>(n).slots() * 16) * batch;
  CK(cudaMalloc(&A0, sizeof(cz) * host.size()));
  CK(cudaMalloc(&A, sizeof(cz) * host.size()));
  CK(cudaMalloc(&X, sizeof(cz) * host.size()));
  CK(cudaMalloc(&work, sizeof(cz) * 16 * (size_t)n * batch));
  CK(cudaMalloc(&d, sizeof(double) * n * batch));
  CK(cudaMalloc(&e, sizeof(double) * n * batch));
  CK(cudaMalloc(&ec, sizeof(cz) * n * batch));
  CK(cudaMalloc(&refl, sizeof(cz) * relems));
  CK(cudaMalloc(&rtau, sizeof(cz) * slots));
  CK(cudaMemcpy(A0, host.data(), sizeof(cz) * host.size(), cudaMemcpyHostToDevice));
  const Bufs bf{A0, A, work, d, e, ec, refl, rtau, X};
  cudaEvent_t ev[3];
  for (auto& x : ev) CK(cudaEventCreate(&x));
  std::printf("| n | batch | NB/MB | stage 1 ms | stage 2 ms | sum (best) | sum (median) | blocks/SM 1, 2, Q2 | eig ratio | Q2 ms, 8 / 16 / 32 columns a block | Q2 ratio (8) |\n");
  run<8, 1>(n, batch, reps, bf, host, ev);
  run<8, 2>(n, batch, reps, bf, host, ev);
  if (!run<16, 1>(n, batch, reps, bf, host, ev)) std::printf("| %4d | NB 16: does not fit |\n", n);
  return 0;
}
