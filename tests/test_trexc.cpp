// The core's reordering of a real Schur form (compat/core/trexc.hpp: LAPACK's dlasy2, dlaexc and
// dtrexc) on the CPU, against LAPACKE_dtrexc on the same input:
//  - Schur forms T = Q^T A Q from LAPACKE_dgees of random matrices (orders 1..12, 17, 32, 40),
//    of matrices with repeated eigenvalues and complex pairs (so that swaps are rejected and
//    2 x 2 blocks split), and of a matrix with every eigenvalue equal;
//  - random first and last positions, both directions;
//  - the same info and final position as LAPACK's; the eigenvalues along T's diagonal in LAPACK's
//    order within 1000 ulp of max|T| (except kind 1's, see below); ||A - Q T Q^T||_1 / (n ulp ||A||_1) < 20
//    or at most twice LAPACK's on the same matrix (it includes dgees's error), ||I - Q^T Q||_1 /
//    (n ulp) < 20, T quasi-triangular with standardized 2 x 2 blocks.
// CPU only: skips with --backend gpu.
#include "common.hpp"
#include "core/trexc.hpp"

using namespace st;
namespace core = sgpu::core;

namespace {

// A with the eigenvalue structure of kind k: 0 random, 1 repeated real and complex eigenvalues
// (a block-diagonal spectrum rotated by a random orthogonal Q), 2 all eigenvalues equal (a
// Jordan-like upper triangle rotated).
std::vector<double> make_input(Harness& h, int kind, int n) {
  std::vector<double> a((size_t)n * n);
  if (kind == 0) {
    for (auto& x : a) x = h.uniform();
    return a;
  }
  std::vector<double> t((size_t)n * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) t[i + (size_t)j * n] = kind == 2 ? 1e-3 * h.uniform() : h.uniform();
  for (int j = 0; j < n; ++j) {
    if (kind == 2) {
      t[j + (size_t)j * n] = 0.5;
    } else if (j + 1 < n && j % 3 == 0) {  // a complex pair 1 +- 2i, repeated
      t[j + (size_t)j * n] = 1.0;
      t[j + 1 + (size_t)(j + 1) * n] = 1.0;
      t[j + (size_t)(j + 1) * n] = 2.0;
      t[j + 1 + (size_t)j * n] = -2.0;
      ++j;
    } else {
      t[j + (size_t)j * n] = (j % 2) ? 1.0 : -0.5;  // repeated reals
    }
  }
  auto q = random_orthogonal(h, n);
  return matmul(n, matmul(n, q, t), q, false, true);
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_trexc", argc, argv);
  if (h.gpu) {
    std::printf("SKIP: core test, CPU only\n");
    return kSkip;
  }
  std::vector<int> sizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 17, 32, 40};
  if (h.quick) sizes = {1, 2, 3, 5, 8};
  double worst_res = 0.0, worst_orth = 0.0, worst_diff = 0.0;
  int rejected = 0, moved = 0;
  for (int n : sizes)
    for (int kind = 0; kind < 3; ++kind)
      for (int rep = 0; rep < (h.quick ? 2 : 6); ++rep) {
        const auto a = make_input(h, kind, n);
        std::vector<double> t = a, q((size_t)n * n), wr(n), wi(n);
        lapack_int sdim = 0;
        if (LAPACKE_dgees(LAPACK_COL_MAJOR, 'V', 'N', nullptr, n, t.data(), n, &sdim, wr.data(), wi.data(), q.data(),
                          n))
          continue;
        const int ifst0 = 1 + (int)(h.uniform(0.0, 1.0) * n) % n, ilst0 = 1 + (int)(h.uniform(0.0, 1.0) * n) % n;
        std::vector<double> tl = t, ql = q, tc = t, qc = q;
        lapack_int ifl = ifst0, ill = ilst0;
        const int infol = LAPACKE_dtrexc(LAPACK_COL_MAJOR, 'V', n, tl.data(), n, ql.data(), n, &ifl, &ill);
        int ifc = ifst0, ilc = ilst0;
        const int infoc = core::trexc(core::TeamOne{}, true, n, core::Mat1<double>{tc.data(), 1, n},
                                      core::Mat1<double>{qc.data(), 1, n}, ifc, ilc);
        char c[96];
        std::snprintf(c, sizeof c, "n=%d kind=%d rep=%d ifst=%d ilst=%d", n, kind, rep, ifst0, ilst0);
        h.expect(infoc == infol, "%s: info %d, LAPACK's %d", c, infoc, infol);
        h.expect(ifc == ifl && ilc == ill, "%s: positions (%d, %d), LAPACK's (%d, %d)", c, ifc, ilc, (int)ifl, (int)ill);
        rejected += infoc != 0;
        moved += ifc != ilc;
        // The eigenvalues along the diagonal, in LAPACK's order (T and Q themselves may differ
        // where the eigenvalues repeat: the invariant subspaces are then not unique).
        double tmax = unfl, diff = 0.0;
        for (double x : tl) tmax = std::max(tmax, std::abs(x));
        auto eigs = [&](const std::vector<double>& m) {
          std::vector<cd> w(n);
          for (int j = 0; j < n; ++j) {
            const double a11 = m[j + (size_t)j * n];
            if (j + 1 < n && m[j + 1 + (size_t)j * n] != 0.0) {
              const double im = std::sqrt(std::abs(m[j + (size_t)(j + 1) * n])) * std::sqrt(std::abs(m[j + 1 + (size_t)j * n]));
              w[j] = cd(a11, im);
              w[j + 1] = cd(a11, -im);
              ++j;
            } else {
              w[j] = cd(a11, 0.0);
            }
          }
          return w;
        };
        const auto wc = eigs(tc), wl = eigs(tl);
        for (int j = 0; j < n; ++j) diff = std::max(diff, std::abs(wc[j] - wl[j]) / tmax);
        if (kind != 1) worst_diff = std::max(worst_diff, diff / ulp);
        // Kind 1's repeated pairs of a non-normal T are ill-conditioned eigenvalues (perturbed by
        // about sqrt(ulp) in dgees): a block's computed eigenvalues move with the last bits of any
        // swap, so there only the residuals and the structure below judge.
        if (kind != 1) h.expect(diff <= 1e3 * ulp, "%s: eigenvalues along T differ from LAPACK's by %.3g ulp", c, diff / ulp);
        // A = Q T Q^T, Q orthogonal, T quasi-triangular and standardized. The residual includes
        // dgees's own error, so it is judged as LAPACK judges itself: below 20, or at most twice
        // LAPACK's (dgees, then dtrexc) on the same matrix.
        const double anorm = std::max(norm1(n, n, a.data(), n), unfl);
        auto residual = [&](const std::vector<double>& tm, const std::vector<double>& qm) {
          auto qtq = matmul(n, matmul(n, qm, tm), qm, false, true);
          double r = 0.0;
          for (int j = 0; j < n; ++j) {
            double s = 0.0;
            for (int i = 0; i < n; ++i) s += std::abs(qtq[i + (size_t)j * n] - a[i + (size_t)j * n]);
            r = std::max(r, s);
          }
          return r / (std::max(n, 1) * ulp * anorm);
        };
        const double res = residual(tc, qc), res_l = residual(tl, ql);
        double orth = 0.0;
        auto qq = matmul(n, qc, qc, true, false);
        for (int j = 0; j < n; ++j) {
          double s = 0.0;
          for (int i = 0; i < n; ++i) s += std::abs(qq[i + (size_t)j * n] - (i == j ? 1.0 : 0.0));
          orth = std::max(orth, s);
        }
        orth /= std::max(n, 1) * ulp;
        worst_res = std::max(worst_res, res);
        worst_orth = std::max(worst_orth, orth);
        h.expect(res < 20 || res <= 2 * res_l, "%s: ||A - Q T Q^T|| ratio %.3g (LAPACK's %.3g)", c, res, res_l);
        h.expect(orth < 20, "%s: orthogonality ratio %.3g", c, orth);
        auto T = [&](int i, int j) { return tc[(i - 1) + (size_t)(j - 1) * n]; };
        for (int j = 1; j <= n; ++j)
          for (int i = j + 1; i <= n; ++i)
            if (i > j + 1) h.expect(T(i, j) == 0.0, "%s: T(%d, %d) = %g below the subdiagonal", c, i, j, T(i, j));
        for (int j = 1; j < n; ++j)
          if (T(j + 1, j) != 0.0) {
            h.expect(j + 2 > n || T(j + 2, j + 1) == 0.0, "%s: consecutive subdiagonals at %d", c, j);
            h.expect(T(j, j) == T(j + 1, j + 1) && T(j, j + 1) * T(j + 1, j) < 0.0, "%s: 2 x 2 block at %d not standard",
                     c, j);
          }
      }
  std::printf("test_trexc: %d moves, %d rejected; worst ratios: ||A - Q T Q^T|| %.3g, orthogonality %.3g; "
              "largest eigenvalue difference from LAPACK %.3g ulp\n",
              moved, rejected, worst_res, worst_orth, worst_diff);
  h.expect(moved > 0, "no block moved");
  return h.finish();
}
