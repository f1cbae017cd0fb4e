// Eigenvectors of a real symmetric tridiagonal matrix by inverse iteration, the method of LAPACK's
// dstein (with dlagtf's pivoted factorization and dlagts's guarded solve), for all n eigenvalues at
// once, as bisect_all delivers them (ascending). Every eigenvector is found on its own, from its
// eigenvalue, in a few O(n) solves; only eigenvalues closer than dstein's 1e-3 ||T|| form a cluster,
// whose vectors are reorthogonalized in order by modified Gram-Schmidt. A team's members therefore
// take whole clusters each and need no synchronization until the end: the QL/QR chain (dsteqr)
// runs n^2 dependent rotations through one member instead (docs/tuning.md, "zheev, small orders").
//
// stein_all (unless told otherwise) tries each eigenvector first from one twisted factorization of
// T - x I (stein_twisted: the method of dstemr's dlar1v, applied to T itself: the D+ and D-
// recurrences, the twist index r where |gamma_r| is least, z by products outward from z_r = 1),
// about one solve's work instead of dstein's three or more. It is kept only if its residual,
// recomputed against T, is below kTwistTol eps ||z|| min(||T||, n gap), so that its angle to the
// true eigenvector stays within kTwistTol n eps (gap: the distance to the nearest other eigenvalue
// of the block); otherwise dstein's iteration finds that vector, and the rest of its cluster, as
// dstein would.
//
// Where this differs from dstein, and why:
// - The start vector of eigenvector j is a hash of (j, i) in [-1, 1) instead of dlarnv's stream,
//   so that it does not depend on which member computes j, or when.
// - The factorization is formed again with each solve, fused with the forward substitution: a
//   member then keeps two diagonals (2 n doubles) and the interchanges (a bit a row), not dlagtf's
//   five arrays; the arithmetic is the same.
#pragma once
#include "bisect.hpp"
#include "steqr.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Doubles of scratch one member needs: the factor's two stored diagonals (2 n) and its row
// interchanges, 32 rows to a word (each word in a double's room).
SGPU_HD int64_t stein_member_work(int n) { return 2 * (int64_t)n + (n + 31) / 32; }
// Doubles of scratch one member needs for the twisted vectors alone (stein_twisted): the pivots.
SGPU_HD int64_t stein_twist_member_work(int n) { return n; }

// Element i of the start vector of eigenvector j, in [-1, 1): splitmix64 of (j, i).
SGPU_HD double stein_start(int j, int i) {
  uint64_t z = (((uint64_t)(uint32_t)j << 32) | (uint32_t)i) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(int64_t)z * 0x1p-63;
}

// a / b by the reciprocal where b lies in its range (see rcp_in_range), else by a division.
SGPU_HD double stein_div(double a, double b) {
  const double m = fabs(b);
  return m >= 1e-280 && m <= 1e280 ? a * rcp_in_range(b) : a / b;
}

// A member's scratch: the U factor's diagonal u and first superdiagonal v where a row was not
// interchanged (an interchanged row of U is (e_k, d_{k+1} - x, e_{k+1}), read back from T), and the
// interchange bits.
struct SteinScratch {
  Vec1<double> u, v;
  Vec1<uint32_t> piv;  // word w (1-based) holds rows 32 (w - 1) + 1 .. 32 w
};
// Member `rank`'s scratch among ps interleaved ones (element k of member m at
// scratch[(k - 1) ps + m]; stein_member_work(n) doubles each).
SGPU_HD SteinScratch stein_member_scratch(double* scratch, int n, int ps, int rank) {
  return SteinScratch{Vec1<double>{scratch + rank, ps}, Vec1<double>{scratch + (int64_t)n * ps + rank, ps},
                      Vec1<uint32_t>{reinterpret_cast<uint32_t*>(scratch + 2 * (int64_t)n * ps + rank), 2 * ps}};
}

// Row k of the back substitution's operands: U's diagonal u_k, the right-hand side y_k, U's first
// superdiagonal v_k (k < n) and, where row k was interchanged, its second, e_{k+1}.
struct SteinRow {
  double u = 0.0, r = 0.0, v = 0.0, e = 0.0;
  bool sw = false;
};
SGPU_HD SteinRow stein_row(int n, Vec1<double> e, Vec1<double> y, const SteinScratch& s, int k) {
  SteinRow w;
  w.u = s.u[k];
  w.r = y[k];
  if (k < n) w.v = s.v[k];
  w.sw = k + 1 < n && ((s.piv[((k - 1) >> 5) + 1] >> ((k - 1) & 31)) & 1u);
  if (w.sw) w.e = e[k + 1];
  return w;
}

// One inverse-iteration solve in place of y: y <- (T - x I)^{-1} (s y), with dstein's scaling
// s = n onenrm max(ulp, |u_nn|) / ||y||_inf of the right-hand side. The LU factorization of T - x I
// with dlagtf's scaled partial pivoting is formed row by row together with the forward
// substitution (P L^{-1} y); s, which needs the last pivot u_nn, is applied in the back
// substitution. That perturbs a pivot, as dlagts with job = -1, only where the quotient would
// overflow: by dlagts's tolerance (ulp-sized against U's largest entry), doubled until it fits.
template <int kAhead = 1>
SGPU_HD void stein_solve(int n, Vec1<double> d, Vec1<double> e, double x, double onenrm, Vec1<double> y,
                         const SteinScratch& s) {
  // Forward: the current row k is (ak, bk) in columns k, k + 1; row k + 1 is T's.
  double ak = d[1] - x, bk = e[1], scale1 = fabs(ak) + fabs(bk), yk = y[1];
  double ymax = fabs(yk), umax = 0.0;
  uint32_t word = 0;
  for (int k = 1; k < n; ++k) {
    const double ak1 = d[k + 1] - x, ek = e[k], bk1 = k + 1 < n ? e[k + 1] : 0.0;
    const double scale2 = fabs(ek) + fabs(ak1) + fabs(bk1), yk1 = y[k + 1];
    ymax = dmax(ymax, fabs(yk1));
    // dlagtf interchanges where |e_k| / scale2 > |a_k| / scale1 (here cross-multiplied; a zero
    // a_k with e_k nonzero always interchanges). Both cases by selects, not branches: a team's
    // members solve for different shifts, whose interchanges differ row by row.
    const bool elim = ek != 0.0;  // else row k + 1 stays T's
    const bool swap = elim && (ak == 0.0 || fabs(ek) * scale1 > fabs(ak) * scale2);
    // the multiplier: a_k / e_k with the interchange, e_k / a_k without
    const double c = stein_div(swap ? ak : ek, swap ? ek : elim ? ak : 1.0);
    s.u[k] = swap ? ek : ak;
    s.v[k] = swap ? ak1 : bk;
    umax = dmax(umax, swap ? dmax(dmax(fabs(ek), fabs(ak1)), fabs(bk1)) : dmax(fabs(ak), fabs(bk)));
    word |= swap ? 1u << ((k - 1) & 31) : 0u;
    y[k] = swap ? yk1 : yk;
    const double an = swap ? bk - c * ak1 : elim ? ak1 - c * bk : ak1;
    const double yn = swap ? yk - c * yk1 : elim ? yk1 - c * yk : yk1;
    bk = swap ? -c * bk1 : bk1;
    scale1 = swap ? scale1 : scale2;
    ak = an;
    yk = yn;
    if (((k - 1) & 31) == 31 || k == n - 1) {
      s.piv[((k - 1) >> 5) + 1] = word;
      word = 0;
    }
  }
  s.u[n] = ak;
  y[n] = yk;
  umax = dmax(umax, fabs(ak));
  const double sc = n * onenrm * dmax(Mach::ulp, fabs(ak)) / ymax;
  double tol = umax * Mach::eps;
  if (tol == 0.0) tol = Mach::eps;
  const double bignum = 1.0 / Mach::safmin;
  // Back substitution, x_{k+1} and x_{k+2} kept in x1 and x2. Row k's operands are loaded kAhead
  // rows before row k is solved: the rows form a chain of dependent divisions, and the scratch may
  // sit in global memory, whose latency would otherwise add to every link (the compiler cannot
  // hoist the loads itself: y's stores might alias them). How far ahead pays depends on the
  // caller's occupancy and where its scratch lies (the GPU's: cuda/tuning.hpp).
  static_assert(kAhead >= 1, "at least the next row");
  double x1 = 0.0, x2 = 0.0;
  SteinRow q[kAhead];
  for (int i = 0; i < kAhead; ++i) q[i] = n - i >= 1 ? stein_row(n, e, y, s, n - i) : SteinRow{};
  for (int k = n; k >= 1; --k) {
    const SteinRow cur = q[0];
    for (int i = 0; i + 1 < kAhead; ++i) q[i] = q[i + 1];
    if (k - kAhead >= 1) q[kAhead - 1] = stein_row(n, e, y, s, k - kAhead);
    double temp = sc * cur.r;
    if (k < n) {
      temp -= cur.v * x1;
      if (cur.sw) temp -= cur.e * x2;
    }
    double a = cur.u, pert = copysign(tol, a);
    for (;;) {
      const double absa = fabs(a);
      if (absa < 1.0) {
        if (absa < Mach::safmin) {
          if (absa == 0.0 || fabs(temp) * Mach::safmin > absa) {
            a += pert;
            pert *= 2.0;
            continue;
          }
          temp *= bignum;
          a *= bignum;
        } else if (fabs(temp) > absa * bignum) {
          a += pert;
          pert *= 2.0;
          continue;
        }
      }
      break;
    }
    const double xk = stein_div(temp, a);
    y[k] = xk;
    x2 = x1;
    x1 = xk;
  }
}

// Eigenvector j (column j of z) for the shift xj, as dstein: random start, up to MAXITS solves,
// each followed by modified Gram-Schmidt against the cluster's earlier vectors z(:, g0..j-1);
// accepted after two more solves once the iterate's max norm reaches sqrt(0.1 / n), then scaled to
// unit 2-norm with its largest entry positive. Returns false if it never reached that norm (the
// vector is still stored, as dstein does).
template <int kAhead = 1>
SGPU_HD bool stein_vector(int n, Vec1<double> d, Vec1<double> e, double xj, double onenrm, int j, int g0,
                          Mat1<double> z, const SteinScratch& s) {
  const Vec1<double> y{&z(1, j), z.rs};
  for (int i = 1; i <= n; ++i) y[i] = stein_start(j, i);
  const double dtpcrt = sqrt(0.1 / n);
  const int extra = 2;
  int nrmchk = 0;
  bool ok = false;
  for (int its = 1; its <= SGPU_CORE_STEIN_MAXITS; ++its) {
    stein_solve<kAhead>(n, d, e, xj, onenrm, y, s);
    for (int g = g0; g < j; ++g) {
      double dot = 0.0;
      for (int i = 1; i <= n; ++i) dot += y[i] * z(i, g);
      for (int i = 1; i <= n; ++i) y[i] -= dot * z(i, g);
    }
    double nrm = 0.0;
    for (int i = 1; i <= n; ++i) nrm = dmax(nrm, fabs(y[i]));
    if (nrm < dtpcrt) continue;
    if (++nrmchk < extra + 1) continue;
    ok = true;
    break;
  }
  // dnrm2 by scaling with the largest entry; the sign from the first largest entry (idamax).
  double big = 0.0, top = 0.0;
  for (int i = 1; i <= n; ++i)
    if (fabs(y[i]) > big) {
      big = fabs(y[i]);
      top = y[i];
    }
  double ss = 0.0;
  const double rb = 1.0 / big;
  for (int i = 1; i <= n; ++i) {
    const double q = y[i] * rb;
    ss += q * q;
  }
  const double scl = copysign(rb / sqrt(ss), top);
  for (int i = 1; i <= n; ++i) y[i] *= scl;
  return ok;
}

// A twisted vector is kept where its residual is below kTwistTol eps ||z|| min(||T||, n gap)
// (above).
constexpr double kTwistTol = 16.0;

// dlar1v's guard: a pivot below pivmin in magnitude becomes -pivmin.
SGPU_HD double twist_guard(double p, double pivmin) { return fabs(p) < pivmin ? -pivmin : p; }

// Eigenvector of the unreduced tridiagonal T (d[1..n], e[1..n-1], n >= 2) for its eigenvalue x by
// one twisted factorization, into y (unit 2-norm, its first largest entry positive, as dstein
// leaves it). tnorm: ||T||_1; gap: the distance from x to T's nearest other eigenvalue; pivmin: the
// least pivot magnitude (dstebz's safmin max(1, max e_i^2)). The pivots go to the scratch's u,
// one array (stein_twist_member_work): the rows up to the middle hold D+ and the rows below it D-
// while the twist is sought; then the rows between the middle and the twist are formed again (the
// same operations on the same stored neighbour, so the same values) as the side z needs there: D+
// above the twist, D- below it. Returns false (y[1] then NaN) where the residual test rejects the
// vector.
// The pivots' pass is three loops (the rows above the middle, the middle, the rows below it), so
// that no row tests which side it is on; z's pass leaves each z_k in its pivot's place, and y is
// then z scaled (one division a row fewer, and no chain).
SGPU_HD bool stein_twisted(int n, Vec1<double> dv, Vec1<double> ev, double x, double tnorm, double gap, double pivmin,
                           Vec1<double> y, const SteinScratch& s) {
  // Vec1's indexing over restrict pointers: the stores to u and y never alias d and e (nor each
  // other), so the compiler may load a loop's next rows ahead of this row's stores.
  const double* __restrict__ d = &dv[1];
  const double* __restrict__ e = &ev[1];
  double* __restrict__ u = &s.u[1];
  double* __restrict__ yp = &y[1];
  const int64_t ds = dv.s, es = ev.s, us = s.u.s, ys = y.s;
  const auto D = [&](int k) { return d[(int64_t)(k - 1) * ds]; };
  const auto E = [&](int k) { return e[(int64_t)(k - 1) * es]; };
  const auto U = [&](int k) -> double& { return u[(int64_t)(k - 1) * us]; };
  const auto Y = [&](int k) -> double& { return yp[(int64_t)(k - 1) * ys]; };
  const double rt = 1.0 / tnorm;
  // T - x I = L+ D+ L+^T = U- D- U-^T: both recurrences side by side (rows k and l = n + 1 - k),
  // two independent chains of divisions; dlar1v's guard replaces a pivot below pivmin by -pivmin.
  // Once they cross (k >= l) both pivots of rows k and l are known, and the twist r is found on the
  // way: the least |gamma_k|, gamma_k = D+_k + D-_k - (d_k - x), the first such row where several
  // tie (r = 1 where gamma_1 is NaN, as a scan from row 1 by strict improvement leaves it). Each
  // row l taken there lies above every row taken before it, and each row k below: a tie goes to l
  // and never to k.
  int r = n + 1;
  double gmin = INFINITY;
  const auto upper = [&](double g, int k) {
    if (g <= gmin) {
      gmin = g;
      r = k;
    }
  };
  const auto lower = [&](double g, int k) {
    if (g < gmin) {
      gmin = g;
      r = k;
    }
  };
  const int h = n / 2;
  double dp = twist_guard(D(1) - x, pivmin), dm = twist_guard(D(n) - x, pivmin);
  U(1) = dp;
  U(n) = dm;
  for (int k = 2; k <= h; ++k) {
    const int l = n + 1 - k;
    const double ek = E(k - 1), el = E(l);
    const double p = (D(k) - x) - stein_div(ek * ek, dp), m = (D(l) - x) - stein_div(el * el, dm);
    dp = twist_guard(p, pivmin);
    dm = twist_guard(m, pivmin);
    U(k) = dp;
    U(l) = dm;
  }
  double dmid = 0.0;
  int k0 = h + 1;
  if (n & 1) {  // the middle row k = l = h + 1 (n >= 3 here)
    const int k = h + 1;
    const double ek = E(k - 1), el = E(k), xk = D(k) - x;
    const double p = xk - stein_div(ek * ek, dp), m = xk - stein_div(el * el, dm);
    dp = twist_guard(p, pivmin);
    dm = twist_guard(m, pivmin);
    U(k) = dp;
    dmid = dm;
    upper(fabs(dp + dm - xk), k);
    k0 = h + 2;
  }
  double g1 = 0.0;
  for (int k = k0; k <= n; ++k) {
    const int l = n + 1 - k;
    const double ek = E(k - 1), el = E(l), xk = D(k) - x, xl = D(l) - x;
    const double p = xk - stein_div(ek * ek, dp), m = xl - stein_div(el * el, dm);
    dp = twist_guard(p, pivmin);
    dm = twist_guard(m, pivmin);
    const double gl = fabs(U(l) + dm - xl);
    upper(gl, l);
    lower(fabs(dp + U(k) - xk), k);
    g1 = gl;  // l = 1 at the last row
  }
  if (g1 != g1) r = 1;
  // The side z needs between the middle (hp: the last row holding D+) and the twist.
  const int hp = (n + 1) / 2;
  if (r > hp + 1) {
    double q = U(hp);
    for (int k = hp + 1; k < r; ++k) {
      const double ek = E(k - 1);
      q = twist_guard((D(k) - x) - stein_div(ek * ek, q), pivmin);
      U(k) = q;
    }
  } else if (r < hp) {
    if (n & 1) U(hp) = dmid;
    int l = n & 1 ? hp - 1 : hp;
    double q = U(l + 1);
    for (; l > r; --l) {
      const double el = E(l);
      q = twist_guard((D(l) - x) - stein_div(el * el, q), pivmin);
      U(l) = q;
    }
  }
  // z outward from z_r = 1, the t-th of n - 1 rows: above r first (row k = r - 1 - t, upward:
  // z_k = -(e_k / D+_k) z_{k+1}), then below it (row k = t + 2, downward: z_k = -(e_{k-1} / D-_k)
  // z_{k-1}), in one loop, so that members with different twists take the same n - 1 steps side by
  // side; ||z||^2, the first largest entry and the residual ||(T - x I) z|| / ||T|| row by row. Each
  // z_k goes to its pivot's place (its last use) for y.
  double zz = 1.0, top = 1.0, big = 1.0, res2 = 0.0, zup = 0.0, zdn = 0.0;
  {
    // z_{k+1}, z_{k+2}, e_{k+1} above r (z_{k-1}, z_{k-2}, e_{k-2} below)
    double z1 = 1.0, z2 = 0.0, e1 = 0.0;
    for (int t = 0; t < n - 1; ++t) {
      if (t == r - 1 && r > 1) {
        const double q = ((D(1) - x) * z1 + E(1) * z2) * rt;  // row 1: the side above is done
        res2 += q * q;
        z1 = 1.0;
        z2 = 0.0;
        e1 = 0.0;
      }
      const bool up = t < r - 1, first = t == 0 || t == r - 1;
      const int k = up ? r - 1 - t : t + 2;
      const double a = E(up ? k : k - 1), c = D(up ? k + 1 : k - 1);
      const double zk = -stein_div(a, U(k)) * z1;
      U(k) = zk;
      if (first) (up ? zup : zdn) = zk;
      // row k + 1 above r, row k - 1 below (not for the first row of a side)
      const double p1 = a * zk, p3 = e1 * z2;
      const double q = ((up ? p1 : p3) + (c - x) * z1 + (up ? p3 : p1)) * rt;
      res2 += first ? 0.0 : q * q;
      zz += zk * zk;
      // the first largest entry: rows above r are walked upward, those below downward
      if (up ? fabs(zk) >= big : fabs(zk) > big) {
        big = fabs(zk);
        top = zk;
      }
      z2 = z1;
      z1 = zk;
      e1 = a;
    }
    if (r == n) {
      const double q = ((D(1) - x) * z1 + E(1) * z2) * rt;  // row 1
      res2 += q * q;
    } else {
      const double q = (E(n - 1) * z2 + (D(n) - x) * z1) * rt;  // row n
      res2 += q * q;
    }
  }
  double qr = D(r) - x;
  if (r > 1) qr += E(r - 1) * zup;
  if (r < n) qr += E(r) * zdn;
  res2 += (qr * rt) * (qr * rt);
  const double bound = kTwistTol * Mach::eps * sqrt(zz) * dmin(1.0, n * gap * rt);
  if (!(zz <= 1.7976931348623157e308 && sqrt(res2) < bound)) {
    Y(1) = NAN;
    return false;
  }
  const double scl = copysign(1.0 / sqrt(zz), top);
  for (int k = 1; k <= n; ++k) Y(k) = k == r ? scl : U(k) * scl;
  return true;
}

// dstebz's split test: T splits after row j where e_j^2 < |d_j d_{j+1}| ulp^2 + safmin.
SGPU_HD bool stein_splits(Vec1<double> d, Vec1<double> e, int j) {
  return fabs(d[j] * d[j + 1]) * (Mach::ulp * Mach::ulp) + Mach::safmin > e[j] * e[j];
}

// A walk through the eigenvalues in dstein's order: block by block, each block's shifts (its
// eigenvalues, near-equal ones pushed apart by dstein's perturbation, a serial recurrence) and
// clusters (a cluster starts where consecutive shifts of a block differ by more than
// 1e-3 ||block||), numbered from 0 across blocks. next() steps to eigenvalue j + 1.
struct SteinWalk {
  int n;
  Vec1<double> d, e, w;
  int j = 0, b1 = 1, bn = 0, cluster = -1, g0 = 1;  // g0: the first eigenvalue of j's cluster
  double onenrm = 0.0, xj = 0.0;
  SGPU_HD SteinWalk(int n_, Vec1<double> d_, Vec1<double> e_, Vec1<double> w_) : n(n_), d(d_), e(e_), w(w_) {}
  // dstein's shift for eigenvalue x after the shift xprev of the same block: at least 10 ulp |x|
  // above it.
  SGPU_HD static double pushed(double xprev, double x) {
    const double pertol = 10.0 * fabs(Mach::ulp * x);
    return x - xprev < pertol ? xprev + pertol : x;
  }
  SGPU_HD void next() {
    const double xjm = xj;
    ++j;
    if (j > bn) {  // a new block
      b1 = j;
      for (bn = b1; bn < n && !stein_splits(d, e, bn); ++bn) {
      }
      onenrm = 0.0;
      for (int i = b1; i <= bn; ++i)
        onenrm = dmax(onenrm, fabs(d[i]) + (i > b1 ? fabs(e[i - 1]) : 0.0) + (i < bn ? fabs(e[i]) : 0.0));
    }
    xj = j > b1 ? pushed(xjm, w[j]) : w[j];
    if (j == b1 || fabs(xj - xjm) > 1e-3 * onenrm) {
      ++cluster;
      g0 = j;
    }
  }
  // Whether j is the last eigenvalue of its cluster: next() would begin a new one.
  SGPU_HD bool last() const { return j == bn || fabs(pushed(xj, w[j + 1]) - xj) > 1e-3 * onenrm; }
  SGPU_HD bool alone() const { return g0 == j && last(); }
  // The distance from w[j] to the nearest other eigenvalue of its block.
  SGPU_HD double gap() const {
    double g = 1.7976931348623157e308;
    if (j > b1) g = w[j] - w[j - 1];
    if (j < bn) g = dmin(g, w[j + 1] - w[j]);
    return g;
  }
};
// The walk of the twisted vectors: a SteinWalk that also counts the clusters of two or more
// eigenvalues begun up to j, and keeps each block's pivmin (safmin max(1, max e_i^2), dstebz's).
struct SteinWalkMulti : SteinWalk {
  int multi = 0;
  double pivmin = 0.0;
  SGPU_HD SteinWalkMulti(int n_, Vec1<double> d_, Vec1<double> e_, Vec1<double> w_) : SteinWalk(n_, d_, e_, w_) {}
  SGPU_HD void next() {
    SteinWalk::next();
    if (j == b1) {
      double emax = 0.0;
      for (int i = b1; i < bn; ++i) emax = dmax(emax, fabs(e[i]));
      pivmin = Mach::safmin * dmax(1.0, emax * emax);
    }
    if (g0 == j && !last()) ++multi;
  }
};

// order <- the permutation that sorts w[1..n] ascending (the i-th smallest is w[order[i]]), stable:
// ties keep their index order. Insertion sort: n is small, and it needs no room.
SGPU_HD void sort_order(int n, Vec1<double> w, Vec1<int> order) {
  for (int i = 1; i <= n; ++i) {
    int k = i - 1;
    for (; k >= 1 && w[order[k]] > w[i]; --k) order[k + 1] = order[k];
    order[k + 1] = i;
  }
}

// All eigenvalues of T (d[1..n], e[1..n-1]) as dstebz finds them: T is split into blocks where
// an off-diagonal is negligible, each block's eigenvalues found by bisection (bisect_all) into w at
// the block's rows, ascending within the block; order gets the permutation that sorts w (the i-th
// smallest eigenvalue is w[order[i]]; stable: ties keep their block order). Finite input assumed,
// scaled as bisect_all needs. K: eigenvalues a member narrows side by side (bisect_all's K). order
// is first each block's grid for bisect_all, so the values depend on K times the team's size
// where that exceeds 32 (the grid's points), not on K alone.
template <int K = 2, class Team>
SGPU_HD void stebz(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w, Vec1<int> order) {
  // Block by block (every member walks the same splits).
  for (int b1 = 1, bn; b1 <= n; b1 = bn + 1) {
    for (bn = b1; bn < n && !stein_splits(d, e, bn); ++bn) {
    }
    if (bn == b1) {
      if (t.leader()) w[b1] = d[b1];
    } else {
      bisect_all<K>(t, bn - b1 + 1, Vec1<double>{&d[b1], d.s}, Vec1<double>{&e[b1], e.s}, Vec1<double>{&w[b1], w.s},
                    order);
    }
  }
  t.sync();
  if (t.leader()) sort_order(n, w, order);
  t.sync();
}

// The same blocks, w and order as stebz, each block's eigenvalues found instead by dsterf's
// root-free QL/QR (sterf) on a copy of the block (its own splits within it, ascending), and by
// bisection where sterf does not converge. One serial chain: about n^2 dependent steps with two
// divisions each against bisection's 20-60 Sturm counts of n steps an eigenvalue, so it is the
// cheaper where every eigenvalue is wanted and threads are not short (the GPU runs it one thread a
// matrix, many matrices side by side). ework: n doubles of scratch (sterf overwrites e).
SGPU_HD void stebz_sterf(int n, Vec1<double> d, Vec1<double> e, Vec1<double> w, Vec1<int> order,
                         Vec1<double> ework) {
  for (int b1 = 1, bn; b1 <= n; b1 = bn + 1) {
    for (bn = b1; bn < n && !stein_splits(d, e, bn); ++bn) {
    }
    const int nb = bn - b1 + 1;
    const Vec1<double> wb{&w[b1], w.s}, eb{&ework[b1], ework.s};
    for (int i = b1; i <= bn; ++i) {
      w[i] = d[i];
      ework[i] = i < bn ? e[i] : 0.0;
    }
    if (nb > 1 && sterf(TeamOne{}, nb, wb, eb) != 0)
      bisect_all<1>(TeamOne{}, nb, Vec1<double>{&d[b1], d.s}, Vec1<double>{&e[b1], e.s}, wb);
  }
  sort_order(n, w, order);
}

// stein_all with dstein's iteration for every vector: whole clusters (a lone eigenvalue its own)
// dealt to the members in turn, in rounds.
template <int kAhead, class Team>
SGPU_HD int stein_all_dstein(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w,
                             Mat1<double> z, double* scratch) {
  const int p = t.step(), rank = t.first(0);
  // Clusters are dealt to the members in turn, and taken in rounds: in round q, member m
  // computes cluster q p + m, all members side by side (a member walks the shifts on its own, in
  // order, to find its cluster; the walk is O(n) in all).
  // Only members below n ever own a cluster, so the scratch interleaves min(p, n) of them.
  const int ps = p < n ? p : n;
  const SteinScratch s = stein_member_scratch(scratch, n, ps, rank);
  SteinWalk wk(n, d, e, w);
  int clusters = 0;
  {
    SteinWalk all = wk;
    while (all.j < n) all.next();
    clusters = all.cluster + 1;
  }
  int fails = 0;
  for (int q = 0; q * p < clusters; ++q) {
    const int target = q * p + rank;
    while (wk.j < n && wk.cluster < target) wk.next();
    bool mine = wk.cluster == target && wk.j <= n && wk.j >= 1;
    while (mine) {
      const int j = wk.j, b1 = wk.b1, bn = wk.bn, nb = bn - b1 + 1;
      for (int i = 1; i <= n; ++i)
        if (i < b1 || i > bn) z(i, j) = 0.0;
      if (nb == 1) {
        z(b1, j) = 1.0;
      } else if (!stein_vector<kAhead>(nb, Vec1<double>{&d[b1], d.s}, Vec1<double>{&e[b1], e.s}, wk.xj, wk.onenrm,
                                       j, wk.g0, Mat1<double>{&z(b1, 1), z.rs, z.cs}, s)) {
        ++fails;
      }
      if (j == n) break;
      wk.next();
      mine = wk.cluster == target;
    }
  }
  const int total = (int)t.sum((double)fails);
  t.sync();
  return total;
}

// The eigenvectors of T (column j of z for w[j], zero outside its block) from eigenvalues already
// found (w as stebz or stebz_sterf leaves them: each block's ascending at its rows). Eigenvalue j
// goes to member (j - 1) mod p, which tries the twisted vector (stein_twisted). Where that is
// rejected, dstein's iteration finds the vector instead: the member's own, if j is alone in its
// cluster; otherwise the whole cluster's (eigenvalues within dstein's 1e-3 ||block||, each
// reorthogonalized against the ones before it), the clusters with a rejected vector dealt to the
// members in turn. Work goes in rounds of one kind, so that the members of a warp run the same code
// side by side: every twisted vector, then each member's rejected ones, then the clusters; between
// rounds a member walks the shifts on its own to its next eigenvalue (O(n) in all). `scratch` holds
// the SteinScratch of every member that can own one (the first min(p, n)), interleaved (element k
// of member m at scratch[(k - 1) min(p, n) + m]), stein_member_work(n) * min(p, n) doubles;
// twist_scratch, where given, the twisted vectors' instead, laid out alike,
// stein_twist_member_work(n) * min(p, n) doubles (it may sit in faster memory). Returns the number
// of eigenvectors whose iteration did not reach its norm (dstein's info); each is still stored.
// Every vector is the same whichever member computes it. Finite input assumed, scaled as bisect_all
// needs. kAhead: dstein's back substitution's rows loaded ahead (stein_solve); kTwist: 1, the
// twisted vectors first, or 0: none (stein_all_dstein, as where `twisted` is false).
template <int kAhead = 1, int kTwist = 1, class Team>
SGPU_HD int stein_all(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w, Mat1<double> z,
                      double* scratch, bool twisted = true, double* twist_scratch = nullptr) {
  if (kTwist == 0 || !twisted) return stein_all_dstein<kAhead>(t, n, d, e, w, z, scratch);
  const int p = t.step(), rank = t.first(0);
  // Only members below n ever own a vector, so the scratch interleaves min(p, n) of them.
  const int ps = p < n ? p : n;
  const SteinScratch s = stein_member_scratch(scratch, n, ps, rank);
  const SteinScratch st = twist_scratch ? stein_member_scratch(twist_scratch, n, ps, rank) : s;
  const auto dstein = [&](const SteinWalk& wk) {
    const int b1 = wk.b1;
    return stein_vector<kAhead>(wk.bn - b1 + 1, Vec1<double>{&d[b1], d.s}, Vec1<double>{&e[b1], e.s}, wk.xj,
                                wk.onenrm, wk.j, wk.g0, Mat1<double>{&z(b1, 1), z.rs, z.cs}, s);
  };
  // A rejected twisted vector: a NaN in its block's first row.
  const auto rejected = [&](const SteinWalk& wk) { return z(wk.b1, wk.j) != z(wk.b1, wk.j); };
  int fails = 0, own = 0, multi = 0;
  // Twisted vectors: round q, eigenvalue q p + rank + 1.
  {
    SteinWalkMulti wk(n, d, e, w);
    for (int j = rank + 1; j <= n; j += p) {
      while (wk.j < j) wk.next();
      const int b1 = wk.b1, nb = wk.bn - b1 + 1;
      for (int i = 1; i <= n; ++i)
        if (i < b1 || i > wk.bn) z(i, j) = 0.0;
      if (nb == 1) {
        z(b1, j) = 1.0;
      } else if (!stein_twisted(nb, Vec1<double>{&d[b1], d.s}, Vec1<double>{&e[b1], e.s}, wk.xj, wk.onenrm, wk.gap(),
                                wk.pivmin, Vec1<double>{&z(b1, j), z.rs}, st) &&
                 wk.alone()) {
        ++own;
      }
    }
    while (wk.j < n) wk.next();
    multi = wk.multi;
  }
  // A member's rejected vectors alone in their clusters.
  if (own > 0) {
    SteinWalk wk(n, d, e, w);
    for (int j = rank + 1; j <= n; j += p) {
      while (wk.j < j) wk.next();
      if (wk.alone() && rejected(wk) && !dstein(wk)) ++fails;
    }
  }
  // Clusters of two or more (every member counted them): round q, the (q p + rank + 1)-th, all its
  // vectors again in order if any was rejected. Their columns were other members' until the sync.
  if (multi > 0) {
    t.sync();
    SteinWalkMulti wk(n, d, e, w);
    for (int target = rank + 1; target <= multi; target += p) {
      while (wk.multi < target || wk.g0 != wk.j) wk.next();
      const SteinWalkMulti first = wk;
      bool redo = rejected(wk);
      while (!wk.last()) {
        wk.next();
        redo = redo || rejected(wk);
      }
      if (!redo) continue;
      wk = first;
      for (;;) {
        if (!dstein(wk)) ++fails;
        if (wk.last()) break;
        wk.next();
      }
    }
  }
  const int total = (int)t.sum((double)fails);
  t.sync();
  return total;
}

// All eigenvalues and eigenvectors of T (d[1..n], e[1..n-1]) as zheevx finds them (dstebz, then
// dstein): the eigenvalues by stebz (into w, their ascending order in order), the vectors by
// stein_all: the i-th smallest eigenvalue is w[order[i]], its vector z(:, order[i]). Returns
// stein_all's count (twisted: as stein_all's). Finite input assumed, scaled as bisect_all needs. K
// as stebz's.
template <int K = 2, class Team>
SGPU_HD int stebz_stein(const Team& t, int n, Vec1<double> d, Vec1<double> e, Vec1<double> w, Mat1<double> z,
                        Vec1<int> order, double* scratch, bool twisted = true) {
  stebz<K>(t, n, d, e, w, order);
  return stein_all(t, n, d, e, w, z, scratch, twisted);
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
