// sgpu_auto_bench: where the GPU backend starts to beat the CPU backend on host data, the
// measurements behind AUTO's size model (lib/auto_model.hpp). For each routine and
// order, batches growing by 4x from 1: the forced CPU backend (all host threads) and the forced GPU
// backend, end to end from pageable host memory (where applications keep their matrices), best of
// 3 after a warm-up call on each (a long-running application's GPU is initialized and its
// buffers kept). A row stops growing once both take over 40 ms (1 s with --large, where the GPU's
// one block per matrix wins only from tens of matrices; after at least three batches) or its
// arrays would pass 256 MB.
// Prints one line per point and the crossover per order: the smallest batch from which the GPU
// was faster at every larger batch measured, with its work (batch x n^3, the scan: elements).
// Usage: sgpu_auto_bench [--only dgeev|dhseqr|zheev|scan] [--large] [--n N,N,...]
//   --large: the larger orders instead (dgeev and dhseqr 128, 256 and 512, zheev 256 and 512; no scan).
//   --n: these orders for every routine instead (with --large's stopping rule if given).
#include <cstring>
#include <functional>

#include "common.hpp"

using namespace bench;

namespace {

struct Point {
  int64_t batch;
  double cpu, gpu;
};

// Runs one routine at order n over growing batches: call(ctx, batch) computes, restore(batch)
// puts the inputs back (untimed).
void sweep(const char* name, int n, int64_t max_batch, double work_per_matrix,
           const std::function<void(int64_t)>& restore, const std::function<int(sgpu_context_t, int64_t)>& call,
           sgpu_context_t cpu, sgpu_context_t gpu, double stop_s) {
  std::vector<Point> pts;
  restore(1);
  call(cpu, 1);
  restore(1);
  call(gpu, 1);
  for (int64_t batch = 1; batch <= max_batch; batch *= 4) {
    int st_c = 0, st_g = 0;
    const double tc = best_of(3, [&] { restore(batch); }, [&] { st_c = call(cpu, batch); });
    const double tg = best_of(3, [&] { restore(batch); }, [&] { st_g = call(gpu, batch); });
    std::printf("%-12s n=%4d batch=%8lld  cpu %9.3f ms  gpu %9.3f ms  %s%s\n", name, n, (long long)batch, 1e3 * tc,
                1e3 * tg, tg < tc ? "gpu" : "cpu", st_c < 0 || st_g < 0 ? "  (error status)" : "");
    std::fflush(stdout);
    pts.push_back({batch, tc, tg});
    if (tc > stop_s && tg > stop_s && pts.size() >= 3) break;
  }
  size_t k = pts.size();
  while (k > 0 && pts[k - 1].gpu < pts[k - 1].cpu) --k;
  if (k == pts.size())
    std::printf("crossover %-12s n=%4d  none up to batch %lld\n", name, n, (long long)pts.back().batch);
  else
    std::printf("crossover %-12s n=%4d  batch %lld (work %.3g, cpu %.3f ms, gpu %.3f ms)\n", name, n,
                (long long)pts[k].batch, work_per_matrix * (double)pts[k].batch, 1e3 * pts[k].cpu,
                1e3 * pts[k].gpu);
}

int64_t cap(size_t bytes_per_matrix) { return std::max<int64_t>(1, (int64_t(256) << 20) / (int64_t)bytes_per_matrix); }

}  // namespace

int main(int argc, char** argv) {
  const char* only = nullptr;
  bool large = false;
  std::vector<int> orders;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    if (!std::strcmp(argv[i], "--large")) large = true;
    if (!std::strcmp(argv[i], "--n") && i + 1 < argc) orders = parse_list(argv[++i]);
  }
  const double stop_s = large ? 1.0 : 0.04;
  const std::vector<int> real_orders =
      !orders.empty() ? orders : large ? std::vector<int>{128, 256, 512} : std::vector<int>{4, 8, 16, 32, 64};
  const std::vector<int> complex_orders =
      !orders.empty() ? orders : large ? std::vector<int>{256, 512} : std::vector<int>{4, 8, 16, 32, 64, 128};
  if (sgpu_gpu_count() <= 0) {
    std::printf("sgpu_auto_bench: no GPU\n");
    return 0;
  }
  sgpu_context_t cpu = nullptr, gpu = nullptr;
  sgpu_context_create(&cpu);
  sgpu_context_set_backend(cpu, SGPU_BACKEND_CPU);
  sgpu_context_create(&gpu);
  sgpu_context_set_backend(gpu, SGPU_BACKEND_GPU);
  std::printf("sgpu_auto_bench: %d host threads; ms, best of 3, end to end from pageable host memory\n",
              omp_get_max_threads());
  auto want = [&](const char* r) { return !only || !std::strcmp(only, r); };

  if (want("dgeev"))
    for (int n : real_orders) {
      const int64_t most = cap(sizeof(double) * n * n);
      const std::vector<double> a0 = uniform((size_t)most * n * n, 1000 + n);
      std::vector<double> a(a0.size()), wr((size_t)most * n), wi(wr.size()), vr(a0.size());
      std::vector<int> info(most);
      sweep("dgeev N,V", n, most, double(n) * n * n, [&](int64_t b) { std::copy(a0.begin(), a0.begin() + b * n * n, a.begin()); },
            [&](sgpu_context_t c, int64_t b) {
              return sgpu_dgeev_batched(c, 'N', 'V', n, a.data(), n, (int64_t)n * n, wr.data(), wi.data(), n, nullptr,
                                        1, 0, vr.data(), n, (int64_t)n * n, info.data(), b);
            },
            cpu, gpu, stop_s);
    }
  if (want("dhseqr"))
    for (int n : real_orders) {
      const int64_t most = cap(sizeof(double) * n * n);
      std::vector<double> h0 = uniform((size_t)most * n * n, 2000 + n);
      for (int64_t b = 0; b < most; ++b)
        for (int j = 0; j < n; ++j)
          for (int i = j + 2; i < n; ++i) h0[b * n * n + i + (size_t)j * n] = 0.0;
      std::vector<double> h(h0.size()), wr((size_t)most * n), wi(wr.size()), z(h0.size());
      std::vector<int> info(most);
      sweep("dhseqr S,I", n, most, double(n) * n * n, [&](int64_t b) { std::copy(h0.begin(), h0.begin() + b * n * n, h.begin()); },
            [&](sgpu_context_t c, int64_t b) {
              return sgpu_dhseqr_batched(c, 'S', 'I', n, 1, n, h.data(), n, (int64_t)n * n, wr.data(), wi.data(), n,
                                         z.data(), n, (int64_t)n * n, info.data(), b);
            },
            cpu, gpu, stop_s);
    }
  if (want("zheev"))
    for (char jobz : {'V', 'N'})
      for (int n : complex_orders) {
        const int64_t most = cap(sizeof(cd) * n * n);
        const std::vector<cd> a0 = hermitian(n, most, 3000 + n);
        std::vector<cd> a(a0.size());
        std::vector<double> w((size_t)most * n);
        std::vector<int> info(most);
        sweep(jobz == 'V' ? "zheev V" : "zheev N", n, most, double(n) * n * n,
              [&](int64_t b) { std::copy(a0.begin(), a0.begin() + b * n * n, a.begin()); },
              [&](sgpu_context_t c, int64_t b) {
                return sgpu_zheev_batched(c, jobz, 'L', n, reinterpret_cast<sgpu_complex_double*>(a.data()), n,
                                          (int64_t)n * n, w.data(), n, info.data(), b);
              },
              cpu, gpu, stop_s);
      }
  if (want("scan") && !large)
    for (int m : {64, 1024, 16384}) {  // m x 64 float columns, column-major
      const int cols = 64;
      const int64_t most = cap(sizeof(float) * m * cols);
      std::vector<float> a((size_t)most * m * cols, 1.0f), b(a.size());
      sweep("scan f32", m, most, double(m) * cols, [&](int64_t) {},
            [&](sgpu_context_t c, int64_t k) {
              return sgpu_scan_cols(c, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, m, cols, a.data(), m, (int64_t)m * cols,
                                    b.data(), m, (int64_t)m * cols, k);
            },
            cpu, gpu, stop_s);
    }
  sgpu_context_destroy(cpu);
  sgpu_context_destroy(gpu);
  return 0;
}
