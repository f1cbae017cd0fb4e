// What the zheev reduction probes (heev_two_stage_probe.cu, heev_reg_reduce_probe.cu) share: a
// complex double usable on both sides, and the check of a reduction's tridiagonal against LAPACKE.
#pragma once
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace probe {

struct __align__(16) cz {
  double r, i;
};
__host__ __device__ inline cz mk(double r, double i = 0) { return cz{r, i}; }
__host__ __device__ inline cz operator+(cz a, cz b) { return {a.r + b.r, a.i + b.i}; }
__host__ __device__ inline cz operator-(cz a, cz b) { return {a.r - b.r, a.i - b.i}; }
__host__ __device__ inline cz operator*(cz a, cz b) { return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; }
__host__ __device__ inline cz operator*(double s, cz a) { return {s * a.r, s * a.i}; }
__host__ __device__ inline cz cj(cz a) { return {a.r, -a.i}; }
__host__ __device__ inline double abs2(cz a) { return a.r * a.r + a.i * a.i; }
__host__ __device__ inline cz& operator+=(cz& a, cz b) { a = a + b; return a; }
__host__ __device__ inline cz& operator-=(cz& a, cz b) { a = a - b; return a; }

// The eigenvalues of the first `check` tridiagonals (d, e: n a matrix, e_k below d_k; LAPACKE_dsterf)
// against LAPACKE_zheev's of the matrices they came from (host: n x n each, lower triangle read):
// the largest max |dw| / (n eps max |w|), 1e300 where either routine fails.
inline double eig_ratio(int n, int check, const std::vector<cz>& host, const std::vector<double>& d,
                        const std::vector<double>& e) {
  double worst = 0;
  for (int m = 0; m < check; ++m) {
    std::vector<double> w1(d.begin() + (size_t)m * n, d.begin() + (size_t)(m + 1) * n),
        e1(e.begin() + (size_t)m * n, e.begin() + (size_t)m * n + n - 1);
    const int i1 = LAPACKE_dsterf(n, w1.data(), e1.data());
    std::vector<lapack_complex_double> am((size_t)n * n);
    std::memcpy(am.data(), host.data() + (size_t)m * n * n, sizeof(cz) * n * n);
    std::vector<double> w2(n);
    const int i2 = LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'L', n, am.data(), n, w2.data());
    double nrm = 0, err = 0;
    for (int x = 0; x < n; ++x) nrm = std::max(nrm, std::fabs(w2[x])), err = std::max(err, std::fabs(w1[x] - w2[x]));
    worst = std::max(worst, i1 || i2 ? 1e300 : err / (n * 2.220446049250313e-16 * nrm));
  }
  return worst;
}

}  // namespace probe
