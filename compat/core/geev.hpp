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
inline namespace SGPU_CORE_ISA {

// Doubles of workspace one matrix of geev needs (blocked: geev<true>, see geev).
SGPU_HD int64_t geev_work(int n, bool blocked = false) {
  if (!blocked || n < kLaqrNmin) return 5 * (int64_t)n;
  const int64_t laqr = laqr_work_size(n), hrd = n > kGehrdTail + 1 ? gehrd_work_size(n) : 0;
  const int64_t evc = trevc_block_work(n), most = laqr > hrd ? laqr : hrd;
  return 5 * (int64_t)n + (most > evc ? most : evc);
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

// dgeev in three phases, which geev() below runs in turn and the GPU runs as kernels of their own
// (passing A, the vectors, wr, wi and a GeevCarry through device memory):
//   geev_reduce: finiteness, scaling, balancing, Hessenberg form and its orthogonal factor;
//   geev_schur:  the Schur form, its vectors and the eigenvalues (hseqr);
//   geev_vectors: eigenvectors, back-transformation, normalization, the eigenvalues unscaled.
// work: geev_work(n) doubles (kBlocked: geev_work(n, true)); its first n doubles (the
// balancing's scale) carry from geev_reduce to geev_vectors, the rest is scratch of each phase.
struct GeevCarry {
  int ilo = 0, ihi = 0;  // the balanced active block; ilo = 0: the input was not finite
  double anrm = 0.0;     // A's largest magnitude before scaling
};

// Phase 1. Input holding NaN/Inf: all outputs NaN, c.ilo = 0 (geev returns n). Otherwise A holds
// the Hessenberg form (and the reflectors below it) and vl (wantvl) or else vr (wantvr) its
// orthogonal factor; kBlocked (the team of one) reduces by panels from order kGehrdTail + 2.
template <bool kBlocked = false, class Team>
SGPU_HD void geev_reduce(const Team& t, bool wantvl, bool wantvr, int n, Mat1<double> a, Vec1<double> wr,
                         Vec1<double> wi, Mat1<double> vl, Mat1<double> vr, double* work, GeevCarry& c) {
  Vec1<double> scale{work, 1}, tau{work + n, 1}, xr{work + 3 * n, 1}, xi{work + 4 * n, 1};
  if (!all_finite(t, n, a)) {
    if (t.leader())
      for (int i = 1; i <= n; ++i) wr[i] = wi[i] = NAN;
    if (wantvl) fill_nan(t, n, vl);
    if (wantvr) fill_nan(t, n, vr);
    t.sync();
    c.ilo = 0;
    return;
  }
  // Scale A if its largest element is outside [smlnum, bignum].
  double anrm = 0.0;
  for (int j = t.first(1); j <= n; j += t.step())
    for (int r = 1; r <= n; ++r) anrm = dmax(anrm, fabs(a(r, j)));
  anrm = t.max(anrm);
  c.anrm = anrm;
  const double cscale = geev_scale_target(anrm);
  if (cscale != 0.0)
    for (int j = 1; j <= n; ++j) lascl(t, anrm, cscale, n, col(a, 1, j));
  gebal(t, n, a, c.ilo, c.ihi, scale);
  if (kBlocked && n > kGehrdTail + 1) {
    gehrd(n, c.ilo, c.ihi, a, tau, work + 5 * n);
    if (wantvl || wantvr) orghr_blocked(n, c.ilo, c.ihi, a, tau, wantvl ? vl : vr, work + 5 * n);
    return;
  }
  gehd2(t, n, c.ilo, c.ihi, a, tau, xr, xi);  // xr and xi are free until the eigenvectors
  if (wantvl) orghr(t, n, c.ilo, c.ihi, a, tau, vl);
  else if (wantvr) orghr(t, n, c.ilo, c.ihi, a, tau, vr);
}

// Phase 2 (c.ilo > 0): returns info as dgeev. With vectors A becomes the Schur form T and the
// orthogonal factor in vl (or vr) the Schur vectors, copied to vr when both are wanted.
template <bool kMultishift = false, class Team>
SGPU_HD int geev_schur(const Team& t, bool wantvl, bool wantvr, int n, Mat1<double> a, Vec1<double> wr,
                       Vec1<double> wi, Mat1<double> vl, Mat1<double> vr, double* work, const GeevCarry& c) {
  int info;
  if (wantvl) {
    info = hseqr<kMultishift>(t, true, kCompzV, n, c.ilo, c.ihi, a, wr, wi, vl, work + 5 * n);
    if (wantvr) copy_mat(t, n, vl, vr);
  } else if (wantvr) {
    info = hseqr<kMultishift>(t, true, kCompzV, n, c.ilo, c.ihi, a, wr, wi, vr, work + 5 * n);
  } else {
    info = hseqr<kMultishift>(t, false, kCompzN, n, c.ilo, c.ihi, a, wr, wi, vr, work + 5 * n);
  }
  return info;
}

// Phase 3 (c.ilo > 0, info from geev_schur): the eigenvectors when info = 0, and the valid
// eigenvalues unscaled. work's first n doubles hold geev_reduce's scale.
template <bool kBlocked = false, class Team>
SGPU_HD void geev_vectors(const Team& t, bool wantvl, bool wantvr, int n, Mat1<double> a, Vec1<double> wr,
                          Vec1<double> wi, Mat1<double> vl, Mat1<double> vr, double* work, const GeevCarry& c,
                          int info) {
  Vec1<double> scale{work, 1}, tau{work + n, 1}, wn{work + 2 * n, 1}, xr{work + 3 * n, 1}, xi{work + 4 * n, 1};
  if (info == 0) {
    // (tau is free once the Schur vectors are formed.) kBlocked: the back-transformation by
    // blocks of vectors from order kLaqrNmin.
    if constexpr (kBlocked) {
      const bool blocked = n >= kLaqrNmin;
      TrevcBlock right(n, true, vr, work + 5 * n), left(n, false, vl, work + 5 * n);
      if (wantvr) trevc_right(t, n, a, vr, wn, xr, xi, tau, blocked && vr.rs == 1 ? &right : nullptr);
      if (wantvl) trevc_left(t, n, a, vl, wn, xr, xi, tau, blocked && vl.rs == 1 ? &left : nullptr);
    } else {
      if (wantvr) trevc_right(t, n, a, vr, wn, xr, xi, tau);
      if (wantvl) trevc_left(t, n, a, vl, wn, xr, xi, tau);
    }
    if (wantvl) {
      gebak(t, false, n, c.ilo, c.ihi, scale, n, vl);
      normalize_vectors(t, n, vl, wi, xr);
    }
    if (wantvr) {
      gebak(t, true, n, c.ilo, c.ihi, scale, n, vr);
      normalize_vectors(t, n, vr, wi, xr);
    }
  }
  // Undo scaling of the valid eigenvalues.
  const double cscale = geev_scale_target(c.anrm);
  if (cscale != 0.0) {
    lascl(t, cscale, c.anrm, n - info, wr.from(info + 1));
    lascl(t, cscale, c.anrm, n - info, wi.from(info + 1));
    if (info > 0) {
      lascl(t, cscale, c.anrm, c.ilo - 1, wr.from(1));
      lascl(t, cscale, c.anrm, c.ilo - 1, wi.from(1));
    }
  }
}

// Returns info as dgeev: 0, or i > 0 when the QR iteration failed; eigenvalues i+1:n are valid.
// Input holding NaN/Inf: all outputs are NaN and info = n. kBlocked (the team of one): LAPACK's
// algorithms for larger orders, the blocked Hessenberg reduction and its orthogonal factor (from
// order kGehrdTail + 2) and hseqr's multishift QR (from order kLaqrNmin), as LAPACK's dgeev (work
// then holds geev_work(n, true) doubles). Without vectors
// the work is dead before wr and wi are first written, so it may overlap them (the GPU's
// shared-memory kernels place it there).
template <bool kBlocked = false, class Team>
SGPU_HD int geev(const Team& t, bool wantvl, bool wantvr, int n, Mat1<double> a, Vec1<double> wr, Vec1<double> wi,
                 Mat1<double> vl, Mat1<double> vr, double* work) {
  if (n == 0) return 0;
  GeevCarry c;
  geev_reduce<kBlocked>(t, wantvl, wantvr, n, a, wr, wi, vl, vr, work, c);
  if (c.ilo == 0) return n;
  const int info = geev_schur<kBlocked>(t, wantvl, wantvr, n, a, wr, wi, vl, vr, work, c);
  geev_vectors<kBlocked>(t, wantvl, wantvr, n, a, wr, wi, vl, vr, work, c, info);
  return info;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
