// sgpu_heev_reg_reduce_probe: how fast the reduction of a batch of Hermitian matrices (n <= 64) to
// real tridiagonal form runs with each matrix in the registers of one thread block, for several
// block geometries (TR x TC threads a matrix) and register bounds: the measurement behind
// tuning::kHeevRegReduce (the library's kernels/heev_reg_reduce.cu, the same steps with zlarfg's
// rescaling, zheev's scaling and the NaN screen added). One kernel per configuration; every one
// is checked.
// Checks: the tridiagonal's eigenvalues (LAPACKE_dsterf) against LAPACKE_zheev's on the first
// matrices, max |dw| / (n eps max |w|), and Q^H A Q = T on the first (Q from the reflectors and
// tau), max |Q^H A Q - T| / (n eps max |A|); both under 20. Not a product path: no scaling of the
// matrix or of tiny reflector norms, no NaN screen.
// Usage: sgpu_heev_reg_reduce_probe n batch [reps] (n = 2..64). Compare with the block kernel's
// own phase 1: SGPU_HEEV_REDUCE=block SGPU_HEEV_PHASES=1 sgpu_heev_bench --sgpu-only --only-n n
// --jobz N.
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

// d, e (e_k = beta_k), tau and the reflectors (V: column k below row k + 1, n x n a matrix).
// TR x TC threads a matrix; thread (rl, cl) = (tid / TC, tid % TC) holds rows rl + TR i (i < RR)
// and columns cl + TC j (j < RC), TR RR >= n, TC RC >= n (a row's TC threads are consecutive
// lanes). MB: blocks an SM the registers must allow.
// Step k (zhetd2, uplo L): (1) the threads of column k apply the pending update (step k - 1's) to it
// and put it in shared memory; (2) warp 0 forms the reflector and puts v (zero at rows <= k) in
// shared memory; (3) every thread applies the pending update to its part of the trailing matrix and
// sums its part of y = A v, reduced over the row's T lanes by shuffles; (4) w = tau y + alph v,
// alph = -(tau / 2)(tau y)^H v, into shared memory: the next step's pending update. Four barriers a
// step; row and column blocks wholly outside the trailing matrix are skipped by a test that is the
// same for the whole block.
template <int TR, int TC, int RR, int RC, int MB>
__global__ void __launch_bounds__(TR * TC, MB) k_reduce(const cz* __restrict__ A0, int n, double* dg, double* eg,
                                                     cz* taug, cz* Vg) {
  constexpr int NT = TR * TC, NP = TR * RR > TC * RC ? TR * RR : TC * RC;
  __shared__ cz col[NP];    // column k after its update
  __shared__ cz vs[2][NP];  // v of step k in vs[k & 1]; the pending one in the other
  __shared__ cz ws[NP];     // w of the pending update
  __shared__ cz ys[NP];     // y = A v
  __shared__ cz tau_s;
  const int tid = threadIdx.x, rl = tid / TC, cl = tid % TC, lane = tid & 31;
  const int64_t b = blockIdx.x;
  const cz* A = A0 + b * (int64_t)n * n;
  cz* V = Vg + b * (int64_t)n * n;
  cz a[RR][RC];
#pragma unroll
  for (int i = 0; i < RR; ++i)
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      const int r = rl + TR * i, c = cl + TC * j;
      cz x = mk(0);
      if (r < n && c < n) x = r >= c ? A[r + (int64_t)c * n] : cj(A[c + (int64_t)r * n]);
      if (r == c) x.i = 0;
      a[i][j] = x;
    }
  for (int x = tid; x < NP; x += NT) vs[0][x] = vs[1][x] = ws[x] = mk(0);
  __syncthreads();
  for (int k = 0; k < n - 1; ++k) {
    const int nb = k & 1, pb = nb ^ 1;
    // (1) Column k.
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      if (cl + TC * j != k) continue;
      const cz vpk = vs[pb][k], wpk = ws[k];
#pragma unroll
      for (int i = 0; i < RR; ++i) {
        const int r = rl + TR * i;
        if (r < k) continue;
        cz x = a[i][j] - (vs[pb][r] * cj(wpk) + ws[r] * cj(vpk));
        if (r == k) x.i = 0;
        col[r] = x;
      }
    }
    __syncthreads();
    // (2) The reflector.
    if (tid < 32) {
      double ssq = 0;
      for (int r = k + 2 + lane; r < n; r += 32) ssq += abs2(col[r]);
      for (int o = 16; o; o >>= 1) ssq += __shfl_xor_sync(0xffffffffu, ssq, o);
      double beta;
      cz tau, inv;
      reflector(col[k + 1], ssq, beta, tau, inv);
      for (int r = lane; r < NP; r += 32) {
        const cz v = r <= k || r >= n ? mk(0) : r == k + 1 ? mk(1) : inv * col[r];
        vs[nb][r] = v;
        if (r >= k + 2 && r < n) V[r + (int64_t)k * n] = v;
      }
      if (lane == 0) {
        dg[b * n + k] = col[k].r;
        eg[b * n + k] = beta;
        taug[b * n + k] = tau;
        tau_s = tau;
      }
    }
    __syncthreads();
    // (3) The pending update and y = A v.
    cz vpr[RR], wpr[RR], yr[RR];
#pragma unroll
    for (int i = 0; i < RR; ++i) {
      const int r = rl + TR * i;
      vpr[i] = vs[pb][r];
      wpr[i] = ws[r];
      yr[i] = mk(0);
    }
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      if (TC * j + TC - 1 <= k) continue;  // the same for the whole block
      const int c = cl + TC * j;
      const cz vc = vs[nb][c], vpc = cj(vs[pb][c]), wpc = cj(ws[c]);
#pragma unroll
      for (int i = 0; i < RR; ++i) {
        if (TR * i + TR - 1 <= k) continue;
        cz x = a[i][j] - (vpr[i] * wpc + wpr[i] * vpc);
        if (rl + TR * i == c) x.i = 0;
        a[i][j] = x;
        yr[i] = yr[i] + x * vc;
      }
    }
#pragma unroll
    for (int i = 0; i < RR; ++i) {
      if (TR * i + TR - 1 <= k) continue;
#pragma unroll
      for (int o = TC / 2; o; o >>= 1) {
        yr[i].r += __shfl_xor_sync(0xffffffffu, yr[i].r, o);
        yr[i].i += __shfl_xor_sync(0xffffffffu, yr[i].i, o);
      }
      if (cl == 0) ys[rl + TR * i] = yr[i];
    }
    __syncthreads();
    // (4) w, in every warp (the dot product) and thread (its rows).
    const cz tau = tau_s;
    cz dot = mk(0);
    for (int r = k + 1 + lane; r < n; r += 32) dot = dot + cj(tau * ys[r]) * vs[nb][r];
    for (int o = 16; o; o >>= 1) {
      dot.r += __shfl_xor_sync(0xffffffffu, dot.r, o);
      dot.i += __shfl_xor_sync(0xffffffffu, dot.i, o);
    }
    const cz alph = (-0.5) * (tau * dot);
    for (int r = tid; r < NP; r += NT) ws[r] = r > k && r < n ? tau * ys[r] + alph * vs[nb][r] : mk(0);
    __syncthreads();
  }
  // d_{n-1}: the last element after the last update (v_{n-2}(n-1) = 1).
#pragma unroll
  for (int i = 0; i < RR; ++i)
#pragma unroll
    for (int j = 0; j < RC; ++j) {
      const int r = rl + TR * i, c = cl + TC * j;
      if (r != n - 1 || c != n - 1) continue;
      dg[b * n + r] = a[i][j].r - 2 * ws[r].r;
    }
}

template <int TR, int TC, int RR, int RC, int MB>
double run(int n, int64_t batch, int reps, const cz* A, double* d, double* e, cz* tau, cz* V, cudaEvent_t ev[2],
           int& per_sm) {
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_reduce<TR, TC, RR, RC, MB>, TR * TC, 0));
  std::vector<float> t;
  for (int x = 0; x < reps; ++x) {
    CK(cudaEventRecord(ev[0]));
    k_reduce<TR, TC, RR, RC, MB><<<(unsigned)batch, TR * TC>>>(A, n, d, e, tau, V);
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
  std::printf("| n | batch | threads, registers for | reduction ms (best of %d) | blocks an SM | eigenvalue ratio (first %d) | "
              "Q^H A Q - T ratio (first) |\n",
              reps, (int)std::min<int64_t>(batch, 8));
  int bad = 0;
  // Configurations by order: TR x TC threads a matrix, registers for MB blocks an SM.
  using Fn = double (*)(int, int64_t, int, const cz*, double*, double*, cz*, cz*, cudaEvent_t*, int&);
  struct Cfg {
    const char* name;
    Fn fn;
  };
  std::vector<Cfg> cfgs;
  if (n <= 16)
    cfgs = {{"8x8, 8 an SM", run<8, 8, 2, 2, 8>}, {"4x8, 16 an SM", run<4, 8, 4, 2, 16>}};
  else if (n <= 32)
    cfgs = {{"8x8, 8 an SM", run<8, 8, 4, 4, 8>}, {"4x8, 8 an SM", run<4, 8, 8, 4, 8>},
            {"4x8, 12 an SM", run<4, 8, 8, 4, 12>}};
  else if (n <= 40)
    cfgs = {{"8x8, 6 an SM", run<8, 8, 5, 5, 6>}, {"8x8, 4 an SM", run<8, 8, 5, 5, 4>},
            {"16x8, 4 an SM", run<16, 8, 3, 5, 4>}};
  else if (n <= 48)
    cfgs = {{"16x16, 3 an SM", run<16, 16, 3, 3, 3>}, {"16x8, 4 an SM", run<16, 8, 3, 6, 4>},
            {"8x8, 4 an SM", run<8, 8, 6, 6, 4>}};
  else
    cfgs = {{"16x16, 2 an SM", run<16, 16, 4, 4, 2>}, {"16x8, 4 an SM", run<16, 8, 4, 8, 4>},
            {"16x8, 3 an SM", run<16, 8, 4, 8, 3>}, {"8x16, 4 an SM", run<8, 16, 8, 4, 4>},
            {"8x8, 4 an SM", run<8, 8, 8, 8, 4>}, {"8x8, 3 an SM", run<8, 8, 8, 8, 3>}};
  for (const Cfg& cfg : cfgs) {
    int per_sm = 0;
    CK(cudaMemset(d, 0, sizeof(double) * n * batch));
    const double ms = cfg.fn(n, batch, reps, A, d, e, tau, V, ev, per_sm);
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
    std::printf("| %d | %lld | %s | %.3f | %d | %.3g | %.3g |\n", n, (long long)batch, cfg.name, ms, per_sm, worst,
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
