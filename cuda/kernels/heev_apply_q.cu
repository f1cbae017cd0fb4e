// zheev's phase 3 with vectors on the fp64 tensor cores: X = Q X, Q = H(1) ... H(n-1), in passes
// of kNb reflectors from the last, each I - V T V^H (zunmqr's blocked form, zlarft's forward
// columnwise T). Two kernels:
//   k_t:     a block per (pass, matrix): S = V^H V, then T from S and tau as zlarft.
//   k_apply: a block of four warps per (16 columns of X, matrix): the columns in shared memory
//            for every pass; Y = V^H X, Y2 = T Y, X -= V Y2 as 8 x 8 x 4 fp64 MMAs, four real ones
//            a complex product, V and T read from global memory (L2: a matrix's column blocks run
//            side by side).
// The columns' blocks and the cuBLAS passes they replace do the same flops; what the kernel saves
// is the launches, the round trips of X, Y and Y2 through global memory, and the small-k GEMMs'
// low tensor-core use.
#include <cuda_runtime.h>

#include "core/defs.hpp"
#include "backend.hpp"
#include "device/fault.hpp"
#include "kernels/heev_apply_q.hpp"

namespace sgpu {
namespace gpu {
namespace heev_apply_q {

using core::zc;

namespace {

constexpr int kThreads = 128;  // four warps: warp w takes reflectors 8w..8w+7 of a pass
static_assert(kNb == 8 * (kThreads / 32), "a warp's 8 reflectors");
constexpr int kCols = 16;      // columns of X a block
constexpr int kChunk = 32;     // k_t: rows of V in shared memory at a time

__host__ __device__ inline int passes(int n) { return (n - 1 + kNb - 1) / kNb; }

// Pass p (0 = the last reflectors): reflectors i0..i0 + k - 1 (1-based), on rows i0 + 1..n, m of them.
struct Pass {
  int i0, k, m;
};
__device__ inline Pass pass_of(int n, int p) {
  const int i1 = n - 1 - p * kNb, i0 = i1 - kNb + 1 > 1 ? i1 - kNb + 1 : 1;
  return Pass{i0, i1 - i0 + 1, n - i0};
}

// d += a b on the fp64 tensor cores, 8 x 8 x 4: lane l holds A(l / 4, l % 4), B(l % 4, l / 4) and
// D(l / 4, 2 (l % 4) + 0..1).
__device__ __forceinline__ void mma(double (&d)[2], double a, double b) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+d"(d[0]), "+d"(d[1])
               : "d"(a), "d"(b));
#else
  __trap();  // unreachable: serves() admits devices of compute capability 8.0 and above only
#endif
}

// ---- T ----------------------------------------------------------------------------------------------

// S(a, c) = V(:, a)^H V(:, c) for a < c < k over row chunks (8 x 8 x 4 MMAs), then row r of T
// (r < k) by thread r alone: T(r, r) = tau_r, T(r, j) = -tau_j sum_{l = r..j-1} T(r, l) S(l, j).
// T goes out column-major, kNb x kNb, zeros below the diagonal and beyond k.
__global__ void __launch_bounds__(kThreads) k_t(const zc* __restrict__ V, const zc* __restrict__ tau, zc* T, int n) {
  __shared__ zc sv[kChunk][kNb];
  __shared__ zc ss[kNb][kNb + 1];  // S, then T by rows
  const int tid = threadIdx.x, p = blockIdx.x, P = gridDim.x;  // P: passes(n)
  const int64_t b = blockIdx.y;
  const Pass ps = pass_of(n, p);
  const zc* Vb = V + b * (int64_t)n * n + ps.i0 + (int64_t)(ps.i0 - 1) * n;  // V(rr, j) = Vb[rr + j n]
  // S's upper 8 x 8 tiles (ta <= tc: 10 of them) as MMAs, warp w taking tiles w, w + 4, w + 8 of
  // the list below; each tile's accumulators kept across the row chunks.
  constexpr int kTiles = (kNb / 8) * (kNb / 8 + 1) / 2, kPer = (kTiles + 3) / 4;
  const int lane = tid & 31, w = tid >> 5, g = lane >> 2, q = lane & 3;
  int ta[kPer], tc[kPer];
#pragma unroll
  for (int e = 0; e < kPer; ++e) {
    int t = w + 4 * e < kTiles ? w + 4 * e : 0, r = 0;
    while (t >= kNb / 8 - r) t -= kNb / 8 - r++;
    ta[e] = w + 4 * e < kTiles ? r : -1;
    tc[e] = r + t;
  }
  double sr[kPer][2] = {}, si[kPer][2] = {};
  for (int r0 = 0; r0 < ps.m; r0 += kChunk) {
    __syncthreads();
    for (int x = tid; x < kChunk * kNb; x += kThreads) {
      const int r = x % kChunk, j = x / kChunk;
      sv[r][j] = r0 + r < ps.m && j < ps.k ? Vb[r0 + r + (int64_t)j * n] : zc{0.0, 0.0};
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < kPer; ++e) {
      if (ta[e] < 0) continue;
      for (int ks = 0; ks < kChunk / 4; ++ks) {
        if (r0 + 4 * ks + 3 < 8 * tc[e]) continue;  // V(rr, c) = 0 above rr = c
        const zc va = sv[4 * ks + q][8 * ta[e] + g], vc = sv[4 * ks + q][8 * tc[e] + g];
        mma(sr[e], va.re, vc.re);  // conj(va) vc
        mma(sr[e], va.im, vc.im);
        mma(si[e], va.re, vc.im);
        mma(si[e], -va.im, vc.re);
      }
    }
  }
#pragma unroll
  for (int e = 0; e < kPer; ++e) {
    if (ta[e] < 0) continue;
    const int a = 8 * ta[e] + g;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int c = 8 * tc[e] + 2 * q + i;
      if (a < c) ss[a][c] = zc{sr[e][i], si[e][i]};
    }
  }
  __syncthreads();
  // Row r of T by thread r, stored transposed below S's strict upper triangle (T(r, j) at
  // ss[j][r], j >= r), where no thread reads S: no barrier between the threads' steps.
  const zc* tp = tau + b * (int64_t)n + (ps.i0 - 1);
  if (tid < ps.k) {
    const int r = tid;
    ss[r][r] = tp[r];
    for (int j = r + 1; j < ps.k; ++j) {
      zc s{0.0, 0.0};
      for (int l = r; l < j; ++l) s = s + ss[l][r] * ss[l][j];
      ss[j][r] = (-1.0) * (tp[j] * s);
    }
  }
  __syncthreads();
  zc* Tb = T + (b * P + p) * (int64_t)(kNb * kNb);
  for (int x = tid; x < kNb * kNb; x += kThreads) {
    const int r = x % kNb, j = x / kNb;
    Tb[x] = r <= j && j < ps.k ? ss[j][r] : zc{0.0, 0.0};
  }
}

// ---- X = Q X ----------------------------------------------------------------------------------------

// A column block's X (rows 0..n+7, the last 8 zero) and Y, Y2 (kNb rows) in shared memory as real
// and imaginary planes of kCols doubles a row; odd rows' halves swapped, so that an MMA operand's
// four rows and an accumulator's two rows a quarter-warp fall in distinct banks.
__device__ __forceinline__ int sw(int r, int c) { return r * kCols + (c ^ ((r & 1) << 3)); }

// X's planes with 8 zero rows below its n (a row tile's height), then Y2's.
__host__ __device__ inline size_t apply_smem_bytes(int n) {
  return sizeof(double) * (2 * (size_t)(n + 8) * kCols + 2 * (size_t)kNb * kCols);
}

// X's column block into shared memory (rows n..rows-1 zero): from A, or from Z where xs says.
__device__ __forceinline__ void load_x(double* xr, double* xi, int rows, int n, int c0, const zc* X, int lda,
                                       const XStart& xs, int64_t b) {
  const int tid = threadIdx.x;
  if (xs.z) {
    // X = diag(ph) Z(:, ord): real. Threads along Z's contiguous direction.
    const double* z = xs.z + b * xs.zs;
    const double* ph = xs.phord + b * 2 * (int64_t)n;
    const int* ord = reinterpret_cast<const int*>(ph + n);
    const bool along_rows = xs.cs == 1;
    for (int x = tid; x < rows * kCols; x += kThreads) {
      const int r = along_rows ? x / kCols : x % rows, c = along_rows ? x % kCols : x / rows;
      double v = 0.0;
      if (r < n && c0 + c < n) {
        const int o = ord[c0 + c];
        v = ph[r] * z[r * xs.rs + (int64_t)(o >= 1 && o <= n ? o - 1 : 0) * xs.cs];
      }
      xr[sw(r, c)] = v;
      xi[sw(r, c)] = 0.0;
    }
  } else {
    for (int x = tid; x < rows * kCols; x += kThreads) {
      const int r = x % rows, c = x / rows;
      const zc v = r < n && c0 + c < n ? X[r + (int64_t)(c0 + c) * lda] : zc{0.0, 0.0};
      xr[sw(r, c)] = v.re;
      xi[sw(r, c)] = v.im;
    }
  }
}

// The column block back to A (its first n rows, columns below n).
__device__ __forceinline__ void store_x(const double* xr, const double* xi, int n, int c0, zc* X, int lda) {
  __syncthreads();
  for (int x = threadIdx.x; x < n * kCols; x += kThreads) {
    const int r = x % n, c = x / n;
    if (c0 + c < n) X[r + (int64_t)(c0 + c) * lda] = zc{xr[sw(r, c)], xi[sw(r, c)]};
  }
}

__global__ void __launch_bounds__(kThreads) k_apply(zc* A, int lda, int64_t sA, const zc* __restrict__ V,
                                                    const zc* __restrict__ T, int n, XStart xs) {
  extern __shared__ double apply_sh[];
  const int rows = n + 8;
  double* xr = apply_sh;
  double* xi = xr + rows * kCols;
  double* yr = xi + rows * kCols;
  double* yi = yr + kNb * kCols;
  const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, g = lane >> 2, q = lane & 3;
  const int c0 = blockIdx.x * kCols, P = passes(n);
  const int64_t b = blockIdx.y;
  zc* X = A + b * sA;
  load_x(xr, xi, rows, n, c0, X, lda, xs, b);
  for (int p = 0; p < P; ++p) {
    const Pass ps = pass_of(n, p);
    const zc* Vp = V + b * (int64_t)n * n + ps.i0 + (int64_t)(ps.i0 - 1) * n;  // V(rr, j) = Vp[rr + j n]
    const zc* Tp = T + (b * P + p) * (int64_t)(kNb * kNb);
    const int j = 8 * w + g;  // this lane's reflector in stages 1 and 2 (an A operand's row)
    __syncthreads();          // X complete (the load, or the last pass's stage 3)
    // Stage 1: Y(j, c) = sum_rr conj(V(rr, j)) X(i0 + rr, c); V(rr, j) = 0 above rr = j, so the
    // warp's rows start at 8w. Two accumulator sets (even and odd steps) halve the MMA chains.
    double ar[2][2][2] = {}, ai[2][2][2] = {};  // [parity][column tile][2]
    if (8 * w < ps.k) {
      // V(rr, j) for this lane's two rows of the next step pair, loaded a step pair ahead.
      auto vload = [&](int rr) { return rr < ps.m && j < ps.k ? Vp[rr + (int64_t)j * n] : zc{0.0, 0.0}; };
      zc v[2] = {vload(8 * w + q), vload(8 * w + 4 + q)};
      for (int rr0 = 8 * w; rr0 < ps.m; rr0 += 8) {
        const zc nv[2] = {vload(rr0 + 8 + q), vload(rr0 + 12 + q)};
#pragma unroll
        for (int s = 0; s < 2; ++s) {
          const int r = ps.i0 + rr0 + 4 * s + q;
#pragma unroll
          for (int ct = 0; ct < 2; ++ct) {
            const double br = xr[sw(r, 8 * ct + g)], bi = xi[sw(r, 8 * ct + g)];
            mma(ar[s][ct], v[s].re, br);
            mma(ar[s][ct], v[s].im, bi);
            mma(ai[s][ct], v[s].re, bi);
            mma(ai[s][ct], -v[s].im, br);
          }
        }
        v[0] = nv[0];
        v[1] = nv[1];
      }
    }
#pragma unroll
    for (int ct = 0; ct < 2; ++ct) {
      const int y = sw(8 * w + g, 8 * ct + 2 * q);
      yr[y] = ar[0][ct][0] + ar[1][ct][0];
      yr[y + 1] = ar[0][ct][1] + ar[1][ct][1];
      yi[y] = ai[0][ct][0] + ai[1][ct][0];
      yi[y + 1] = ai[0][ct][1] + ai[1][ct][1];
    }
    __syncthreads();
    // Stage 2: Y2 = T Y, T upper triangular: the warp's rows need Y's rows from 8w.
    double tr[2][2] = {}, ti[2][2] = {};
    zc tv[kNb / 4];
#pragma unroll
    for (int kk = 0; kk < kNb / 4; ++kk) tv[kk] = kk >= 2 * w ? Tp[j + (4 * kk + q) * kNb] : zc{0.0, 0.0};
#pragma unroll
    for (int kk = 0; kk < kNb / 4; ++kk) {
      if (kk < 2 * w) continue;
      const zc t = tv[kk];
#pragma unroll
      for (int ct = 0; ct < 2; ++ct) {
        const double br = yr[sw(4 * kk + q, 8 * ct + g)], bi = yi[sw(4 * kk + q, 8 * ct + g)];
        mma(tr[ct], t.re, br);
        mma(tr[ct], -t.im, bi);
        mma(ti[ct], t.re, bi);
        mma(ti[ct], t.im, br);
      }
    }
    __syncthreads();  // every warp has read Y
#pragma unroll
    for (int ct = 0; ct < 2; ++ct) {
      const int y = sw(8 * w + g, 8 * ct + 2 * q);
      yr[y] = tr[ct][0];
      yr[y + 1] = tr[ct][1];
      yi[y] = ti[ct][0];
      yi[y + 1] = ti[ct][1];
    }
    __syncthreads();
    // Stage 3: X(i0 + rr, c) -= sum_j V(rr, j) Y2(j, c), a warp every fourth tile of 8 rows; the
    // tile's rows meet reflectors up to its last row only.
    const int tiles = (ps.m + 7) / 8, ksteps = (ps.k + 3) / 4;
    for (int rt = w; rt < tiles; rt += 4) {
      const int rr = 8 * rt + g, xrow = ps.i0 + rr;
      double cr[2][2], ci[2][2];
#pragma unroll
      for (int ct = 0; ct < 2; ++ct) {
        const int x = sw(xrow, 8 * ct + 2 * q);
        cr[ct][0] = xr[x];
        cr[ct][1] = xr[x + 1];
        ci[ct][0] = xi[x];
        ci[ct][1] = xi[x + 1];
      }
      const int kend = 2 * rt + 2 < ksteps ? 2 * rt + 2 : ksteps;
      zc vv[kNb / 4];  // the tile's V, every load in flight before the products
#pragma unroll
      for (int kk = 0; kk < kNb / 4; ++kk) {
        const int jj = 4 * kk + q;
        vv[kk] = kk < kend && rr < ps.m && jj < ps.k ? Vp[rr + (int64_t)jj * n] : zc{0.0, 0.0};
      }
#pragma unroll
      for (int kk = 0; kk < kNb / 4; ++kk) {
        if (kk >= kend) break;
        const int jj = 4 * kk + q;
        const zc v = vv[kk];
#pragma unroll
        for (int ct = 0; ct < 2; ++ct) {
          const double br = yr[sw(jj, 8 * ct + g)], bi = yi[sw(jj, 8 * ct + g)];
          mma(cr[ct], -v.re, br);
          mma(cr[ct], v.im, bi);
          mma(ci[ct], -v.re, bi);
          mma(ci[ct], -v.im, br);
        }
      }
#pragma unroll
      for (int ct = 0; ct < 2; ++ct) {
        const int x = sw(xrow, 8 * ct + 2 * q);
        xr[x] = cr[ct][0];
        xr[x + 1] = cr[ct][1];
        xi[x] = ci[ct][0];
        xi[x + 1] = ci[ct][1];
      }
    }
  }
  store_x(xr, xi, n, c0, X, lda);
}

}  // namespace

bool serves() {
  int dev = 0, major = 0;
  return cudaGetDevice(&dev) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major >= 8;
}

int64_t scratch_elems(int n) { return n < 2 ? 0 : (int64_t)passes(n) * kNb * kNb; }

int launch(int n, int cnt, void* A, int lda, int64_t sA, const void* V, const void* tau, void* T, const XStart* xs,
           cudaStream_t st) {
  if (n < 2) return 0;
  const size_t smem = apply_smem_bytes(n);
  if (smem > 48 * 1024 &&
      cudaFuncSetAttribute(k_apply, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  const int P = passes(n);
  for (int b0 = 0; b0 < cnt; b0 += 65535) {
    const int nb = cnt - b0 < 65535 ? cnt - b0 : 65535;
    const zc* Vb = static_cast<const zc*>(V) + (int64_t)b0 * n * n;
    const zc* tb = static_cast<const zc*>(tau) + (int64_t)b0 * n;
    zc* Tb = static_cast<zc*>(T) + (int64_t)b0 * scratch_elems(n);
    k_t<<<dim3(P, nb), kThreads, 0, st>>>(Vb, tb, Tb, n);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
    XStart x = xs ? *xs : XStart{};
    if (x.z) {
      x.z += (int64_t)b0 * x.zs;
      x.phord += (int64_t)b0 * 2 * n;
    }
    k_apply<<<dim3((n + kCols - 1) / kCols, nb), kThreads, smem, st>>>(static_cast<zc*>(A) + b0 * sA, lda, sA, Vb,
                                                                         Tb, n, x);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  return 0;
}

}  // namespace heev_apply_q
}  // namespace gpu
}  // namespace sgpu
