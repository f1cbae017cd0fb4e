// sgpu benchmark: each routine on its default backend (SGPU_BACKEND chooses) next to a LAPACKE
// loop under OpenMP on the same cores, in one run; prints a table. Where there is a GPU, also the
// forced GPU backend, end to end from (pageable) host memory, for the routines it implements.
// Best of 3 runs each, inputs restored untimed before every run.
// Usage: sgpu_bench [--small] [--only ROUTINE]
#include <cstring>

#include "common.hpp"

using namespace bench;

namespace {

struct Row {
  const char* routine;
  const char* mode;
  int n;
  int64_t batch;
  double t_sgpu, t_peer;
  const char* peer;
  double t_gpu;  // forced GPU backend, end to end from host memory; < 0: not measured
};
std::vector<Row> rows;

// A context forced onto the GPU backend, or null when there is no GPU.
sgpu_context_t gpu_context() {
  static sgpu_context_t c = [] {
    sgpu_context_t x = nullptr;
    if (sgpu_gpu_count() > 0 && sgpu_context_create(&x) == 0) sgpu_context_set_backend(x, SGPU_BACKEND_GPU);
    return x;
  }();
  return c;
}

// Best-of-3 time of f(ctx) on the forced GPU backend, or -1 when there is none or it reports
// that it does not implement the call.
template <class Setup, class F>
double gpu_time(Setup setup, F f) {
  sgpu_context_t g = gpu_context();
  if (!g) return -1.0;
  setup();
  if (f(g) < 0) return -1.0;  // warm-up; also tells whether the GPU backend serves this call
  return best_of(3, setup, [&] { f(g); });
}

void dgeev_row(const char* mode, char jl, char jr, int n, int64_t batch) {
  const size_t nn = (size_t)n * n;
  auto a0 = uniform(nn * batch, 42 + n);
  std::vector<double> a(a0.size()), wr(n * batch), wi(n * batch), v(jr == 'V' || jl == 'V' ? nn * batch : 1);
  std::vector<int> info(batch);
  double* vl = jl == 'V' ? v.data() : nullptr;
  double* vr = jr == 'V' ? v.data() : nullptr;
  auto reset = [&] { std::copy(a0.begin(), a0.end(), a.begin()); };
  double ts = best_of(3, reset, [&] {
    sgpu_dgeev_batched(nullptr, jl, jr, n, a.data(), n, nn, wr.data(), wi.data(), n, vl, n, nn, vr, n, nn, info.data(), batch);
  });
  double tl = best_of(3, reset, [&] { lapacke_dgeev(jl, jr, n, a.data(), wr.data(), wi.data(), vl, vr, batch); });
  double tg = gpu_time(reset, [&](sgpu_context_t g) {
    return sgpu_dgeev_batched(g, jl, jr, n, a.data(), n, nn, wr.data(), wi.data(), n, vl, n, nn, vr, n, nn, info.data(), batch);
  });
  rows.push_back({"dgeev", mode, n, batch, ts, tl, "LAPACKE_dgeev", tg});
}

void dhseqr_row(int n, int64_t batch) {
  const size_t nn = (size_t)n * n;
  auto h0 = uniform(nn * batch, 7 + n);
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = j + 2; i < n; ++i) h0[b * nn + i + (size_t)j * n] = 0.0;
  std::vector<double> h(h0.size()), wr(n * batch), wi(n * batch);
  std::vector<int> info(batch);
  auto reset = [&] { std::copy(h0.begin(), h0.end(), h.begin()); };
  double ts = best_of(3, reset, [&] {
    sgpu_dhseqr_batched(nullptr, 'E', 'N', n, 1, n, h.data(), n, nn, wr.data(), wi.data(), n, nullptr, 1, 0, info.data(), batch);
  });
  double tl = best_of(3, reset, [&] { lapacke_dhseqr(n, h.data(), wr.data(), wi.data(), batch); });
  double tg = gpu_time(reset, [&](sgpu_context_t g) {
    return sgpu_dhseqr_batched(g, 'E', 'N', n, 1, n, h.data(), n, nn, wr.data(), wi.data(), n, nullptr, 1, 0, info.data(), batch);
  });
  rows.push_back({"dhseqr", "job=E compz=N", n, batch, ts, tl, "LAPACKE_dhseqr", tg});
}

void zheev_row(char jobz, int n, int64_t batch) {
  const size_t nn = (size_t)n * n;
  auto a0 = hermitian(n, batch, 99 + n);
  std::vector<cd> a(a0.size());
  std::vector<double> w(n * batch);
  std::vector<int> info(batch);
  auto reset = [&] { std::copy(a0.begin(), a0.end(), a.begin()); };
  double ts = best_of(3, reset, [&] {
    sgpu_zheev_batched(nullptr, jobz, 'L', n, a.data(), n, nn, w.data(), n, info.data(), batch);
  });
  double tl = best_of(3, reset, [&] { lapacke_zheev(jobz, n, a.data(), w.data(), batch); });
  double tg = gpu_time(reset, [&](sgpu_context_t g) {
    return sgpu_zheev_batched(g, jobz, 'L', n, a.data(), n, nn, w.data(), n, info.data(), batch);
  });
  rows.push_back({"zheev", jobz == 'V' ? "jobz=V" : "jobz=N", n, batch, ts, tl, "LAPACKE_zheev", tg});
}

void scan_row(int layout, int m, int n, int64_t batch) {
  const size_t count = (size_t)m * n * batch;
  std::vector<float> a(count, 1.0f), b(count);
  auto nop = [] {};
  const int ld = layout == SGPU_COL_MAJOR ? m : n;
  double ts = best_of(3, nop, [&] {
    sgpu_scan_cols(nullptr, layout, SGPU_R_32F, SGPU_R_32F, m, n, a.data(), ld, (int64_t)m * n, b.data(), ld,
                   (int64_t)m * n, batch);
  });
  // The floor: a copy of the same bytes on the same threads (OpenMP over 1 MiB chunks).
  double tc = best_of(3, nop, [&] {
    const int64_t chunk = 1 << 18, chunks = ((int64_t)count + chunk - 1) / chunk;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t lo = c * chunk, hi = std::min<int64_t>((int64_t)count, lo + chunk);
      std::memcpy(b.data() + lo, a.data() + lo, (size_t)(hi - lo) * sizeof(float));
    }
  });
  double tg = gpu_time(nop, [&](sgpu_context_t g) {
    return sgpu_scan_cols(g, layout, SGPU_R_32F, SGPU_R_32F, m, n, a.data(), ld, (int64_t)m * n, b.data(), ld,
                          (int64_t)m * n, batch);
  });
  rows.push_back({"scan_cols", layout == SGPU_COL_MAJOR ? "f32 col-major" : "f32 row-major", m, batch, ts, tc,
                  "parallel copy", tg});
}

}  // namespace

int main(int argc, char** argv) {
  bool small = false;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
  }
  auto want = [&](const char* r) { return !only || !std::strcmp(only, r); };
  const int64_t k = small ? 10 : 1;  // --small: a tenth of the batches, for a quick look
  sgpu_backend_t be;
  sgpu_context_get_backend(nullptr, &be);
  std::printf("sgpu %s benchmark: %d OpenMP threads, %d GPU(s), default backend %s\n", sgpu_version(),
              omp_get_max_threads(), sgpu_gpu_count(), be == SGPU_BACKEND_CPU ? "cpu" : be == SGPU_BACKEND_GPU ? "gpu" : "auto");
  if (want("dgeev")) dgeev_row("jobvl=N jobvr=N", 'N', 'N', 5, 100000 / k);
  if (want("dgeev")) dgeev_row("jobvl=N jobvr=N", 'N', 'N', 15, 100000 / k);
  if (want("dgeev")) dgeev_row("jobvl=N jobvr=N", 'N', 'N', 30, 20000 / k);
  if (want("dgeev")) dgeev_row("jobvl=N jobvr=V", 'N', 'V', 15, 20000 / k);
  if (want("dgeev")) dgeev_row("jobvl=N jobvr=N", 'N', 'N', 64, 2000 / k);
  if (want("dhseqr")) dhseqr_row(15, 100000 / k);
  if (want("zheev")) zheev_row('N', 32, 10000 / k);
  if (want("zheev")) zheev_row('V', 32, 10000 / k);
  if (want("zheev")) zheev_row('V', 8, 100000 / k);
  if (want("zheev")) zheev_row('V', 128, 180 / (small ? 2 : 1));
  if (want("scan_cols")) scan_row(SGPU_COL_MAJOR, 4096, 4096, 1);
  if (want("scan_cols")) scan_row(SGPU_ROW_MAJOR, 4096, 4096, 1);
  std::printf("\n| routine | mode | n | batch | sgpu (ms) | peer | peer (ms) | peer / sgpu | sgpu forced GPU, from host (ms) |\n");
  std::printf("|---|---|---:|---:|---:|---|---:|---:|---:|\n");
  for (auto& r : rows) {
    char g[32] = "-";
    if (r.t_gpu >= 0) std::snprintf(g, sizeof g, "%.1f", 1e3 * r.t_gpu);
    std::printf("| %s | %s | %d | %lld | %.1f | %s | %.1f | %.2f | %s |\n", r.routine, r.mode, r.n, (long long)r.batch,
                1e3 * r.t_sgpu, r.peer, 1e3 * r.t_peer, r.t_peer / r.t_sgpu, g);
  }
  return 0;
}
