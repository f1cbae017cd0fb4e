// The CUDA seam on a machine with a GPU: devices are found; each pointer argument is classified on
// its own, so device, managed, pinned and pageable memory can be mixed in one call, and the CPU
// backend stages device memory through the host, giving bitwise the results of an all-host call
// with the gaps between matrices left as they were; a forced GPU backend runs the eigensolvers on
// device data and the scan on host data; AUTO takes the GPU for dgeev, zheev and the scan of
// device data. Skips (77) without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "sgpu.h"

#include "gpu_expect.hpp"

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CUDA_OK(cudaMalloc(&d, sizeof(T) * h.size()));
  CUDA_OK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
std::vector<T> to_host(const T* d, size_t count) {
  std::vector<T> h(count);
  CUDA_OK(cudaMemcpy(h.data(), d, sizeof(T) * count, cudaMemcpyDeviceToHost));
  return h;
}
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  EXPECT(sgpu_gpu_count() == ndev, "sgpu_gpu_count %d, CUDA %d", sgpu_gpu_count(), ndev);
  std::mt19937_64 g(12345);
  std::uniform_real_distribution<double> u(-1, 1);
  sgpu_context_t cpu, gpu, autoc;
  sgpu_context_create(&cpu);
  sgpu_context_create(&gpu);
  sgpu_context_create(&autoc);
  sgpu_context_set_backend(cpu, SGPU_BACKEND_CPU);
  sgpu_context_set_backend(gpu, SGPU_BACKEND_GPU);
  sgpu_context_set_backend(autoc, SGPU_BACKEND_AUTO);

  // dgeev, batch of 7 matrices of 9x9 with gaps, A and VR on the device, wr pinned, wi pageable,
  // info managed: bitwise the host-only results, gaps (sentinels) preserved.
  {
    const int n = 9, lda = 11, nb = 7;
    const int64_t sA = lda * n + 3, sW = n + 2;
    std::vector<double> a(nb * sA, -7.0), vr(nb * sA, -7.0), wr(nb * sW, -7.0), wi(nb * sW, -7.0);
    for (int b = 0; b < nb; ++b)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) a[b * sA + i + j * lda] = u(g);
    std::vector<double> a_h = a, vr_h = vr, wr_h = wr, wi_h = wi;
    std::vector<int> info_h(nb, -1);
    int st_h = sgpu_dgeev_batched(cpu, 'N', 'V', n, a_h.data(), lda, sA, wr_h.data(), wi_h.data(), sW, nullptr, 1, 0,
                                  vr_h.data(), lda, sA, info_h.data(), nb);
    double* d_a = to_device(a);
    double* d_vr = to_device(vr);
    double* p_wr = nullptr;
    int* m_info = nullptr;
    CUDA_OK(cudaMallocHost(&p_wr, sizeof(double) * wr.size()));
    CUDA_OK(cudaMallocManaged(&m_info, sizeof(int) * nb));
    std::memcpy(p_wr, wr.data(), sizeof(double) * wr.size());
    for (int b = 0; b < nb; ++b) m_info[b] = -1;
    std::vector<double> wi_d = wi;
    int st_d = sgpu_dgeev_batched(cpu, 'N', 'V', n, d_a, lda, sA, p_wr, wi_d.data(), sW, nullptr, 1, 0, d_vr, lda, sA,
                                  m_info, nb);
    std::vector<double> wr_d(p_wr, p_wr + wr.size());
    EXPECT(st_h == 0 && st_d == 0, "dgeev statuses %d (host) %d (mixed)", st_h, st_d);
    EXPECT(same_bits(wr_d, wr_h) && same_bits(wi_d, wi_h), "dgeev eigenvalues differ between host and mixed memory");
    EXPECT(same_bits(to_host(d_vr, vr.size()), vr_h), "dgeev VR (device) differs from the host call, gaps included");
    EXPECT(same_bits(to_host(d_a, a.size()), a_h), "dgeev A (device, overwritten) differs from the host call");
    bool info_ok = true;
    for (int b = 0; b < nb; ++b) info_ok = info_ok && m_info[b] == info_h[b];
    EXPECT(info_ok, "dgeev info (managed) differs");
    // Forced GPU: the shared-memory kernels run on device data in place (their accuracy is the
    // conformance suite's business); every info written, the gaps of VR untouched.
    CUDA_OK(cudaMemcpy(d_a, a.data(), sizeof(double) * a.size(), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_vr, vr.data(), sizeof(double) * vr.size(), cudaMemcpyHostToDevice));
    for (int b = 0; b < nb; ++b) m_info[b] = -1;
    int st_g = sgpu_dgeev_batched(gpu, 'N', 'V', n, d_a, lda, sA, p_wr, wi_d.data(), sW, nullptr, 1, 0, d_vr, lda, sA,
                                  m_info, nb);
    auto vr_g = to_host(d_vr, vr.size());
    const std::vector<double> wr_g(p_wr, p_wr + wr.size());
    bool gaps = true;
    for (size_t k = 0; k < vr.size(); ++k) {
      int64_t off = (int64_t)(k % sA);
      if (off >= (int64_t)lda * n || off % lda >= n) gaps = gaps && vr_g[k] == -7.0;
    }
    bool infos = true;
    for (int b = 0; b < nb; ++b) infos = infos && m_info[b] == 0;
    EXPECT(st_g == 0 && infos && gaps, "forced GPU dgeev on device data: %d (infos %d, gaps %d)", st_g, infos, gaps);
    // AUTO with some operands in host memory (wr pinned, wi pageable) and a batch below the size
    // model's crossover (lib/auto_model.hpp) keeps the CPU backend: the host call's bits.
    CUDA_OK(cudaMemcpy(d_a, a.data(), sizeof(double) * a.size(), cudaMemcpyHostToDevice));
    int st_a = sgpu_dgeev_batched(autoc, 'N', 'V', n, d_a, lda, sA, p_wr, wi_d.data(), sW, nullptr, 1, 0, d_vr, lda, sA,
                                  m_info, nb);
    EXPECT(st_a == 0 && same_bits(to_host(d_vr, vr.size()), vr_h), "AUTO dgeev on mixed memory: %d", st_a);
    // AUTO with every operand on the device takes the GPU backend (measured faster at every
    // order): the forced GPU call's bits.
    {
      double* d_wr = to_device(wr);
      double* d_wi = to_device(wi);
      int* d_info = to_device(std::vector<int>(nb, -1));
      CUDA_OK(cudaMemcpy(d_a, a.data(), sizeof(double) * a.size(), cudaMemcpyHostToDevice));
      CUDA_OK(cudaMemcpy(d_vr, vr.data(), sizeof(double) * vr.size(), cudaMemcpyHostToDevice));
      int st_ad = sgpu_dgeev_batched(autoc, 'N', 'V', n, d_a, lda, sA, d_wr, d_wi, sW, nullptr, 1, 0, d_vr, lda, sA,
                                     d_info, nb);
      EXPECT(st_ad == 0 && same_bits(to_host(d_vr, vr.size()), vr_g) && same_bits(to_host(d_wr, wr.size()), wr_g),
             "AUTO dgeev on device data differs from the forced GPU call: %d", st_ad);
      cudaFree(d_wr);
      cudaFree(d_wi);
      cudaFree(d_info);
    }
    // Forced GPU scan of host data (staged to the device and back).
    float one = 1.0f, out = 0.0f;
    int st_s = sgpu_scan_cols(gpu, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, 1, 1, &one, 1, 1, &out, 1, 1, 1);
    EXPECT(st_s == 0 && out == 1.0f, "forced GPU scan of host data: %d, %g", st_s, out);
    cudaFree(d_a);
    cudaFree(d_vr);
    cudaFreeHost(p_wr);
    cudaFree(m_info);
  }

  // zheev with A and w on the device.
  {
    const int n = 6, nb = 3;
    std::vector<std::complex<double>> a(nb * n * n);
    for (int b = 0; b < nb; ++b)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i) {
          std::complex<double> x(u(g), i == j ? 0.0 : u(g));
          a[b * n * n + i + j * n] = x;
          a[b * n * n + j + i * n] = std::conj(x);
        }
    std::vector<std::complex<double>> a_h = a;
    std::vector<double> w_h(nb * n);
    std::vector<int> info(nb, -1);
    int st_h = sgpu_zheev_batched(cpu, 'V', 'L', n, a_h.data(), n, n * n, w_h.data(), n, info.data(), nb);
    auto* d_a = to_device(a);
    double* d_w = nullptr;
    CUDA_OK(cudaMalloc(&d_w, sizeof(double) * nb * n));
    int st_d = sgpu_zheev_batched(cpu, 'V', 'L', n, d_a, n, n * n, d_w, n, info.data(), nb);
    EXPECT(st_h == 0 && st_d == 0 && same_bits(to_host(d_w, nb * n), w_h) && same_bits(to_host(d_a, a.size()), a_h),
           "zheev on device memory differs from the host call (%d, %d)", st_h, st_d);
    cudaFree(d_a);
    cudaFree(d_w);
  }

  // scan_cols in place on the device (A == B share one staging buffer).
  {
    const int m = 50, n = 7, ld = 53;
    std::vector<float> x(ld * n, -1.0f);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) x[i + j * ld] = (float)u(g);
    std::vector<float> x_h = x;
    int st_h = sgpu_scan_cols(cpu, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, m, n, x_h.data(), ld, 0, x_h.data(), ld, 0, 1);
    float* d_x = to_device(x);
    int st_d = sgpu_scan_cols(cpu, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, m, n, d_x, ld, 0, d_x, ld, 0, 1);
    EXPECT(st_h == 0 && st_d == 0 && same_bits(to_host(d_x, x.size()), x_h), "in-place device scan differs");
    cudaFree(d_x);
  }

  // AUTO scan of device data (the GPU backend: asynchronous on the context's stream, here the
  // default stream, so the copy back is ordered after it): integers, so bitwise the CPU's sums.
  {
    const int m = 3000, n = 37, ld = 3001, nb = 2;
    const int64_t sx = (int64_t)ld * n + 3;
    std::vector<int32_t> x(sx * nb, 5);
    for (auto& v : x) v = (int32_t)g();
    std::vector<int32_t> y_h(x.size(), -1);
    int st_h = sgpu_scan_cols(cpu, SGPU_COL_MAJOR, SGPU_R_32I, SGPU_R_32I, m, n, x.data(), ld, sx, y_h.data(), ld, sx, nb);
    int32_t* d_x = to_device(x);
    int32_t* d_y = to_device(std::vector<int32_t>(x.size(), -1));
    int st_d = sgpu_scan_cols(autoc, SGPU_COL_MAJOR, SGPU_R_32I, SGPU_R_32I, m, n, d_x, ld, sx, d_y, ld, sx, nb);
    EXPECT(st_h == 0 && st_d == 0 && same_bits(to_host(d_y, y_h.size()), y_h), "AUTO device scan differs (%d, %d)",
           st_h, st_d);
    cudaFree(d_x);
    cudaFree(d_y);
  }

  // AUTO zheev of device data runs on the GPU (measured faster than the CPU backend at every order,
  // docs/performance.md): bitwise the forced GPU backend's results, for the small-n team path
  // (n = 6) and the block path (n = 40).
  for (int n : {6, 40}) {
    const int lda = n + 1, nb = 5;
    const int64_t sA = (int64_t)lda * n + 2, sW = n + 1;
    std::vector<std::complex<double>> a(sA * nb, {-7.0, -7.0});
    for (int b = 0; b < nb; ++b)
      for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) a[b * sA + i + j * lda] = {u(g), i == j ? 0.0 : u(g)};
    std::vector<double> w0(sW * nb, -7.0);
    auto* d_a1 = to_device(a);
    auto* d_a2 = to_device(a);
    double* d_w1 = to_device(w0);
    double* d_w2 = to_device(w0);
    int* d_i1 = to_device(std::vector<int>(nb, -1));
    int* d_i2 = to_device(std::vector<int>(nb, -1));
    auto* z1 = reinterpret_cast<sgpu_complex_double*>(d_a1);
    auto* z2 = reinterpret_cast<sgpu_complex_double*>(d_a2);
    int st_g = sgpu_zheev_batched(gpu, 'V', 'L', n, z1, lda, sA, d_w1, sW, d_i1, nb);
    int st_a = sgpu_zheev_batched(autoc, 'V', 'L', n, z2, lda, sA, d_w2, sW, d_i2, nb);
    CUDA_OK(cudaDeviceSynchronize());
    EXPECT(st_g == 0 && st_a == 0, "zheev n=%d statuses %d (GPU) %d (AUTO)", n, st_g, st_a);
    EXPECT(same_bits(to_host(d_w1, w0.size()), to_host(d_w2, w0.size())) &&
               same_bits(to_host(d_a1, a.size()), to_host(d_a2, a.size())),
           "AUTO zheev n=%d on device data differs from the GPU backend", n);
    auto inf = to_host(d_i2, nb);
    bool ok = true;
    for (int x : inf) ok = ok && x == 0;
    EXPECT(ok, "AUTO zheev n=%d info", n);
    cudaFree(d_a1), cudaFree(d_a2), cudaFree(d_w1), cudaFree(d_w2), cudaFree(d_i1), cudaFree(d_i2);
  }

  // dhseqr with H on the device and Z managed.
  {
    const int n = 8;
    std::vector<double> h(n * n, 0.0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= std::min(j + 1, n - 1); ++i) h[i + j * n] = u(g);
    std::vector<double> h_h = h, z_h(n * n), wr_h(n), wi_h(n), wr(n), wi(n);
    int info = -1;
    int st_h = sgpu_dhseqr_batched(cpu, 'S', 'I', n, 1, n, h_h.data(), n, 0, wr_h.data(), wi_h.data(), 0, z_h.data(), n,
                                   0, &info, 1);
    double* d_h = to_device(h);
    double* m_z = nullptr;
    CUDA_OK(cudaMallocManaged(&m_z, sizeof(double) * n * n));
    int st_d = sgpu_dhseqr_batched(cpu, 'S', 'I', n, 1, n, d_h, n, 0, wr.data(), wi.data(), 0, m_z, n, 0, &info, 1);
    std::vector<double> z_d(m_z, m_z + n * n);
    EXPECT(st_h == 0 && st_d == 0 && same_bits(to_host(d_h, h.size()), h_h) && same_bits(z_d, z_h) &&
               same_bits(wr, wr_h),
           "dhseqr on device/managed memory differs (%d, %d)", st_h, st_d);
    cudaFree(d_h);
    cudaFree(m_z);
  }

  sgpu_context_destroy(cpu);
  sgpu_context_destroy(gpu);
  sgpu_context_destroy(autoc);
  std::printf("test_gpu_seam: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
