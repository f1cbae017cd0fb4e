// Eigenvalues (and optionally vectors) of a real symmetric tridiagonal matrix by implicit QL or
// QR with Wilkinson's shift, chosen per block as LAPACK dsteqr does. The rotations of one sweep
// are computed sequentially, then applied to the rows of Z by the team (every row independently).
#pragma once
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Eigen decomposition of [a b; b c] (LAPACK dlaev2): |rt1| >= |rt2|, (cs1, sn1) the unit right
// eigenvector of rt1.
SGPU_HD void laev2(double a, double b, double c, double& rt1, double& rt2, double& cs1, double& sn1) {
  double sm = a + c, df = a - c, adf = fabs(df), tb = b + b, ab = fabs(tb);
  double acmx, acmn, rt;
  int sgn1, sgn2;
  if (fabs(a) > fabs(c)) {
    acmx = a;
    acmn = c;
  } else {
    acmx = c;
    acmn = a;
  }
  if (adf > ab)
    rt = adf * sqrt(1.0 + (ab / adf) * (ab / adf));
  else if (adf < ab)
    rt = ab * sqrt(1.0 + (adf / ab) * (adf / ab));
  else
    rt = ab * sqrt(2.0);  // includes the case ab = adf = 0
  if (sm < 0.0) {
    rt1 = 0.5 * (sm - rt);
    sgn1 = -1;
    rt2 = (acmx / rt1) * acmn - (b / rt1) * b;
  } else if (sm > 0.0) {
    rt1 = 0.5 * (sm + rt);
    sgn1 = 1;
    rt2 = (acmx / rt1) * acmn - (b / rt1) * b;
  } else {
    rt1 = 0.5 * rt;
    rt2 = -0.5 * rt;
    sgn1 = 1;
  }
  double cs;
  if (df >= 0.0) {
    cs = df + rt;
    sgn2 = 1;
  } else {
    cs = df - rt;
    sgn2 = -1;
  }
  if (fabs(cs) > ab) {
    double ct = -tb / cs;
    sn1 = 1.0 / sqrt(1.0 + ct * ct);
    cs1 = ct * sn1;
  } else if (ab == 0.0) {
    cs1 = 1.0;
    sn1 = 0.0;
  } else {
    double tn = -cs / tb;
    cs1 = 1.0 / sqrt(1.0 + tn * tn);
    sn1 = tn * cs1;
  }
  if (sgn1 == sgn2) {
    double tn = cs1;
    cs1 = -sn1;
    sn1 = tn;
  }
}

// The factors by which LAPACK's dlascl (type 'G') multiplies to scale by cto/cfrom without over-
// or underflow, in order: apply(mul) for each (none when the ratio is exactly 1).
template <class F>
SGPU_HD void lascl_factors(double cfrom, double cto, F apply) {
  const double smlnum = Mach::safmin, bignum = 1.0 / smlnum;
  double cfromc = cfrom, ctoc = cto;
  bool done = false;
  while (!done) {
    double cfrom1 = cfromc * smlnum, mul;
    if (cfrom1 == cfromc) {  // cfromc is an inf
      mul = ctoc / cfromc;
      done = true;
    } else {
      double cto1 = ctoc / bignum;
      if (cto1 == ctoc) {
        mul = ctoc;
        done = true;
        cfromc = 1.0;
      } else if (fabs(cfrom1) > fabs(ctoc) && ctoc != 0.0) {
        mul = smlnum;
        cfromc = cfrom1;
      } else if (fabs(cto1) > fabs(cfromc)) {
        mul = bignum;
        ctoc = cto1;
      } else {
        mul = ctoc / cfromc;
        done = true;
        if (mul == 1.0) return;
      }
    }
    apply(mul);
  }
}

// Multiply x[0..m) by cto/cfrom without over/underflow (LAPACK dlascl, type 'G').
template <class Team>
SGPU_HD void lascl(const Team& t, double cfrom, double cto, int m, Vec<double> x) {
  lascl_factors(cfrom, cto, [&](double mul) { scal(t, m, mul, x); });
}

// The unreduced block d[l..lend], e[l..lend-1] of a tridiagonal, scaled into [ssfmin, ssfmax] when
// its largest entry lies outside (dsteqr/dsterf's "scale submatrix"); undo() scales back the
// nd diagonal and ne off-diagonal entries from lsv (dsterf's e holds squares by then: ne = 0).
struct BlockScale {
  double anorm, target;
  int iscale;  // 0: not scaled, 1: scaled down to ssfmax, 2: scaled up to ssfmin
  SGPU_HD BlockScale(Vec1<double> d, Vec1<double> e, int l, int lend) : anorm(0.0), target(1.0), iscale(0) {
    const double ssfmax = sqrt(1.0 / Mach::safmin) / 3.0, ssfmin = sqrt(Mach::safmin) / (Mach::eps * Mach::eps);
    for (int i = l; i <= lend; ++i) anorm = dmax(anorm, fabs(d[i]));
    for (int i = l; i < lend; ++i) anorm = dmax(anorm, fabs(e[i]));
    if (anorm == 0.0) return;
    if (anorm > ssfmax) iscale = 1, target = ssfmax;
    else if (anorm < ssfmin) iscale = 2, target = ssfmin;
    if (iscale) {
      lascl(TeamOne{}, anorm, target, lend - l + 1, d.from(l));
      lascl(TeamOne{}, anorm, target, lend - l, e.from(l));
    }
  }
  SGPU_HD void undo(Vec1<double> d, Vec1<double> e, int lsv, int nd, int ne) const {
    if (!iscale) return;
    lascl(TeamOne{}, target, anorm, nd, d.from(lsv));
    lascl(TeamOne{}, target, anorm, ne, e.from(lsv));
  }
};

// Z(:, c0 + j - 1 .. ) <- rotations (cw[c0+j-1], sw[c0+j-1]), j = 1..mm-1, applied as dlasr('R','V',dir):
// backward (j descending) for QL sweeps, forward for QR sweeps.
// One rotation at a time down whole columns (contiguous on the CPU, coalesced on the GPU); each
// member owns rows, so no synchronization is needed between rotations.
template <class Team, class T>
SGPU_HD void rot_sequence(const Team& t, int nz, Mat1<T> z, int c0, int mm, Vec1<double> cw, Vec1<double> sw,
                          bool forward) {
  for (int q = 1; q <= mm - 1; ++q) {
    const int j = forward ? q : mm - q;
    const double ct = cw[c0 + j - 1], st = sw[c0 + j - 1];
    for (int r = t.first(1); r <= nz; r += t.step()) {
      T temp = z(r, c0 + j);
      T zj = z(r, c0 + j - 1);
      z(r, c0 + j) = ct * temp - st * zj;
      z(r, c0 + j - 1) = st * temp + ct * zj;
    }
  }
  t.sync();
}

// The same for a complex Z: with its rows contiguous (rs = 1) it is, for a real rotation, a real
// matrix of 2 nz rows (real and imaginary parts interleaved), the same operations on each part.
// Taken where the team has at least 2 nz members, so that none idles (zheev n = 16, 32 lanes:
// 37.5 -> 36.5 ms on the H100); with fewer, members would take two real rows where they took one
// complex row, which measured slower (n = 32, 32 lanes: 62.5 -> 65.4 ms).
template <class Team>
SGPU_HD void rot_sequence_rows(const Team& t, int nz, Mat1<zc> z, int c0, int mm, Vec1<double> cw, Vec1<double> sw,
                               bool forward) {
  if (z.rs == 1 && t.step() >= 2 * nz)
    rot_sequence(t, 2 * nz, Mat1<double>{reinterpret_cast<double*>(z.p), 1, 2 * z.cs}, c0, mm, cw, sw, forward);
  else
    rot_sequence(t, nz, z, c0, mm, cw, sw, forward);
}
template <class Team>
SGPU_HD void rot_sequence_rows(const Team& t, int nz, Mat1<double> z, int c0, int mm, Vec1<double> cw,
                               Vec1<double> sw, bool forward) {
  rot_sequence(t, nz, z, c0, mm, cw, sw, forward);
}

// Where a sweep's rotations go. The chain below hands rotation i of a sweep to set(i, c, s) and
// then calls apply(c0, mm, forward) (dlasr('R', 'V', forward ? 'F' : 'B') on columns
// c0..c0+mm-1); at the end it calls swap(i, k) for each exchange of the final sort. RotApply
// applies at once with the team (the CPU and the warp paths); the GPU block path hands sweeps to
// other warps instead (cuda/heev_block.cu). RotNone: no vectors.
// Every member runs the chain; with lead_writes only the leader stores the rotations (cw, sw
// shared by the team: apply() waits at the team barrier before anyone reads them, and the next
// sweep's stores come after rot_sequence's closing barrier), else each member stores its own
// (cw, sw private to it).
template <class Team, class T>
struct RotApply {
  const Team& t;
  int nz;
  Mat1<T> z;
  Vec1<double> c, s;
  bool lead_writes = false;
  static constexpr bool kWant = true;
  SGPU_HD void set(int i, double ci, double si) const {
    if (!lead_writes || t.leader()) {
      c[i] = ci;
      s[i] = si;
    }
  }
  SGPU_HD void apply(int c0, int mm, bool forward) const {
    t.sync();
    rot_sequence_rows(t, nz, z, c0, mm, c, s, forward);
  }
  SGPU_HD void swap(int i, int k) const {
    for (int r = t.first(1); r <= nz; r += t.step()) {
      T tmp = z(r, i);
      z(r, i) = z(r, k);
      z(r, k) = tmp;
    }
  }
  SGPU_HD void done() const { t.sync(); }
};
struct RotNone {
  static constexpr bool kWant = false;
  SGPU_HD void set(int, double, double) const {}
  SGPU_HD void apply(int, int, bool) const {}
  SGPU_HD void swap(int, int) const {}
  SGPU_HD void done() const {}
};

// d[1..n], e[1..n-1]; rot receives the rotations (see RotApply). Returns info as dsteqr (number
// of off-diagonals that failed to converge after 30 n sweeps). The scalar recurrences on d/e are
// run identically by every member of the calling team.
template <class Team, class Rot>
SGPU_HD int steqr_chain(const Team& t, int n, Vec1<double> d, Vec1<double> e, const Rot& rot) {
  constexpr bool wantz = Rot::kWant;
  const double eps = Mach::eps, eps2 = eps * eps;
  const double safmin = Mach::safmin;
  (void)t;
  if (n <= 1) {
    rot.done();
    return 0;
  }
  const int nmaxit = n * SGPU_CORE_STEQR_MAXIT;
  int jtot = 0;
  int l1 = 1;
  const int nm1 = n - 1;
  // All members run the same scalar recurrences on d/e; the leader writes them, the team syncs.
  while (l1 <= n) {
    if (l1 > 1) e[l1 - 1] = 0.0;
    int m;
    for (m = l1; m <= nm1; ++m) {
      double tst = fabs(e[m]);
      if (tst == 0.0) break;
      if (tst <= (sqrt(fabs(d[m])) * sqrt(fabs(d[m + 1]))) * eps) {
        e[m] = 0.0;
        break;
      }
    }
    if (m > nm1) m = n;
    int l = l1;
    const int lsv = l;
    int lend = m;
    const int lendsv = lend;
    l1 = m + 1;
    if (lend == l) continue;
    // d and e are the team's shared scalars: updated identically by every member.
    const BlockScale bs(d, e, l, lend);
    if (bs.anorm == 0.0) continue;
    // Choose between QL and QR iteration.
    if (fabs(d[lend]) < fabs(d[l])) {
      lend = lsv;
      l = lendsv;
    }
    if (lend > l) {
      // QL iteration: look for a small subdiagonal element.
      for (;;) {
        if (l != lend) {
          for (m = l; m <= lend - 1; ++m) {
            double tst = fabs(e[m]) * fabs(e[m]);
            if (tst <= (eps2 * fabs(d[m])) * fabs(d[m + 1]) + safmin) break;
          }
        } else {
          m = lend;
        }
        if (m < lend) e[m] = 0.0;
        double p = d[l];
        if (m == l) {
          // Eigenvalue found.
          d[l] = p;
          ++l;
          if (l <= lend) continue;
          break;
        }
        if (m == l + 1) {
          // A 2x2 block: its eigensystem directly.
          double rt1, rt2, c, s;
          laev2(d[l], e[l], d[l + 1], rt1, rt2, c, s);
          if (wantz) {
            rot.set(l, c, s);
            rot.apply(l, 2, false);
          }
          d[l] = rt1;
          d[l + 1] = rt2;
          e[l] = 0.0;
          l += 2;
          if (l <= lend) continue;
          break;
        }
        if (jtot == nmaxit) break;
        ++jtot;
        // Form the shift.
        double g = (d[l + 1] - p) / (2.0 * e[l]);
        double r = lapy2(g, 1.0);
        g = d[m] - p + (e[l] / (g + sign(r, g)));
        double s = 1.0, c = 1.0;
        p = 0.0;
        for (int i = m - 1; i >= l; --i) {
          double f = s * e[i], b = c * e[i];
          lartg(g, f, c, s, r);
          if (i != m - 1) e[i + 1] = r;
          g = d[i + 1] - p;
          r = (d[i] - g) * s + 2.0 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
          if (wantz) {
            rot.set(i, c, -s);
          }
        }
        if (wantz) rot.apply(l, m - l + 1, false);
        d[l] = d[l] - p;
        e[l] = g;
      }
    } else {
      // QR iteration: look for a small superdiagonal element.
      for (;;) {
        if (l != lend) {
          for (m = l; m >= lend + 1; --m) {
            double tst = fabs(e[m - 1]) * fabs(e[m - 1]);
            if (tst <= (eps2 * fabs(d[m])) * fabs(d[m - 1]) + safmin) break;
          }
        } else {
          m = lend;
        }
        if (m > lend) e[m - 1] = 0.0;
        double p = d[l];
        if (m == l) {
          d[l] = p;
          --l;
          if (l >= lend) continue;
          break;
        }
        if (m == l - 1) {
          double rt1, rt2, c, s;
          laev2(d[l - 1], e[l - 1], d[l], rt1, rt2, c, s);
          if (wantz) {
            rot.set(m, c, s);
            rot.apply(l - 1, 2, true);
          }
          d[l - 1] = rt1;
          d[l] = rt2;
          e[l - 1] = 0.0;
          l -= 2;
          if (l >= lend) continue;
          break;
        }
        if (jtot == nmaxit) break;
        ++jtot;
        double g = (d[l - 1] - p) / (2.0 * e[l - 1]);
        double r = lapy2(g, 1.0);
        g = d[m] - p + (e[l - 1] / (g + sign(r, g)));
        double s = 1.0, c = 1.0;
        p = 0.0;
        for (int i = m; i <= l - 1; ++i) {
          double f = s * e[i], b = c * e[i];
          lartg(g, f, c, s, r);
          if (i != m) e[i - 1] = r;
          g = d[i] - p;
          r = (d[i + 1] - g) * s + 2.0 * c * b;
          p = s * r;
          d[i] = g + p;
          g = c * r - b;
          if (wantz) {
            rot.set(i, c, s);
          }
        }
        if (wantz) rot.apply(m, l - m + 1, true);
        d[l] = d[l] - p;
        e[l - 1] = g;
      }
    }
    // Undo scaling.
    bs.undo(d, e, lsv, lendsv - lsv + 1, lendsv - lsv);
    if (jtot >= nmaxit) {
      int info = 0;
      for (int i = 1; i <= n - 1; ++i)
        if (e[i] != 0.0) ++info;
      rot.done();
      return info;
    }
  }
  // Sort eigenvalues increasing (selection sort: fewest swaps of eigenvectors).
  for (int ii = 2; ii <= n; ++ii) {
    int i = ii - 1, k = i;
    double p = d[i];
    for (int j = ii; j <= n; ++j)
      if (d[j] < p) {
        k = j;
        p = d[j];
      }
    if (k != i) {
      d[k] = d[i];
      d[i] = p;
      rot.swap(i, k);
    }
  }
  rot.done();
  return 0;
}

// dsteqr: wantz multiplies Z (nz x n) by the eigenvector matrix; cw, sw hold one sweep.
// d and e are the calling member's own (every member runs the chain on identical copies, so the
// team never shares a scalar that several members write); shared_rot: cw and sw are shared by
// the team and written by its leader only, else each member's own.
template <class Team, class T>
SGPU_HD int steqr(const Team& t, bool wantz, int n, Vec1<double> d, Vec1<double> e, int nz, Mat1<T> z,
                  Vec1<double> cw, Vec1<double> sw, bool shared_rot = false) {
  if (wantz) return steqr_chain(t, n, d, e, RotApply<Team, T>{t, nz, z, cw, sw, shared_rot});
  return steqr_chain(t, n, d, e, RotNone{});
}

// Eigenvalues only of a real symmetric tridiagonal matrix: the Pal-Walker-Kahan root-free variant
// of implicit QL/QR with Wilkinson's shift (LAPACK dsterf): no square root per rotation. Scalar
// work: every member runs it on its own d/e (or the team's, identically). Returns info as dsterf.
template <class Team>
SGPU_HD int sterf(const Team&, int n, Vec1<double> d, Vec1<double> e) {
  const double eps = Mach::eps, eps2 = eps * eps;
  if (n <= 1) return 0;
  const int nmaxit = n * SGPU_CORE_STEQR_MAXIT;
  int jtot = 0, l1 = 1;
  while (l1 <= n) {
    if (l1 > 1) e[l1 - 1] = 0.0;
    int m;
    for (m = l1; m <= n - 1; ++m)
      if (fabs(e[m]) <= (sqrt(fabs(d[m])) * sqrt(fabs(d[m + 1]))) * eps) {
        e[m] = 0.0;
        break;
      }
    if (m > n - 1) m = n;
    int l = l1;
    const int lsv = l;
    int lend = m;
    const int lendsv = lend;
    l1 = m + 1;
    if (lend == l) continue;
    const BlockScale bs(d, e, l, lend);
    if (bs.anorm == 0.0) continue;
    for (int i = l; i <= lend - 1; ++i) e[i] = e[i] * e[i];
    // Choose between QL and QR iteration. QR on the block is QL on the block reversed, step for
    // step (each operation mirrored, so bit for bit the same eigenvalues): reverse it and run QL,
    // one loop for every block (on the GPU the threads of a warp, each on its own matrix, then
    // take the same path instead of the two in turn).
    if (fabs(d[lend]) < fabs(d[l])) {
      for (int i = l, j = lend; i < j; ++i, --j) {
        const double x = d[i];
        d[i] = d[j];
        d[j] = x;
      }
      for (int i = l, j = lend - 1; i < j; ++i, --j) {
        const double x = e[i];
        e[i] = e[j];
        e[j] = x;
      }
    }
    // QL iteration.
    for (;;) {
      if (l != lend) {
        for (m = l; m <= lend - 1; ++m)
          if (fabs(e[m]) <= eps2 * fabs(d[m] * d[m + 1])) break;
      } else {
        m = lend;
      }
      if (m < lend) e[m] = 0.0;
      double p = d[l];
      if (m == l) {
        d[l] = p;  // eigenvalue found
        ++l;
        if (l <= lend) continue;
        break;
      }
      if (m == l + 1) {
        double rt1, rt2, c, s;
        laev2(d[l], sqrt(e[l]), d[l + 1], rt1, rt2, c, s);
        d[l] = rt1;
        d[l + 1] = rt2;
        e[l] = 0.0;
        l += 2;
        if (l <= lend) continue;
        break;
      }
      if (jtot == nmaxit) break;
      ++jtot;
      // Form the shift.
      double rte = sqrt(e[l]);
      double sigma = (d[l + 1] - p) / (2.0 * rte);
      double r = lapy2(sigma, 1.0);
      sigma = p - (rte / (sigma + sign(r, sigma)));
      double c = 1.0, s = 0.0, gamma = d[m] - sigma;
      p = gamma * gamma;
      // A step reads e[i] and d[i] and writes e[i + 1] and d[i + 1]: the next step's operands are
      // loaded a step ahead, off the chain of dependent divisions (on the GPU one thread a matrix
      // waits out every load's latency otherwise).
      double bb = e[m - 1], alpha = d[m - 1];
      for (int i = m - 1; i >= l; --i) {
        const double bb_next = i > l ? e[i - 1] : 0.0, alpha_next = i > l ? d[i - 1] : 0.0;
        r = p + bb;
        if (i != m - 1) e[i + 1] = s * r;
        double oldc = c;
        // Two divisions, as dsterf: c and s through one reciprocal of r (an extra rounding in
        // each) moved graded spectra at n = 1024 by 133 ulp of the largest eigenvalue from
        // dsterf's, which this loop reproduces bitwise (docs/testing.md, "zheev's eigenvalues").
        c = p / r;
        s = bb / r;
        double oldgam = gamma;
        gamma = c * (alpha - sigma) - s * oldgam;
        d[i + 1] = oldgam + (alpha - gamma);
        p = c != 0.0 ? (gamma * gamma) / c : oldc * bb;
        bb = bb_next;
        alpha = alpha_next;
      }
      e[l] = s * p;
      d[l] = sigma + gamma;
    }
    // Undo scaling.
    bs.undo(d, e, lsv, lendsv - lsv + 1, 0);
    if (jtot >= nmaxit) {
      int info = 0;
      for (int i = 1; i <= n - 1; ++i)
        if (e[i] != 0.0) ++info;
      return info;
    }
  }
  // Sort increasing (insertion sort: n is small, and it is stable and allocation-free).
  for (int i = 2; i <= n; ++i) {
    double x = d[i];
    int j = i - 1;
    while (j >= 1 && d[j] > x) {
      d[j + 1] = d[j];
      --j;
    }
    d[j + 1] = x;
  }
  return 0;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
