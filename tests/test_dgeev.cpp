// sgpu_dgeev_batched against LAPACKE: LAPACK's TESTING/EIG ratios (dget22 < 20, or at most twice
// LAPACKE's on the same matrix, see lapacke_ratios) for right and left eigenvectors, ddrvev's normalization checks, eigenvalues matched to LAPACKE's
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

// LAPACK's dget22 as ddrvev calls it: right vectors ||A E - E W||_1 / (||A||_1 ||E||_1 ulp),
// left vectors ||A^T E - E W^T||_1 / (||A||_inf ||E||_1 ulp), E and W in the real packing (a
// pair's columns are its real and imaginary parts); no factor n.
double dget22(int n, const std::vector<double>& a, const double* v, int ldv, const double* wr, const double* wi,
              bool left) {
  if (n == 0) return 0.0;
  auto A = [&](int i, int j) { return left ? a[j + (size_t)i * n] : a[i + (size_t)j * n]; };
  double anorm = 0.0, enorm = 0.0, errnrm = 0.0;
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += std::abs(A(i, j));
    anorm = std::max(anorm, s);
  }
  anorm = std::max(anorm, unfl);
  enorm = std::max(norm1(n, n, v, ldv), ulp);
  std::vector<double> r(n);
  for (int j = 0; j < n; ++j) {
    // Column j of E W (W^T for left vectors): a pair (j, j+1) mixes its two columns.
    const double* ej = v + (size_t)j * ldv;
    for (int i = 0; i < n; ++i) {
      double ew = wr[j] * ej[i];
      if (wi[j] > 0.0) ew += (left ? 1.0 : -1.0) * wi[j] * ej[i + ldv];       // re column of the pair
      else if (wi[j] < 0.0) ew += (left ? 1.0 : -1.0) * wi[j] * ej[i - ldv];  // im column (wi[j] = -wi)
      r[i] = -ew;
    }
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) r[i] += A(i, k) * ej[k];
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += std::abs(r[i]);
    errnrm = std::max(errnrm, s);
  }
  errnrm /= enorm;
  if (anorm > errnrm) return errnrm / anorm / ulp;
  if (anorm < 1.0) return 1.0 / ulp;
  return std::min(errnrm / anorm, 1.0) / ulp;
}

// ddrvev's test of the normalization: |norm - 1| / ulp of every vector (< 20), and for a complex
// vector a real component of largest modulus (max |real components| >= (1 - 2 ulp) max modulus).
// The norm is summed in long double: a chain of n hypot calls errs by up to n / 2 ulp itself
// (seen: 30 ulp at n = 256 on a vector whose norm is 1 - 1.7 ulp).
void check_normalization(Harness& h, const char* what, int n, const double* v, int ldv, const double* wi,
                         const char* ctx) {
  for (int j = 0; j < n; ++j) {
    if (wi[j] < 0.0) continue;  // the second column of a pair
    auto x = eigvec(n, v, ldv, wi, j);
    long double ssq = 0.0L;
    double vmx = 0.0, vrmx = 0.0;
    for (auto& c : x) {
      ssq += (long double)c.real() * c.real() + (long double)c.imag() * c.imag();
      vmx = std::max(vmx, std::hypot(c.real(), c.imag()));
      if (c.imag() == 0.0) vrmx = std::max(vrmx, std::abs(c.real()));
    }
    const double nrm = (double)std::sqrt(ssq);
    h.expect(std::abs(nrm - 1.0) / ulp < 20, "%s: %s vector %d has norm 1 %+.3g ulp", ctx, what, j,
             (nrm - 1.0) / ulp);
    if (wi[j] > 0.0)
      h.expect(vrmx / vmx >= 1 - 2 * ulp, "%s: %s vector %d: largest component is not real", ctx, what, j);
  }
}

// dnrm2 (scaled, as LAPACK's dgeev normalizes with it).
double cblas_like_nrm2(int n, const double* x) {
  double scale = 0.0, ssq = 1.0;
  for (int i = 0; i < n; ++i)
    if (x[i] != 0.0) {
      const double a = std::abs(x[i]);
      if (scale < a) {
        ssq = 1.0 + ssq * (scale / a) * (scale / a);
        scale = a;
      } else {
        ssq += (a / scale) * (a / scale);
      }
    }
  return scale * std::sqrt(ssq);
}

// dhseqr's crossover (ilaenv's NMIN = 75): from this order LAPACK runs dlaqr0.
constexpr int kLapackMultishiftN = 75;

extern "C" void dlahqr_(const int* wantt, const int* wantz, const int* n, const int* ilo, const int* ihi, double* h,
                        const int* ldh, double* wr, double* wi, const int* iloz, const int* ihiz, double* z,
                        const int* ldz, int* info);

// dgeev's steps as LAPACK's reference takes them below its crossover to the multishift QR (dgebal,
// dgehrd, dorghr, dlahqr, dtrevc, dgebak, dgeev's normalization), at any order: sgpu's algorithm.
// Returns the dget22 ratios (right, left); false when dlahqr did not converge.
bool lapack_dlahqr_ratios(int n, const std::vector<double>& a0, std::pair<double, double>& r) {
  std::vector<double> h = a0, wr(n), wi(n), scale(n), tau(std::max(n - 1, 1)), vl, vr;
  int ilo = 1, ihi = n, info = 0, one = 1, wantt = 1;
  if (LAPACKE_dgebal(LAPACK_COL_MAJOR, 'B', n, h.data(), n, &ilo, &ihi, scale.data()) ||
      LAPACKE_dgehrd(LAPACK_COL_MAJOR, n, ilo, ihi, h.data(), n, tau.data()))
    return false;
  vr = h;
  if (LAPACKE_dorghr(LAPACK_COL_MAJOR, n, ilo, ihi, vr.data(), n, tau.data())) return false;
  for (int j = 0; j < n; ++j)
    for (int i = j + 2; i < n; ++i) h[i + (size_t)j * n] = 0.0;
  dlahqr_(&wantt, &wantt, &n, &ilo, &ihi, h.data(), &n, wr.data(), wi.data(), &one, &n, vr.data(), &n, &info);
  if (info) return false;
  vl = vr;
  lapack_int m = 0;
  if (LAPACKE_dtrevc(LAPACK_COL_MAJOR, 'B', 'B', nullptr, n, h.data(), n, vl.data(), n, vr.data(), n, n, &m) ||
      LAPACKE_dgebak(LAPACK_COL_MAJOR, 'B', 'R', n, ilo, ihi, scale.data(), n, vr.data(), n) ||
      LAPACKE_dgebak(LAPACK_COL_MAJOR, 'B', 'L', n, ilo, ihi, scale.data(), n, vl.data(), n))
    return false;
  for (double* v : {vr.data(), vl.data()})
    for (int j = 0; j < n; ++j) {
      double* x = v + (size_t)j * n;
      if (wi[j] == 0.0) {
        const double s = 1.0 / cblas_like_nrm2(n, x);
        for (int i = 0; i < n; ++i) x[i] *= s;
      } else if (wi[j] > 0.0) {
        double* y = x + n;
        const double s = 1.0 / std::hypot(cblas_like_nrm2(n, x), cblas_like_nrm2(n, y));
        int k = 0;
        double best = -1.0;
        for (int i = 0; i < n; ++i) {
          x[i] *= s;
          y[i] *= s;
          if (x[i] * x[i] + y[i] * y[i] > best) {
            best = x[i] * x[i] + y[i] * y[i];
            k = i;
          }
        }
        const double rr = std::hypot(x[k], y[k]), cs = x[k] / rr, sn = y[k] / rr;
        for (int i = 0; i < n; ++i) {
          const double a = x[i], b = y[i];
          x[i] = cs * a + sn * b;
          y[i] = cs * b - sn * a;
        }
        y[k] = 0.0;
      }
    }
  r = {dget22(n, a0, vr.data(), n, wr.data(), wi.data(), false), dget22(n, a0, vl.data(), n, wr.data(), wi.data(), true)};
  return true;
}

// LAPACK's dget22 ratios (right, left) on a, the reference where ours exceed 20: ours may then be
// at most twice LAPACK's.
// - LAPACK's ratio on such a matrix (a companion matrix, say) is itself a draw from its rounding
//   errors: on one 61 x 61 companion matrix LAPACKE_dgeev reads 10.5, and 14-21 on the same matrix
//   under exact permutation similarities P a P^T, which leave the problem unchanged and only
//   reorder the arithmetic. So the reference is the largest of LAPACKE_dgeev's ratios on a and on
//   fifteen such reorderings (the reversal and fourteen fixed shuffles): the ratio of two such
//   draws has a long tail. On 20,000 companion matrices of orders 20-64 (generic ISA) sgpu's
//   geometric mean ratio was 7.4 against LAPACKE's 8.1, sgpu's exceeded 20 and twice LAPACKE's
//   largest over four orderings on about one in 2,500 (a 59 x 59 one: 20.2 against 9.7, 12.2
//   over sixteen), and twice the largest over sixteen on none.
// - From n = 75 LAPACK's dgeev runs the multishift QR with aggressive early deflation (dlaqr0), as
//   the CPU backend does; the GPU backend runs the double-shift QR at every order, whose Schur
//   vectors carry more rounding error on companion matrices (one 166 x 166: LAPACKE 14.5, LAPACK's
//   own steps with dlahqr 33.2, the double-shift core 35.4). For the GPU backend the reference
//   there also includes LAPACK's dlahqr steps on a (lapack_dlahqr_ratios): it is held to LAPACK's
//   quality for the algorithm it runs. docs/testing.md records this gap.
std::pair<double, double> lapacke_ratios(int n, const std::vector<double>& a0, bool gpu) {
  std::pair<double, double> worst{0.0, 0.0};
  std::mt19937_64 g(12345);
  std::vector<int> p(n);
  for (int k = 0; k < 16; ++k) {
    for (int i = 0; i < n; ++i) p[i] = k == 1 ? n - 1 - i : i;
    if (k > 1) std::shuffle(p.begin(), p.end(), g);
    std::vector<double> pa((size_t)n * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) pa[i + (size_t)j * n] = a0[p[i] + (size_t)p[j] * n];
    std::vector<double> a = pa, wr(n), wi(n), vl((size_t)n * n), vr((size_t)n * n);
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'V', 'V', n, a.data(), n, wr.data(), wi.data(), vl.data(), n, vr.data(), n))
      return {INFINITY, INFINITY};
    worst.first = std::max(worst.first, dget22(n, pa, vr.data(), n, wr.data(), wi.data(), false));
    worst.second = std::max(worst.second, dget22(n, pa, vl.data(), n, wr.data(), wi.data(), true));
  }
  std::pair<double, double> r;
  if (gpu && n >= kLapackMultishiftN && lapack_dlahqr_ratios(n, a0, r))
    worst = {std::max(worst.first, r.first), std::max(worst.second, r.second)};
  return worst;
}

constexpr int kMatchMaxN = 64;

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_dgeev", argc, argv);
  // Every n = 0..64 (three matrices a call), then one matrix a call at the orders where the GPU
  // changes path (shared memory up to n = 97 with both vector sets, 118 with one, 166 without;
  // one warp per matrix above), where the CPU's do (blocked back-transformation from 75, blocked
  // Hessenberg reduction from 130, the multishift sweeps' products from 350) and beyond. --sizes
  // picks orders.
  std::vector<int> sizes = h.quick ? std::vector<int>{0, 1, 2, 3, 4, 6, 9} : h.sizes;
  if (!h.quick && sizes.empty()) {
    for (int n = 0; n <= 64; ++n) sizes.push_back(n);
    for (int n : {97, 98, 118, 119, 128, 129, 130, 166, 167, 200, 256, 350, 520}) sizes.push_back(n);
  }
  const char jobs[4][2] = {{'N', 'N'}, {'N', 'V'}, {'V', 'N'}, {'V', 'V'}};
  double worst_r = 0, worst_l = 0, worst_ev = 0;
  for (int n : sizes) {
    const int64_t nb = n <= 64 ? 3 : 1;
    for (int k = 0; k < (int)Kind::kCount; ++k) {
      const Kind kind = (Kind)k;
      if (!h.kind_on(k)) continue;
      // --quick is the valgrind run. Under valgrind OpenBLAS picks a generic kernel whose dgeevx
      // reference loses accuracy at 1e+-300 (seen: 1e-12 relative, while sgpu's results are bitwise
      // those of the native run), so the extreme-scale kinds are left to the native run.
      if (h.quick && (kind == Kind::kLagge || kind == Kind::kRotations || kind == Kind::kHuge || kind == Kind::kTiny))
        continue;
      char ctx[128];
      std::snprintf(ctx, sizeof ctx, "n=%d kind=%s", n, kind_name(kind));
      // Gaps everywhere: lda > n, strides > lda*n, strideW > n. Above 64, A's or else the
      // vectors' leading dimension is a multiple of 32.
      const bool alias_a = n > 64 && n % 2 == 0, alias_v = n > 64 && !alias_a;
      const int lda = alias_a ? aliasing_ld(n) : n + 2, ldv = alias_v ? aliasing_ld(n) : n + 1;
      const int64_t sA = (int64_t)lda * n + 5, sW = n + 3, sV = (int64_t)ldv * n + 7;
      std::vector<std::vector<double>> mats;
      for (int64_t b = 0; b < nb; ++b) mats.push_back(make_general(h, kind, n));
      std::vector<RefSpectrum> ref(nb);
      // Eigenvalues against LAPACKE's up to n = 64. Above, dgeevx's condition numbers cost O(n^4)
      // (seconds a matrix at n = 256); there the eigenvalues are judged as LAPACK's tests judge
      // them, through the eigenvector residuals with them, and must be bitwise those of every
      // other job (the values-only call included).
      const bool match = n <= kMatchMaxN;
      for (int64_t b = 0; b < nb && match; ++b) ref[b] = reference_eigenvalues(n, mats[b]);

      std::vector<double> wr0, wi0;  // eigenvalues of the (N, N) call
      // LAPACKE's ratios on each matrix (lapacke_ratios), formed once where a job first needs them.
      std::vector<std::pair<double, double>> lap_of(nb, {-1.0, -1.0});
      for (auto& jb : jobs) {
        const bool wl = jb[0] == 'V', wv = jb[1] == 'V';
        Batch<double> A(n, n, lda, sA, nb), WR(n, 1, n, sW, nb), WI(n, 1, n, sW, nb), VL(n, n, ldv, sV, nb),
            VR(n, n, ldv, sV, nb);
        for (int64_t b = 0; b < nb; ++b) A.load(b, mats[b]);
        std::vector<int> info(nb, -12345);
        // An output not asked for is passed anyway and must come back untouched, as LAPACK's.
        int st = sgpu_dgeev_batched(h.ctx, jb[0], jb[1], n, A.data(), lda, sA, WR.data(), WI.data(), sW, VL.data(), ldv,
                                    sV, VR.data(), ldv, sV, info.data(), nb);
        h.fail_if_refused(st, "dgeev");
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
        if (!wl) h.expect(VL.gaps_changed() == 0 && VL.unwritten() == VL.count * n * n, "%s: VL written with jobvl=N", c2);
        if (!wv) h.expect(VR.gaps_changed() == 0 && VR.unwritten() == VR.count * n * n, "%s: VR written with jobvr=N", c2);
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
          double evr = first_job && match ? match_eigenvalues(ours, ref[b]) : 0.0;
          worst_ev = std::max(worst_ev, evr);
          h.expect(evr <= 1.0, "%s: eigenvalues differ from LAPACKE beyond the bound (x%.3g)", c2, evr);
          // < 20 as LAPACK's TESTING/EIG, or at most twice LAPACK's own ratio on the matrix.
          std::pair<double, double>& lap = lap_of[b];
          auto limit = [&](double r, bool left) {
            if (r < 20) return 20.0;
            if (lap.first < 0) lap = lapacke_ratios(n, mats[b], h.gpu);
            return std::max(20.0, 2 * (left ? lap.second : lap.first));
          };
          if (wv) {
            double r = dget22(n, mats[b], VR.block(b), ldv, wr, wi, false), lim = limit(r, false);
            worst_r = std::max(worst_r, r);
            h.expect(r < lim, "%s: right eigenvector ratio %.3g (limit %.3g)", c2, r, lim);
            check_normalization(h, "right", n, VR.block(b), ldv, wi, c2);
          }
          if (wl) {
            double r = dget22(n, mats[b], VL.block(b), ldv, wr, wi, true), lim = limit(r, true);
            worst_l = std::max(worst_l, r);
            h.expect(r < lim, "%s: left eigenvector ratio %.3g (limit %.3g)", c2, r, lim);
            check_normalization(h, "left", n, VL.block(b), ldv, wi, c2);
          }
        }
      }
      // The eigenvalues must not depend on the layout: A's leading dimension the other way
      // round (aliasing or not), values only, bitwise those above.
      if (n > 64 && !wr0.empty()) {
        const int lda2 = alias_a ? n + 2 : aliasing_ld(n);
        const int64_t sA2 = (int64_t)lda2 * n + 3;
        Batch<double> A2(n, n, lda2, sA2, nb), WR(n, 1, n, sW, nb), WI(n, 1, n, sW, nb);
        for (int64_t b = 0; b < nb; ++b) A2.load(b, mats[b]);
        std::vector<int> info(nb, -12345);
        int st = sgpu_dgeev_batched(h.ctx, 'N', 'N', n, A2.data(), lda2, sA2, WR.data(), WI.data(), sW, nullptr, 1, 0,
                                    nullptr, 1, 0, info.data(), nb);
        h.expect(st == 0 && WR.buf == wr0 && WI.buf == wi0, "%s lda=%d: eigenvalues differ from lda=%d's", ctx, lda2,
                 lda);
      }
    }
  }
  std::printf("worst ratios: right %.3g, left %.3g (threshold 20); eigenvalue distance/bound %.3g (<= 1)\n", worst_r,
              worst_l, worst_ev);
  return h.finish();
}
