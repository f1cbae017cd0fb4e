// Reordering of a real Schur form (LAPACK's dlasy2, dlaexc and dtrexc): a diagonal block of T
// (1 x 1, or 2 x 2 for a complex pair) moves to another position by orthogonal similarity,
// Q accumulating the transformations. Aggressive early deflation (dlaqr3) moves the eigenvalues
// it cannot deflate up its window this way.
//
// Indices are 1-based as LAPACK's. Scalar work on the 4 x 4 block is done redundantly by every
// team member in local arrays; the updates of T's rows and columns and of Q are shared.
#pragma once
#include "lanv2.hpp"
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Solves TL X + isgn X TR = scale B for the n1 x n2 matrix X (n1, n2 in {1, 2}; dlasy2 without
// transposes). tl, tr and b are column-major with leading dimension ld; x with leading
// dimension 2. scale <= 1 keeps X from overflowing. Returns 1 when a pivot was perturbed (T and
// TR have close eigenvalues), else 0.
SGPU_HD int lasy2(int isgn, int n1, int n2, const double* tl, const double* tr, const double* b, int ld, double& scale,
                  double* x, double& xnorm) {
  auto TL = [&](int i, int j) { return tl[(i - 1) + ld * (j - 1)]; };
  auto TR = [&](int i, int j) { return tr[(i - 1) + ld * (j - 1)]; };
  auto B = [&](int i, int j) { return b[(i - 1) + ld * (j - 1)]; };
  const double eps = Mach::ulp, smlnum = Mach::safmin / eps, sgn = isgn;
  int info = 0;
  scale = 1.0;
  xnorm = 0.0;
  if (n1 == 0 || n2 == 0) return 0;
  if (n1 == 1 && n2 == 1) {
    double tau1 = TL(1, 1) + sgn * TR(1, 1);
    double bet = fabs(tau1);
    if (bet <= smlnum) {
      tau1 = smlnum;
      bet = smlnum;
      info = 1;
    }
    const double gam = fabs(B(1, 1));
    if (smlnum * gam > bet) scale = 1.0 / gam;
    x[0] = (B(1, 1) * scale) / tau1;
    xnorm = fabs(x[0]);
    return info;
  }
  if (n1 + n2 == 3) {
    // One 2 x 2 system, solved with complete pivoting (pivots below smin raised to smin).
    double tmp[4], btmp[2], smin;
    if (n1 == 1) {
      smin = dmax(eps * dmax(dmax(fabs(TL(1, 1)), fabs(TR(1, 1))),
                             dmax(dmax(fabs(TR(1, 2)), fabs(TR(2, 1))), fabs(TR(2, 2)))),
                  smlnum);
      tmp[0] = TL(1, 1) + sgn * TR(1, 1);
      tmp[3] = TL(1, 1) + sgn * TR(2, 2);
      tmp[1] = sgn * TR(1, 2);
      tmp[2] = sgn * TR(2, 1);
      btmp[0] = B(1, 1);
      btmp[1] = B(1, 2);
    } else {
      smin = dmax(eps * dmax(dmax(fabs(TR(1, 1)), fabs(TL(1, 1))),
                             dmax(dmax(fabs(TL(1, 2)), fabs(TL(2, 1))), fabs(TL(2, 2)))),
                  smlnum);
      tmp[0] = TL(1, 1) + sgn * TR(1, 1);
      tmp[3] = TL(2, 2) + sgn * TR(1, 1);
      tmp[1] = TL(2, 1);
      tmp[2] = TL(1, 2);
      btmp[0] = B(1, 1);
      btmp[1] = B(2, 1);
    }
    // The pivot's position picks where U12, L21 and U22 sit and whether b and x swap.
    const int locu12[4] = {2, 3, 0, 1}, locl21[4] = {1, 0, 3, 2}, locu22[4] = {3, 2, 1, 0};
    const bool xswpiv[4] = {false, false, true, true}, bswpiv[4] = {false, true, false, true};
    int ipiv = 0;  // idamax: the first of the largest
    for (int i = 1; i < 4; ++i)
      if (fabs(tmp[i]) > fabs(tmp[ipiv])) ipiv = i;
    double u11 = tmp[ipiv];
    if (fabs(u11) <= smin) {
      info = 1;
      u11 = smin;
    }
    const double u12 = tmp[locu12[ipiv]];
    const double l21 = tmp[locl21[ipiv]] / u11;
    double u22 = tmp[locu22[ipiv]] - u12 * l21;
    if (fabs(u22) <= smin) {
      info = 1;
      u22 = smin;
    }
    if (bswpiv[ipiv]) {
      const double temp = btmp[1];
      btmp[1] = btmp[0] - l21 * temp;
      btmp[0] = temp;
    } else {
      btmp[1] = btmp[1] - l21 * btmp[0];
    }
    if ((2.0 * smlnum) * fabs(btmp[1]) > fabs(u22) || (2.0 * smlnum) * fabs(btmp[0]) > fabs(u11)) {
      scale = 0.5 / dmax(fabs(btmp[0]), fabs(btmp[1]));
      btmp[0] *= scale;
      btmp[1] *= scale;
    }
    double x2[2];
    x2[1] = btmp[1] / u22;
    x2[0] = btmp[0] / u11 - (u12 / u11) * x2[1];
    if (xswpiv[ipiv]) {
      const double temp = x2[1];
      x2[1] = x2[0];
      x2[0] = temp;
    }
    x[0] = x2[0];
    if (n1 == 1) {
      x[2] = x2[1];  // X(1, 2)
      xnorm = fabs(x[0]) + fabs(x[2]);
    } else {
      x[1] = x2[1];  // X(2, 1)
      xnorm = dmax(fabs(x[0]), fabs(x[1]));
    }
    return info;
  }
  // 2 x 2 by 2 x 2: the equivalent 4 x 4 system, Gaussian elimination with complete pivoting.
  double smin = dmax(dmax(fabs(TR(1, 1)), fabs(TR(1, 2))), dmax(fabs(TR(2, 1)), fabs(TR(2, 2))));
  smin = dmax(smin, dmax(dmax(fabs(TL(1, 1)), fabs(TL(1, 2))), dmax(fabs(TL(2, 1)), fabs(TL(2, 2)))));
  smin = dmax(eps * smin, smlnum);
  double t16[4][4];  // t16[i][j]: row i, column j (0-based)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) t16[i][j] = 0.0;
  t16[0][0] = TL(1, 1) + sgn * TR(1, 1);
  t16[1][1] = TL(2, 2) + sgn * TR(1, 1);
  t16[2][2] = TL(1, 1) + sgn * TR(2, 2);
  t16[3][3] = TL(2, 2) + sgn * TR(2, 2);
  t16[0][1] = TL(1, 2);
  t16[1][0] = TL(2, 1);
  t16[2][3] = TL(1, 2);
  t16[3][2] = TL(2, 1);
  t16[0][2] = sgn * TR(2, 1);
  t16[1][3] = sgn * TR(2, 1);
  t16[2][0] = sgn * TR(1, 2);
  t16[3][1] = sgn * TR(1, 2);
  double btmp[4] = {B(1, 1), B(2, 1), B(1, 2), B(2, 2)};
  int jpiv[4] = {0, 1, 2, 3};
  for (int i = 0; i < 3; ++i) {
    double xmax = 0.0;
    int ipsv = i, jpsv = i;
    for (int ip = i; ip < 4; ++ip)
      for (int jp = i; jp < 4; ++jp)
        if (fabs(t16[ip][jp]) >= xmax) {  // the last of the largest, as dlasy2's loop order
          xmax = fabs(t16[ip][jp]);
          ipsv = ip;
          jpsv = jp;
        }
    if (ipsv != i) {
      for (int k = 0; k < 4; ++k) {
        const double temp = t16[ipsv][k];
        t16[ipsv][k] = t16[i][k];
        t16[i][k] = temp;
      }
      const double temp = btmp[i];
      btmp[i] = btmp[ipsv];
      btmp[ipsv] = temp;
    }
    if (jpsv != i)
      for (int k = 0; k < 4; ++k) {
        const double temp = t16[k][jpsv];
        t16[k][jpsv] = t16[k][i];
        t16[k][i] = temp;
      }
    jpiv[i] = jpsv;
    if (fabs(t16[i][i]) < smin) {
      info = 1;
      t16[i][i] = smin;
    }
    for (int j = i + 1; j < 4; ++j) {
      t16[j][i] = t16[j][i] / t16[i][i];
      btmp[j] = btmp[j] - t16[j][i] * btmp[i];
      for (int k = i + 1; k < 4; ++k) t16[j][k] = t16[j][k] - t16[j][i] * t16[i][k];
    }
  }
  if (fabs(t16[3][3]) < smin) t16[3][3] = smin;
  if ((8.0 * smlnum) * fabs(btmp[0]) > fabs(t16[0][0]) || (8.0 * smlnum) * fabs(btmp[1]) > fabs(t16[1][1]) ||
      (8.0 * smlnum) * fabs(btmp[2]) > fabs(t16[2][2]) || (8.0 * smlnum) * fabs(btmp[3]) > fabs(t16[3][3])) {
    scale = 0.125 / dmax(dmax(fabs(btmp[0]), fabs(btmp[1])), dmax(fabs(btmp[2]), fabs(btmp[3])));
    for (int k = 0; k < 4; ++k) btmp[k] *= scale;
  }
  double tmp[4];
  for (int i = 0; i < 4; ++i) {
    const int k = 3 - i;
    const double temp = 1.0 / t16[k][k];
    tmp[k] = btmp[k] * temp;
    for (int j = k + 1; j < 4; ++j) tmp[k] = tmp[k] - (temp * t16[k][j]) * tmp[j];
  }
  for (int i = 0; i < 3; ++i) {
    const int k = 2 - i;
    if (jpiv[k] != k) {
      const double temp = tmp[k];
      tmp[k] = tmp[jpiv[k]];
      tmp[jpiv[k]] = temp;
    }
  }
  x[0] = tmp[0];
  x[1] = tmp[1];
  x[2] = tmp[2];
  x[3] = tmp[3];
  xnorm = dmax(fabs(tmp[0]) + fabs(tmp[2]), fabs(tmp[1]) + fabs(tmp[3]));
  return info;
}

// Rows r1, r2 of M over columns jlo..jhi, and columns c1, c2 over rows ilo..ihi, rotated as drot:
// (x, y) <- (c x + s y, c y - s x).
template <class Team>
SGPU_HD void rot_rows(const Team& t, Mat1<double> m, int r1, int r2, int jlo, int jhi, double c, double s) {
  for (int j = t.first(jlo); j <= jhi; j += t.step()) {
    const double x = m(r1, j), y = m(r2, j);
    m(r1, j) = c * x + s * y;
    m(r2, j) = c * y - s * x;
  }
  t.sync();
}
template <class Team>
SGPU_HD void rot_cols(const Team& t, Mat1<double> m, int c1, int c2, int ilo, int ihi, double c, double s) {
  for (int i = t.first(ilo); i <= ihi; i += t.step()) {
    const double x = m(i, c1), y = m(i, c2);
    m(i, c1) = c * x + s * y;
    m(i, c2) = c * y - s * x;
  }
  t.sync();
}

// H = I - tau v v^T of order 3 (v general, as dlarfx's order-3 code) applied from the left to rows
// r..r+2 of M over columns jlo..jhi, or from the right to columns c..c+2 over rows ilo..ihi.
template <class Team>
SGPU_HD void larfx3_left(const Team& t, Mat1<double> m, int r, int jlo, int jhi, const double* v, double tau) {
  if (tau == 0.0) return;
  const double t1 = tau * v[0], t2 = tau * v[1], t3 = tau * v[2];
  for (int j = t.first(jlo); j <= jhi; j += t.step()) {
    const double sum = v[0] * m(r, j) + v[1] * m(r + 1, j) + v[2] * m(r + 2, j);
    m(r, j) = m(r, j) - sum * t1;
    m(r + 1, j) = m(r + 1, j) - sum * t2;
    m(r + 2, j) = m(r + 2, j) - sum * t3;
  }
  t.sync();
}
template <class Team>
SGPU_HD void larfx3_right(const Team& t, Mat1<double> m, int c, int ilo, int ihi, const double* v, double tau) {
  if (tau == 0.0) return;
  const double t1 = tau * v[0], t2 = tau * v[1], t3 = tau * v[2];
  for (int i = t.first(ilo); i <= ihi; i += t.step()) {
    const double sum = v[0] * m(i, c) + v[1] * m(i, c + 1) + v[2] * m(i, c + 2);
    m(i, c) = m(i, c) - sum * t1;
    m(i, c + 1) = m(i, c + 1) - sum * t2;
    m(i, c + 2) = m(i, c + 2) - sum * t3;
  }
  t.sync();
}

// The reflector of order 3 that dlarfg(3, alpha, x) defines, with x = (x1, x2): returns beta and
// overwrites x1, x2 with v(2:3).
SGPU_HD double larfg_3(double alpha, double& x1, double& x2, double& tau) {
  double x[2] = {x1, x2};
  const double beta = larfg(TeamOne{}, 3, alpha, Vec<double>{x, 1}, tau);
  x1 = x[0];
  x2 = x[1];
  return beta;
}

// Swaps the adjacent diagonal blocks T11 (n1 x n1, at row j1) and T22 (n2 x n2) of the n x n upper
// quasi-triangular T by an orthogonal similarity, updating Q (n x n) when wantq (dlaexc). Returns
// 1, leaving T and Q unchanged, when the swap was rejected because the result would have been too
// far from upper quasi-triangular (the blocks' eigenvalues too close).
template <class Team>
SGPU_HD int laexc(const Team& t, bool wantq, int n, Mat1<double> T, Mat1<double> Q, int j1, int n1, int n2) {
  if (n == 0 || n1 == 0 || n2 == 0 || j1 + n1 > n) return 0;
  const int j2 = j1 + 1, j3 = j1 + 2, j4 = j1 + 3;
  if (n1 == 1 && n2 == 1) {
    const double t11 = T(j1, j1), t22 = T(j2, j2);
    double cs, sn, temp;
    lartg(T(j1, j2), t22 - t11, cs, sn, temp);
    t.sync();
    if (j3 <= n) rot_rows(t, T, j1, j2, j3, n, cs, sn);
    rot_cols(t, T, j1, j2, 1, j1 - 1, cs, sn);
    if (t.leader()) {
      T(j1, j1) = t22;
      T(j2, j2) = t11;
    }
    t.sync();
    if (wantq) rot_cols(t, Q, j1, j2, 1, n, cs, sn);
    return 0;
  }
  // At least one 2 x 2 block: the swap is done on a copy D of the (n1 + n2) block first and
  // accepted only if it leaves D quasi-triangular to within thresh.
  const int nd = n1 + n2;
  double d[16];
  double dnorm = 0.0;
  for (int j = 0; j < nd; ++j)
    for (int i = 0; i < nd; ++i) {
      d[i + 4 * j] = T(j1 + i, j1 + j);
      const double a = fabs(d[i + 4 * j]);
      if (a > dnorm || a != a) dnorm = a;  // dlange('M') propagates NaN
    }
  t.sync();
  const Mat1<double> D{d, 1, 4};
  const double eps = Mach::ulp, smlnum = Mach::safmin / eps;
  const double thresh = dmax(10.0 * eps * dnorm, smlnum);
  double scale, x[4], xnorm;
  lasy2(-1, n1, n2, d, &d[n1 + 4 * n1], &d[4 * n1], 4, scale, x, xnorm);
  const TeamOne one;
  if (n1 == 1 && n2 == 2) {
    // (scale, X11, X12) H = (0, 0, *).
    double u[3] = {scale, x[0], x[2]}, tau;
    u[2] = larfg_3(u[2], u[0], u[1], tau);
    u[2] = 1.0;
    const double t11 = T(j1, j1);
    larfx3_left(one, D, 1, 1, 3, u, tau);
    larfx3_right(one, D, 1, 1, 3, u, tau);
    if (dmax(dmax(fabs(D(3, 1)), fabs(D(3, 2))), fabs(D(3, 3) - t11)) > thresh) return 1;
    t.sync();
    larfx3_left(t, T, j1, j1, n, u, tau);
    larfx3_right(t, T, j1, 1, j2, u, tau);
    if (t.leader()) {
      T(j3, j1) = 0.0;
      T(j3, j2) = 0.0;
      T(j3, j3) = t11;
    }
    t.sync();
    if (wantq) larfx3_right(t, Q, j1, 1, n, u, tau);
  } else if (n1 == 2 && n2 == 1) {
    // H (-X11, -X21, scale) = (*, 0, 0).
    double u[3] = {-x[0], -x[1], scale}, tau;
    u[0] = larfg_3(u[0], u[1], u[2], tau);
    u[0] = 1.0;
    const double t33 = T(j3, j3);
    larfx3_left(one, D, 1, 1, 3, u, tau);
    larfx3_right(one, D, 1, 1, 3, u, tau);
    if (dmax(dmax(fabs(D(2, 1)), fabs(D(3, 1))), fabs(D(1, 1) - t33)) > thresh) return 1;
    t.sync();
    larfx3_right(t, T, j1, 1, j3, u, tau);
    larfx3_left(t, T, j1, j2, n, u, tau);
    if (t.leader()) {
      T(j1, j1) = t33;
      T(j2, j1) = 0.0;
      T(j3, j1) = 0.0;
    }
    t.sync();
    if (wantq) larfx3_right(t, Q, j1, 1, n, u, tau);
  } else {
    // H(2) H(1) (-X, scale I) = (R; 0): two reflectors of order 3.
    double u1[3] = {-x[0], -x[1], scale}, tau1;
    u1[0] = larfg_3(u1[0], u1[1], u1[2], tau1);
    u1[0] = 1.0;
    const double temp = -tau1 * (x[2] + u1[1] * x[3]);
    double u2[3] = {-temp * u1[1] - x[3], -temp * u1[2], scale}, tau2;
    u2[0] = larfg_3(u2[0], u2[1], u2[2], tau2);
    u2[0] = 1.0;
    larfx3_left(one, D, 1, 1, 4, u1, tau1);
    larfx3_right(one, D, 1, 1, 4, u1, tau1);
    larfx3_left(one, D, 2, 1, 4, u2, tau2);
    larfx3_right(one, D, 2, 1, 4, u2, tau2);
    if (dmax(dmax(fabs(D(3, 1)), fabs(D(3, 2))), dmax(fabs(D(4, 1)), fabs(D(4, 2)))) > thresh) return 1;
    t.sync();
    larfx3_left(t, T, j1, j1, n, u1, tau1);
    larfx3_right(t, T, j1, 1, j4, u1, tau1);
    larfx3_left(t, T, j2, j1, n, u2, tau2);
    larfx3_right(t, T, j2, 1, j4, u2, tau2);
    if (t.leader()) {
      T(j3, j1) = 0.0;
      T(j3, j2) = 0.0;
      T(j4, j1) = 0.0;
      T(j4, j2) = 0.0;
    }
    t.sync();
    if (wantq) {
      larfx3_right(t, Q, j1, 1, n, u1, tau1);
      larfx3_right(t, Q, j2, 1, n, u2, tau2);
    }
  }
  double wr1, wi1, wr2, wi2, cs, sn;
  if (n2 == 2) {
    // Standardize the new leading 2 x 2 block.
    double a = T(j1, j1), b = T(j1, j2), c = T(j2, j1), dd = T(j2, j2);
    lanv2(a, b, c, dd, wr1, wi1, wr2, wi2, cs, sn);
    t.sync();
    if (t.leader()) {
      T(j1, j1) = a;
      T(j1, j2) = b;
      T(j2, j1) = c;
      T(j2, j2) = dd;
    }
    t.sync();
    rot_rows(t, T, j1, j2, j1 + 2, n, cs, sn);
    rot_cols(t, T, j1, j2, 1, j1 - 1, cs, sn);
    if (wantq) rot_cols(t, Q, j1, j2, 1, n, cs, sn);
  }
  if (n1 == 2) {
    // Standardize the new trailing 2 x 2 block.
    const int k3 = j1 + n2, k4 = k3 + 1;
    double a = T(k3, k3), b = T(k3, k4), c = T(k4, k3), dd = T(k4, k4);
    lanv2(a, b, c, dd, wr1, wi1, wr2, wi2, cs, sn);
    t.sync();
    if (t.leader()) {
      T(k3, k3) = a;
      T(k3, k4) = b;
      T(k4, k3) = c;
      T(k4, k4) = dd;
    }
    t.sync();
    if (k3 + 2 <= n) rot_rows(t, T, k3, k4, k3 + 2, n, cs, sn);
    rot_cols(t, T, k3, k4, 1, k3 - 1, cs, sn);
    if (wantq) rot_cols(t, Q, k3, k4, 1, n, cs, sn);
  }
  return 0;
}

// Moves the diagonal block of T starting at row ifst to row ilst by a sequence of adjacent swaps
// (dtrexc), updating Q when wantq. ifst and ilst are adjusted to the first rows of their blocks;
// on return ilst is where the block ended. Returns 1 when a swap was rejected (the block then
// stops at ilst).
template <class Team>
SGPU_HD int trexc(const Team& t, bool wantq, int n, Mat1<double> T, Mat1<double> Q, int& ifst, int& ilst) {
  if (n <= 1) return 0;
  if (ifst > 1 && T(ifst, ifst - 1) != 0.0) --ifst;
  int nbf = 1;
  if (ifst < n && T(ifst + 1, ifst) != 0.0) nbf = 2;
  if (ilst > 1 && T(ilst, ilst - 1) != 0.0) --ilst;
  int nbl = 1;
  if (ilst < n && T(ilst + 1, ilst) != 0.0) nbl = 2;
  if (ifst == ilst) return 0;
  int here = ifst;
  if (ifst < ilst) {
    if (nbf == 2 && nbl == 1) --ilst;
    if (nbf == 1 && nbl == 2) ++ilst;
    do {
      if (nbf == 1 || nbf == 2) {
        // The block (1 x 1 or 2 x 2) swaps with the next one below.
        int nbnext = 1;
        if (here + nbf + 1 <= n && T(here + nbf + 1, here + nbf) != 0.0) nbnext = 2;
        t.sync();
        if (laexc(t, wantq, n, T, Q, here, nbf, nbnext)) {
          ilst = here;
          return 1;
        }
        here += nbnext;
        // A 2 x 2 block may have split into two 1 x 1 blocks.
        if (nbf == 2 && T(here + 1, here) == 0.0) nbf = 3;
      } else {
        // Two 1 x 1 blocks, swapped one at a time.
        int nbnext = 1;
        if (here + 3 <= n && T(here + 3, here + 2) != 0.0) nbnext = 2;
        t.sync();
        if (laexc(t, wantq, n, T, Q, here + 1, 1, nbnext)) {
          ilst = here;
          return 1;
        }
        if (nbnext == 1) {
          laexc(t, wantq, n, T, Q, here, 1, nbnext);
          ++here;
        } else {
          if (T(here + 2, here + 1) == 0.0) nbnext = 1;
          t.sync();
          if (nbnext == 2) {
            if (laexc(t, wantq, n, T, Q, here, 1, nbnext)) {
              ilst = here;
              return 1;
            }
            here += 2;
          } else {
            laexc(t, wantq, n, T, Q, here, 1, 1);
            laexc(t, wantq, n, T, Q, here + 1, 1, 1);
            here += 2;
          }
        }
      }
      t.sync();
    } while (here < ilst);
  } else {
    do {
      if (nbf == 1 || nbf == 2) {
        // The block swaps with the next one above.
        int nbnext = 1;
        if (here >= 3 && T(here - 1, here - 2) != 0.0) nbnext = 2;
        t.sync();
        if (laexc(t, wantq, n, T, Q, here - nbnext, nbnext, nbf)) {
          ilst = here;
          return 1;
        }
        here -= nbnext;
        if (nbf == 2 && T(here + 1, here) == 0.0) nbf = 3;
      } else {
        int nbnext = 1;
        if (here >= 3 && T(here - 1, here - 2) != 0.0) nbnext = 2;
        t.sync();
        if (laexc(t, wantq, n, T, Q, here - nbnext, nbnext, 1)) {
          ilst = here;
          return 1;
        }
        if (nbnext == 1) {
          laexc(t, wantq, n, T, Q, here, nbnext, 1);
          --here;
        } else {
          if (T(here, here - 1) == 0.0) nbnext = 1;
          t.sync();
          if (nbnext == 2) {
            if (laexc(t, wantq, n, T, Q, here - 1, 2, 1)) {
              ilst = here;
              return 1;
            }
            here -= 2;
          } else {
            laexc(t, wantq, n, T, Q, here, 1, 1);
            laexc(t, wantq, n, T, Q, here - 1, 1, 1);
            here -= 2;
          }
        }
      }
      t.sync();
    } while (here > ilst);
  }
  ilst = here;
  return 0;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
