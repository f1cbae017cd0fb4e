// One matrix of dgeev: balance, Hessenberg reduction, Schur form by double-shift QR, eigenvectors
// by back substitution, back-transformation and LAPACK's normalization (unit 2-norm, largest
// component real).
#pragma once
#include "balance.hpp"
#include "hessenberg.hpp"
#include "hseqr.hpp"
#include "steqr.hpp"
#include "trevc.hpp"

namespace sgpu {
namespace core {

// Doubles of workspace one matrix of geev needs (kMultishift: see geev).
SGPU_HD int64_t geev_work(int n, bool multishift = false) {
  return 5 * (int64_t)n + (multishift && n >= kLaqrNmin ? laqr_work_size(n) : 0);
}

template <class Team>
SGPU_HD void copy_mat(const Team& t, int n, Mat1<double> src, Mat1<double> dst) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) dst(r, c) = src(r, c);
  t.sync();
}

// Normalize eigenvector columns to unit 2-norm; for a complex pair, rotate so the component of
// largest modulus is real (its imaginary part exactly zero), as dgeev does. tmp: n doubles.
template <class Team>
SGPU_HD void normalize_vectors(const Team& t, int n, Mat1<double> v, Vec1<double> wi, Vec1<double> tmp) {
  for (int i = 1; i <= n; ++i) {
    if (wi[i] == 0.0) {
      double nrm = nrm2(t, n, col(v, 1, i));
      t.sync();
      scal(t, n, 1.0 / nrm, col(v, 1, i));
    } else if (wi[i] > 0.0) {
      double n1 = nrm2(t, n, col(v, 1, i)), n2 = nrm2(t, n, col(v, 1, i + 1));
      double scl = 1.0 / lapy2(n1, n2);
      t.sync();
      scal(t, n, scl, col(v, 1, i));
      scal(t, n, scl, col(v, 1, i + 1));
      for (int k = t.first(1); k <= n; k += t.step()) tmp[k] = v(k, i) * v(k, i) + v(k, i + 1) * v(k, i + 1);
      t.sync();
      int kmax = 1;  // first index of the largest modulus (idamax)
      for (int k = 2; k <= n; ++k)
        if (tmp[k] > tmp[kmax]) kmax = k;
      double cs, sn, r;
      lartg(v(kmax, i), v(kmax, i + 1), cs, sn, r);
      t.sync();
      for (int k = t.first(1); k <= n; k += t.step()) {
        double x = v(k, i), y = v(k, i + 1);
        v(k, i) = cs * x + sn * y;
        v(k, i + 1) = cs * y - sn * x;
      }
      t.sync();
      if (t.leader()) v(kmax, i + 1) = 0.0;
      t.sync();
    }
  }
}

template <class Team>
SGPU_HD bool all_finite(const Team& t, int n, Mat1<double> a) {
  double bad = 0.0;
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r)
      if (!finite(a(r, c))) bad = 1.0;
  return t.max(bad) == 0.0;
}

template <class Team>
SGPU_HD void fill_nan(const Team& t, int n, Mat1<double> a) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) a(r, c) = NAN;
  t.sync();
}

// dgeev's scaling: the norm to which a matrix of max-abs norm anrm is scaled (LAPACK's smlnum or
// bignum), or 0 when anrm lies in [smlnum, bignum] (or is 0) and no scaling is due.
SGPU_HD double geev_scale_target(double anrm) {
  const double smlnum = sqrt(Mach::safmin) / Mach::ulp, bignum = 1.0 / smlnum;
  if (anrm > 0.0 && anrm < smlnum) return smlnum;
  if (anrm > bignum) return bignum;
  return 0.0;
}

// Returns info as dgeev: 0, or i > 0 when the QR iteration failed; eigenvalues i+1:n are valid.
// Input holding NaN/Inf: all outputs are NaN and info = n. kMultishift: hseqr's multishift QR from
// order kLaqrNmin, as LAPACK's dgeev (work then holds geev_work(n, true) doubles). Without vectors
// the work is dead before wr and wi are first written, so it may overlap them (the GPU's
// shared-memory kernels place it there).
template <bool kMultishift = false, class Team>
SGPU_HD int geev(const Team& t, bool wantvl, bool wantvr, int n, Mat1<double> a, Vec1<double> wr, Vec1<double> wi,
                 Mat1<double> vl, Mat1<double> vr, double* work) {
  if (n == 0) return 0;
  Vec1<double> scale{work, 1}, tau{work + n, 1}, wn{work + 2 * n, 1}, xr{work + 3 * n, 1}, xi{work + 4 * n, 1};
  if (!all_finite(t, n, a)) {
    if (t.leader())
      for (int i = 1; i <= n; ++i) wr[i] = wi[i] = NAN;
    if (wantvl) fill_nan(t, n, vl);
    if (wantvr) fill_nan(t, n, vr);
    t.sync();
    return n;
  }
  // Scale A if its largest element is outside [smlnum, bignum].
  double anrm = 0.0;
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) anrm = dmax(anrm, fabs(a(r, c)));
  anrm = t.max(anrm);
  const double cscale = geev_scale_target(anrm);
  const bool scalea = cscale != 0.0;
  if (scalea)
    for (int c = 1; c <= n; ++c) lascl(t, anrm, cscale, n, col(a, 1, c));

  int ilo, ihi;
  gebal(t, n, a, ilo, ihi, scale);
  gehd2(t, n, ilo, ihi, a, tau, xr, xi);  // xr and xi are free until the eigenvectors
  int info;
  if (wantvl) {
    orghr(t, n, ilo, ihi, a, tau, vl);
    info = hseqr<kMultishift>(t, true, kCompzV, n, ilo, ihi, a, wr, wi, vl, work + 5 * n);
    if (wantvr) copy_mat(t, n, vl, vr);
  } else if (wantvr) {
    orghr(t, n, ilo, ihi, a, tau, vr);
    info = hseqr<kMultishift>(t, true, kCompzV, n, ilo, ihi, a, wr, wi, vr, work + 5 * n);
  } else {
    info = hseqr<kMultishift>(t, false, kCompzN, n, ilo, ihi, a, wr, wi, vr, work + 5 * n);
  }
  if (info == 0) {
    // (tau is free once the Schur vectors are formed.)
    if (wantvr) trevc_right(t, n, a, vr, wn, xr, xi, tau);
    if (wantvl) trevc_left(t, n, a, vl, wn, xr, xi, tau);
    if (wantvl) {
      gebak(t, false, n, ilo, ihi, scale, n, vl);
      normalize_vectors(t, n, vl, wi, xr);
    }
    if (wantvr) {
      gebak(t, true, n, ilo, ihi, scale, n, vr);
      normalize_vectors(t, n, vr, wi, xr);
    }
  }
  // Undo scaling of the valid eigenvalues.
  if (scalea) {
    lascl(t, cscale, anrm, n - info, wr.from(info + 1));
    lascl(t, cscale, anrm, n - info, wi.from(info + 1));
    if (info > 0) {
      lascl(t, cscale, anrm, ilo - 1, wr.from(1));
      lascl(t, cscale, anrm, ilo - 1, wi.from(1));
    }
  }
  return info;
}

}  // namespace core
}  // namespace sgpu
