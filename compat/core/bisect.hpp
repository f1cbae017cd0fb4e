// All eigenvalues of a real symmetric tridiagonal matrix by bisection on Sturm counts (the method
// of LAPACK's dstebz with RANGE = 'A', ABSTOL = 0): eigenvalue i is the i-th smallest, found on its
// own, so a team's members take one each: no serial chain as in QL/QR (dsterf), whose n^2 dependent
// steps dominate a GPU block's time (docs/performance.md, "zheev on the GPU").
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {

// Number of eigenvalues of T (d[1..n], e[1..n-1]) less than x: negative pivots of the LDL^T
// factorization of T - x I, each pivot kept at least pivmin in magnitude (dstebz/dlaebz).
SGPU_HD int sturm_count(int n, Vec1<double> d, Vec1<double> e, double x, double pivmin) {
  double q = d[1] - x;
  if (fabs(q) < pivmin) q = -pivmin;
  int count = q < 0.0;
  for (int j = 2; j <= n; ++j) {
    const double ej = e[j - 1];
    q = (d[j] - x) - (ej * ej) / q;
    if (fabs(q) < pivmin) q = -pivmin;
    count += q < 0.0;
  }
  return count;
}

// w[1..n] <- the eigenvalues of T, ascending. Every member computes the bounds; member-owned
// eigenvalues are bisected until the interval is within dstebz's tolerance
// max(ulp * ||T||, 2 ulp * |lambda|, pivmin); the leader then restores the order that ties may break
// in the last bit. As for dstebz, the caller scales T first (zheev brings ||A|| into
// [sqrt(safmin/ulp), sqrt(ulp/safmin)], about [1e-146, 1e146]): e^2 must not overflow, and pivmin
// (safmin-sized) must be negligible against ||T||. Finite input assumed (screened by the callers).
template <class Team>
SGPU_HD void bisect_all(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w) {
  // Gershgorin interval and the pivot threshold, as dstebz.
  double gl = d[1], gu = d[1], emax2 = 0.0;
  for (int j = 1; j <= n; ++j) {
    const double off = (j > 1 ? fabs(e[j - 1]) : 0.0) + (j < n ? fabs(e[j]) : 0.0);
    gl = dmin(gl, d[j] - off);
    gu = dmax(gu, d[j] + off);
    if (j < n) emax2 = dmax(emax2, e[j] * e[j]);
  }
  const double pivmin = Mach::safmin * dmax(1.0, emax2);
  const double tnorm = dmax(fabs(gl), fabs(gu));
  if (tnorm == 0.0) {  // T = 0: exact zeros, not pivmin-sized residue of the bisection
    for (int i = t.first(1); i <= n; i += t.step()) w[i] = 0.0;
    t.sync();
    return;
  }
  const double fudge = 2.1;  // dstebz's widening of the interval
  gl -= fudge * tnorm * Mach::ulp * n + fudge * 2.0 * pivmin;
  gu += fudge * tnorm * Mach::ulp * n + fudge * 2.0 * pivmin;
  const double atol = Mach::ulp * tnorm, rtol = 2.0 * Mach::ulp;
  for (int i = t.first(1); i <= n; i += t.step()) {
    double lo = gl, hi = gu;
    // 64 halvings take any interval of doubles below the tolerance; the bound only guards a hang.
    for (int it = 0; it < 128; ++it) {
      if (hi - lo <= dmax(dmax(atol, pivmin), rtol * dmax(fabs(lo), fabs(hi)))) break;
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      if (sturm_count(n, d, e, mid, pivmin) >= i)
        hi = mid;
      else
        lo = mid;
    }
    w[i] = 0.5 * (lo + hi);
  }
  t.sync();
  if (t.leader())
    for (int i = 2; i <= n; ++i) {
      const double x = w[i];
      int j = i - 1;
      for (; j >= 1 && w[j] > x; --j) w[j + 1] = w[j];
      w[j + 1] = x;
    }
  t.sync();
}

}  // namespace core
}  // namespace sgpu
