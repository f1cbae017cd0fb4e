// sgpu_heev_stein_probe: how fast zheev's inverse iteration (core::stein_all, dstein's method, a
// thread an eigenvector) runs on the GPU with its working memory in different places: Z (the
// vectors, by rows, ld n | 1) and the members' scratch (the LU factors, 2 n doubles a vector) in
// global or shared memory, for several block sizes. The library's own arrangement after the
// register reduction is the first row (64 threads, 8 blocks an SM, both in global memory); the
// block kernel around it adds the record's load before and phase 3's preparation after. The last
// row runs dstein's iteration alone (the method below kHeevTwistMinN), for the twisted vectors' gain.
// Input: random Hermitian matrices (entries in [-1, 1]; `distinct` of them, repeated to the batch),
// reduced by LAPACKE_zhetrd; eigenvalues by the core's stebz on the host, as heev_values leaves
// them. Checks: every configuration's Z bitwise equal to the first's (the same arithmetic), and
// for the first matrix max_j ||T z_j - w_j z_j|| / (n eps ||T||) and max |Z^T Z - I| / (n eps).
// Usage: sgpu_heev_stein_probe n batch [reps]   (n = 2..512)
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "core/stein.hpp"
#include "cuda_common.cuh"
#include "device/team.cuh"

namespace {

namespace core = sgpu::core;
constexpr int kMaxT = 128;

__host__ __device__ inline int ldz(int n) { return n | 1; }
__host__ __device__ inline int64_t z_doubles(int n) { return (int64_t)n * ldz(n); }
__host__ __device__ inline int64_t scratch_doubles(int n, int T) { return core::stein_member_work(n) * (T < n ? T : n); }

// Shared doubles: the team's reduction room, d, e, w; then Z and the scratch where shared.
inline size_t smem_bytes(int n, int T, bool z_shared, bool s_shared) {
  return sizeof(double) * (size_t)(32 + 3 * n + (z_shared ? z_doubles(n) : 0) + (s_shared ? scratch_doubles(n, T) : 0));
}

// One matrix a block: inverse iteration for all n eigenvectors of T (d, e, w as stebz leaves
// them, 3 n doubles a matrix in dew), Z to Zg (by rows, ld n | 1).
template <int T, int MB, bool kZShared, bool kSShared, int kTwist = 1>
__global__ void __launch_bounds__(T, MB) k_stein(int n, const double* dew, double* Zg, double* Sg, int* info) {
  extern __shared__ double sm[];
  const int64_t b = blockIdx.x;
  double* red = sm;
  double* d = red + 32;
  double* e = d + n;
  double* w = e + n;
  double* p = w + n;
  double* z = kZShared ? p : Zg + b * z_doubles(n);
  if (kZShared) p += z_doubles(n);
  double* scratch = kSShared ? p : Sg + b * scratch_doubles(n, kMaxT);
  for (int i = threadIdx.x; i < 3 * n; i += T) d[i] = dew[b * 3 * n + i];
  __syncthreads();
  const sgpu::cuda::BlockTeam t{red};
  const int bad = core::stein_all<2, kTwist>(t, n, core::Vec1<double>{d, 1}, core::Vec1<double>{e, 1},
                                     core::Vec1<double>{w, 1}, core::Mat1<double>{z, ldz(n), 1}, scratch);
  if (kZShared) {
    __syncthreads();
    for (int64_t i = threadIdx.x; i < z_doubles(n); i += T) Zg[b * z_doubles(n) + i] = z[i];
  }
  if (threadIdx.x == 0) info[b] = bad;
}

struct Cfg {
  const char* name;
  int T;
  bool z_shared, s_shared;
  void (*k)(int, const double*, double*, double*, int*);
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 128;
  const int64_t batch = argc > 2 ? std::atoll(argv[2]) : 3814;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  if (n < 2 || n > 512 || batch < 1) {
    std::fprintf(stderr, "usage: sgpu_heev_stein_probe n(2..512) batch [reps]\n");
    return 2;
  }
  cudaDeviceProp prop;
  cudaStream_t st;
  cudaEvent_t ev[2];
  if (!bench::open_gpu(prop, st, ev[0], ev[1])) return 77;
  const int distinct = (int)std::min<int64_t>(batch, 64);
  std::mt19937_64 g(1000 + n);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> dew((size_t)batch * 3 * n), T0d(n), T0e(n);
  for (int m = 0; m < distinct; ++m) {
    std::vector<lapack_complex_double> a((size_t)n * n);
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) {
        const double re = u(g), im = i == j ? 0.0 : u(g);
        a[i + (size_t)j * n] = lapack_make_complex_double(re, im);
      }
    std::vector<double> d(n), e(n, 0.0), w(n + 1);
    std::vector<lapack_complex_double> tau(n);
    if (LAPACKE_zhetrd(LAPACK_COL_MAJOR, 'L', n, a.data(), n, d.data(), e.data(), tau.data()) != 0) return 1;
    for (auto& x : e) x = std::fabs(x);
    e[n - 1] = 0.0;
    std::vector<int> order(n + 1);
    core::stebz<1>(core::TeamOne{}, n, core::Vec1<double>{d.data(), 1}, core::Vec1<double>{e.data(), 1},
                   core::Vec1<double>{w.data(), 1}, core::Vec1<int>{order.data(), 1});
    if (m == 0) T0d = d, T0e = e;
    for (int64_t b = m; b < batch; b += distinct) {
      double* o = dew.data() + b * 3 * n;
      std::copy(d.begin(), d.end(), o);
      std::copy(e.begin(), e.end(), o + n);
      std::copy(w.begin(), w.begin() + n, o + 2 * n);
    }
  }
  double *ddew, *dZ, *dS;
  int* dinfo;
  CK(cudaMalloc(&ddew, sizeof(double) * dew.size()));
  CK(cudaMalloc(&dZ, sizeof(double) * (size_t)batch * z_doubles(n)));
  CK(cudaMalloc(&dS, sizeof(double) * (size_t)batch * scratch_doubles(n, kMaxT)));
  CK(cudaMalloc(&dinfo, sizeof(int) * batch));
  CK(cudaMemcpy(ddew, dew.data(), sizeof(double) * dew.size(), cudaMemcpyHostToDevice));

  const Cfg cfgs[] = {
      {"64 threads, 8 an SM, Z and scratch global (the library)", 64, false, false, k_stein<64, 8, false, false>},
      {"64 threads, 4 an SM, Z and scratch global", 64, false, false, k_stein<64, 4, false, false>},
      {"128 threads, 4 an SM, Z and scratch global", 128, false, false, k_stein<128, 4, false, false>},
      {"32 threads, Z global, scratch shared", 32, false, true, k_stein<32, 8, false, true>},
      {"64 threads, Z global, scratch shared", 64, false, true, k_stein<64, 8, false, true>},
      {"64 threads, Z shared, scratch global", 64, true, false, k_stein<64, 8, true, false>},
      {"32 threads, Z and scratch shared", 32, true, true, k_stein<32, 8, true, true>},
      {"64 threads, Z and scratch shared", 64, true, true, k_stein<64, 8, true, true>},
      {"the first with dstein's iteration alone (no twisted vectors; other vectors)", 64, false, false,
       k_stein<64, 8, false, false, 0>},
  };
  std::printf("device: %s; n %d, batch %lld (%d distinct), best of %d\n", prop.name, n, (long long)batch, distinct, reps);
  std::printf("| configuration | blocks an SM | ms | Z as the first's | info |\n|---|---:|---:|---|---:|\n");
  std::vector<double> z0, z1((size_t)batch * z_doubles(n));
  for (const Cfg& c : cfgs) {
    const size_t sm = smem_bytes(n, c.T, c.z_shared, c.s_shared);
    if (sm > (size_t)prop.sharedMemPerBlockOptin) {
      std::printf("| %s | - | - | - | - |\n", c.name);
      continue;
    }
    CK(cudaFuncSetAttribute(c.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, c.k, c.T, sm));
    CK(cudaMemset(dZ, 0, sizeof(double) * (size_t)batch * z_doubles(n)));
    float best = 1e30f;
    for (int r = 0; r < reps; ++r) {
      CK(cudaEventRecord(ev[0], st));
      c.k<<<(unsigned)batch, c.T, sm, st>>>(n, ddew, dZ, dS, dinfo);
      CK(cudaGetLastError());
      CK(cudaEventRecord(ev[1], st));
      CK(cudaEventSynchronize(ev[1]));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
      best = std::min(best, ms);
    }
    CK(cudaMemcpy(z1.data(), dZ, sizeof(double) * z1.size(), cudaMemcpyDeviceToHost));
    std::vector<int> info(batch);
    CK(cudaMemcpy(info.data(), dinfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (int x : info) bad += x;
    const bool first = z0.empty();
    if (first) z0 = z1;
    const bool same = std::memcmp(z0.data(), z1.data(), sizeof(double) * z1.size()) == 0;
    std::printf("| %s | %d | %.3f | %s | %ld |\n", c.name, per_sm, best, first ? "(itself)" : same ? "yes" : "NO", bad);
  }
  // The first configuration's vectors of matrix 0 against T: residual and orthogonality.
  const double eps = 2.220446049250313e-16;
  double tn = 0.0;
  for (int i = 0; i < n; ++i)
    tn = std::max(tn, std::fabs(T0d[i]) + (i > 0 ? T0e[i - 1] : 0.0) + (i + 1 < n ? T0e[i] : 0.0));
  auto Z = [&](int i, int j) { return z0[(size_t)i * ldz(n) + j]; };
  double res = 0.0, orth = 0.0;
  for (int j = 0; j < n; ++j) {
    const double wj = dew[2 * n + j];
    for (int i = 0; i < n; ++i) {
      double r = (T0d[i] - wj) * Z(i, j);
      if (i > 0) r += T0e[i - 1] * Z(i - 1, j);
      if (i + 1 < n) r += T0e[i] * Z(i + 1, j);
      res = std::max(res, std::fabs(r));
    }
    for (int k = 0; k <= j; ++k) {
      double s = 0.0;
      for (int i = 0; i < n; ++i) s += Z(i, j) * Z(i, k);
      orth = std::max(orth, std::fabs(s - (j == k ? 1.0 : 0.0)));
    }
  }
  std::printf("matrix 0: residual %.3g, orthogonality %.3g (units of n eps ||T||, n eps)\n", res / (n * eps * tn),
              orth / (n * eps));
  cudaFree(ddew);
  cudaFree(dZ);
  cudaFree(dS);
  cudaFree(dinfo);
  return 0;
}
