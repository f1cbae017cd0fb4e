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

// Returns info as dlahqr: 0, or i > 0 when eigenvalues i+1..ihi have converged but not the rest.
template <class Team>
SGPU_HD int lahqr(const Team& t, bool wantt, bool wantz, int n, int ilo, int ihi, Mat1<double> h,
                  Vec1<double> wr, Vec1<double> wi, int iloz, int ihiz, Mat1<double> z) {
  const double dat1 = 0.75, dat2 = -0.4375;
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
      // Look for a single small subdiagonal element.
      int k;
      for (k = i; k >= l + 1; --k) {
        if (fabs(h(k, k - 1)) <= smlnum) break;
        double tst = fabs(h(k - 1, k - 1)) + fabs(h(k, k));
        if (tst == 0.0) {
          if (k - 2 >= ilo) tst += fabs(h(k - 1, k - 2));
          if (k + 1 <= ihi) tst += fabs(h(k + 1, k));
        }
        // Conservative small-subdiagonal deflation criterion (Ahues & Kressner 2004).
        if (fabs(h(k, k - 1)) <= ulp * tst) {
          double ab = dmax(fabs(h(k, k - 1)), fabs(h(k - 1, k)));
          double ba = dmin(fabs(h(k, k - 1)), fabs(h(k - 1, k)));
          double aa = dmax(fabs(h(k, k)), fabs(h(k - 1, k - 1) - h(k, k)));
          double bb = dmin(fabs(h(k, k)), fabs(h(k - 1, k - 1) - h(k, k)));
          double s = aa + ab;
          if (ba * (ab / s) <= dmax(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
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
        double s = fabs(h(i, i - 1)) + fabs(h(i - 1, i - 2));
        h11 = dat1 * s + h(i, i);
        h12 = dat2 * s;
        h21 = s;
        h22 = h11;
      } else if (kdefl % kexsh == 0) {
        double s = fabs(h(l + 1, l)) + fabs(h(l + 2, l + 1));
        h11 = dat1 * s + h(l, l);
        h12 = dat2 * s;
        h21 = s;
        h22 = h11;
      } else {
        // Wilkinson's double shift: the eigenvalues of the trailing 2x2.
        h11 = h(i - 1, i - 1);
        h21 = h(i, i - 1);
        h12 = h(i - 1, i);
        h22 = h(i, i);
      }
      double rt1r, rt1i, rt2r, rt2i;
      double s = fabs(h11) + fabs(h12) + fabs(h21) + fabs(h22);
      if (s == 0.0) {
        rt1r = rt1i = rt2r = rt2i = 0.0;
      } else {
        h11 /= s;
        h21 /= s;
        h12 /= s;
        h22 /= s;
        double tr = (h11 + h22) / 2.0;
        double det = (h11 - tr) * (h22 - tr) - h12 * h21;
        double rtdisc = sqrt(fabs(det));
        if (det >= 0.0) {
          // Complex conjugate shifts.
          rt1r = tr * s;
          rt2r = rt1r;
          rt1i = rtdisc * s;
          rt2i = -rt1i;
        } else {
          // Real shifts (use only one of them).
          rt1r = tr + rtdisc;
          rt2r = tr - rtdisc;
          if (fabs(rt1r - h22) <= fabs(rt2r - h22)) {
            rt1r *= s;
            rt2r = rt1r;
          } else {
            rt2r *= s;
            rt1r = rt2r;
          }
          rt1i = rt2i = 0.0;
        }
      }
      // Look for two consecutive small subdiagonal elements.
      double u0 = 0.0, u1 = 0.0, u2 = 0.0;  // the bulge's reflector vector, in registers
      int m;
      for (m = i - 2; m >= l; --m) {
        double h21s = h(m + 1, m);
        s = fabs(h(m, m) - rt2r) + fabs(rt2i) + fabs(h21s);
        h21s = h(m + 1, m) / s;
        u0 = h21s * h(m, m + 1) + (h(m, m) - rt1r) * ((h(m, m) - rt2r) / s) - rt1i * (rt2i / s);
        u1 = h21s * (h(m, m) + h(m + 1, m + 1) - rt1r - rt2r);
        u2 = h21s * h(m + 2, m + 1);
        s = fabs(u0) + fabs(u1) + fabs(u2);
        u0 /= s;
        u1 /= s;
        u2 /= s;
        if (m == l) break;
        double h00 = fabs(h(m, m - 1)) * (fabs(u1) + fabs(u2));
        double h01 = ulp * fabs(u0) * (fabs(h(m - 1, m - 1)) + fabs(h(m, m)) + fabs(h(m + 1, m + 1)));
        if (h00 <= h01) break;
      }
      // Double-shift QR step: create the bulge at m and chase it down to i.
      for (int k2 = m; k2 <= i - 1; ++k2) {
        const int nr = (3 < i - k2 + 1) ? 3 : i - k2 + 1;
        t.sync();
        if (k2 > m) {
          u0 = h(k2, k2 - 1);
          u1 = h(k2 + 1, k2 - 1);
          if (nr == 3) u2 = h(k2 + 2, k2 - 1);
        }
        double t1;
        u0 = larfg3(nr, u0, u1, u2, t1);
        t.sync();
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
        const double v2 = u1, t2 = t1 * v2;
        const int kend = (k2 + 3 < i) ? k2 + 3 : i;
        if (nr == 3) {
          const double v3 = u2, t3 = t1 * v3;
          for (int j = t.first(k2); j <= i2; j += t.step()) {
            double sum = h(k2, j) + v2 * h(k2 + 1, j) + v3 * h(k2 + 2, j);
            h(k2, j) -= sum * t1;
            h(k2 + 1, j) -= sum * t2;
            h(k2 + 2, j) -= sum * t3;
          }
          t.sync();
          for (int j = t.first(i1); j <= kend; j += t.step()) {
            double sum = h(j, k2) + v2 * h(j, k2 + 1) + v3 * h(j, k2 + 2);
            h(j, k2) -= sum * t1;
            h(j, k2 + 1) -= sum * t2;
            h(j, k2 + 2) -= sum * t3;
          }
          if (wantz)
            for (int j = t.first(iloz); j <= ihiz; j += t.step()) {
              double sum = z(j, k2) + v2 * z(j, k2 + 1) + v3 * z(j, k2 + 2);
              z(j, k2) -= sum * t1;
              z(j, k2 + 1) -= sum * t2;
              z(j, k2 + 2) -= sum * t3;
            }
        } else if (nr == 2) {
          for (int j = t.first(k2); j <= i2; j += t.step()) {
            double sum = h(k2, j) + v2 * h(k2 + 1, j);
            h(k2, j) -= sum * t1;
            h(k2 + 1, j) -= sum * t2;
          }
          t.sync();
          for (int j = t.first(i1); j <= i; j += t.step()) {
            double sum = h(j, k2) + v2 * h(j, k2 + 1);
            h(j, k2) -= sum * t1;
            h(j, k2 + 1) -= sum * t2;
          }
          if (wantz)
            for (int j = t.first(iloz); j <= ihiz; j += t.step()) {
              double sum = z(j, k2) + v2 * z(j, k2 + 1);
              z(j, k2) -= sum * t1;
              z(j, k2 + 1) -= sum * t2;
            }
        }
      }
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

}  // namespace core
}  // namespace sgpu
