// One matrix of dhseqr: eigenvalues, Schur form and Schur vectors of an upper Hessenberg matrix,
// with LAPACK dhseqr's conventions for the small-matrix path (dlahqr).
#pragma once
#include "laqr.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

enum Compz { kCompzN = 0, kCompzI = 1, kCompzV = 2 };

// True when every element of the Hessenberg band of H(ilo:ihi, ilo:ihi) is finite.
template <class Team>
SGPU_HD bool hess_finite(const Team& t, int ilo, int ihi, Mat1<double> h) {
  double bad = 0.0;
  for (int j = t.first(ilo); j <= ihi; j += t.step())
    for (int i = ilo; i <= ihi && i <= j + 1; ++i)
      if (!finite(h(i, j))) bad = 1.0;
  return t.max(bad) == 0.0;
}

template <class Team>
SGPU_HD void set_identity(const Team& t, int n, Mat1<double> z) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) z(r, c) = (r == c) ? 1.0 : 0.0;
  t.sync();
}

// Returns info: 0, or i > 0 when the QR iteration failed and only eigenvalues 1:ilo-1 and i+1:n are
// valid. Non-finite input in the active block (ilo == ihi included): eigenvalues ilo..ihi are NaN,
// so are the Schur vectors that block would have changed (columns ilo..ihi of Z), and info = ihi.
// kMultishift: from order kLaqrNmin the multishift QR (laqr.hpp) as LAPACK's dhseqr, with
// laqr_work_size(n) doubles at laqr_work; otherwise the double-shift QR at every order.
template <bool kMultishift = false, class Team>
SGPU_HD int hseqr(const Team& t, bool wantt, int compz, int n, int ilo, int ihi, Mat1<double> h, Vec1<double> wr,
                  Vec1<double> wi, Mat1<double> z, double* laqr_work = nullptr) {
  if (n == 0) return 0;
  // Eigenvalues isolated by balancing.
  if (t.leader()) {
    for (int i = 1; i <= ilo - 1; ++i) {
      wr[i] = h(i, i);
      wi[i] = 0.0;
    }
    for (int i = ihi + 1; i <= n; ++i) {
      wr[i] = h(i, i);
      wi[i] = 0.0;
    }
  }
  if (compz == kCompzI) set_identity(t, n, z);
  t.sync();
  int info;
  if (!hess_finite(t, ilo, ihi, h)) {
    if (t.leader())
      for (int i = ilo; i <= ihi; ++i) wr[i] = wi[i] = NAN;
    if (compz != kCompzN)
      for (int c = t.first(ilo); c <= ihi; c += t.step())
        for (int r = 1; r <= n; ++r) z(r, c) = NAN;
    info = ihi;
  } else if (ilo == ihi) {
    if (t.leader()) {
      wr[ilo] = h(ilo, ilo);
      wi[ilo] = 0.0;
    }
    t.sync();
    return 0;
  } else {
    if constexpr (kMultishift) {
      if (n >= kLaqrNmin)
        info = laqr0(t, wantt, compz != kCompzN, n, ilo, ihi, h, wr, wi, ilo, ihi, z, laqr_work);
      else
        info = lahqr(t, wantt, compz != kCompzN, n, ilo, ihi, h, wr, wi, ilo, ihi, z);
    } else {
      info = lahqr(t, wantt, compz != kCompzN, n, ilo, ihi, h, wr, wi, ilo, ihi, z);
    }
  }
  // Clear out the trash below the subdiagonal, as dhseqr does, when T is wanted or on failure.
  if ((wantt || info != 0) && n > 2) {
    for (int c = t.first(1); c <= n - 2; c += t.step())
      for (int r = c + 2; r <= n; ++r) h(r, c) = 0.0;
  }
  t.sync();
  return info;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
