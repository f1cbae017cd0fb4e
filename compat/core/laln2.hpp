// Solves (ca A - w D) X = s B or (ca A^T - w D) X = s B for a 1x1 or 2x2 A, real or complex w,
// with scaling s <= 1 against overflow and perturbation smin against singularity (LAPACK dlaln2).
// B and X are na x nw, held as b[row][col] (col 0 = real part, col 1 = imaginary part).
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// a(i, j) and returns info (1 if the system was perturbed).
SGPU_HD int laln2(bool ltrans, int na, int nw, double smin, double ca, const double a[2][2], double d1,
                  double d2, const double b[2][2], double wr, double wi, double x[2][2], double& scale,
                  double& xnorm) {
  const bool zswap[4] = {false, false, true, true};
  const bool rswap[4] = {false, true, false, true};
  const int ipivot[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};  // [icmax][k]
  const double smlnum = 2.0 * Mach::safmin, bignum = 1.0 / smlnum;
  const double smini = dmax(smin, smlnum);
  int info = 0;
  scale = 1.0;
  if (na == 1) {
    if (nw == 1) {
      // Real 1x1 system: c = ca a - w d.
      double csr = ca * a[0][0] - wr * d1;
      double cnorm = fabs(csr);
      if (cnorm < smini) {
        csr = smini;
        cnorm = smini;
        info = 1;
      }
      double bnorm = fabs(b[0][0]);
      if (cnorm < 1.0 && bnorm > 1.0 && bnorm > bignum * cnorm) scale = 1.0 / bnorm;
      x[0][0] = (b[0][0] * scale) / csr;
      xnorm = fabs(x[0][0]);
    } else {
      // Complex 1x1 system.
      double csr = ca * a[0][0] - wr * d1, csi = -wi * d1;
      double cnorm = fabs(csr) + fabs(csi);
      if (cnorm < smini) {
        csr = smini;
        csi = 0.0;
        cnorm = smini;
        info = 1;
      }
      double bnorm = fabs(b[0][0]) + fabs(b[0][1]);
      if (cnorm < 1.0 && bnorm > 1.0 && bnorm > bignum * cnorm) scale = 1.0 / bnorm;
      ladiv(scale * b[0][0], scale * b[0][1], csr, csi, x[0][0], x[0][1]);
      xnorm = fabs(x[0][0]) + fabs(x[0][1]);
    }
    return info;
  }
  // 2x2 system. crv/civ hold C column-major: (1,1), (2,1), (1,2), (2,2).
  double crv[4], civ[4];
  crv[0] = ca * a[0][0] - wr * d1;
  crv[3] = ca * a[1][1] - wr * d2;
  if (ltrans) {
    crv[2] = ca * a[1][0];
    crv[1] = ca * a[0][1];
  } else {
    crv[1] = ca * a[1][0];
    crv[2] = ca * a[0][1];
  }
  if (nw == 1) {
    // Real 2x2 system: Gaussian elimination with complete pivoting.
    double cmax = 0.0;
    int icmax = -1;
    for (int j = 0; j < 4; ++j)
      if (fabs(crv[j]) > cmax) {
        cmax = fabs(crv[j]);
        icmax = j;
      }
    if (cmax < smini) {
      // Use smini * identity.
      double bnorm = dmax(fabs(b[0][0]), fabs(b[1][0]));
      if (smini < 1.0 && bnorm > 1.0 && bnorm > bignum * smini) scale = 1.0 / bnorm;
      double temp = scale / smini;
      x[0][0] = temp * b[0][0];
      x[1][0] = temp * b[1][0];
      xnorm = temp * bnorm;
      return 1;
    }
    double ur11 = crv[icmax];
    double cr21 = crv[ipivot[icmax][1]];
    double ur12 = crv[ipivot[icmax][2]];
    double cr22 = crv[ipivot[icmax][3]];
    double ur11r = 1.0 / ur11;
    double lr21 = ur11r * cr21;
    double ur22 = cr22 - ur12 * lr21;
    if (fabs(ur22) < smini) {
      ur22 = smini;
      info = 1;
    }
    double br1, br2;
    if (rswap[icmax]) {
      br1 = b[1][0];
      br2 = b[0][0];
    } else {
      br1 = b[0][0];
      br2 = b[1][0];
    }
    br2 = br2 - lr21 * br1;
    double bbnd = dmax(fabs(br1 * (ur22 * ur11r)), fabs(br2));
    if (bbnd > 1.0 && fabs(ur22) < 1.0 && bbnd >= bignum * fabs(ur22)) scale = 1.0 / bbnd;
    double xr2 = (br2 * scale) / ur22;
    double xr1 = (scale * br1) * ur11r - xr2 * (ur11r * ur12);
    if (zswap[icmax]) {
      x[0][0] = xr2;
      x[1][0] = xr1;
    } else {
      x[0][0] = xr1;
      x[1][0] = xr2;
    }
    xnorm = dmax(fabs(xr1), fabs(xr2));
    // Further scaling if norm(A) norm(X) > overflow.
    if (xnorm > 1.0 && cmax > 1.0 && xnorm > bignum / cmax) {
      double temp = cmax / bignum;
      x[0][0] *= temp;
      x[1][0] *= temp;
      xnorm *= temp;
      scale *= temp;
    }
    return info;
  }
  // Complex 2x2 system.
  civ[0] = -wi * d1;
  civ[1] = 0.0;
  civ[2] = 0.0;
  civ[3] = -wi * d2;
  double cmax = 0.0;
  int icmax = -1;
  for (int j = 0; j < 4; ++j)
    if (fabs(crv[j]) + fabs(civ[j]) > cmax) {
      cmax = fabs(crv[j]) + fabs(civ[j]);
      icmax = j;
    }
  if (cmax < smini) {
    double bnorm = dmax(fabs(b[0][0]) + fabs(b[0][1]), fabs(b[1][0]) + fabs(b[1][1]));
    if (smini < 1.0 && bnorm > 1.0 && bnorm > bignum * smini) scale = 1.0 / bnorm;
    double temp = scale / smini;
    x[0][0] = temp * b[0][0];
    x[1][0] = temp * b[1][0];
    x[0][1] = temp * b[0][1];
    x[1][1] = temp * b[1][1];
    xnorm = temp * bnorm;
    return 1;
  }
  double ur11 = crv[icmax], ui11 = civ[icmax];
  double cr21 = crv[ipivot[icmax][1]], ci21 = civ[ipivot[icmax][1]];
  double ur12 = crv[ipivot[icmax][2]], ui12 = civ[ipivot[icmax][2]];
  double cr22 = crv[ipivot[icmax][3]], ci22 = civ[ipivot[icmax][3]];
  double ur11r, ui11r, lr21, li21, ur12s, ui12s, ur22, ui22;
  if (icmax == 0 || icmax == 3) {
    // Off-diagonals of the pivoted C are real.
    if (fabs(ur11) > fabs(ui11)) {
      double temp = ui11 / ur11;
      ur11r = 1.0 / (ur11 * (1.0 + temp * temp));
      ui11r = -temp * ur11r;
    } else {
      double temp = ur11 / ui11;
      ui11r = -1.0 / (ui11 * (1.0 + temp * temp));
      ur11r = -temp * ui11r;
    }
    lr21 = cr21 * ur11r;
    li21 = cr21 * ui11r;
    ur12s = ur12 * ur11r;
    ui12s = ur12 * ui11r;
    ur22 = cr22 - ur12 * lr21;
    ui22 = ci22 - ur12 * li21;
  } else {
    // Diagonals of the pivoted C are real.
    ur11r = 1.0 / ur11;
    ui11r = 0.0;
    lr21 = cr21 * ur11r;
    li21 = ci21 * ur11r;
    ur12s = ur12 * ur11r;
    ui12s = ui12 * ur11r;
    ur22 = cr22 - ur12 * lr21 + ui12 * li21;
    ui22 = -ur12 * li21 - ui12 * lr21;
  }
  double u22abs = fabs(ur22) + fabs(ui22);
  if (u22abs < smini) {
    ur22 = smini;
    ui22 = 0.0;
    info = 1;
  }
  double br1, br2, bi1, bi2;
  if (rswap[icmax]) {
    br2 = b[0][0];
    br1 = b[1][0];
    bi2 = b[0][1];
    bi1 = b[1][1];
  } else {
    br1 = b[0][0];
    br2 = b[1][0];
    bi1 = b[0][1];
    bi2 = b[1][1];
  }
  br2 = br2 - lr21 * br1 + li21 * bi1;
  bi2 = bi2 - li21 * br1 - lr21 * bi1;
  double bbnd = dmax((fabs(br1) + fabs(bi1)) * (u22abs * (fabs(ur11r) + fabs(ui11r))), fabs(br2) + fabs(bi2));
  if (bbnd > 1.0 && u22abs < 1.0 && bbnd >= bignum * u22abs) {
    scale = 1.0 / bbnd;
    br1 *= scale;
    bi1 *= scale;
    br2 *= scale;
    bi2 *= scale;
  }
  double xr2, xi2;
  ladiv(br2, bi2, ur22, ui22, xr2, xi2);
  double xr1 = ur11r * br1 - ui11r * bi1 - ur12s * xr2 + ui12s * xi2;
  double xi1 = ui11r * br1 + ur11r * bi1 - ui12s * xr2 - ur12s * xi2;
  if (zswap[icmax]) {
    x[0][0] = xr2;
    x[1][0] = xr1;
    x[0][1] = xi2;
    x[1][1] = xi1;
  } else {
    x[0][0] = xr1;
    x[1][0] = xr2;
    x[0][1] = xi1;
    x[1][1] = xi2;
  }
  xnorm = dmax(fabs(xr1) + fabs(xi1), fabs(xr2) + fabs(xi2));
  if (xnorm > 1.0 && cmax > 1.0 && xnorm > bignum / cmax) {
    double temp = cmax / bignum;
    x[0][0] *= temp;
    x[1][0] *= temp;
    x[0][1] *= temp;
    x[1][1] *= temp;
    xnorm *= temp;
    scale *= temp;
  }
  return info;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
