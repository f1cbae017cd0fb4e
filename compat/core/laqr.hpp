// Multishift QR with aggressive early deflation (LAPACK's dlaqr0 with dlaqr3's deflation window),
// the algorithm of LAPACK's dhseqr from order kLaqrNmin up. Fewer sweeps than the double-shift QR
// (lahqr.hpp) leave less rounding error in the Schur vectors of hard (companion, graded) matrices.
//
// Differences from LAPACK, numerical details kept:
//  - A sweep chains its ns / 2 bulges through the block as dlaqr5 does, 3 rows apart, each with
//    a 3-element reflector (dlaqr5 now packs its bulges closer); from order kLaqrAccumulateMin the
//    reflectors of a chunk of steps are accumulated and applied away from the diagonal by matrix
//    products (gemm.hpp) without dlaqr5's use of their 2 x 2 block structure (gemm skips the
//    all-zero blocks instead).
//  - The deflation window and the trailing block that supplies shifts are solved by lahqr at every
//    size (LAPACK recurses into dlaqr4 above 75 rows).
// Indices are 1-based as LAPACK's. A team of one runs it (the CPU backend).
#pragma once
#include "gemm.hpp"
#include "hessenberg.hpp"
#include "lahqr.hpp"
#include "trexc.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

constexpr int kLaqrNmin = 75;  // dhseqr's crossover to dlaqr0 (iparmq's NMIN)
constexpr int kLaqrKexnw = 5;  // no deflation in this many iterations: vary the window size
constexpr int kLaqrKexsh = 6;  // ... in a multiple of this many: exceptional shifts
constexpr int kLaqrNibble = 14;  // skip the sweep when the window deflated more than 14% of itself

// iparmq's recommended number of simultaneous shifts for an active block of nh rows.
SGPU_HD int laqr_recommended_shifts(int nh) {
  int ns = 2;
  if (nh >= 30) ns = 4;
  if (nh >= 60) ns = 10;
  if (nh >= 150) {
    const int lg = (int)(log((double)nh) / log(2.0) + 0.5);
    ns = nh / lg > 10 ? nh / lg : 10;
  }
  if (nh >= 590) ns = 64;
  if (nh >= 3000) ns = 128;
  if (nh >= 6000) ns = 256;
  ns -= ns % 2;
  return ns < 2 ? 2 : ns;
}

// The multishift sweep's chain of ns / 2 bulges, each 3 rows behind the one ahead, moves in chunks
// of laqr_chunk(nb) steps; a chunk touches rows and columns w0..w1 of H near the diagonal, at most
// laqr_window(nb) of them.
SGPU_HD int laqr_chunk(int nb) { return 3 * nb; }
SGPU_HD int laqr_window(int nb) { return laqr_chunk(nb) + 3 * nb + 1; }
// The sweeps accumulate their reflectors from this order and this many shifts (below, H and Z
// are near enough in cache for the reflectors' direct updates to cost less than the products).
constexpr int kLaqrAccumulateMin = 350;
constexpr int kLaqrAccumulateShifts = 14;  // iparmq's KACMIN
// Rows of H and Z a product with the accumulated reflectors takes at a time (workspace 64 x window).
constexpr int kLaqrPanel = 64;
SGPU_HD int64_t laqr_sweep_work(int nb) {
  const int64_t w = laqr_window(nb);
  return 2 * w * w + (kLaqrPanel + 4) * w;
}

// Doubles of workspace laqr0 needs for order n: the deflation window (at most (n - 1) / 3 rows;
// the shift block is smaller), or the sweep's (at most (n + 6) / 18 bulges).
SGPU_HD int64_t laqr_work_size(int n) {
  const int64_t nw = (n - 1) / 3 + 1, window = 2 * nw * nw + 3 * (int64_t)n + (int64_t)n * nw + 8;
  const int64_t sweep = laqr_sweep_work((n + 6) / 18 > 1 ? (n + 6) / 18 : 1);
  return window > sweep ? window : sweep;
}

// M(r0:r1, c0:c0+nw-1) = M(r0:r1, c0:c0+nw-1) U in place (M with unit row stride, U nw x nw with
// leading dimension ldu), kLaqrPanel rows at a time through panel (kLaqrPanel x nw); bpack: 4 nw.
SGPU_HD void laqr_right_product(Mat1<double> m, int r0, int r1, int c0, int nw, const double* u, int64_t ldu,
                                double* panel, double* bpack) {
  for (int r = r0; r <= r1; r += kLaqrPanel) {
    const int mr = r1 - r + 1 < kLaqrPanel ? r1 - r + 1 : kLaqrPanel;
    double* x = &m(r, c0);
    gemm(mr, nw, nw, x, m.cs, u, ldu, panel, mr, bpack);
    for (int j = 0; j < nw; ++j)
      for (int i = 0; i < mr; ++i) x[i + j * m.cs] = panel[i + (int64_t)j * mr];
  }
}

// M(r0:r0+nw-1, c0:c1) = U^T M(r0:r0+nw-1, c0:c1) in place, ut holding U^T (nw x nw, packed),
// kLaqrPanel columns at a time through panel (nw x kLaqrPanel); bpack: 4 nw.
SGPU_HD void laqr_left_product(Mat1<double> m, int r0, int nw, int c0, int c1, const double* ut, double* panel,
                               double* bpack) {
  for (int c = c0; c <= c1; c += kLaqrPanel) {
    const int nc = c1 - c + 1 < kLaqrPanel ? c1 - c + 1 : kLaqrPanel;
    double* x = &m(r0, c);
    gemm(nw, nc, nw, ut, nw, x, m.cs, panel, nw, bpack);
    for (int j = 0; j < nc; ++j)
      for (int i = 0; i < nw; ++i) x[i + j * m.cs] = panel[i + (int64_t)j * nw];
  }
}

// ns / 2 double-shift sweeps over the active block H(ktop:kbot, ktop:kbot), shifts (sr[k], si[k])
// k = 1..ns in pairs (complex conjugate, or two real), i1..i2 the columns and rows of H updated.
// The bulges go down together as dlaqr5's chain: at each step every bulge moves one row, the
// lowest first, 3 rows apart (the steps that change order against ns / 2 sweeps one after the
// other are 4 and more rows apart and commute). Within a chunk the reflectors are applied only to
// the window near the diagonal and accumulated in U; the rows above the window, the columns right
// of it and Z's columns then take U in one product each. dlaqr5's vigilant deflation check follows
// every bulge step. work: laqr_sweep_work(ns / 2) doubles. The team of one runs it (the CPU).
SGPU_HD void laqr_sweeps(bool wantt, bool wantz, int n, int ktop, int kbot, int ns, Vec1<double> sr, Vec1<double> si,
                         Mat1<double> h, int iloz, int ihiz, Mat1<double> z, double* work) {
  const TeamOne t;
  const double ulp = Mach::ulp, smlnum = Mach::safmin * ((double)(kbot - ktop + 1) / ulp);
  const int i1 = wantt ? 1 : ktop, i2 = wantt ? n : kbot;
  if (kbot - ktop < 2) return;
  const int nb = ns / 2, chunk = laqr_chunk(nb), wmax = laqr_window(nb);
  const bool acc = n >= kLaqrAccumulateMin && ns >= kLaqrAccumulateShifts;
  double* u = work;                              // wmax x wmax
  double* ut = u + (int64_t)wmax * wmax;         // its transpose
  double* panel = ut + (int64_t)wmax * wmax;     // kLaqrPanel x wmax
  double* bpack = panel + (int64_t)kLaqrPanel * wmax;  // 4 wmax
  // Bulge b (1..nb) steps at k = tau - 3 (b - 1) at time tau, for k in ktop..kbot-1.
  const int tlast = kbot - 1 + 3 * (nb - 1);
  for (int tau0 = ktop; tau0 <= tlast; tau0 += chunk) {
    const int tau1 = tau0 + chunk - 1 < tlast ? tau0 + chunk - 1 : tlast;
    const int kmin = tau0 - 3 * (nb - 1) > ktop ? tau0 - 3 * (nb - 1) : ktop;
    const int kmax = tau1 < kbot - 1 ? tau1 : kbot - 1;
    // The window: the rows and columns the chunk's steps touch, and the row above (read by the
    // deflation check) unless it lies outside the active block.
    const int w0 = kmin, w1 = kmax + 3 < kbot ? kmax + 3 : kbot, nw = w1 - w0 + 1;
    const int r0 = w0 - 1 >= ktop ? w0 - 1 : ktop;
    // Without accumulation the steps update every row and column as they go.
    const int c_end = acc ? w1 : i2, r_begin = acc ? r0 : i1;
    const Mat1<double> um{u, 1, nw};
    if (acc)
      for (int j = 1; j <= nw; ++j)
        for (int i = 1; i <= nw; ++i) um(i, j) = i == j ? 1.0 : 0.0;
    for (int tau = tau0; tau <= tau1; ++tau)
      for (int b = 1; b <= nb; ++b) {
        const int k = tau - 3 * (b - 1);
        if (k < ktop) break;
        if (k > kbot - 1) continue;
        const int nr = kbot - k + 1 < 3 ? kbot - k + 1 : 3;
        double u0, u1, u2 = 0.0;
        if (k == ktop) {
          const Shifts sh{sr[2 * b - 1], si[2 * b - 1], sr[2 * b], si[2 * b]};
          bulge_first_column(h, ktop, sh, u0, u1, u2);
        } else {
          u0 = h(k, k - 1);
          u1 = h(k + 1, k - 1);
          if (nr == 3) u2 = h(k + 2, k - 1);
        }
        double t1;
        u0 = larfg3(nr, u0, u1, u2, t1);
        const BulgeReflector r{u1, u2, t1, t1 * u1, t1 * u2};
        const int hi = k + 3 < kbot ? k + 3 : kbot;
        if (nr == 3) {
          bulge_rows<3>(t, r, k, c_end, h);
          bulge_columns<3>(t, r, k, r_begin, hi, h);
          if (acc) bulge_columns<3>(t, r, k - w0 + 1, 1, nw, um);
          else if (wantz) bulge_columns<3>(t, r, k, iloz, ihiz, z);
        } else {
          bulge_rows<2>(t, r, k, c_end, h);
          bulge_columns<2>(t, r, k, r_begin, hi, h);
          if (acc) bulge_columns<2>(t, r, k - w0 + 1, 1, nw, um);
          else if (wantz) bulge_columns<2>(t, r, k, iloz, ihiz, z);
        }
        if (k > ktop) {
          h(k, k - 1) = u0;
          h(k + 1, k - 1) = 0.0;
          if (nr == 3) h(k + 2, k - 1) = 0.0;
          // Vigilant deflation (dlaqr5): the subdiagonal the bulge has just left, if negligible.
          if (h(k, k - 1) != 0.0 && negligible_subdiag(h(k, k - 1), h(k - 1, k - 1), h(k, k), h(k - 1, k),
                                                        k - 2 >= ktop ? h(k - 1, k - 2) : 0.0, h(k + 1, k), smlnum,
                                                        ulp))
            h(k, k - 1) = 0.0;
        }
      }
    // The columns right of the window (U^T from the left), the rows above it and Z (U from the
    // right).
    if (!acc) continue;
    if (i2 > w1) {
      for (int j = 0; j < nw; ++j)
        for (int i = 0; i < nw; ++i) ut[i + (int64_t)j * nw] = u[j + (int64_t)i * nw];
      laqr_left_product(h, w0, nw, w1 + 1, i2, ut, panel, bpack);
    }
    if (i1 < r0) laqr_right_product(h, i1, r0 - 1, w0, nw, u, nw, panel, bpack);
    if (wantz) laqr_right_product(z, iloz, ihiz, w0, nw, u, nw, panel, bpack);
  }
}

// Aggressive early deflation (dlaqr3) on the window of the last nw rows of the active block
// ktop..kbot. Returns in nd the eigenvalues deflated (stored in sr/si at kbot-nd+1..kbot) and in
// ns the window's undeflated eigenvalues, stored in sr/si at kbot-nd-ns+1..kbot-nd as shifts.
// work: 2 nw^2 + 3 n + n nw doubles.
template <class Team>
SGPU_HD void laqr3(const Team& t, bool wantt, bool wantz, int n, int ktop, int kbot, int nw, Mat1<double> h, int iloz,
                   int ihiz, Mat1<double> z, int& ns, int& nd, Vec1<double> sr, Vec1<double> si, double* work) {
  ns = 0;
  nd = 0;
  if (ktop > kbot || nw < 1) return;
  const double ulp = Mach::ulp, smlnum = Mach::safmin * ((double)n / ulp);
  const int jw = nw < kbot - ktop + 1 ? nw : kbot - ktop + 1;
  const int kwtop = kbot - jw + 1;
  double s = kwtop == ktop ? 0.0 : h(kwtop, kwtop - 1);
  if (kbot == kwtop) {
    // A 1 x 1 window.
    if (t.leader()) {
      sr[kwtop] = h(kwtop, kwtop);
      si[kwtop] = 0.0;
    }
    ns = 1;
    if (fabs(s) <= dmax(smlnum, ulp * fabs(h(kwtop, kwtop)))) {
      ns = 0;
      nd = 1;
      t.sync();
      if (kwtop > ktop && t.leader()) h(kwtop, kwtop - 1) = 0.0;
    }
    t.sync();
    return;
  }
  const Mat1<double> T{work, 1, jw}, V{work + (int64_t)jw * jw, 1, jw};
  double* rowbuf = work + 2 * (int64_t)jw * jw;  // n doubles
  const Vec1<double> tau{rowbuf + n, 1}, gw{rowbuf + 2 * n, 1};  // jw and n doubles
  double* prod = rowbuf + 3 * n;  // n x jw
  // The window's Hessenberg part into T, V = I; T's Schur form by the double-shift QR.
  if (t.leader())
    for (int j = 1; j <= jw; ++j)
      for (int i = 1; i <= jw; ++i) {
        T(i, j) = i <= j + 1 ? h(kwtop + i - 1, kwtop + j - 1) : 0.0;
        V(i, j) = i == j ? 1.0 : 0.0;
      }
  t.sync();
  const Vec1<double> srw{&sr[kwtop], sr.s}, siw{&si[kwtop], si.s};
  const int infqr = lahqr(t, true, true, jw, 1, jw, T, srw, siw, 1, jw, V);
  // trexc needs a clean margin below the subdiagonal.
  if (t.leader()) {
    for (int j = 1; j <= jw - 3; ++j) T(j + 2, j) = T(j + 3, j) = 0.0;
    if (jw > 2) T(jw, jw - 2) = 0.0;
  }
  t.sync();
  // Deflation detection: the spike s V(1, :) below each eigenvalue, from the bottom; those that do
  // not deflate move up out of the way.
  ns = jw;
  int ilst = infqr + 1;
  while (ilst <= ns) {
    const bool bulge = ns > 1 && T(ns, ns - 1) != 0.0;
    if (!bulge) {
      double foo = fabs(T(ns, ns));
      if (foo == 0.0) foo = fabs(s);
      if (fabs(s * V(1, ns)) <= dmax(smlnum, ulp * foo)) {
        --ns;
      } else {
        int ifst = ns;
        trexc(t, true, jw, T, V, ifst, ilst);
        ++ilst;
      }
    } else {
      double foo = fabs(T(ns, ns)) + sqrt(fabs(T(ns, ns - 1))) * sqrt(fabs(T(ns - 1, ns)));
      if (foo == 0.0) foo = fabs(s);
      if (dmax(fabs(s * V(1, ns)), fabs(s * V(1, ns - 1))) <= dmax(smlnum, ulp * foo)) {
        ns -= 2;
      } else {
        int ifst = ns;
        trexc(t, true, jw, T, V, ifst, ilst);
        ilst += 2;
      }
    }
    t.sync();
  }
  if (ns == 0) s = 0.0;
  if (ns < jw) {
    // Sort the undeflated blocks by decreasing modulus (bubble sort, which copes with a rejected
    // swap): it helps accuracy on graded matrices.
    bool sorted = false;
    int i = ns + 1;
    while (!sorted) {
      sorted = true;
      const int kend = i - 1;
      i = infqr + 1;
      int k = (i == ns || T(i + 1, i) == 0.0) ? i + 1 : i + 2;
      while (k <= kend) {
        const double evi = k == i + 1 ? fabs(T(i, i)) : fabs(T(i, i)) + sqrt(fabs(T(i + 1, i))) * sqrt(fabs(T(i, i + 1)));
        const double evk = (k == kend || T(k + 1, k) == 0.0)
                               ? fabs(T(k, k))
                               : fabs(T(k, k)) + sqrt(fabs(T(k + 1, k))) * sqrt(fabs(T(k, k + 1)));
        if (evi >= evk) {
          i = k;
        } else {
          sorted = false;
          int ifst = i, il = k;
          const int info = trexc(t, true, jw, T, V, ifst, il);
          i = info == 0 ? il : k;
        }
        k = (i == kend || T(i + 1, i) == 0.0) ? i + 1 : i + 2;
        t.sync();
      }
    }
  }
  // The eigenvalues (and shifts) of the window from T.
  if (t.leader()) {
    int i = jw;
    while (i >= infqr + 1) {
      if (i == infqr + 1 || T(i, i - 1) == 0.0) {
        srw[i] = T(i, i);
        siw[i] = 0.0;
        --i;
      } else {
        double aa = T(i - 1, i - 1), cc = T(i, i - 1), bb = T(i - 1, i), dd = T(i, i), cs, sn;
        lanv2(aa, bb, cc, dd, srw[i - 1], siw[i - 1], srw[i], siw[i], cs, sn);
        i -= 2;
      }
    }
  }
  t.sync();
  if (ns < jw || s == 0.0) {
    if (ns > 1 && s != 0.0) {
      // Reflect the spike back into the lower triangle, then T back to Hessenberg form.
      double* v = rowbuf;  // v[0..ns)
      for (int j = 1; j <= ns; ++j) v[j - 1] = V(1, j);
      double tv;
      const double beta = larfg(TeamOne{}, ns, v[0], Vec<double>{v + 1, 1}, tv);
      (void)beta;
      v[0] = 1.0;
      if (t.leader())
        for (int j = 1; j <= jw - 2; ++j)
          for (int i2 = j + 2; i2 <= jw; ++i2) T(i2, j) = 0.0;
      t.sync();
      // T(1:ns, 1:jw) from the left, T(1:ns, 1:ns) and V(1:jw, 1:ns) from the right.
      for (int c = t.first(1); c <= jw; c += t.step()) {
        double w = 0.0;
        for (int k = 1; k <= ns; ++k) w += v[k - 1] * T(k, c);
        w *= tv;
        for (int k = 1; k <= ns; ++k) T(k, c) -= w * v[k - 1];
      }
      t.sync();
      for (int r = t.first(1); r <= ns; r += t.step()) {
        double w = 0.0;
        for (int k = 1; k <= ns; ++k) w += T(r, k) * v[k - 1];
        w *= tv;
        for (int k = 1; k <= ns; ++k) T(r, k) -= w * v[k - 1];
      }
      for (int r = t.first(1); r <= jw; r += t.step()) {
        double w = 0.0;
        for (int k = 1; k <= ns; ++k) w += V(r, k) * v[k - 1];
        w *= tv;
        for (int k = 1; k <= ns; ++k) V(r, k) -= w * v[k - 1];
      }
      t.sync();
      gehd2(t, jw, 1, ns, T, tau, gw, Vec1<double>{rowbuf, 1});
    }
    // The reduced window back into H.
    if (t.leader()) {
      if (kwtop > 1) h(kwtop, kwtop - 1) = s * V(1, 1);
      for (int j = 1; j <= jw; ++j)
        for (int i = 1; i <= j + 1 && i <= jw; ++i) h(kwtop + i - 1, kwtop + j - 1) = T(i, j);
    }
    t.sync();
    if (ns > 1 && s != 0.0) {
      // V(:, 1:ns) times Q = H(1) H(2) ... H(ns-1) of gehd2 (dormhr 'R', 'N').
      for (int i = 1; i <= ns - 1; ++i) {
        const int m = ns - i;  // rows i+1..ns of the reflector
        const double ti = tau[i];
        if (ti == 0.0) continue;
        for (int r = t.first(1); r <= jw; r += t.step()) {
          double w = V(r, i + 1);
          for (int k = 1; k < m; ++k) w += V(r, i + 1 + k) * T(i + 1 + k, i);
          w *= ti;
          V(r, i + 1) -= w;
          for (int k = 1; k < m; ++k) V(r, i + 1 + k) -= w * T(i + 1 + k, i);
        }
        t.sync();
      }
    }
    // The rows above the window and Z's rows times V, then the columns right of it by V^T (in T's
    // place, free now); prod is the products' panel, rowbuf their packing space.
    const int ltop = wantt ? 1 : ktop;
    if (t.leader()) {
      if (ltop <= kwtop - 1) laqr_right_product(h, ltop, kwtop - 1, kwtop, jw, V.p, jw, prod, rowbuf);
      if (wantz) laqr_right_product(z, iloz, ihiz, kwtop, jw, V.p, jw, prod, rowbuf);
      if (wantt && kbot < n) {
        for (int j = 1; j <= jw; ++j)
          for (int i = 1; i <= jw; ++i) T(i, j) = V(j, i);
        laqr_left_product(h, kwtop, jw, kbot + 1, n, T.p, prod, rowbuf);
      }
    }
    t.sync();
  }
  nd = jw - ns;
  ns -= infqr;
}

// The Schur factorization of H(ilo:ihi, ilo:ihi) as dlaqr0 computes it: returns info as lahqr.
// work: laqr_work_size(n) doubles. Orders below kLaqrNmin (and tiny blocks) take lahqr.
template <class Team>
SGPU_HD int laqr0(const Team& t, bool wantt, bool wantz, int n, int ilo, int ihi, Mat1<double> h, Vec1<double> wr,
                  Vec1<double> wi, int iloz, int ihiz, Mat1<double> z, double* work) {
  if (n == 0) return 0;
  if (n < kLaqrNmin) return lahqr(t, wantt, wantz, n, ilo, ihi, h, wr, wi, iloz, ihiz, z);
  const int nh0 = ihi - ilo + 1;
  const int nsr0 = laqr_recommended_shifts(nh0);
  int nwr = nh0 <= 500 ? nsr0 : 3 * nsr0 / 2;
  nwr = nwr > 2 ? nwr : 2;
  nwr = nwr < nh0 ? nwr : nh0;
  nwr = nwr < (n - 1) / 3 ? nwr : (n - 1) / 3;
  int nsr = nsr0;
  nsr = nsr < (n + 6) / 9 ? nsr : (n + 6) / 9;
  nsr = nsr < ihi - ilo ? nsr : ihi - ilo;
  nsr -= nsr % 2;
  nsr = nsr > 2 ? nsr : 2;
  const int nwmax = (n - 1) / 3;
  int nsmax = (n + 6) / 9;
  nsmax -= nsmax % 2;
  int nw = nwmax, ndec = -1, ndfl = 1;
  const int itmax = (30 > 2 * kLaqrKexsh ? 30 : 2 * kLaqrKexsh) * (10 > nh0 ? 10 : nh0);
  double* shiftblock = work;  // ns x ns for shifts from a trailing block, and laqr3's workspace
  // The sweeps fill and read the band just below the subdiagonal: clear what the Hessenberg
  // reduction left there (its reflectors).
  if (t.leader())
    for (int j = ilo; j <= ihi - 2; ++j)
      for (int i = j + 2; i <= ihi; ++i) h(i, j) = 0.0;
  t.sync();
  int kbot = ihi;
  for (int it = 1; it <= itmax; ++it) {
    if (kbot < ilo) return 0;
    // The active block: from the last exactly zero subdiagonal above kbot.
    int ktop = ilo;
    for (int k = kbot; k >= ilo + 1; --k)
      if (h(k, k - 1) == 0.0) {
        ktop = k;
        break;
      }
    // The deflation window's size: usually nwr (or nwr + 1, by the smaller subdiagonal), the whole
    // block when that is nearly as large; after kLaqrKexnw iterations without a deflation, first
    // larger, then gradually smaller.
    const int nhb = kbot - ktop + 1;
    const int nwupbd = nhb < nwmax ? nhb : nwmax;
    if (ndfl < kLaqrKexnw)
      nw = nwupbd < nwr ? nwupbd : nwr;
    else
      nw = nwupbd < 2 * nw ? nwupbd : 2 * nw;
    if (nw < nwmax) {
      if (nw >= nhb - 1) {
        nw = nhb;
      } else {
        const int kwtop = kbot - nw + 1;
        if (fabs(h(kwtop, kwtop - 1)) > fabs(h(kwtop - 1, kwtop - 2))) ++nw;
      }
    }
    if (ndfl < kLaqrKexnw) {
      ndec = -1;
    } else if (ndec >= 0 || nw >= nwupbd) {
      ++ndec;
      if (nw - ndec < 2) ndec = 0;
      nw -= ndec;
    }
    int ls, ld;
    laqr3(t, wantt, wantz, n, ktop, kbot, nw, h, iloz, ihiz, z, ls, ld, wr, wi, work);
    kbot -= ld;
    int ks = kbot - ls + 1;
    // Sweep unless the window deflated much (or the rest is small enough for the next window).
    const int rest = kbot - ktop + 1, small = kLaqrNmin < nwmax ? kLaqrNmin : nwmax;
    if (ld == 0 || (100 * ld <= nw * kLaqrNibble && rest > small)) {
      int ns = nsmax < nsr ? nsmax : nsr;
      ns = ns < (kbot - ktop > 2 ? kbot - ktop : 2) ? ns : (kbot - ktop > 2 ? kbot - ktop : 2);
      ns -= ns % 2;
      if (ndfl % kLaqrKexsh == 0) {
        // Exceptional shifts.
        ks = kbot - ns + 1;
        if (t.leader()) {
          for (int i = kbot; i >= (ks + 1 > ktop + 2 ? ks + 1 : ktop + 2); i -= 2) {
            const double ss = fabs(h(i, i - 1)) + fabs(h(i - 1, i - 2));
            double aa = 0.75 * ss + h(i, i), bb = ss, cc = -0.4375 * ss, dd = aa, cs, sn;
            lanv2(aa, bb, cc, dd, wr[i - 1], wi[i - 1], wr[i], wi[i], cs, sn);
          }
          if (ks == ktop) {
            wr[ks + 1] = h(ks + 1, ks + 1);
            wi[ks + 1] = 0.0;
            wr[ks] = wr[ks + 1];
            wi[ks] = wi[ks + 1];
          }
        }
        t.sync();
      } else {
        if (kbot - ks + 1 <= ns / 2) {
          // Too few shifts from the window: the eigenvalues of the trailing ns x ns block.
          ks = kbot - ns + 1;
          const Mat1<double> B{shiftblock, 1, ns};
          if (t.leader())
            for (int j = 1; j <= ns; ++j)
              for (int i = 1; i <= ns; ++i) B(i, j) = h(ks + i - 1, ks + j - 1);
          t.sync();
          const int inf = lahqr(t, false, false, ns, 1, ns, B, Vec1<double>{&wr[ks], wr.s}, Vec1<double>{&wi[ks], wi.s},
                                1, 1, B);
          ks += inf;
          if (ks >= kbot) {
            double aa = h(kbot - 1, kbot - 1), cc = h(kbot, kbot - 1), bb = h(kbot - 1, kbot), dd = h(kbot, kbot), cs, sn;
            double r1, i1, r2, i2;
            lanv2(aa, bb, cc, dd, r1, i1, r2, i2, cs, sn);
            if (t.leader()) {
              wr[kbot - 1] = r1;
              wi[kbot - 1] = i1;
              wr[kbot] = r2;
              wi[kbot] = i2;
            }
            ks = kbot - 1;
          }
          t.sync();
        }
        if (t.leader()) {
          if (kbot - ks + 1 > ns) {
            // Sort by decreasing modulus; a bubble sort keeps conjugate pairs together.
            bool sorted = false;
            for (int k = kbot; k >= ks + 1 && !sorted; --k) {
              sorted = true;
              for (int i = ks; i <= k - 1; ++i)
                if (fabs(wr[i]) + fabs(wi[i]) < fabs(wr[i + 1]) + fabs(wi[i + 1])) {
                  sorted = false;
                  double sw = wr[i];
                  wr[i] = wr[i + 1];
                  wr[i + 1] = sw;
                  sw = wi[i];
                  wi[i] = wi[i + 1];
                  wi[i + 1] = sw;
                }
            }
          }
          // Pairs of real shifts and conjugate pairs.
          for (int i = kbot; i >= ks + 2; i -= 2)
            if (wi[i] != -wi[i - 1]) {
              double sw = wr[i];
              wr[i] = wr[i - 1];
              wr[i - 1] = wr[i - 2];
              wr[i - 2] = sw;
              sw = wi[i];
              wi[i] = wi[i - 1];
              wi[i - 1] = wi[i - 2];
              wi[i - 2] = sw;
            }
        }
        t.sync();
      }
      // Two real shifts: use the one nearer H(kbot, kbot) twice.
      if (kbot - ks + 1 == 2 && wi[kbot] == 0.0) {
        t.sync();
        if (t.leader()) {
          if (fabs(wr[kbot] - h(kbot, kbot)) < fabs(wr[kbot - 1] - h(kbot, kbot)))
            wr[kbot - 1] = wr[kbot];
          else
            wr[kbot] = wr[kbot - 1];
        }
      }
      t.sync();
      ns = ns < kbot - ks + 1 ? ns : kbot - ks + 1;
      ns -= ns % 2;
      ks = kbot - ns + 1;
      laqr_sweeps(wantt, wantz, n, ktop, kbot, ns, Vec1<double>{&wr[ks], wr.s}, Vec1<double>{&wi[ks], wi.s}, h, iloz,
                  ihiz, z, work);
    }
    ndfl = ld > 0 ? 1 : ndfl + 1;
  }
  return kbot < ilo ? 0 : kbot;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
