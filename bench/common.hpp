// Shared pieces of the benchmark programs: timing, inputs, and the LAPACKE+OpenMP peer loops
// (each thread with its own workspace through the _work interfaces: LAPACK used at its best).
#pragma once
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "sgpu.h"

namespace bench {

using cd = std::complex<double>;

inline double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best of `reps` timed runs of f(); setup() restores the inputs before each run, untimed.
template <class Setup, class F>
double best_of(int reps, Setup setup, F f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    setup();
    double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

// "4,8,16" -> {4, 8, 16} (command-line lists).
inline std::vector<int> parse_list(const char* s) {
  std::vector<int> v;
  while (s && *s) {
    v.push_back(std::atoi(s));
    s = std::strchr(s, ',');
    if (s) ++s;
  }
  return v;
}

inline std::vector<double> uniform(size_t count, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(count);
  for (auto& x : v) x = u(g);
  return v;
}

inline std::vector<cd> hermitian(int n, int64_t batch, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cd> a((size_t)batch * n * n);
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) {
        cd x(u(g), i == j ? 0.0 : u(g));
        a[b * n * n + i + (size_t)j * n] = x;
        a[b * n * n + j + (size_t)i * n] = std::conj(x);
      }
  return a;
}

// Matrices an OpenMP thread of a LAPACKE loop takes at a time: at least 4 chunks a thread, 1 to
// 16 matrices, so that a short batch is spread over every thread (one matrix per thread for a
// batch of the thread count) and a long batch of small matrices pays little for scheduling.
inline int64_t loop_chunk(int64_t batch) {
  const int64_t c = batch / (4 * (int64_t)omp_get_max_threads());
  return c < 1 ? 1 : c > 16 ? 16 : c;
}

// LAPACKE loops under OpenMP on all cores.
inline void lapacke_dgeev(char jl, char jr, int n, double* a, double* wr, double* wi, double* vl, double* vr,
                          int64_t batch) {
  const int64_t chunk = loop_chunk(batch);
#pragma omp parallel
  {
    double q;
    LAPACKE_dgeev_work(LAPACK_COL_MAJOR, jl, jr, n, nullptr, n, nullptr, nullptr, nullptr, n, nullptr, n, &q, -1);
    std::vector<double> work((size_t)q);
#pragma omp for schedule(dynamic, chunk)
    for (int64_t b = 0; b < batch; ++b)
      LAPACKE_dgeev_work(LAPACK_COL_MAJOR, jl, jr, n, a + b * n * n, n, wr + b * n, wi + b * n,
                         vl ? vl + b * n * n : nullptr, n, vr ? vr + b * n * n : nullptr, n, work.data(), (int)work.size());
  }
}

inline void lapacke_dhseqr(int n, double* h, double* wr, double* wi, int64_t batch) {
  const int64_t chunk = loop_chunk(batch);
#pragma omp parallel
  {
    std::vector<double> work(std::max(1, 11 * n));
    double z;
#pragma omp for schedule(dynamic, chunk)
    for (int64_t b = 0; b < batch; ++b)
      LAPACKE_dhseqr_work(LAPACK_COL_MAJOR, 'E', 'N', n, 1, n, h + b * n * n, n, wr + b * n, wi + b * n, &z, 1,
                          work.data(), (int)work.size());
  }
}

inline void lapacke_zheev(char jobz, int n, cd* a, double* w, int64_t batch) {
  const int64_t chunk = loop_chunk(batch);
#pragma omp parallel
  {
    cd q;
    LAPACKE_zheev_work(LAPACK_COL_MAJOR, jobz, 'L', n, nullptr, n, nullptr, &q, -1, nullptr);
    std::vector<cd> work((size_t)q.real());
    std::vector<double> rwork(std::max(1, 3 * n - 2));
#pragma omp for schedule(dynamic, chunk)
    for (int64_t b = 0; b < batch; ++b)
      LAPACKE_zheev_work(LAPACK_COL_MAJOR, jobz, 'L', n, a + b * n * n, n, w + b * n, work.data(), (int)work.size(),
                         rwork.data());
  }
}

}  // namespace bench
