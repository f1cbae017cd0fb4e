// The main job: eigenvalues of a batch of random matrices (default 100 000 of 15 x 15), on the
// GPU if there is one (auto backend), else the CPU; prints the time and the agreement with a
// LAPACKE loop. Usage: sgpu_demo [n] [batch]
#include <cmath>
#include <algorithm>
#include <cstdlib>

#include "common.hpp"

using namespace bench;

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 15;
  const int64_t batch = argc > 2 ? std::atoll(argv[2]) : 100000;
  const size_t nn = (size_t)n * n;
  std::printf("sgpu %s: eigenvalues of %lld random %dx%d matrices (uniform entries in [-1, 1])\n", sgpu_version(),
              (long long)batch, n, n);
  auto a0 = uniform(nn * batch, 2026);
  std::vector<double> a = a0, wr(n * batch), wi(n * batch), lr(n * batch), li(n * batch);
  std::vector<int> info(batch);
  // Warm-up of both sides on a slice (thread pools, workspace, first touch), so that neither
  // timing below pays for starting up.
  const int64_t warm = std::min<int64_t>(batch, 2000);
  sgpu_dgeev_batched(nullptr, 'N', 'N', n, a.data(), n, nn, wr.data(), wi.data(), n, nullptr, 1, 0, nullptr, 1, 0,
                     info.data(), warm);
  lapacke_dgeev('N', 'N', n, a.data(), lr.data(), li.data(), nullptr, nullptr, warm);
  a = a0;
  double t0 = now();
  int st = sgpu_dgeev_batched(nullptr, 'N', 'N', n, a.data(), n, nn, wr.data(), wi.data(), n, nullptr, 1, 0, nullptr, 1,
                              0, info.data(), batch);
  double ts = now() - t0;
  if (st != 0) {
    std::printf("sgpu_dgeev_batched: %d (%s)\n", st, sgpu_strerror(st));
    return 1;
  }
  a = a0;
  t0 = now();
  lapacke_dgeev('N', 'N', n, a.data(), lr.data(), li.data(), nullptr, nullptr, batch);
  double tl = now() - t0;
  // Agreement: per matrix, each LAPACKE eigenvalue matched to the nearest unmatched one of sgpu's,
  // distance relative to the matrix's largest entry.
  double worst = 0.0;
  int64_t far = 0;
  for (int64_t b = 0; b < batch; ++b) {
    double amax = 0.0;
    for (size_t k = 0; k < nn; ++k) amax = std::max(amax, std::fabs(a0[b * nn + k]));
    std::vector<int> used(n, 0);
    double wb = 0.0;
    for (int i = 0; i < n; ++i) {
      int best = -1;
      double bd = 0.0;
      for (int j = 0; j < n; ++j)
        if (!used[j]) {
          double d = std::hypot(wr[b * n + j] - lr[b * n + i], wi[b * n + j] - li[b * n + i]);
          if (best < 0 || d < bd) best = j, bd = d;
        }
      used[best] = 1;
      wb = std::max(wb, bd / amax);
    }
    worst = std::max(worst, wb);
    if (wb > 1e-9) ++far;
  }
  std::printf("sgpu (%s backend): %.1f ms   LAPACKE loop on %d threads: %.1f ms   speedup %.2fx\n",
              sgpu_gpu_count() > 0 ? "auto" : "cpu", 1e3 * ts, omp_get_max_threads(), 1e3 * tl, tl / ts);
  std::printf("agreement with LAPACKE: largest eigenvalue difference %.2e x max|a_ij|; %lld of %lld matrices beyond 1e-9\n",
              worst, (long long)far, (long long)batch);
  return 0;
}
