// Francis implicit double-shift QR on an upper Hessenberg matrix (seed 000 Alg. 2-3, with
// LAPACK dlahqr's shifts, exceptional shifts, Ahues-Kressner deflation test and iteration limit).
//
// The eigenvalue-only path (wantt = false) updates only the active block H(l:i, l:i), as LAPACK.
// Scalars (deflation point, shifts, reflectors) are computed redundantly by every team member;
// the row, column and Z updates of each bulge step are shared.
#pragma once
#include "lanv2.hpp"
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// dlahqr's test for a negligible subdiagonal hk = H(k, k-1) (Ahues & Kressner's conservative
// criterion), from the entries it reads: hpp = H(k-1, k-1), hkk = H(k, k), hup = H(k-1, k), and
// left = H(k-1, k-2) and below = H(k+1, k) where those lie in the active block (else 0), which
// count only when the diagonal pair is zero. Value-based, so that a kernel holding the matrix in
// registers evaluates the same expression.
SGPU_HD bool negligible_subdiag(double hk, double hpp, double hkk, double hup, double left, double below,
                                double smlnum, double ulp) {
  hk = fabs(hk);
  if (hk <= smlnum) return true;
  double tst = fabs(hpp) + fabs(hkk);
  if (tst == 0.0) tst += fabs(left) + fabs(below);
  if (hk > ulp * tst) return false;
  const double hu = fabs(hup);
  const double ab = dmax(hk, hu), ba = dmin(hk, hu);
  const double d = fabs(hpp - hkk), hkka = fabs(hkk);
  const double aa = dmax(hkka, d), bb = dmin(hkka, d);
  const double s = aa + ab;
  return ba * (ab / s) <= dmax(smlnum, ulp * (bb * (aa / s)));
}
template <class M>
SGPU_HD bool negligible_subdiag(const M& h, int k, int ilo, int ihi, double smlnum, double ulp) {
  return negligible_subdiag(h(k, k - 1), h(k - 1, k - 1), h(k, k), h(k - 1, k), k - 2 >= ilo ? h(k - 1, k - 2) : 0.0,
                            k + 1 <= ihi ? h(k + 1, k) : 0.0, smlnum, ulp);
}

// The double shift (s1, s2) of one QR sweep: rt1 and rt2, real and imaginary parts.
struct Shifts {
  double rt1r, rt1i, rt2r, rt2i;
};

// dlahqr's exceptional shift: the 2x2 [h11 h12; h21 h22] built from s (two subdiagonals' moduli)
// and the diagonal entry hd.
SGPU_HD void exceptional_block(double s, double hd, double& h11, double& h12, double& h21, double& h22) {
  const double dat1 = 0.75, dat2 = -0.4375;
  h11 = dat1 * s + hd;
  h12 = dat2 * s;
  h21 = s;
  h22 = h11;
}

// The shifts from the 2x2 block [h11 h12; h21 h22] (dlahqr): its eigenvalues, computed scaled, as a
// complex pair or, when real, the one nearer h22 twice.
SGPU_HD Shifts francis_shifts(double h11, double h12, double h21, double h22) {
  Shifts r;
  const double s = fabs(h11) + fabs(h12) + fabs(h21) + fabs(h22);
  if (s == 0.0) {
    r.rt1r = r.rt1i = r.rt2r = r.rt2i = 0.0;
    return r;
  }
  h11 /= s;
  h21 /= s;
  h12 /= s;
  h22 /= s;
  const double tr = (h11 + h22) / 2.0;
  const double det = (h11 - tr) * (h22 - tr) - h12 * h21;
  const double rtdisc = sqrt(fabs(det));
  if (det >= 0.0) {
    // Complex conjugate shifts.
    r.rt1r = tr * s;
    r.rt2r = r.rt1r;
    r.rt1i = rtdisc * s;
    r.rt2i = -r.rt1i;
  } else {
    // Real shifts (use only one of them).
    r.rt1r = tr + rtdisc;
    r.rt2r = tr - rtdisc;
    if (fabs(r.rt1r - h22) <= fabs(r.rt2r - h22)) {
      r.rt1r *= s;
      r.rt2r = r.rt1r;
    } else {
      r.rt2r *= s;
      r.rt1r = r.rt2r;
    }
    r.rt1i = r.rt2i = 0.0;
  }
  return r;
}

// First column of (H - s1 I)(H - s2 I) at rows m..m+2, scaled to unit 1-norm (dlahqr's v), from
// hmm = H(m, m), h21 = H(m+1, m), h12 = H(m, m+1), h22 = H(m+1, m+1), h32 = H(m+2, m+1). One
// reciprocal per scaling instead of dlahqr's divisions: the last bits may differ from LAPACK's,
// and they only choose where the bulge starts and its direction.
SGPU_HD void bulge_first_column(double hmm, double h21, double h12, double h22, double h32, const Shifts& sh, double& u0,
                                double& u1, double& u2) {
  const Divider rs(fabs(hmm - sh.rt2r) + fabs(sh.rt2i) + fabs(h21));
  const double h21s = rs(h21);
  u0 = h21s * h12 + (hmm - sh.rt1r) * rs(hmm - sh.rt2r) - sh.rt1i * rs(sh.rt2i);
  u1 = h21s * (hmm + h22 - sh.rt1r - sh.rt2r);
  u2 = h21s * h32;
  const Divider r(fabs(u0) + fabs(u1) + fabs(u2));
  u0 = r(u0);
  u1 = r(u1);
  u2 = r(u2);
}
template <class M>
SGPU_HD void bulge_first_column(const M& h, int m, const Shifts& sh, double& u0, double& u1, double& u2) {
  bulge_first_column(h(m, m), h(m + 1, m), h(m, m + 1), h(m + 1, m + 1), h(m + 2, m + 1), sh, u0, u1, u2);
}

// dlahqr's test that H(m, m-1) = hm0 is small enough, against the bulge (u0, u1, u2) started at m,
// for the bulge to start at m rather than further up (hpp = H(m-1, m-1), hmm = H(m, m),
// h22 = H(m+1, m+1)).
SGPU_HD bool bulge_can_start(double hm0, double hpp, double hmm, double h22, double u0, double u1, double u2, double ulp) {
  const double h00 = fabs(hm0) * (fabs(u1) + fabs(u2));
  const double h01 = ulp * fabs(u0) * (fabs(hpp) + fabs(hmm) + fabs(h22));
  return h00 <= h01;
}
template <class M>
SGPU_HD bool bulge_can_start(const M& h, int m, const Shifts& sh, double ulp) {
  double u0, u1, u2;
  bulge_first_column(h, m, sh, u0, u1, u2);
  return bulge_can_start(h(m, m - 1), h(m - 1, m - 1), h(m, m), h(m + 1, m + 1), u0, u1, u2, ulp);
}

// The reflector I - tau (1, v2, v3)(1, v2, v3)^T of one bulge step (v3 unused when it has order 2),
// with t1 = tau, t2 = tau v2, t3 = tau v3.
struct BulgeReflector {
  double v2, v3, t1, t2, t3;
  // Applies it to the NR elements a0, a1 (, a2) of one row or column.
  template <int NR>
  SGPU_HD void apply(double& a0, double& a1, double& a2) const {
    if (NR == 3) {
      const double sum = a0 + v2 * a1 + v3 * a2;
      a0 -= sum * t1;
      a1 -= sum * t2;
      a2 -= sum * t3;
    } else {
      const double sum = a0 + v2 * a1;
      a0 -= sum * t1;
      a1 -= sum * t2;
    }
  }
};

// The bulge step's reflector from the left on rows k2..k2+NR-1, columns k2..i2, and from the right
// on columns k2..k2+NR-1, rows lo..hi, shared by the team. Each element is read into a register
// before any is written: through a view the compiler cannot tell a column's three elements apart
// from the others, and wrote then re-read each one.
template <int NR, class Team>
SGPU_HD void bulge_rows(const Team& t, const BulgeReflector& r, int k2, int i2, Mat1<double> h) {
  double x = 0.0;  // the third element where NR = 2
  for (int j = t.first(k2); j <= i2; j += t.step()) {
    double a0 = h(k2, j), a1 = h(k2 + 1, j), a2 = NR == 3 ? h(k2 + 2, j) : x;
    r.apply<NR>(a0, a1, a2);
    h(k2, j) = a0;
    h(k2 + 1, j) = a1;
    if (NR == 3) h(k2 + 2, j) = a2;
  }
}
template <int NR, class Team>
SGPU_HD void bulge_columns(const Team& t, const BulgeReflector& r, int k2, int lo, int hi, Mat1<double> h) {
  double x = 0.0;
  for (int j = t.first(lo); j <= hi; j += t.step()) {
    double a0 = h(j, k2), a1 = h(j, k2 + 1), a2 = NR == 3 ? h(j, k2 + 2) : x;
    r.apply<NR>(a0, a1, a2);
    h(j, k2) = a0;
    h(j, k2 + 1) = a1;
    if (NR == 3) h(j, k2 + 2) = a2;
  }
}

// Step k2 of a double-shift sweep over the active block H(l:i, l:i) whose bulge starts at m
// (dlahqr's step, and each sweep of dlaqr5 with l = m): the reflector from the bulge in column
// k2-1 (from (u0, u1, u2), the bulge's first column, at k2 = m), applied from the left to rows
// k2..k2+2 over columns k2..i2, from the right to columns k2..k2+2 over rows i1..min(k2+3, i), and
// to Z's rows iloz..ihiz. Ends without a sync: the caller's next step or test begins with one.
template <class Team>
SGPU_HD void bulge_step(const Team& t, bool wantz, int k2, int m, int l, int i, int i1, int i2, int iloz, int ihiz,
                        double& u0, double& u1, double& u2, Mat1<double> h, Mat1<double> z) {
  const int nr = (3 < i - k2 + 1) ? 3 : i - k2 + 1;
  t.sync();
  if (k2 > m) {
    u0 = h(k2, k2 - 1);
    u1 = h(k2 + 1, k2 - 1);
    if (nr == 3) u2 = h(k2 + 2, k2 - 1);
  }
  double t1;
  u0 = larfg3(nr, u0, u1, u2, t1);
  const BulgeReflector r{u1, u2, t1, t1 * u1, t1 * u2};
  // Rows k2..k2+2 from the left (columns k2..i2; column k2-1 is not touched, so the leader's
  // writes to it wait for the sync below instead of a sync of their own).
  if (nr == 3)
    bulge_rows<3>(t, r, k2, i2, h);
  else
    bulge_rows<2>(t, r, k2, i2, h);
  t.sync();  // every member has read the bulge (column k2-1) and finished its rows
  if (t.leader()) {
    if (k2 > m) {
      h(k2, k2 - 1) = u0;
      h(k2 + 1, k2 - 1) = 0.0;
      if (k2 < i - 1) h(k2 + 2, k2 - 1) = 0.0;
    } else if (m > l) {
      // Use this instead of H(k,k-1) = -H(k,k-1) to avoid a bug when v(2) and v(3) underflow.
      h(k2, k2 - 1) *= (1.0 - t1);
    }
  }
  // Columns k2..k2+2 from the right (rows i1..kend), and Z.
  if (nr == 3) {
    bulge_columns<3>(t, r, k2, i1, k2 + 3 < i ? k2 + 3 : i, h);
    if (wantz) bulge_columns<3>(t, r, k2, iloz, ihiz, z);
  } else {
    bulge_columns<2>(t, r, k2, i1, i, h);
    if (wantz) bulge_columns<2>(t, r, k2, iloz, ihiz, z);
  }
}

// Returns info as dlahqr: 0, or i > 0 when eigenvalues i+1..ihi have converged but not the rest.
template <class Team>
SGPU_HD int lahqr(const Team& t, bool wantt, bool wantz, int n, int ilo, int ihi, Mat1<double> h,
                  Vec1<double> wr, Vec1<double> wi, int iloz, int ihiz, Mat1<double> z) {
  const int kexsh = 10;
  if (n == 0) return 0;
  if (ilo == ihi) {
    if (t.leader()) {
      wr[ilo] = h(ilo, ilo);
      wi[ilo] = 0.0;
    }
    t.sync();
    return 0;
  }
  // Clear out the trash below the first subdiagonal's neighbours.
  if (t.leader()) {
    for (int j = ilo; j <= ihi - 3; ++j) {
      h(j + 2, j) = 0.0;
      h(j + 3, j) = 0.0;
    }
    if (ilo <= ihi - 2) h(ihi, ihi - 2) = 0.0;
  }
  t.sync();
  const int nh = ihi - ilo + 1;
  const double safmin = Mach::safmin;
  const double ulp = Mach::ulp;
  const double smlnum = safmin * ((double)nh / ulp);
  int i1 = 1, i2 = n;
  if (wantt) {
    i1 = 1;
    i2 = n;
  }
  const int itmax = SGPU_CORE_LAHQR_ITMAX(nh);
  int kdefl = 0;

  // i indexes the last row of the unreduced block; it decreases as eigenvalues deflate.
  int i = ihi;
  while (i >= ilo) {
    int l = ilo;
    bool converged = false;
    for (int its = 0; its <= itmax; ++its) {
      // Look for a single small subdiagonal element: the largest k in l+1..i where H(k, k-1) is
      // negligible, else l. The tests are independent, so the team splits them (each member walks
      // its own k downwards and stops at its first hit) and takes the largest hit; a team of one
      // is LAPACK's loop.
      int k = l;
      for (int kk = i - t.first(0); kk >= l + 1; kk -= t.step())
        if (negligible_subdiag(h, kk, ilo, ihi, smlnum, ulp)) {
          k = kk;
          break;
        }
      k = (int)t.max((double)k);
      l = k;
      t.sync();
      if (l > ilo && t.leader()) h(l, l - 1) = 0.0;  // H(l, l-1) is negligible
      t.sync();
      if (l >= i - 1) {
        converged = true;
        break;
      }
      ++kdefl;
      // Now the active submatrix is in rows and columns l to i.
      if (!wantt) {
        i1 = l;
        i2 = i;
      }
      double h11, h12, h21, h22;
      if (kdefl % (2 * kexsh) == 0) {
        // Exceptional shift.
        exceptional_block(fabs(h(i, i - 1)) + fabs(h(i - 1, i - 2)), h(i, i), h11, h12, h21, h22);
      } else if (kdefl % kexsh == 0) {
        exceptional_block(fabs(h(l + 1, l)) + fabs(h(l + 2, l + 1)), h(l, l), h11, h12, h21, h22);
      } else {
        // Wilkinson's double shift: the eigenvalues of the trailing 2x2.
        h11 = h(i - 1, i - 1);
        h21 = h(i, i - 1);
        h12 = h(i - 1, i);
        h22 = h(i, i);
      }
      const Shifts sh = francis_shifts(h11, h12, h21, h22);
      // Look for two consecutive small subdiagonal elements: the largest m in l..i-2 where the
      // bulge may start (always m = l at the latest). Split over the team as the search above,
      // then every member forms the bulge's first column at the chosen m.
      int m = l;
      for (int mm = i - 2 - t.first(0); mm > l; mm -= t.step())
        if (bulge_can_start(h, mm, sh, ulp)) {
          m = mm;
          break;
        }
      m = (int)t.max((double)m);
      double u0, u1, u2;  // the bulge's reflector vector, in registers
      bulge_first_column(h, m, sh, u0, u1, u2);
      // Double-shift QR step: create the bulge at m and chase it down to i.
      for (int k2 = m; k2 <= i - 1; ++k2) bulge_step(t, wantz, k2, m, l, i, i1, i2, iloz, ihiz, u0, u1, u2, h, z);
      t.sync();
    }
    if (!converged) return i;  // failure to converge in the remaining iterations

    if (l == i) {
      // H(i, i-1) is negligible: one eigenvalue has converged.
      if (t.leader()) {
        wr[i] = h(i, i);
        wi[i] = 0.0;
      }
    } else if (l == i - 1) {
      // H(i-1, i-2) is negligible: a pair of eigenvalues has converged; standardize the block.
      double a = h(i - 1, i - 1), b = h(i - 1, i), c = h(i, i - 1), d = h(i, i);
      double r1r, r1i, r2r, r2i, cs, sn;
      lanv2(a, b, c, d, r1r, r1i, r2r, r2i, cs, sn);
      t.sync();
      if (t.leader()) {
        h(i - 1, i - 1) = a;
        h(i - 1, i) = b;
        h(i, i - 1) = c;
        h(i, i) = d;
        wr[i - 1] = r1r;
        wi[i - 1] = r1i;
        wr[i] = r2r;
        wi[i] = r2i;
      }
      if (wantt) {
        // Apply the rotation to the rest of H: rows i-1, i right of the block, columns above it.
        for (int j = t.first(i + 1); j <= i2; j += t.step()) {
          double x = h(i - 1, j), y = h(i, j);
          h(i - 1, j) = cs * x + sn * y;
          h(i, j) = cs * y - sn * x;
        }
        for (int j = t.first(i1); j <= i - 2; j += t.step()) {
          double x = h(j, i - 1), y = h(j, i);
          h(j, i - 1) = cs * x + sn * y;
          h(j, i) = cs * y - sn * x;
        }
      }
      if (wantz)
        for (int j = t.first(iloz); j <= ihiz; j += t.step()) {
          double x = z(j, i - 1), y = z(j, i);
          z(j, i - 1) = cs * x + sn * y;
          z(j, i) = cs * y - sn * x;
        }
    }
    t.sync();
    kdefl = 0;  // reset the deflation counter
    i = l - 1;
  }
  return 0;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
