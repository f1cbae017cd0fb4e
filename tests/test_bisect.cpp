// The core's tridiagonal bisection (compat/core/bisect.hpp; zheev's GPU block path uses it for
// jobz N) against LAPACKE_dsterf on random, clustered, graded, split, tiny and huge (at the ends of the
// range zheev scales into), constant, zero and Wilkinson (pairs of eigenvalues equal to many digits)
// tridiagonals, one eigenvalue a call (K = 1, the block path) and two side by side (K = 2, the
// team path), and two side by side from the shared grid's brackets (the grid stebz passes):
// eigenvalues ascending and within 2 * 60 n ulp ||T||_1 of LAPACK's (each solver's error is at most
// its backward error, Weyl). Runs the CPU core directly (no GPU variant): skips with --backend gpu.
#include "common.hpp"
#include "core/bisect.hpp"

using namespace st;
namespace core = sgpu::core;

int main(int argc, char** argv) {
  Harness h("test_bisect", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: core test, CPU only\n");
    return kSkip;
  }
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst = 0.0;
  const char* kinds[] = {"uniform", "clustered", "graded", "split", "tiny", "huge", "constant", "zero", "wilkinson"};
  for (int n : {1, 2, 3, 5, 8, 16, 17, 21, 33, 64, 100, 128, 257, 512})
    for (int kind = 0; kind < 9; ++kind)
      // More draws of the tiny kind: its Newton steps overflowed now and then (1/q^2 beyond DBL_MAX
      // for q below 1e-154, a few in a hundred matrices).
      for (int rep = 0; rep < (kind == 4 ? 40 : 3); ++rep) {
        std::vector<double> d(n), e(std::max(n - 1, 1), 0.0);
        for (int i = 0; i < n; ++i) {
          d[i] = u(h.rng);
          if (i + 1 < n) e[i] = u(h.rng);
          switch (kind) {
            case 1: d[i] = 1.0 + 1e-12 * u(h.rng); if (i + 1 < n) e[i] *= 1e-13; break;
            case 2: d[i] *= std::pow(10.0, -12.0 * i / std::max(n - 1, 1)); if (i + 1 < n) e[i] *= std::pow(10.0, -12.0 * i / std::max(n - 1, 1)); break;
            case 3: if (i + 1 < n && i % 7 == 3) e[i] = 0.0; break;
            case 4: d[i] *= 1e-146; if (i + 1 < n) e[i] *= 1e-146; break;  // heev_scale brings ||A|| into [1e-146, 8e76]
            case 5: d[i] *= 8e76; if (i + 1 < n) e[i] *= 8e76; break;
            case 6: d[i] = 2.0; if (i + 1 < n) e[i] = 1.0; break;
            case 7: d[i] = 0.0; if (i + 1 < n) e[i] = 0.0; break;
            case 8: d[i] = std::abs(i - (n - 1) / 2.0); if (i + 1 < n) e[i] = 1.0; break;
          }
        }
        std::vector<double> ref = d, re = e, w(n), w2(n), w3(n);
        std::vector<int> grid(n, -1);
        int inf = LAPACKE_dsterf(n, ref.data(), re.data());
        h.expect(inf == 0, "dsterf info %d", inf);
        const core::Vec1<double> dv{d.data(), 1}, ev{e.data(), 1};
        core::bisect_all<1>(core::TeamOne{}, n, dv, ev, core::Vec1<double>{w.data(), 1});
        core::bisect_all<2>(core::TeamOne{}, n, dv, ev, core::Vec1<double>{w2.data(), 1});
        core::bisect_all<2>(core::TeamOne{}, n, dv, ev, core::Vec1<double>{w3.data(), 1}, core::Vec1<int>{grid.data(), 1});
        double tn = 0.0;
        for (int i = 0; i < n; ++i)
          tn = std::max(tn, std::abs(d[i]) + (i > 0 ? std::abs(e[i - 1]) : 0.0) + (i + 1 < n ? std::abs(e[i]) : 0.0));
        double dist = 0.0;
        for (int i = 0; i < n; ++i) {
          dist = std::max({dist, std::abs(w[i] - ref[i]), std::abs(w2[i] - ref[i]), std::abs(w3[i] - ref[i])});
          if (i + 1 < n)
            h.expect(w[i] <= w[i + 1] && w2[i] <= w2[i + 1] && w3[i] <= w3[i + 1], "n=%d %s: not ascending at %d", n,
                     kinds[kind], i);
        }
        const double r = dist / (2 * 60 * n * ulp * std::max(tn, unfl));
        worst = std::max(worst, r);
        h.expect(r <= 1.0, "n=%d %s: eigenvalues differ from dsterf by %.3g (x%.3g of the bound)", n, kinds[kind], dist, r);
      }
  std::printf("worst eigenvalue distance/bound %.3g\n", worst);
  return h.finish();
}
