// Schur factorization of a real 2x2 nonsymmetric matrix in standardized form (LAPACK dlanv2):
//   [a b; c d] = [cs -sn; sn cs] [aa bb; cc dd] [cs sn; -sn cs]
// where either cc = 0 (real eigenvalues) or aa = dd and bb*cc < 0 (a complex pair).
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

SGPU_HD void lanv2(double& a, double& b, double& c, double& d, double& rt1r, double& rt1i, double& rt2r,
                   double& rt2i, double& cs, double& sn) {
  const double multpl = 4.0;
  const double eps = Mach::ulp;
  // 2^floor(log2(safmin/eps)/2), as dlanv2 computes it for base 2.
  const double safmn2 = 0x1p-485;  // base^int(log(safmin/eps)/log(base)/2)
  const double safmx2 = 1.0 / safmn2;
  if (c == 0.0) {
    cs = 1.0;
    sn = 0.0;
  } else if (b == 0.0) {
    // Swap rows and columns.
    cs = 0.0;
    sn = 1.0;
    double temp = d;
    d = a;
    a = temp;
    b = -c;
    c = 0.0;
  } else if ((a - d) == 0.0 && sign(1.0, b) != sign(1.0, c)) {
    cs = 1.0;
    sn = 0.0;
  } else {
    double temp = a - d;
    double p = 0.5 * temp;
    double bcmax = dmax(fabs(b), fabs(c));
    double bcmis = dmin(fabs(b), fabs(c)) * sign(1.0, b) * sign(1.0, c);
    double scale = dmax(fabs(p), bcmax);
    double z = (p / scale) * p + (bcmax / scale) * bcmis;
    // If z is of the order of the machine accuracy, postpone the decision on the nature
    // of the eigenvalues.
    if (z >= multpl * eps) {
      // Real eigenvalues: compute a and d.
      z = p + sign(sqrt(scale) * sqrt(z), p);
      a = d + z;
      d = d - (bcmax / z) * bcmis;
      double tau = lapy2(c, z);
      cs = z / tau;
      sn = c / tau;
      b = b - c;
      c = 0.0;
    } else {
      // Complex eigenvalues, or real (almost) equal eigenvalues: make the diagonal equal.
      int count = 0;
      double sigma = b + c;
      for (;;) {
        ++count;
        scale = dmax(fabs(temp), fabs(sigma));
        if (scale >= safmx2) {
          sigma *= safmn2;
          temp *= safmn2;
          if (count <= 20) continue;
        }
        if (scale <= safmn2) {
          sigma *= safmx2;
          temp *= safmx2;
          if (count <= 20) continue;
        }
        break;
      }
      p = 0.5 * temp;
      double tau = lapy2(sigma, temp);
      cs = sqrt(0.5 * (1.0 + fabs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign(1.0, sigma);
      // [aa bb; cc dd] = [a b; c d] [cs -sn; sn cs]
      double aa = a * cs + b * sn, bb = -a * sn + b * cs;
      double cc = c * cs + d * sn, dd = -c * sn + d * cs;
      // [a b; c d] = [cs sn; -sn cs] [aa bb; cc dd]
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      temp = 0.5 * (a + d);
      a = temp;
      d = temp;
      if (c != 0.0) {
        if (b != 0.0) {
          if (sign(1.0, b) == sign(1.0, c)) {
            // Real eigenvalues: reduce to upper triangular form.
            double sab = sqrt(fabs(b)), sac = sqrt(fabs(c));
            p = sign(sab * sac, c);
            tau = 1.0 / sqrt(fabs(b + c));
            a = temp + p;
            d = temp - p;
            b = b - c;
            c = 0.0;
            double cs1 = sab * tau, sn1 = sac * tau;
            temp = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = temp;
          }
        } else {
          b = -c;
          c = 0.0;
          temp = cs;
          cs = -sn;
          sn = temp;
        }
      }
    }
  }
  rt1r = a;
  rt2r = d;
  if (c == 0.0) {
    rt1i = 0.0;
    rt2i = 0.0;
  } else {
    rt1i = sqrt(fabs(b)) * sqrt(fabs(c));
    rt2i = -rt1i;
  }
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
