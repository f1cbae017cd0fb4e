// sgpu_heev_jacobi_probe: how fast zheev at the smallest orders runs with one thread a matrix, its
// matrix and basis in registers (RegVectors), by the cyclic Jacobi method (cuda/kernels/
// heev_jacobi_thread.hpp), against the library (sgpu_zheev_batched on device memory, the same
// matrices; its kernel keeps the basis in shared memory) and the memory floor (the device's copy
// bandwidth for the bytes read and written). A warp stages its 32 matrices through
// shared memory both ways, so global accesses stay coalesced.
// Checks: the eigenvalues against the library's (max |dw| / (n eps max |w|)) over the whole batch,
// and, on the first 8 matrices, ||A - U L U^H||_1 / (n eps ||A||_1) and ||I - U^H U||_1 / (n eps).
// Usage: sgpu_heev_jacobi_probe n batch [reps] (n = 2..6).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuda_common.cuh"
#include "kernels/heev_jacobi_thread.hpp"
#include "sgpu.h"

namespace {

using sgpu::core::zc;
// Warps a block: static shared memory (48 KB) holds their 32 slots each.
template <int N>
constexpr int kWarps = N <= 4 ? 4 : 2;

// Matrix b = 32 (block warp) + lane: the lower triangle read, w and (kWantz) the vectors written.
// A lane's slot is 2 N^2 + 1 doubles (odd: the lanes' same elements fall in distinct banks).
template <int N, bool kWantz>
__global__ void __launch_bounds__(32 * kWarps<N>) k_jacobi(const double* A, double* V, double* W, int* info,
                                                           int64_t batch) {
  constexpr int kMat = 2 * N * N, kSlot = kMat + 1;  // doubles
  __shared__ double sm[kWarps<N>][32 * kSlot];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t b0 = ((int64_t)blockIdx.x * kWarps<N> + warp) * 32;
  if (b0 >= batch) return;
  const int cnt = batch - b0 < 32 ? (int)(batch - b0) : 32;
  double* s = sm[warp];
  for (int k = lane; k < cnt * kMat; k += 32) s[(k / kMat) * kSlot + k % kMat] = A[b0 * kMat + k];
  __syncwarp();
  zc a[N][N], v[N][N];
  double w[N];
  if (lane < cnt) {
    const zc* m = reinterpret_cast<const zc*>(s + lane * kSlot);
#pragma unroll
    for (int c = 0; c < N; ++c)
#pragma unroll
      for (int r = 0; r < N; ++r) a[r][c] = r >= c ? m[r + c * N] : sgpu::core::conj(m[c + r * N]);
    const int i = sgpu::gpu::heev_jacobi::heev<N, kWantz>(a, w, v);
    info[b0 + lane] = i;
#pragma unroll
    for (int j = 0; j < N; ++j) W[(b0 + lane) * N + j] = w[j];
  }
  if (!kWantz) return;
  __syncwarp();
  if (lane < cnt) {
    zc* m = reinterpret_cast<zc*>(s + lane * kSlot);
#pragma unroll
    for (int c = 0; c < N; ++c)
#pragma unroll
      for (int r = 0; r < N; ++r) m[r + c * N] = v[r][c];
  }
  __syncwarp();
  for (int k = lane; k < cnt * kMat; k += 32) V[b0 * kMat + k] = s[(k / kMat) * kSlot + k % kMat];
}

template <int N>
void launch(bool wantz, const double* A, double* V, double* W, int* info, int64_t batch) {
  constexpr int threads = 32 * kWarps<N>;
  const unsigned grid = (unsigned)((batch + threads - 1) / threads);
  if (wantz)
    k_jacobi<N, true><<<grid, threads>>>(A, V, W, info, batch);
  else
    k_jacobi<N, false><<<grid, threads>>>(A, V, W, info, batch);
  CK(cudaGetLastError());
}

void launch_n(int n, bool wantz, const double* A, double* V, double* W, int* info, int64_t batch) {
  switch (n) {
    case 2: return launch<2>(wantz, A, V, W, info, batch);
    case 3: return launch<3>(wantz, A, V, W, info, batch);
    case 4: return launch<4>(wantz, A, V, W, info, batch);
    case 5: return launch<5>(wantz, A, V, W, info, batch);
    case 6: return launch<6>(wantz, A, V, W, info, batch);
  }
}

template <class F>
float best_ms(int reps, F f) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    best = std::min(best, ms);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s n batch [reps]\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const int64_t batch = std::atoll(argv[2]);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  if (n < 2 || n > 6 || batch < 1 || reps < 1) {
    std::fprintf(stderr, "n: 2..6\n");
    return 2;
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("no GPU: nothing to measure\n");
    return 0;
  }
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const size_t nn = (size_t)n * n, elems = nn * batch;
  std::vector<std::complex<double>> h(elems);
  for (int64_t b = 0; b < batch; ++b)
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) {
        auto& x = h[b * nn + r + (size_t)c * n];
        if (r > c) x = {u(rng), u(rng)};
        else if (r == c) x = {u(rng), 0.0};
        else x = std::conj(h[b * nn + c + (size_t)r * n]);
      }
  double *A0, *A, *V, *W, *Wl;
  int *info, *infol;
  CK(cudaMalloc(&A0, elems * 16));
  CK(cudaMalloc(&A, elems * 16));
  CK(cudaMalloc(&V, elems * 16));
  CK(cudaMalloc(&W, (size_t)n * batch * 8));
  CK(cudaMalloc(&Wl, (size_t)n * batch * 8));
  CK(cudaMalloc(&info, batch * 4));
  CK(cudaMalloc(&infol, batch * 4));
  CK(cudaMemcpy(A0, h.data(), elems * 16, cudaMemcpyHostToDevice));
  sgpu_context_t ctx;
  if (sgpu_context_create(&ctx) || sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU)) {
    std::fprintf(stderr, "sgpu context\n");
    return 1;
  }
  const float copy = best_ms(reps, [&] { CK(cudaMemcpy(A, A0, elems * 16, cudaMemcpyDeviceToDevice)); });
  std::printf("| n | batch | jobz | jacobi ms | sgpu ms | sgpu / jacobi | floor ms | jacobi / floor | max|dw| / (n eps max|w|) "
              "| residual, orthogonality (first 8) | info != 0 |\n");
  int bad = 0;
  for (char jobz : {'N', 'V'}) {
    const bool wantz = jobz == 'V';
    // The floor: A read (and with vectors written) and w written, at the copy's bandwidth.
    const double bytes = elems * 16.0 * (wantz ? 2 : 1) + n * batch * 8.0;
    const double floor_ms = copy * bytes / (2.0 * elems * 16.0);
    const float tj = best_ms(reps, [&] { launch_n(n, wantz, A0, V, W, info, batch); });
    float tl = 1e30f;
    for (int r = 0; r < reps; ++r) {
      CK(cudaMemcpy(A, A0, elems * 16, cudaMemcpyDeviceToDevice));
      CK(cudaDeviceSynchronize());
      tl = std::min(tl, best_ms(1, [&] {
        sgpu_zheev_batched(ctx, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(A), n, nn, Wl, n, infol, batch);
      }));
    }
    std::vector<double> wj((size_t)n * batch), wl((size_t)n * batch);
    std::vector<int> ij(batch);
    CK(cudaMemcpy(wj.data(), W, wj.size() * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wl.data(), Wl, wl.size() * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ij.data(), info, batch * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    int64_t nonzero = 0;
    for (int64_t b = 0; b < batch; ++b) {
      double dw = 0, mw = 0;
      for (int i = 0; i < n; ++i) {
        dw = std::max(dw, std::abs(wj[b * n + i] - wl[b * n + i]));
        mw = std::max(mw, std::abs(wl[b * n + i]));
      }
      worst = std::max(worst, dw / (n * 2.220446049250313e-16 * std::max(mw, 1e-300)));
      nonzero += ij[b] != 0;
    }
    double res = 0, orth = 0;
    if (wantz) {
      std::vector<std::complex<double>> v(std::min<int64_t>(batch, 8) * nn);
      CK(cudaMemcpy(v.data(), V, v.size() * 16, cudaMemcpyDeviceToHost));
      for (int64_t b = 0; b < std::min<int64_t>(batch, 8); ++b) {
        const std::complex<double>* a = h.data() + b * nn;
        const std::complex<double>* q = v.data() + b * nn;
        double an = 0, rn = 0, on = 0;
        for (int c = 0; c < n; ++c) {
          double sa = 0, sr = 0, so = 0;
          for (int r = 0; r < n; ++r) {
            std::complex<double> x = a[r + c * n], o = 0;
            for (int k = 0; k < n; ++k) {
              x -= q[r + k * n] * wj[b * n + k] * std::conj(q[c + k * n]);
              o += std::conj(q[k + r * n]) * q[k + c * n];
            }
            sa += std::abs(a[r + c * n]);
            sr += std::abs(x);
            so += std::abs(o - (r == c ? 1.0 : 0.0));
          }
          an = std::max(an, sa);
          rn = std::max(rn, sr);
          on = std::max(on, so);
        }
        res = std::max(res, rn / (n * 2.220446049250313e-16 * an));
        orth = std::max(orth, on / (n * 2.220446049250313e-16));
      }
    }
    std::printf("| %d | %lld | %c | %.3f | %.3f | %.2f | %.3f | %.2f | %.3g | %.3g, %.3g | %lld |\n", n, (long long)batch,
                jobz, tj, tl, tl / tj, floor_ms, tj / floor_ms, worst, res, orth, (long long)nonzero);
    bad += !(worst < 60) + !(res < 60) + !(orth < 60) + (nonzero != 0);
  }
  sgpu_context_destroy(ctx);
  return bad ? 1 : 0;
}
