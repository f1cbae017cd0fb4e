// The core's divide-and-conquer tridiagonal eigensolver (compat/core/stedc.hpp; the reference for
// zheev's parallel tridiagonal stage) against LAPACK: eigenvalues ascending and within
// 2 * 60 n ulp ||T||_1 of LAPACKE_dsterf's, residual ||T Q - Q L||_1 / (n ulp ||T||_1) < 60 and
// orthogonality ||Q^T Q - I||_1 / (n ulp) < 60 (TESTING/EIG's dstt21 ratios, the Hermitian
// threshold), on random, clustered, graded, glued-Wilkinson, split, tiny, huge, constant and zero
// tridiagonals, n = 1..300 (leaves of 25: several merge levels). CPU only: skips with --backend gpu.
#include "common.hpp"
#include "core/stedc.hpp"

using namespace st;
namespace core = sgpu::core;

int main(int argc, char** argv) {
  Harness h("test_stedc", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: core test, CPU only\n");
    return kSkip;
  }
  double worst_ev = 0.0, worst_res = 0.0, worst_orth = 0.0;
  std::vector<int> sizes = h.quick ? std::vector<int>{1, 2, 5, 26, 60} : std::vector<int>{1, 2, 3, 5, 8, 17, 25, 26, 33, 50, 64, 100, 128, 200, 257, 300};
  for (int n : sizes)
    for (int kind = 0; kind < 9; ++kind)  // the first nine of common.hpp's kinds
      for (int rep = 0; rep < (h.quick ? 1 : 2); ++rep) {
        std::vector<double> d, e;
        make_tridiagonal(h, kind, n, d, e);
        std::vector<double> ref = d, re = e;
        h.expect(LAPACKE_dsterf(n, ref.data(), re.data()) == 0, "dsterf failed");
        std::vector<double> w = d, ew = e, q((size_t)n * n);
        std::vector<double> work(core::stedc_work(n));
        std::vector<int> iwork(core::stedc_iwork(n));
        const int info = core::stedc(core::TeamOne{}, n, core::Vec1<double>{w.data(), 1}, core::Vec1<double>{ew.data(), 1},
                                     core::Mat1<double>{q.data(), 1, n}, work.data(), iwork.data());
        char c[96];
        std::snprintf(c, sizeof c, "n=%d %s rep %d", n, tridiagonal_kind_name(kind), rep);
        if (!h.expect(info == 0, "%s: info %d", c, info)) continue;
        const double tn = tridiagonal_norm1(n, d, e, unfl);
        double dist = 0.0;
        for (int i = 0; i < n; ++i) {
          dist = std::max(dist, std::abs(w[i] - ref[i]));
          if (i + 1 < n) h.expect(w[i] <= w[i + 1], "%s: not ascending at %d", c, i);
        }
        const double rev = dist / (2 * 60 * n * ulp * tn);
        // Residual and orthogonality, column by column (1-norms).
        double res = 0.0, orth = 0.0;
        for (int j = 0; j < n; ++j) {
          double rc = 0.0, oc = 0.0;
          for (int i = 0; i < n; ++i) {
            double tq = d[i] * q[i + (size_t)j * n];
            if (i > 0) tq += e[i - 1] * q[i - 1 + (size_t)j * n];
            if (i + 1 < n) tq += e[i] * q[i + 1 + (size_t)j * n];
            rc += std::abs(tq - w[j] * q[i + (size_t)j * n]);
            double dot = 0.0;
            for (int k = 0; k < n; ++k) dot += q[k + (size_t)i * n] * q[k + (size_t)j * n];
            oc += std::abs(dot - (i == j ? 1.0 : 0.0));
          }
          res = std::max(res, rc);
          orth = std::max(orth, oc);
        }
        res /= n * ulp * tn;
        orth /= n * ulp;
        worst_ev = std::max(worst_ev, rev);
        worst_res = std::max(worst_res, res);
        worst_orth = std::max(worst_orth, orth);
        h.expect(rev <= 1.0, "%s: eigenvalues differ from dsterf by %.3g (x%.3g of the bound)", c, dist, rev);
        h.expect(res < 60, "%s: residual ratio %.3g", c, res);
        h.expect(orth < 60, "%s: orthogonality ratio %.3g", c, orth);
      }
  std::printf("worst ratios: residual %.3g, orthogonality %.3g (threshold 60); eigenvalue distance/bound %.3g\n",
              worst_res, worst_orth, worst_ev);
  return h.finish();
}
