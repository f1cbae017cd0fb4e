// sgpu_heev_reg_reduce_probe: how fast zheev's reduction at n <= 64 with each matrix in the
// registers of one thread block (the library's kernel itself, kernels/heev_reg_reduce.cuh) runs in
// several block geometries (TR x TC threads a matrix) and register bounds: the measurement behind
// tuning::kHeevRegReduce. Random entries in [-1, 1] (no scaling: sigma = 1).
// Checks, every configuration: the tridiagonal's eigenvalues (LAPACKE_dsterf) against
// LAPACKE_zheev's on the first matrices, max |dw| / (n eps max |w|), and Q^H A Q = T on the first
// (Q from the reflectors and tau), max |Q^H A Q - T| / (n eps max |A|); both under 20.
// Usage: sgpu_heev_reg_reduce_probe n batch [reps] (n = 2..128; above 64 with part of each
// thread's elements in shared memory). Compare with the block kernel's
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
#include "kernels/heev_reg_reduce.cuh"

namespace {

using namespace probe;


constexpr int kMaxN = 128;
using sgpu::gpu::heev_reg_reduce::record_doubles;

template <int TR, int TC, int RR, int RC, int MB, int CS = 0>
double run(int n, int64_t batch, int reps, const cz* A, double* rec, cz* V, cudaEvent_t ev[2], int& per_sm) {
  namespace rr = sgpu::gpu::heev_reg_reduce;
  const auto k = rr::k_reg_reduce<TR, TC, RR, RC, MB, CS>;
  const size_t sm = rr::Part<TR * TC, RR, RC, CS>::smem_bytes();
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, TR * TC, sm));
  const rr::Args g{true, n, reinterpret_cast<const sgpu::core::zc*>(A), n, (int64_t)n * n, rec,
                   reinterpret_cast<sgpu::core::zc*>(V)};
  std::vector<float> t;
  for (int x = 0; x < reps; ++x) {
    CK(cudaEventRecord(ev[0]));
    k<<<(unsigned)batch, TR * TC, sm>>>(g);
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
  cz *A, *V;
  double* rec;
  const int64_t per = record_doubles(n);
  CK(cudaMalloc(&A, sizeof(cz) * host.size()));
  CK(cudaMalloc(&V, sizeof(cz) * host.size()));
  CK(cudaMalloc(&rec, sizeof(double) * per * batch));
  CK(cudaMemcpy(A, host.data(), sizeof(cz) * host.size(), cudaMemcpyHostToDevice));
  cudaEvent_t ev[2];
  for (auto& x : ev) CK(cudaEventCreate(&x));
  CK(cudaMemset(V, 0, sizeof(cz) * host.size()));
  std::printf("| n | batch | threads, registers for | reduction ms (best of %d) | blocks an SM | eigenvalue ratio (first %d) | "
              "Q^H A Q - T ratio (first) |\n",
              reps, (int)std::min<int64_t>(batch, 8));
  int bad = 0;
  // Configurations by order: TR x TC threads a matrix, registers for MB blocks an SM.
  using Fn = double (*)(int, int64_t, int, const cz*, double*, cz*, cudaEvent_t*, int&);
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
    cfgs = {{"8x8, 6 an SM", run<8, 8, 5, 5, 6>}, {"8x8, 6 an SM, 1 of 5 shared", run<8, 8, 5, 5, 6, 1>},
            {"8x8, 6 an SM, 2 of 5 shared", run<8, 8, 5, 5, 6, 2>}, {"16x8, 4 an SM", run<16, 8, 3, 5, 4>}};
  else if (n <= 48)
    cfgs = {{"16x8, 4 an SM", run<16, 8, 3, 6, 4>}, {"16x8, 4 an SM, 1 of 6 shared", run<16, 8, 3, 6, 4, 1>},
            {"16x8, 4 an SM, 2 of 6 shared", run<16, 8, 3, 6, 4, 2>}, {"8x8, 4 an SM", run<8, 8, 6, 6, 4>}};
  else if (n > 96)
    cfgs = {{"32x16, 1 an SM", run<32, 16, 4, 8, 1>},
            {"32x16, 1 an SM, 4 of 8 column blocks shared", run<32, 16, 4, 8, 1, 4>},
            {"32x16, 1 an SM, 5 of 8 shared", run<32, 16, 4, 8, 1, 5>},
            {"32x16, 1 an SM, 6 of 8 shared", run<32, 16, 4, 8, 1, 6>},
            {"64x8, 1 an SM, 10 of 16 shared", run<64, 8, 2, 16, 1, 10>},
            {"64x8, 1 an SM, 12 of 16 shared", run<64, 8, 2, 16, 1, 12>},
            {"16x32, 1 an SM, 2 of 4 shared", run<16, 32, 8, 4, 1, 2>},
            {"16x16, 1 an SM, 5 of 8 shared", run<16, 16, 8, 8, 1, 5>},
            {"16x16, 1 an SM, 6 of 8 shared", run<16, 16, 8, 8, 1, 6>},
            {"32x32, 1 an SM, 3 of 4 shared", run<32, 32, 4, 4, 1, 3>}};
  else if (n > 64)
    cfgs = {{"32x16, 1 an SM", run<32, 16, 3, 6, 1>}, {"16x16, 2 an SM", run<16, 16, 6, 6, 2>},
            {"32x16, 1 an SM, 3 of 6 shared", run<32, 16, 3, 6, 1, 3>},
            {"16x16, 2 an SM, 4 of 6 shared", run<16, 16, 6, 6, 2, 4>},
            {"16x16, 1 an SM, 3 of 6 shared", run<16, 16, 6, 6, 1, 3>},
            {"16x8, 2 an SM, 8 of 12 shared", run<16, 8, 6, 12, 2, 8>}};
  else
    cfgs = {{"16x8, 4 an SM", run<16, 8, 4, 8, 4>},
            {"16x8, 4 an SM, 3 of 8 shared", run<16, 8, 4, 8, 4, 3>},
            {"16x8, 4 an SM, 4 of 8 shared", run<16, 8, 4, 8, 4, 4>},
            {"16x8, 4 an SM, 5 of 8 shared", run<16, 8, 4, 8, 4, 5>},
            {"16x8, 4 an SM, 6 of 8 shared", run<16, 8, 4, 8, 4, 6>},
            {"8x8, 4 an SM", run<8, 8, 8, 8, 4>}};
  for (const Cfg& cfg : cfgs) {
    int per_sm = 0;
    CK(cudaMemset(rec, 0xff, sizeof(double) * per * batch));  // NaN: a record not written fails the checks
    const double ms = cfg.fn(n, batch, reps, A, rec, V, ev, per_sm);
    // Eigenvalues of the tridiagonal against zheev's on the first matrices (records: d, e, tau).
    const int check = (int)std::min<int64_t>(batch, 8);
    std::vector<double> hr((size_t)per * check), hd((size_t)n * check), he((size_t)n * check, 0.0);
    CK(cudaMemcpy(hr.data(), rec, sizeof(double) * per * check, cudaMemcpyDeviceToHost));
    for (int m = 0; m < check; ++m)
      for (int i = 0; i < n; ++i) {
        hd[(size_t)m * n + i] = hr[(size_t)m * per + i];
        if (i < n - 1) he[(size_t)m * n + i] = hr[(size_t)m * per + n + i];
      }
    const double worst = eig_ratio(n, check, host, hd, he);
    std::vector<cz> hv((size_t)n * n, mk(0)), ht(n, mk(0));
    CK(cudaMemcpy(hv.data(), V, sizeof(cz) * n * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n - 1; ++i) ht[i] = mk(hr[2 * n + 2 * i], hr[2 * n + 2 * i + 1]);
    const std::vector<cz> a0(host.begin(), host.begin() + (size_t)n * n);
    const std::vector<double> d0(hd.begin(), hd.begin() + n), e0(he.begin(), he.begin() + n);
    const double sim = similarity_ratio(n, a0, hv, ht, d0, e0);
    std::printf("| %d | %lld | %s | %.3f | %d | %.3g | %.3g |\n", n, (long long)batch, cfg.name, ms, per_sm, worst,
                sim);
    bad += !(worst < 20) + !(sim < 20);
  }
  CK(cudaFree(A));
  CK(cudaFree(V));
  CK(cudaFree(rec));
  return bad ? 1 : 0;
}
