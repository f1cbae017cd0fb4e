// Balancing of a general matrix (LAPACK dgebal, job 'B': permute, then scale by powers of 2)
// and the back-transformation of eigenvectors (dgebak). The input is screened for NaN/Inf
// by the caller, so the scaling loop always terminates.
#pragma once
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

template <class Team, class T>
SGPU_HD void swap_vec(const Team& t, int n, Vec<T> x, Vec<T> y) {
  for (int i = t.first(0); i < n; i += t.step()) {
    T a = x[i];
    x[i] = y[i];
    y[i] = a;
  }
  t.sync();
}

// dgebal's scaling of row and column i from their 2-norms r and c over the active block, the
// largest moduli ra and ca, and the row's current scale si: false when no scaling is due, else
// true with the power of two f by which the column is multiplied (and the row divided).
SGPU_HD bool balance_factor(double c, double r, double ca, double ra, double si, double& f) {
  const double sclfac = 2.0, factor = 0.95;
  const double sfmin1 = Mach::safmin / Mach::ulp, sfmax1 = 1.0 / sfmin1;
  const double sfmin2 = sfmin1 * sclfac, sfmax2 = 1.0 / sfmin2;
  f = 1.0;
  if (c == 0.0 || r == 0.0) return false;  // guard against zero c or r due to underflow
  double g = r / sclfac;
  const double s = c + r;
  while (!(c >= g || dmax(f, dmax(c, ca)) >= sfmax2 || dmin(r, dmin(g, ra)) <= sfmin2)) {
    f *= sclfac;
    c *= sclfac;
    ca *= sclfac;
    r /= sclfac;
    g /= sclfac;
    ra /= sclfac;
  }
  g = c / sclfac;
  while (!(g < r || dmax(r, ra) >= sfmax2 || dmin(dmin(f, c), dmin(g, ca)) <= sfmin2)) {
    f /= sclfac;
    c /= sclfac;
    g /= sclfac;
    ca /= sclfac;
    r *= sclfac;
    ra *= sclfac;
  }
  // Now balance.
  if ((c + r) >= factor * s) return false;
  if (f < 1.0 && si < 1.0 && f * si <= sfmin1) return false;
  if (f > 1.0 && si > 1.0 && si >= sfmax1 / f) return false;
  return true;
}

template <class Team>
SGPU_HD void gebal(const Team& t, int n, Mat1<double> a, int& ilo, int& ihi, Vec1<double> scale) {
  int k = 1, l = n;
  if (n == 0) {
    ilo = 1;
    ihi = 0;
    return;
  }
  // Permutation: push rows that isolate an eigenvalue to the bottom ...
  bool found = true;
  while (found && l >= 1) {
    found = false;
    for (int j = l; j >= 1; --j) {
      bool zero_row = true;
      for (int i = 1; i <= l && zero_row; ++i)
        if (i != j && a(j, i) != 0.0) zero_row = false;
      if (!zero_row) continue;
      if (t.leader()) scale[l] = j;
      if (j != l) {
        t.sync();
        swap_vec(t, l, col(a, 1, j), col(a, 1, l));
        swap_vec(t, n - k + 1, row(a, j, k), row(a, l, k));
      }
      if (l == 1) {
        ilo = ihi = 1;
        t.sync();
        return;
      }
      --l;
      found = true;
      break;
    }
  }
  // ... and columns that isolate an eigenvalue to the left.
  found = true;
  while (found) {
    found = false;
    for (int j = k; j <= l; ++j) {
      bool zero_col = true;
      for (int i = k; i <= l && zero_col; ++i)
        if (i != j && a(i, j) != 0.0) zero_col = false;
      if (!zero_col) continue;
      if (t.leader()) scale[k] = j;
      if (j != k) {
        t.sync();
        swap_vec(t, l, col(a, 1, j), col(a, 1, k));
        swap_vec(t, n - k + 1, row(a, j, k), row(a, k, k));
      }
      ++k;
      found = true;
      break;
    }
  }
  if (t.leader())
    for (int i = k; i <= l; ++i) scale[i] = 1.0;
  t.sync();
  // Iterative scaling toward equal row and column norms.
  bool noconv = true;
  while (noconv) {
    noconv = false;
    for (int i = k; i <= l; ++i) {
      double c = nrm2(t, l - k + 1, col(a, k, i));
      double r = nrm2(t, l - k + 1, row(a, i, k));
      double ca = 0.0, ra = 0.0;
      for (int q = 1; q <= l; ++q) ca = dmax(ca, fabs(a(q, i)));
      for (int q = k; q <= n; ++q) ra = dmax(ra, fabs(a(i, q)));
      double f;
      if (!balance_factor(c, r, ca, ra, scale[i], f)) continue;
      const double si = scale[i];
      t.sync();
      if (t.leader()) scale[i] = si * f;
      noconv = true;
      scal(t, n - k + 1, 1.0 / f, row(a, i, k));
      scal(t, l, f, col(a, 1, i));
    }
  }
  ilo = k;
  ihi = l;
  t.sync();
}

// Undo the balancing on the rows of m eigenvectors v (right: rightv = true; left: false).
template <class Team>
SGPU_HD void gebak(const Team& t, bool rightv, int n, int ilo, int ihi, Vec1<double> scale, int m,
                   Mat1<double> v) {
  if (n == 0 || m == 0) return;
  if (ilo != ihi) {
    for (int i = ilo; i <= ihi; ++i) {
      double s = rightv ? scale[i] : 1.0 / scale[i];
      scal(t, m, s, row(v, i, 1));
    }
  }
  for (int ii = 1; ii <= n; ++ii) {
    int i = ii;
    if (i >= ilo && i <= ihi) continue;
    if (i < ilo) i = ilo - ii;
    int k = (int)scale[i];
    if (k == i) continue;
    swap_vec(t, m, row(v, i, 1), row(v, k, 1));
  }
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
