// The CUDA seam on a machine with a GPU: devices are found, each pointer argument is classified
// on its own (device memory is refused by the CPU backend before anything is read or written,
// managed memory is host-accessible and works), a forced GPU backend reports the routines it
// does not implement yet, and auto falls back to the CPU. Skips (77) without a GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "sgpu.h"

static int failures = 0, checks = 0;
#define EXPECT(c, ...)                 \
  do {                                 \
    ++checks;                          \
    if (!(c)) {                        \
      ++failures;                      \
      std::printf("FAIL: " __VA_ARGS__); \
      std::printf("\n");               \
    }                                  \
  } while (0)
#define CUDA_OK(x) EXPECT((x) == cudaSuccess, "%s", #x)

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  EXPECT(sgpu_gpu_count() == ndev, "sgpu_gpu_count %d, CUDA %d", sgpu_gpu_count(), ndev);
  const int n = 4;
  std::vector<double> a = {4, 1, 0, 0, 1, 3, 1, 0, 0, 1, 2, 1, 0, 0, 1, 1}, wr(n), wi(n);
  int info = -1;
  double* d_a = nullptr;
  CUDA_OK(cudaMalloc(&d_a, sizeof(double) * n * n));
  CUDA_OK(cudaMemcpy(d_a, a.data(), sizeof(double) * n * n, cudaMemcpyHostToDevice));
  sgpu_context_t cpu, gpu, autoc;
  sgpu_context_create(&cpu);
  sgpu_context_create(&gpu);
  sgpu_context_create(&autoc);
  sgpu_context_set_backend(cpu, SGPU_BACKEND_CPU);
  sgpu_context_set_backend(gpu, SGPU_BACKEND_GPU);
  sgpu_context_set_backend(autoc, SGPU_BACKEND_AUTO);

  // Device memory on the CPU backend: refused, nothing written.
  int st = sgpu_dgeev_batched(cpu, 'N', 'N', n, d_a, n, n * n, wr.data(), wi.data(), n, nullptr, 1, 0, nullptr, 1, 0,
                              &info, 1);
  EXPECT(st == SGPU_ERR_NOT_SUPPORTED && info == -1, "device A on the CPU backend: %d", st);
  // Only the output in device memory: also refused.
  double* d_w = nullptr;
  CUDA_OK(cudaMalloc(&d_w, sizeof(double) * n));
  st = sgpu_dgeev_batched(cpu, 'N', 'N', n, a.data(), n, n * n, d_w, wi.data(), n, nullptr, 1, 0, nullptr, 1, 0, &info, 1);
  EXPECT(st == SGPU_ERR_NOT_SUPPORTED && info == -1, "device wr on the CPU backend: %d", st);

  // Managed and pinned memory are host-accessible: the CPU backend computes in place.
  double *m_a = nullptr, *p_w = nullptr;
  CUDA_OK(cudaMallocManaged(&m_a, sizeof(double) * n * n));
  CUDA_OK(cudaMallocHost(&p_w, sizeof(double) * 2 * n));
  for (int k = 0; k < n * n; ++k) m_a[k] = a[k];
  st = sgpu_dgeev_batched(cpu, 'N', 'N', n, m_a, n, n * n, p_w, p_w + n, n, nullptr, 1, 0, nullptr, 1, 0, &info, 1);
  double trace = 0;
  for (int i = 0; i < n; ++i) trace += p_w[i];
  EXPECT(st == 0 && info == 0 && std::fabs(trace - 10.0) < 1e-12, "managed/pinned on the CPU backend: %d, trace %g", st,
         trace);

  // Forced GPU: no GPU implementation of these routines in this build yet.
  st = sgpu_dgeev_batched(gpu, 'N', 'N', n, a.data(), n, n * n, wr.data(), wi.data(), n, nullptr, 1, 0, nullptr, 1, 0,
                          &info, 1);
  EXPECT(st == SGPU_ERR_NOT_SUPPORTED, "forced GPU dgeev: %d", st);
  // Auto: falls back to the CPU for host data.
  info = -1;
  st = sgpu_dgeev_batched(autoc, 'N', 'N', n, a.data(), n, n * n, wr.data(), wi.data(), n, nullptr, 1, 0, nullptr, 1, 0,
                          &info, 1);
  EXPECT(st == 0 && info == 0, "auto dgeev on host data: %d", st);

  cudaFree(d_a);
  cudaFree(d_w);
  cudaFree(m_a);
  cudaFreeHost(p_w);
  sgpu_context_destroy(cpu);
  sgpu_context_destroy(gpu);
  sgpu_context_destroy(autoc);
  std::printf("test_gpu_seam: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
