// All eigenvalues of a real symmetric tridiagonal matrix by bisection on Sturm counts (the method
// of LAPACK's dstebz with RANGE = 'A', ABSTOL = 0): eigenvalue i is the i-th smallest, found on its
// own, so a team's members take one each: no serial chain as in QL/QR (dsterf), whose n^2 dependent
// steps dominate a GPU block's time (docs/performance.md, "zheev on the GPU").
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// 1/q for a pivot: the reciprocal in range (on the GPU two Newton steps on the special-function
// unit's estimate, within an ulp or two), else a division (|q| near pivmin, or huge).
SGPU_HD double pivot_rcp(double q) {
  const double a = fabs(q);
  return a >= 1e-280 && a <= 1e280 ? rcp_in_range(q) : 1.0 / q;
}

// Number of eigenvalues of T (d[1..n], e[1..n-1]) less than x, for K shifts x[0..K) at once (K
// independent recurrences side by side: the latency of one pivot's reciprocal hides behind the
// others'): negative pivots of the LDL^T factorization of T - x I, each pivot kept at least pivmin
// in magnitude (dstebz/dlaebz). Also Newton's step -det/det' for det(T - x I) at each shift, from
// the pivots' derivatives: det = prod q_j, so det'/det = sum q_j'/q_j, with
// q_j' = -1 + e_{j-1}^2 q_{j-1}' / q_{j-1}^2. The derivatives hang off the pivots' chain (a few
// multiply-adds beside each reciprocal) and do not change the counts. The step is meaningful only
// where the shift is not near a pivot's pole; bisect_all uses it only within its safeguards.
template <int K>
SGPU_HD void sturm_counts(int n, Vec1<double> d, Vec1<double> e, const double* x, double pivmin, int* count,
                          double* step) {
  double q[K], dq[K], s[K];
  for (int k = 0; k < K; ++k) {
    q[k] = d[1] - x[k];
    if (fabs(q[k]) < pivmin) q[k] = -pivmin;
    count[k] = q[k] < 0.0;
    dq[k] = -1.0;
    s[k] = 0.0;
  }
  for (int j = 2; j <= n; ++j) {
    const double ej = e[j - 1], e2 = ej * ej, dj = d[j];
    for (int k = 0; k < K; ++k) {
      const double r = pivot_rcp(q[k]), dr = dq[k] * r;
      s[k] += dr;
      // (e^2 q'/q) / q: q'/q^2 alone overflows for pivots below about 1e-154, which T near the
      // bottom of heev_scale's range (1e-146) reaches beside an eigenvalue; this way round the
      // factors stay within range wherever q' itself does.
      dq[k] = (e2 * dr) * r - 1.0;
      q[k] = (dj - x[k]) - e2 * r;
      if (fabs(q[k]) < pivmin) q[k] = -pivmin;
      count[k] += q[k] < 0.0;
    }
  }
  for (int k = 0; k < K; ++k) step[k] = -1.0 / (s[k] + dq[k] * pivot_rcp(q[k]));
}

// w[1..n] <- the eigenvalues of T, ascending. Every member computes the bounds; member-owned
// eigenvalues are narrowed until the interval is within dstebz's tolerance
// max(ulp * ||T||, 2 ulp * |lambda|, pivmin); the leader then restores the order that ties may break
// in the last bit. As for dstebz, the caller scales T first (heev_scale brings ||A|| into
// [sqrt(safmin/ulp), 1/sqrt(sqrt(safmin))], about [1e-146, 8e76]): e^2 must not overflow, and pivmin
// (safmin-sized) must be negligible against ||T||. Finite input assumed (screened by the callers).
// K: eigenvalues a member narrows side by side (the small-n zheev, whose members own n / P <= 2
// of them, takes 2; the block path, one or two per thread, 1).
//
// How an interval [lo, hi] narrows: by bisection (dstebz's method) until it holds eigenvalue i
// alone (count(lo) = i - 1, count(hi) = i), then by Newton's steps on det(T - x I), safeguarded as
// rtsafe: a step is taken only if it lands inside the interval and is at most half the previous
// one, else the midpoint. Every shift's count moves one end, so the interval stays a bracket of
// eigenvalue i, and the answer is its midpoint once it is within the tolerance, as in bisection:
// the accuracy is the same, reached in fewer counts (about 52 halvings an eigenvalue otherwise).
// Where Newton's step falls below a quarter of the tolerance, the shift overshoots it by that much,
// so that the count lands on the far side of the eigenvalue and closes the bracket.
//
// grid (optional, min(n, max(K p, 32)) ints the team shares; p the team's size): first the team
// counts at that many points evenly inside [gl, gu], a member's share side by side, and each
// eigenvalue starts from the grid's tightest bracket: the last point whose count is below its
// index and the first point above that one whose count reaches it. The first halvings, which
// every eigenvalue would take on its own, are shared: about log2 of the points fewer counts an
// eigenvalue. Without it (null) every interval starts at [gl, gu]. The eigenvalues depend on
// whether a grid is given and on its size, so callers whose values must agree pass the same.
template <int K = 1, class Team>
SGPU_HD void bisect_all(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w,
                        Vec1<int> grid = Vec1<int>{nullptr, 1}) {
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
  // A member's eigenvalues K at a time, narrowed side by side (a finished one idles, its count
  // still taken, until the group is done).
  const int stride = t.step();
  // The shared grid: point g (1..ng) at gl + g (gu - gl) / (ng + 1), its count in grid[g].
  const int gmax = K * stride > 32 ? K * stride : 32, ng = !grid.p ? 0 : gmax < n ? gmax : n;
  const double gstep = (gu - gl) / (ng + 1);
  if (ng > 0) {
    for (int g0 = t.first(1); g0 <= ng; g0 += K * stride) {
      double x[K], step[K];
      int cnt[K];
      for (int k = 0; k < K; ++k) x[k] = gl + (g0 + k * stride) * gstep;
      sturm_counts<K>(n, d, e, x, pivmin, cnt, step);
      for (int k = 0; k < K; ++k)
        if (g0 + k * stride <= ng) grid[g0 + k * stride] = cnt[k];
    }
    t.sync();
  }
  for (int i0 = t.first(1); i0 <= n; i0 += K * stride) {
    double lo[K], hi[K], x[K], step[K], last[K];
    int clo[K], chi[K], cnt[K], want[K];
    bool live[K];
    for (int k = 0; k < K; ++k) {
      want[k] = i0 + k * stride;
      lo[k] = gl;
      hi[k] = gu;
      clo[k] = 0;
      chi[k] = n;
      int glo = 0;  // the grid's bracket: its last point below want[k], then the first above that reaches it
      for (int g = 1; g <= ng; ++g)
        if (grid[g] < want[k]) glo = g;
      if (glo > 0) {
        lo[k] = gl + glo * gstep;
        clo[k] = grid[glo];
      }
      for (int g = glo + 1; g <= ng; ++g)
        if (grid[g] >= want[k]) {
          hi[k] = gl + g * gstep;
          chi[k] = grid[g];
          break;
        }
      live[k] = want[k] <= n;
      x[k] = 0.0;
      step[k] = NAN;  // no Newton step yet
      last[k] = INFINITY;
    }
    // 64 halvings take any interval of doubles below the tolerance, and at most every other shift
    // is Newton's; the bound only guards a hang.
    for (int it = 0; it < 160; ++it) {
      bool any = false;
      for (int k = 0; k < K; ++k) {
        const double tol = dmax(dmax(atol, pivmin), rtol * dmax(fabs(lo[k]), fabs(hi[k])));
        if (live[k] && hi[k] - lo[k] <= tol) live[k] = false;
        const double mid = 0.5 * (lo[k] + hi[k]);
        double p = mid;
        const bool alone = clo[k] == want[k] - 1 && chi[k] == want[k];
        // No step while it is NaN (none yet), or 0 (det' overflowed: a step of 0 would only creep
        // by the overshoot below and leave the bracket wide).
        if (alone && step[k] != 0.0 && fabs(step[k]) <= 0.5 * last[k]) {
          const double xn = x[k] + step[k];
          const double pn = fabs(step[k]) <= 0.25 * tol ? xn + copysign(0.25 * tol, step[k]) : xn;
          if (pn > lo[k] && pn < hi[k]) p = pn;
        }
        if (p == mid) last[k] = INFINITY;  // a bisection: the next Newton step starts afresh
        else last[k] = fabs(step[k]);
        if (live[k] && (p <= lo[k] || p >= hi[k])) live[k] = false;
        x[k] = p;
        any = any || live[k];
      }
      if (!any) break;
      sturm_counts<K>(n, d, e, x, pivmin, cnt, step);
      for (int k = 0; k < K; ++k)
        if (live[k]) {
          if (cnt[k] >= want[k]) {
            hi[k] = x[k];
            chi[k] = cnt[k];
          } else {
            lo[k] = x[k];
            clo[k] = cnt[k];
          }
        }
    }
    for (int k = 0; k < K; ++k)
      if (want[k] <= n) w[want[k]] = 0.5 * (lo[k] + hi[k]);
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

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
