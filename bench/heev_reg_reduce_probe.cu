// sgpu_heev_reg_reduce_probe: how fast the reduction of a batch of Hermitian matrices (n <= 64) to
// real tridiagonal form runs with each matrix in the registers of one block of 256 threads: a
// measurement for zheev's block path, whose reduction keeps W in shared or global memory (at n = 64
// 12 warps an SM at 7.8 cycles an issue, its registers spilled: docs/performance.md).
//   Layout: thread t holds rows rl + 16 i and columns cl + 16 j (rl = t / 16, cl = t % 16,
//   i, j < R = n / 16 rounded up) of the full Hermitian matrix, so a row's 16 threads are one
//   half-warp. Step k (zhetd2, uplo L, in kernels/heev_block.cu's fused form): the threads of column
//   k bring it up to date and put it in shared memory; every thread then finds the reflector from
//   it (zlarfg without its rescaling); one sweep over the trailing matrix applies the previous
//   step's rank-2 update and sums y = A v, reduced over a row's half-warp by shuffles; the pending
//   update's w = tau y - (tau/2)(y^H v) v is formed where it is used. Two barriers a step (column k
//   and y double-buffered); row and column blocks wholly outside the trailing matrix are skipped by
//   a test that is the same for the whole block. The reflectors go to global memory, as phase 3
//   needs them.
// Checks: the tridiagonal's eigenvalues (LAPACKE_dsterf) against LAPACKE_zheev's on the first
// matrices, max |dw| / (n eps max |w|), and Q^H A Q = T on the first (Q from the reflectors and
// tau), max |Q^H A Q - T| / (n eps max |A|); both under 20. Not a product path: no scaling of the
// matrix or of tiny reflector norms, no NaN screen.
// Usage: sgpu_heev_reg_reduce_probe n batch [reps] (n = 2..64). Compare with the library's phase 1:
// SGPU_HEEV_PHASES=1 sgpu_heev_bench --sgpu-only --only-n n --jobz N.
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

__device__ inline double shx(double v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }

constexpr int kThreads = 256;
constexpr int kMaxN = 64;

// zlarfg's reflector without its rescaling: H^H (alpha; x) = (beta; 0), H = I - tau v v^H, v(0) = 1,
// v(1:) = inv x.
__device__ inline void reflector(cz alpha, double xnorm2, double& beta, cz& tau, cz& inv) {
  if (xnorm2 == 0 && alpha.i == 0) {
    beta = alpha.r, tau = mk(0), inv = mk(0);
    return;
  }
  beta = -copysign(sqrt(abs2(alpha) + xnorm2), alpha.r);
  tau = mk((beta - alpha.r) / beta, -alpha.i / beta);
  const cz den = alpha - mk(beta);
  const double s = 1.0 / abs2(den);
  inv = mk(den.r * s, -den.i * s);
}

// One step's reflector as every thread sees it: v(r) = 0 above row k + 1, 1 at k + 1, inv x below.
struct Refl {
  int k;
  cz inv;
  const cz* col;
  __device__ cz v(int r) const { return r <= k ? mk(0) : r == k + 1 ? mk(1) : inv * col[r]; }
};

// d, e (e_k = beta_k), tau and the reflectors (V: column k below row k + 1, n x n a matrix).
// MB: blocks an SM the registers must allow (1: up to 255 registers a thread, 2: 128).
template <int R, int MB>
__global__ void __launch_bounds__(kThreads, MB) k_reduce(const cz* __restrict__ A0, int n, double* dg, double* eg,
                                                       cz* taug, cz* Vg) {
  __shared__ cz col[2][kMaxN];  // column k after its update (rows >= k read only)
  __shared__ cz ys[2][kMaxN];   // y = A v before tau (rows > k read only)
  const int tid = threadIdx.x, rl = tid / 16, cl = tid % 16, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const cz* A = A0 + b * (int64_t)n * n;
  cz* V = Vg + b * (int64_t)n * n;
  cz a[R][R];
#pragma unroll
  for (int i = 0; i < R; ++i)
#pragma unroll
    for (int j = 0; j < R; ++j) {
      const int r = rl + 16 * i, c = cl + 16 * j;
      cz x = mk(0);
      if (r < n && c < n) x = r >= c ? A[r + (int64_t)c * n] : cj(A[c + (int64_t)r * n]);
      if (r == c) x.i = 0;
      a[i][j] = x;
    }
  for (int x = tid; x < 2 * kMaxN; x += kThreads) {
    col[x / kMaxN][x % kMaxN] = mk(0);
    ys[x / kMaxN][x % kMaxN] = mk(0);
  }
  __syncthreads();
  // The pending update (step k - 1): vp = its reflector, wp(r) = taup ys(r) + alphp vp(r).
  bool pending = false;
  Refl vp{-1, mk(0), col[1]};
  cz taup = mk(0), alphp = mk(0);
  const cz* yp = ys[1];
  for (int k = 0; k < n - 1; ++k) {
    const int cb = k & 1;
    // (1) Column k brought up to date by the threads that hold it.
#pragma unroll
    for (int j = 0; j < R; ++j) {
      if (cl + 16 * j != k) continue;
      const cz vpk = vp.v(k), wpk = taup * yp[k] + alphp * vpk;
#pragma unroll
      for (int i = 0; i < R; ++i) {
        const int r = rl + 16 * i;
        if (r < k || r >= n) continue;
        cz x = a[i][j];
        if (pending) {
          const cz vpr = vp.v(r), wpr = taup * yp[r] + alphp * vpr;
          x = x - (vpr * cj(wpk) + wpr * cj(vpk));
          if (r == k) x.i = 0;
        }
        col[cb][r] = x;
      }
    }
    __syncthreads();
    // (2) The reflector, in every thread.
    double ssq = 0;
    for (int r = k + 2 + lane; r < n; r += 32) ssq += abs2(col[cb][r]);
    for (int o = 16; o; o >>= 1) ssq += shx(ssq, o);
    double beta;
    cz tau, inv;
    reflector(col[cb][k + 1], ssq, beta, tau, inv);
    const Refl v{k, inv, col[cb]};
    if (tid == 0) {
      dg[b * n + k] = col[cb][k].r;
      eg[b * n + k] = beta;
      taug[b * n + k] = tau;
    }
    if (tid >= 32 * (k % 8) && tid < 32 * (k % 8) + 32)
      for (int r = k + 2 + lane; r < n; r += 32) V[r + (int64_t)k * n] = v.v(r);
    // (3) The sweep over the trailing matrix: the pending update, then y = A v (column blocks
    // outside, so that only one column's v, vp and wp are live beside the rows').
    cz vpr[R], wpr[R], yr[R];
#pragma unroll
    for (int i = 0; i < R; ++i) {
      const int r = rl + 16 * i;
      vpr[i] = vp.v(r);
      wpr[i] = taup * yp[r] + alphp * vpr[i];
      yr[i] = mk(0);
    }
#pragma unroll
    for (int j = 0; j < R; ++j) {
      if (16 * j + 15 <= k) continue;  // the same for the whole block
      const int c = cl + 16 * j;
      const cz vc = v.v(c), vpc = vp.v(c), wpc = taup * yp[c] + alphp * vpc;
#pragma unroll
      for (int i = 0; i < R; ++i) {
        if (16 * i + 15 <= k) continue;
        const int r = rl + 16 * i;
        if (r <= k || c <= k) continue;
        cz x = a[i][j];
        if (pending) {
          x = x - (vpr[i] * cj(wpc) + wpr[i] * cj(vpc));
          if (r == c) x.i = 0;
          a[i][j] = x;
        }
        yr[i] = yr[i] + x * vc;
      }
    }
    // (4) y over a row's half-warp; its first lane stores it.
#pragma unroll
    for (int i = 0; i < R; ++i) {
      if (16 * i + 15 <= k) continue;
      for (int o = 8; o; o >>= 1) {
        yr[i].r += shx(yr[i].r, o);
        yr[i].i += shx(yr[i].i, o);
      }
      const int r = rl + 16 * i;
      if (cl == 0 && r > k && r < n) ys[cb][r] = yr[i];
    }
    __syncthreads();
    // (5) The pending update for step k + 1: alph = -(tau / 2) (y^H v), y = tau A v, in every thread.
    cz dot = mk(0);
    for (int r = k + 1 + lane; r < n; r += 32) dot = dot + cj(tau * ys[cb][r]) * v.v(r);
    for (int o = 16; o; o >>= 1) {
      dot.r += shx(dot.r, o);
      dot.i += shx(dot.i, o);
    }
    alphp = (-0.5) * (tau * dot);
    taup = tau;
    vp = v;
    yp = ys[cb];
    pending = true;
  }
  // d_{n-1}: the last element after the last update.
#pragma unroll
  for (int i = 0; i < R; ++i)
#pragma unroll
    for (int j = 0; j < R; ++j) {
      const int r = rl + 16 * i, c = cl + 16 * j;
      if (r != n - 1 || c != n - 1) continue;
      cz x = a[i][j];
      if (pending) {
        const cz vpr = vp.v(r), wpr = taup * yp[r] + alphp * vpr;
        x = x - (vpr * cj(wpr) + wpr * cj(vpr));
      }
      dg[b * n + r] = x.r;
    }
}

template <int R, int MB>
double run(int n, int64_t batch, int reps, const cz* A, double* d, double* e, cz* tau, cz* V, cudaEvent_t ev[2],
           int& per_sm) {
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_reduce<R, MB>, kThreads, 0));
  std::vector<float> t;
  for (int x = 0; x < reps; ++x) {
    CK(cudaEventRecord(ev[0]));
    k_reduce<R, MB><<<(unsigned)batch, kThreads>>>(A, n, d, e, tau, V);
    CK(cudaGetLastError());
    CK(cudaEventRecord(ev[1]));
    CK(cudaEventSynchronize(ev[1]));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[0];
}

// || Q^H A Q - T ||_max / (n eps ||A||_max) for matrix 0: Q = H(0) ... H(n-2) from the reflectors
// (column k of V below row k + 1, v(k + 1) = 1) and tau; T from d and e. The check phase 3 needs.
double similarity_ratio(int n, const std::vector<cz>& A, const std::vector<cz>& V, const std::vector<cz>& tau,
                        const std::vector<double>& d, const std::vector<double>& e) {
  std::vector<cz> Q((size_t)n * n, mk(0));
  for (int i = 0; i < n; ++i) Q[i + (size_t)i * n] = mk(1);
  for (int k = n - 2; k >= 0; --k) {  // Q <- H(k) Q, last reflector first
    std::vector<cz> v(n, mk(0));
    v[k + 1] = mk(1);
    for (int r = k + 2; r < n; ++r) v[r] = V[r + (size_t)k * n];
    for (int c = 0; c < n; ++c) {
      cz y = mk(0);
      for (int r = k + 1; r < n; ++r) y = y + cj(v[r]) * Q[r + (size_t)c * n];
      y = tau[k] * y;
      for (int r = k + 1; r < n; ++r) Q[r + (size_t)c * n] = Q[r + (size_t)c * n] - v[r] * y;
    }
  }
  auto h = [&](int r, int c) { return r >= c ? A[r + (size_t)c * n] : cj(A[c + (size_t)r * n]); };
  double anrm = 0, worst = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) anrm = std::max(anrm, std::sqrt(abs2(h(r, c))));
  std::vector<cz> AQ((size_t)n * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      cz x = mk(0);
      for (int l = 0; l < n; ++l) x = x + (r == l ? mk(h(r, l).r) : h(r, l)) * Q[l + (size_t)c * n];
      AQ[r + (size_t)c * n] = x;
    }
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      cz x = mk(0);
      for (int l = 0; l < n; ++l) x = x + cj(Q[l + (size_t)r * n]) * AQ[l + (size_t)c * n];
      const double t = r == c ? d[r] : r == c + 1 ? e[c] : c == r + 1 ? e[r] : 0.0;
      worst = std::max(worst, std::sqrt(abs2(x - mk(t))));
    }
  return worst / (n * 2.220446049250313e-16 * anrm);
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
  if (n < 2 || n > kMaxN || batch < 1 || batch > (int64_t(1) << 31) - 1 || reps < 1) {
    std::fprintf(stderr, "n: 2..%d\n", kMaxN);
    return 2;
  }
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cz> host((size_t)n * n * batch);
  for (auto& z : host) z = mk(u(rng), u(rng));
  cz *A, *tau, *V;
  double *d, *e;
  CK(cudaMalloc(&A, sizeof(cz) * host.size()));
  CK(cudaMalloc(&V, sizeof(cz) * host.size()));
  CK(cudaMalloc(&tau, sizeof(cz) * n * batch));
  CK(cudaMalloc(&d, sizeof(double) * n * batch));
  CK(cudaMalloc(&e, sizeof(double) * n * batch));
  CK(cudaMemcpy(A, host.data(), sizeof(cz) * host.size(), cudaMemcpyHostToDevice));
  cudaEvent_t ev[2];
  for (auto& x : ev) CK(cudaEventCreate(&x));
  CK(cudaMemset(e, 0, sizeof(double) * n * batch));
  CK(cudaMemset(V, 0, sizeof(cz) * host.size()));
  std::printf("| n | batch | registers for | reduction ms (best of %d) | blocks an SM | eigenvalue ratio (first %d) | "
              "Q^H A Q - T ratio (first) |\n",
              reps, (int)std::min<int64_t>(batch, 8));
  int bad = 0;
  for (int mb = 1; mb <= 2; ++mb) {
    int per_sm = 0;
    CK(cudaMemset(d, 0, sizeof(double) * n * batch));
    const double ms = n <= 16   ? (mb == 1 ? run<1, 1> : run<1, 2>)(n, batch, reps, A, d, e, tau, V, ev, per_sm)
                      : n <= 32 ? (mb == 1 ? run<2, 1> : run<2, 2>)(n, batch, reps, A, d, e, tau, V, ev, per_sm)
                      : n <= 48 ? (mb == 1 ? run<3, 1> : run<3, 2>)(n, batch, reps, A, d, e, tau, V, ev, per_sm)
                                : (mb == 1 ? run<4, 1> : run<4, 2>)(n, batch, reps, A, d, e, tau, V, ev, per_sm);
    // Eigenvalues of the tridiagonal against zheev's on the first matrices.
    const int check = (int)std::min<int64_t>(batch, 8);
    std::vector<double> hd((size_t)n * check), he((size_t)n * check);
    CK(cudaMemcpy(hd.data(), d, sizeof(double) * n * check, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(he.data(), e, sizeof(double) * n * check, cudaMemcpyDeviceToHost));
    const double worst = eig_ratio(n, check, host, hd, he);
    std::vector<cz> hv((size_t)n * n, mk(0)), ht(n);
    CK(cudaMemcpy(hv.data(), V, sizeof(cz) * n * n, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ht.data(), tau, sizeof(cz) * n, cudaMemcpyDeviceToHost));
    const std::vector<cz> a0(host.begin(), host.begin() + (size_t)n * n);
    const std::vector<double> d0(hd.begin(), hd.begin() + n), e0(he.begin(), he.begin() + n);
    const double sim = similarity_ratio(n, a0, hv, ht, d0, e0);
    std::printf("| %d | %lld | %d blocks an SM | %.3f | %d | %.3g | %.3g |\n", n, (long long)batch, mb, ms, per_sm, worst,
                sim);
    bad += !(worst < 20) + !(sim < 20);
  }
  CK(cudaFree(A));
  CK(cudaFree(V));
  CK(cudaFree(tau));
  CK(cudaFree(d));
  CK(cudaFree(e));
  return bad ? 1 : 0;
}
