// sgpu_scan_bench: device-resident column scans next to their floor and CUB-based peers (seed 000
// Table 3.1), one run, on the current GPU. Every time is the mean of R back-to-back runs on one
// stream between CUDA events (R from the size; the same for every column of a row).
//   copy      cudaMemcpyAsync device to device of the same bytes (the floor: read + write once)
//   sgpu      sgpu_scan_cols on device pointers (forced GPU backend)
//   cub-col   cub::DeviceScan::InclusiveSumByKey over the columns in place in memory (key = column);
//             for row-major, a permutation iterator walks each column down (strided), as the seed's
//             "column-wise CUB"
//   cub-T     row-major only: transpose (cuBLAS geam), InclusiveSumByKey on the contiguous columns,
//             transpose back (the seed's "transposed CUB")
// Also: 100 repeated sgpu runs compared bitwise on the device with the first, and the largest
// error of a sampled column against a long-double sum.
// Usage: sgpu_scan_bench [--quick] [--only row|col] [--repeats N]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <random>
#include <string>
#include <vector>

#include "cuda_common.cuh"
#include "sgpu.h"


namespace {

struct Shape {
  const char* name;
  int m, n;
  int64_t batch;
};

// Key of flat position p in column order: the column (segment) it belongs to.
struct SegmentOf {
  int64_t m;
  __host__ __device__ int64_t operator()(int64_t p) const { return p / m; }
};
// Address of column-order position p in a batch of row-major m x n matrices.
struct RowMajorAddress {
  int64_t m, n;
  __host__ __device__ int64_t operator()(int64_t p) const {
    const int64_t mn = m * n, b = p / mn, q = p - b * mn, j = q / m, i = q - j * m;
    return b * mn + i * n + j;
  }
};

template <class T>
__global__ void fill(T* x, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count; i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = (T)((double)(z >> 11) * 0x1p-53 * 2.0 - 1.0);  // uniform in [-1, 1)
  }
}

__global__ void count_diff(const unsigned* a, const unsigned* b, int64_t words, unsigned long long* out) {
  unsigned long long c = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < words; i += (int64_t)gridDim.x * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(out, c);
}

template <class T>
struct Sizes {
  static constexpr sgpu_type_t type = sizeof(T) == 4 ? SGPU_R_32F : SGPU_R_64F;
  static constexpr const char* name = sizeof(T) == 4 ? "f32" : "f64";
};

cudaStream_t stream;
cudaEvent_t ev0, ev1;
sgpu_context_t ctx;
cublasHandle_t blas;

template <class F>
double time_ms(int reps, F f) {
  f();  // warm-up
  CK(cudaStreamSynchronize(stream));
  CK(cudaEventRecord(ev0, stream));
  for (int r = 0; r < reps; ++r) f();
  CK(cudaEventRecord(ev1, stream));
  CK(cudaEventSynchronize(ev1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms / reps;
}

cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const float* a, float* c) {
  const float one = 1, zero = 0;  // c (cols x rows, col-major) = a^T, a: rows x cols col-major
  return cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, cols, rows, &one, a, rows, &zero, c, cols, c, cols);
}
cublasStatus_t geam(cublasHandle_t h, int rows, int cols, const double* a, double* c) {
  const double one = 1, zero = 0;
  return cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, cols, rows, &one, a, rows, &zero, c, cols, c, cols);
}

int repeats_arg = 100;

template <class T>
void run(const Shape& s, bool row_major) {
  const int64_t count = (int64_t)s.m * s.n * s.batch, bytes = count * (int64_t)sizeof(T);
  T *a = nullptr, *b = nullptr, *c = nullptr;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&c, bytes));
  fill<<<1024, 256, 0, stream>>>(a, count, 1234 + s.m);
  CK(cudaGetLastError());
  const int ld = row_major ? s.n : s.m;
  const int64_t stride = (int64_t)s.m * s.n;
  const int reps = (int)std::max<int64_t>(3, std::min<int64_t>(200, (int64_t)4e9 / (2 * bytes)));

  const double t_copy = time_ms(reps, [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream)); });
  int st = 0;
  const double t_sgpu = time_ms(reps, [&] {
    st |= sgpu_scan_cols(ctx, row_major ? SGPU_ROW_MAJOR : SGPU_COL_MAJOR, Sizes<T>::type, Sizes<T>::type, s.m, s.n, a, ld,
                         stride, b, ld, stride, s.batch);
  });
  if (st) std::printf("sgpu_scan_cols failed: %d\n", st);

  // Determinism: repeated runs into c, compared with b.
  unsigned long long* d_diff = nullptr;
  CK(cudaMalloc(&d_diff, sizeof *d_diff));
  int differ = 0;
  for (int r = 0; r < repeats_arg; ++r) {
    CK(cudaMemsetAsync(c, 0xff, bytes, stream));
    sgpu_scan_cols(ctx, row_major ? SGPU_ROW_MAJOR : SGPU_COL_MAJOR, Sizes<T>::type, Sizes<T>::type, s.m, s.n, a, ld,
                   stride, c, ld, stride, s.batch);
    CK(cudaMemsetAsync(d_diff, 0, sizeof *d_diff, stream));
    count_diff<<<1024, 256, 0, stream>>>(reinterpret_cast<unsigned*>(b), reinterpret_cast<unsigned*>(c), bytes / 4, d_diff);
    unsigned long long h = 0;
    CK(cudaMemcpyAsync(&h, d_diff, sizeof h, cudaMemcpyDeviceToHost, stream));
    CK(cudaStreamSynchronize(stream));
    differ += h != 0;
  }
  CK(cudaFree(d_diff));

  // Accuracy on sampled columns (first, middle, last of the last matrix) against long double,
  // in units of u * sum |a| (the documented bound is depth * u * sum |a|).
  double worst = 0;
  {
    const int64_t last = (s.batch - 1) * stride;
    const size_t es = sizeof(T);
    for (int j : {0, s.n / 2, s.n - 1}) {
      std::vector<T> ca(s.m), cb(s.m);
      if (!row_major) {
        CK(cudaMemcpy(ca.data(), a + last + (int64_t)j * s.m, es * s.m, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(cb.data(), b + last + (int64_t)j * s.m, es * s.m, cudaMemcpyDeviceToHost));
      } else if ((int64_t)s.m * s.n * es <= ((size_t)1 << 29)) {  // whole matrix, then pick the column
        std::vector<T> ma((size_t)s.m * s.n), mb((size_t)s.m * s.n);
        CK(cudaMemcpy(ma.data(), a + last, es * ma.size(), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(mb.data(), b + last, es * mb.size(), cudaMemcpyDeviceToHost));
        for (int i = 0; i < s.m; ++i) ca[i] = ma[(size_t)i * s.n + j], cb[i] = mb[(size_t)i * s.n + j];
      } else {
        CK(cudaMemcpy2D(ca.data(), es, a + last + j, es * s.n, es, s.m, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy2D(cb.data(), es, b + last + j, es * s.n, es, s.m, cudaMemcpyDeviceToHost));
      }
      long double sum = 0, sabs = 0;
      const double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
      for (int i = 0; i < s.m; ++i) {
        sum += ca[i];
        sabs += std::fabs((long double)ca[i]);
        if (sabs > 0) worst = std::max(worst, (double)(std::fabs((long double)cb[i] - sum) / (u * sabs)));
      }
    }
  }

  // CUB over the columns where they are.
  double t_cub = -1, t_T = -1;
  {
    void* temp = nullptr;
    size_t temp_bytes = 0;
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), SegmentOf{s.m});
    if (!row_major) {
      cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, a, b, count, cuda::std::equal_to<>{}, stream);
      CK(cudaMalloc(&temp, temp_bytes));
      t_cub = time_ms(reps, [&] {
        CK(cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, a, b, count, cuda::std::equal_to<>{}, stream));
      });
    } else {
      auto addr = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), RowMajorAddress{s.m, s.n});
      auto in = thrust::make_permutation_iterator(a, addr);
      auto out = thrust::make_permutation_iterator(b, addr);
      cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, count, cuda::std::equal_to<>{}, stream);
      CK(cudaMalloc(&temp, temp_bytes));
      t_cub = time_ms(reps, [&] {
        CK(cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, count, cuda::std::equal_to<>{}, stream));
      });
      // Transposed: the batch of row-major m x n is one (batch*m) x n row-major matrix, i.e. an
      // n x (batch*m) column-major one; its transpose has every column of every matrix contiguous.
      const int64_t rows = s.batch * s.m;
      if (rows * s.n < (int64_t)1 << 31 && rows < (int64_t)1 << 31) {
        t_T = time_ms(reps, [&] {
          geam(blas, s.n, (int)rows, a, c);  // c: rows x n column-major... = (n x rows)^T
          CK(cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, c, c, count, cuda::std::equal_to<>{}, stream));
          geam(blas, (int)rows, s.n, c, b);
        });
      }
    }
    CK(cudaFree(temp));
  }
  std::printf("| %-4s | %-3s | %-22s | %9.4f | %9.4f | %5.3f | %9.4f | %6.2f | %9s | %6s | %3d/%d | %5.1f |\n",
              row_major ? "row" : "col", Sizes<T>::name, s.name, t_copy, t_sgpu, t_sgpu / t_copy, t_cub, t_cub / t_copy,
              t_T > 0 ? std::to_string(t_T).substr(0, 8).c_str() : "-",
              t_T > 0 ? std::to_string(t_T / t_copy).substr(0, 5).c_str() : "-", differ, repeats_arg, worst);
  std::fflush(stdout);
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(c));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats_arg = std::atoi(argv[++i]);
  }
  cudaDeviceProp prop;
  if (!bench::open_gpu(prop, stream, ev0, ev1)) return 0;
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  if (sgpu_context_create(&ctx) || sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU) || sgpu_context_set_stream(ctx, stream))
    return 1;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS || cublasSetStream(blas, stream) != CUBLAS_STATUS_SUCCESS) return 1;

  std::vector<Shape> shapes = {{"1K x 1K", 1 << 10, 1 << 10, 1},   {"2K x 2K", 1 << 11, 1 << 11, 1},
                               {"4K x 4K", 1 << 12, 1 << 12, 1},   {"8K x 8K", 1 << 13, 1 << 13, 1},
                               {"16K x 16K", 1 << 14, 1 << 14, 1}, {"32K x 32K", 1 << 15, 1 << 15, 1},
                               {"tall 2^24 x 2", 1 << 24, 2, 1},   {"tall 2^20 x 32", 1 << 20, 32, 1},
                               {"wide 2 x 2^24", 2, 1 << 24, 1},   {"wide 32 x 2^20", 32, 1 << 20, 1},
                               {"100000 x (32 x 32)", 32, 32, 100000}};
  if (quick) shapes = {{"1K x 1K", 1 << 10, 1 << 10, 1}, {"4K x 4K", 1 << 12, 1 << 12, 1}, {"tall 2^20 x 32", 1 << 20, 32, 1}};
  {  // Per-call cost when the work is nil: what bounds the small sizes (back-to-back calls)
    float *x = nullptr, *y = nullptr;
    CK(cudaMalloc(&x, 64));
    CK(cudaMalloc(&y, 64));
    const double t_c = time_ms(2000, [&] { CK(cudaMemcpyAsync(y, x, 4, cudaMemcpyDeviceToDevice, stream)); });
    const double t_s = time_ms(2000, [&] { sgpu_scan_cols(ctx, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, 1, 1, x, 1, 1, y, 1, 1, 1); });
    std::printf("per call, 1 element: cudaMemcpyAsync %.2f us, sgpu_scan_cols %.2f us\n", 1e3 * t_c, 1e3 * t_s);
    CK(cudaFree(x));
    CK(cudaFree(y));
  }
  std::printf("times in ms (mean of back-to-back runs); ratios to copy; repeat: runs differing bitwise from the first;\n"
              "err: worst |error| / (u sum|a|) on sampled columns\n");
  std::printf("| lay  | typ | shape                  |      copy |      sgpu | ratio |   cub-col |  ratio |     cub-T |  ratio | repeat | err |\n");
  std::printf("|------|-----|------------------------|-----------|-----------|-------|-----------|--------|-----------|--------|--------|-----|\n");
  for (const char* lay : {"row", "col"}) {
    if (!only.empty() && only != lay) continue;
    for (int t = 0; t < 2; ++t)
      for (const Shape& s : shapes) {
        if (t == 0) run<float>(s, !std::strcmp(lay, "row"));
        else run<double>(s, !std::strcmp(lay, "row"));
      }
  }
  cublasDestroy(blas);
  sgpu_context_destroy(ctx);
  return 0;
}
