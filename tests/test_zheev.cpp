// sgpu_zheev_batched against LAPACKE_zheev: ||A - U L U^H||/(n ulp ||A||) < 60 and
// ||I - U^H U||/(n ulp) < 60 (LAPACK's zhet21 thresholds), eigenvalues ascending and within
// 2 * 60 n ulp ||A||_1 of LAPACKE's (Weyl: each solver moves them by at most its backward error),
// eigenvalues bitwise identical for uplo U and L and for jobz N and V, uplo U and L read only
// their triangle (and with jobz N write only it), outputs fully written and gaps untouched.
#include "common.hpp"

using namespace st;

int main(int argc, char** argv) {
  Harness h("test_zheev", argc, argv);
  std::vector<int> sizes = h.quick ? std::vector<int>{0, 1, 2, 3, 5, 8}
                                   : std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33,
                                                      48, 64, 100, 128, 200, 256, 512, 600, 1024};
  if (!h.sizes.empty()) sizes = h.sizes;
  double worst_res = 0, worst_orth = 0, worst_ev = 0, worst_nv = 0;
  for (int n : sizes) {
    const int64_t nb = h.batch > 0 ? h.batch : n >= 200 ? 1 : n >= 64 ? 2 : 3;
    for (int k = 0; k < (int)HKind::kCount; ++k) {
      const HKind kind = (HKind)k;
      // Every kind up to n = 256 (the GPU's block path from 33, cuBLAS's back-transformation from
      // 100); three kinds above, where a matrix costs seconds on the CPU.
      if (n > 256 && kind != HKind::kUniform && kind != HKind::kClustered && kind != HKind::kGraded) continue;
      if ((h.quick && k % 2) || !h.kind_on(k)) continue;
      const int lda = n + 3;
      const int64_t sA = (int64_t)lda * n + 4, sW = n + 2;
      std::vector<std::vector<cd>> mats;
      std::vector<std::vector<double>> ref;
      for (int64_t b = 0; b < nb; ++b) {
        mats.push_back(make_hermitian(h, kind, n));
        std::vector<cd> a = mats.back();
        std::vector<double> w(std::max(n, 1));
        int inf = n ? LAPACKE_zheev(LAPACK_COL_MAJOR, 'N', 'L', n, a.data(), n, w.data()) : 0;
        h.expect(inf == 0, "LAPACKE_zheev info %d", inf);
        ref.push_back(w);
      }
      std::vector<std::vector<double>> wn(nb);  // the jobz = N eigenvalues, for zdrvst's test 3
      for (char jobz : {'N', 'V'}) {
        std::vector<double> w0;
        for (char uplo : {'L', 'U'}) {
          char c[128];
          std::snprintf(c, sizeof c, "n=%d kind=%s jobz=%c uplo=%c", n, hkind_name(kind), jobz, uplo);
          Batch<cd> A(n, n, lda, sA, nb);
          Batch<double> W(n, 1, n, sW, nb);
          for (int64_t b = 0; b < nb; ++b) {
            A.load(b, mats[b]);
            // The other triangle holds garbage: only uplo's triangle may be read.
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < n; ++i)
                if (uplo == 'L' ? i < j : i > j) A.at(b, i, j) = cd(1e30, -1e30);
            if (n) A.at(b, 0, 0) += cd(0.0, 1e30);  // imaginary part of the diagonal is ignored
          }
          std::vector<int> info(nb, -12345);
          int st = sgpu_zheev_batched(h.ctx, jobz, uplo, n, A.data(), lda, sA, W.data(), sW, info.data(), nb);
          h.fail_if_refused(st, "zheev");
          if (n == 0) {
            h.expect(st == 0 && info[0] == -12345 && A.gaps_changed() == 0, "%s: n=0 touched data", c);
            continue;
          }
          // Every matrix must succeed, spike ones with vectors too, where LAPACK's zheev often
          // fails (info > 0 on about half of them from n = 6: its scaling leaves the spike's square
          // to overflow; sgpu scales as zheevd, core/heev.hpp).
          int failed = 0;
          for (int64_t b = 0; b < nb; ++b) {
            h.expect(info[b] == 0, "%s: info[%lld]=%d", c, (long long)b, info[b]);
            failed += info[b] != 0;
          }
          if (!h.expect(st == failed, "%s: status %d, %d matrices failed", c, st, failed) || failed) continue;
          h.expect(A.gaps_changed() == 0 && W.gaps_changed() == 0, "%s: gaps written", c);
          h.expect(W.unwritten() == 0, "%s: eigenvalues not all written", c);
          if (jobz == 'V') h.expect(A.unwritten() == 0, "%s: eigenvectors not all written", c);
          if (jobz == 'N') {  // LAPACK's zheev leaves the triangle uplo does not name untouched
            int changed = 0;
            for (int64_t b = 0; b < nb; ++b)
              for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i)
                  if ((uplo == 'L' ? i < j : i > j) && A.at(b, i, j) != cd(1e30, -1e30)) ++changed;
            h.expect(changed == 0, "%s: %d elements of the unreferenced triangle written", c, changed);
          }
          if (w0.empty()) w0 = W.buf;
          else h.expect(w0 == W.buf, "%s: eigenvalues differ from uplo=L", c);
          for (int64_t b = 0; b < nb; ++b) {
            const double* w = W.block(b);
            const auto& a0 = mats[b];
            const double anorm = norm1(n, n, a0.data(), n);
            for (int i = 0; i + 1 < n; ++i) h.expect(w[i] <= w[i + 1], "%s: eigenvalues not ascending at %d", c, i);
            double ev = 0.0;
            for (int i = 0; i < n; ++i) ev = std::max(ev, std::abs(w[i] - ref[b][i]));
            double evr = ev / (2 * 60 * n * ulp * std::max(anorm, unfl));
            worst_ev = std::max(worst_ev, evr);
            h.expect(evr <= 1.0, "%s: eigenvalues differ from LAPACKE by %.3g (x%.3g of the bound)", c, ev, evr);
            // The values with and without vectors: bitwise the same (zdrvst's test 3 asks only
            // |D1 - D2| / (ulp max|D|) < 60, and LAPACK's zheev and zheevd differ in the last bits).
            if (jobz == 'N') {
              wn[b].assign(w, w + n);
            } else if (!wn[b].empty()) {
              double diff = 0.0;
              for (int i = 0; i < n; ++i)
                if (!(w[i] == wn[b][i] && std::signbit(w[i]) == std::signbit(wn[b][i])))
                  diff = std::max(diff, std::abs(w[i] - wn[b][i]) + 1e-300);
              worst_nv = std::max(worst_nv, diff);
              h.expect(diff == 0.0, "%s: values with and without vectors differ (by %.3g)", c, diff);
            }
            if (jobz == 'V') {
              auto u = A.get(b);
              double orr = orth_ratio(n, u.data(), n);
              worst_orth = std::max(worst_orth, orr);
              h.expect(orr < 60, "%s: ||I - U^H U|| ratio %.3g", c, orr);
              // R = A - U diag(w) U^H
              std::vector<cd> r = a0;
              for (int kk = 0; kk < n; ++kk)
                for (int j = 0; j < n; ++j) {
                  cd f = w[kk] * std::conj(u[j + (size_t)kk * n]);
                  for (int i = 0; i < n; ++i) r[i + (size_t)j * n] -= u[i + (size_t)kk * n] * f;
                }
              double res = ratio(norm1(n, n, r.data(), n), anorm, n);
              worst_res = std::max(worst_res, res);
              h.expect(res < 60, "%s: ||A - U L U^H|| ratio %.3g", c, res);
            }
          }
        }
      }
    }
  }
  std::printf("worst ratios: residual %.3g, orthogonality %.3g (threshold 60); eigenvalue distance/bound %.3g; "
              "values with and without vectors: largest difference %.3g (must be 0)\n",
              worst_res, worst_orth, worst_ev, worst_nv);
  return h.finish();
}
