// sgpu_dmma_probe: the fp64 tensor cores' throughput by MMA shape (8x8x4, and on compute
// capability 9.0 16x8x4, 16x8x8, 16x8x16), to choose the shape of zheev's phase-3 kernel
// (cuda/kernels/heev_apply_q.cu). Every warp of a full grid issues chains of independent MMAs on
// register operands (no memory traffic): the rate the shape can reach at all.
// Usage: sgpu_dmma_probe [iterations]   (default 4096 a warp)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "cuda_common.cuh"

namespace {

constexpr int kChains = 8;  // independent accumulators a warp

template <int M, int K>
__device__ __forceinline__ void mma(double (&c)[M / 2], const double (&a)[M * K / 32], const double (&b)[K / 4]);

template <>
__device__ __forceinline__ void mma<8, 4>(double (&c)[4], const double (&a)[1], const double (&b)[1]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[0]), "+d"(c[1])
      : "d"(a[0]), "d"(b[0]));
#endif
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SGPU_MMA16 1
#endif
template <>
__device__ __forceinline__ void mma<16, 4>(double (&c)[8], const double (&a)[2], const double (&b)[1]) {
#ifdef SGPU_MMA16
  asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(b[0]));
#endif
}
template <>
__device__ __forceinline__ void mma<16, 8>(double (&c)[8], const double (&a)[4], const double (&b)[2]) {
#ifdef SGPU_MMA16
  asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#endif
}
template <>
__device__ __forceinline__ void mma<16, 16>(double (&c)[8], const double (&a)[8], const double (&b)[4]) {
#ifdef SGPU_MMA16
  asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
      "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
        "d"(b[1]), "d"(b[2]), "d"(b[3]));
#endif
}

// c has M / 2 slots so that one type serves both accumulator sizes (8x8: 2 used, 16x8: 4).
template <int M, int K>
__global__ void k_probe(int iters, double seed, double* out) {
  double a[M * K / 32], b[K / 4], c[kChains][M / 2];
#pragma unroll
  for (int i = 0; i < M * K / 32; ++i) a[i] = seed + threadIdx.x + i;
#pragma unroll
  for (int i = 0; i < K / 4; ++i) b[i] = seed - i;
#pragma unroll
  for (int j = 0; j < kChains; ++j)
#pragma unroll
    for (int i = 0; i < M / 2; ++i) c[j][i] = 0.0;
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int j = 0; j < kChains; ++j) mma<M, K>(c[j], a, b);
  double s = 0.0;
#pragma unroll
  for (int j = 0; j < kChains; ++j)
#pragma unroll
    for (int i = 0; i < M / 2; ++i) s += c[j][i];
  if (s == 1.2345) out[0] = s;  // keeps the chains live
}

template <int M, int K>
void run(const char* name, int iters, const cudaDeviceProp& prop, cudaStream_t st, cudaEvent_t e0, cudaEvent_t e1,
         double* out) {
  const int blocks = prop.multiProcessorCount * 8, threads = 128;
  k_probe<M, K><<<blocks, threads, 0, st>>>(8, 1.0, out);  // warm-up
  CK(cudaGetLastError());
  CK(cudaEventRecord(e0, st));
  k_probe<M, K><<<blocks, threads, 0, st>>>(iters, 1.0, out);
  CK(cudaEventRecord(e1, st));
  CK(cudaEventSynchronize(e1));
  float ms = 0.0f;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  const double mmas = (double)blocks * (threads / 32) * iters * kChains;
  const double flops = mmas * 2.0 * M * 8 * K;
  std::printf("| %-8s | %8.3f | %8.1f | %6.1f |\n", name, ms, flops / ms / 1e9, mmas / ms / 1e3 / prop.multiProcessorCount);
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 4096;
  cudaDeviceProp prop;
  cudaStream_t st;
  cudaEvent_t e0, e1;
  if (!bench::open_gpu(prop, st, e0, e1)) return 0;
  if (prop.major < 8) {
    std::printf("%s: compute capability %d.%d has no fp64 MMA\n", prop.name, prop.major, prop.minor);
    return 0;
  }
  double* out = nullptr;
  CK(cudaMalloc(&out, sizeof(double)));
  std::printf("%s, %d SMs, %d iterations of %d MMAs a warp, 32 warps an SM\n", prop.name, prop.multiProcessorCount,
              iters, kChains);
  std::printf("| shape | ms | TFLOP/s | MMAs/us/SM |\n|---|---:|---:|---:|\n");
  run<8, 4>("8x8x4", iters, prop, st, e0, e1, out);
  if (prop.major >= 9) {
    run<16, 4>("16x8x4", iters, prop, st, e0, e1, out);
    run<16, 8>("16x8x8", iters, prop, st, e0, e1, out);
    run<16, 16>("16x8x16", iters, prop, st, e0, e1, out);
  }
  CK(cudaFree(out));
  return 0;
}
