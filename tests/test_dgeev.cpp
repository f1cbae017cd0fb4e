// sgpu_dgeev_batched against LAPACKE: TESTING/EIG-style ratios (< 20) for right and left
// eigenvectors, unit norm and largest-component-real checks, eigenvalues matched to LAPACKE's
// within first-order perturbation bounds, eigenvalues identical whatever the job flags, outputs
// fully written and gaps between matrices untouched.
#include "common.hpp"

using namespace st;

namespace {

// Complex eigenvector j from LAPACK's real packing (pairs: re in column j, im in column j+1).
std::vector<cd> eigvec(int n, const double* v, int ldv, const double* wi, int j) {
  std::vector<cd> x(n);
  for (int i = 0; i < n; ++i) {
    if (wi[j] == 0.0) x[i] = v[i + (size_t)j * ldv];
    else if (wi[j] > 0.0) x[i] = cd(v[i + (size_t)j * ldv], v[i + (size_t)(j + 1) * ldv]);
    else x[i] = cd(v[i + (size_t)(j - 1) * ldv], -v[i + (size_t)j * ldv]);
  }
  return x;
}

// ||A E - E W||_1 / ||E||_1 against ||A||_1 (right: A = A, lambda; left: A^T, conj(lambda)).
double eigvec_ratio(int n, const std::vector<double>& a, const double* v, int ldv, const double* wr, const double* wi,
                    bool left) {
  double err = 0.0, enrm = 0.0;
  for (int j = 0; j < n; ++j) {
    auto x = eigvec(n, v, ldv, wi, j);
    cd lam(wr[j], left ? -wi[j] : wi[j]);
    double cerr = 0.0, cn = 0.0;
    for (int i = 0; i < n; ++i) {
      cd s = 0.0;
      for (int k = 0; k < n; ++k) s += (left ? a[k + (size_t)i * n] : a[i + (size_t)k * n]) * x[k];
      cerr += std::abs(s - lam * x[i]);
      cn += std::abs(x[i]);
    }
    err = std::max(err, cerr);
    enrm = std::max(enrm, cn);
  }
  return ratio(err / std::max(enrm, ulp), norm1(n, n, a.data(), n), n);
}

// Unit 2-norm and, for complex vectors, an exactly real component of largest modulus.
void check_normalization(Harness& h, const char* what, int n, const double* v, int ldv, const double* wi,
                         const char* ctx) {
  for (int j = 0; j < n; ++j) {
    auto x = eigvec(n, v, ldv, wi, j);
    double nrm = 0.0, big = 0.0;
    for (auto& c : x) nrm = std::hypot(nrm, std::abs(c)), big = std::max(big, std::abs(c));
    h.expect(std::abs(nrm - 1.0) / (n * ulp) < 20, "%s: %s vector %d has norm %.17g", ctx, what, j, nrm);
    if (wi[j] != 0.0) {
      bool real_max = false;
      for (auto& c : x)
        if (c.imag() == 0.0 && std::abs(c) >= big * (1 - 8 * n * ulp)) real_max = true;
      h.expect(real_max, "%s: %s vector %d: largest component is not real", ctx, what, j);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_dgeev", argc, argv);
  std::vector<int> sizes = h.quick ? std::vector<int>{0, 1, 2, 3, 4, 6, 9} : std::vector<int>{};
  for (int n = 0; !h.quick && n <= 64; ++n) sizes.push_back(n);  // every n = 0..64
  const char jobs[4][2] = {{'N', 'N'}, {'N', 'V'}, {'V', 'N'}, {'V', 'V'}};
  const int64_t nb = 3;
  double worst_r = 0, worst_l = 0, worst_ev = 0;
  for (int n : sizes) {
    for (int k = 0; k < (int)Kind::kCount; ++k) {
      const Kind kind = (Kind)k;
      // --quick is the valgrind run. Under valgrind OpenBLAS picks a generic kernel whose dgeevx
      // reference loses accuracy at 1e+-300 (seen: 1e-12 relative, while sgpu's results are bitwise
      // those of the native run), so the extreme-scale kinds are left to the native run.
      if (h.quick && (kind == Kind::kLagge || kind == Kind::kRotations || kind == Kind::kHuge || kind == Kind::kTiny))
        continue;
      char ctx[128];
      std::snprintf(ctx, sizeof ctx, "n=%d kind=%s", n, kind_name(kind));
      // Gaps everywhere: lda > n, strides > lda*n, strideW > n.
      const int lda = n + 2, ldv = n + 1;
      const int64_t sA = (int64_t)lda * n + 5, sW = n + 3, sV = (int64_t)ldv * n + 7;
      std::vector<std::vector<double>> mats;
      for (int64_t b = 0; b < nb; ++b) mats.push_back(make_general(h, kind, n));
      std::vector<RefSpectrum> ref(nb);
      for (int64_t b = 0; b < nb; ++b) ref[b] = reference_eigenvalues(n, mats[b]);

      std::vector<double> wr0, wi0;  // eigenvalues of the (N, N) call
      for (auto& jb : jobs) {
        const bool wl = jb[0] == 'V', wv = jb[1] == 'V';
        Batch<double> A(n, n, lda, sA, nb), WR(n, 1, n, sW, nb), WI(n, 1, n, sW, nb), VL(n, n, ldv, sV, nb),
            VR(n, n, ldv, sV, nb);
        for (int64_t b = 0; b < nb; ++b) A.load(b, mats[b]);
        std::vector<int> info(nb, -12345);
        int st = sgpu_dgeev_batched(h.ctx, jb[0], jb[1], n, A.data(), lda, sA, WR.data(), WI.data(), sW,
                                    wl ? VL.data() : nullptr, ldv, sV, wv ? VR.data() : nullptr, ldv, sV, info.data(), nb);
        h.skip_if_unsupported(st, "dgeev");
        char c2[160];
        std::snprintf(c2, sizeof c2, "%s jobvl=%c jobvr=%c", ctx, jb[0], jb[1]);
        if (!h.expect(st == 0, "%s: status %d", c2, st)) continue;
        if (n == 0) {
          h.expect(info[0] == -12345 && A.gaps_changed() == 0 && WR.gaps_changed() == 0, "%s: n=0 touched data", c2);
          continue;
        }
        for (int64_t b = 0; b < nb; ++b) h.expect(info[b] == 0, "%s: info[%lld]=%d", c2, (long long)b, info[b]);
        h.expect(A.gaps_changed() == 0, "%s: A gaps written", c2);
        h.expect(WR.gaps_changed() == 0 && WI.gaps_changed() == 0, "%s: W gaps written", c2);
        h.expect(WR.unwritten() == 0 && WI.unwritten() == 0, "%s: eigenvalues not all written", c2);
        if (wl) h.expect(VL.gaps_changed() == 0 && VL.unwritten() == 0, "%s: VL gaps written or VL incomplete", c2);
        if (wv) h.expect(VR.gaps_changed() == 0 && VR.unwritten() == 0, "%s: VR gaps written or VR incomplete", c2);
        std::vector<double> wr_all(WR.buf), wi_all(WI.buf);
        const bool first_job = !wl && !wv;  // the other jobs must repeat its eigenvalues bit for bit
        if (first_job) {
          wr0 = wr_all;
          wi0 = wi_all;
        } else {
          h.expect(wr0 == wr_all && wi0 == wi_all, "%s: eigenvalues differ from the jobvl=jobvr=N call", c2);
        }
        for (int64_t b = 0; b < nb; ++b) {
          const double* wr = WR.block(b);
          const double* wi = WI.block(b);
          // LAPACK's ordering of conjugate pairs: consecutive, positive imaginary part first.
          for (int i = 0; i < n; ++i)
            if (wi[i] > 0.0)
              h.expect(i + 1 < n && wi[i + 1] == -wi[i] && wr[i + 1] == wr[i], "%s: pair at %d malformed", c2, i);
            else if (wi[i] < 0.0)
              h.expect(i > 0 && wi[i - 1] == -wi[i], "%s: negative imaginary part first at %d", c2, i);
          std::vector<cd> ours(n);
          for (int i = 0; i < n; ++i) ours[i] = cd(wr[i], wi[i]);
          double evr = first_job ? match_eigenvalues(ours, ref[b]) : 0.0;
          worst_ev = std::max(worst_ev, evr);
          h.expect(evr <= 1.0, "%s: eigenvalues differ from LAPACKE beyond the bound (x%.3g)", c2, evr);
          if (wv) {
            double r = eigvec_ratio(n, mats[b], VR.block(b), ldv, wr, wi, false);
            worst_r = std::max(worst_r, r);
            h.expect(r < 20, "%s: right eigenvector ratio %.3g", c2, r);
            check_normalization(h, "right", n, VR.block(b), ldv, wi, c2);
          }
          if (wl) {
            double r = eigvec_ratio(n, mats[b], VL.block(b), ldv, wr, wi, true);
            worst_l = std::max(worst_l, r);
            h.expect(r < 20, "%s: left eigenvector ratio %.3g", c2, r);
            check_normalization(h, "left", n, VL.block(b), ldv, wi, c2);
          }
        }
      }
    }
  }
  std::printf("worst ratios: right %.3g, left %.3g (threshold 20); eigenvalue distance/bound %.3g (<= 1)\n", worst_r,
              worst_l, worst_ev);
  return h.finish();
}
