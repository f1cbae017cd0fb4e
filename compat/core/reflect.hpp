// Elementary reflectors and plane rotations, as LAPACK's dnrm2/dlarfg/zlarfg/dlartg define them.
// Every team member calls these with the same scalar arguments; vector work is shared.
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Plain sums of squares are exact enough (relative error ~ n ulp) when they land in
// [kSsqMin, kSsqMax]: no square overflowed, and squares that underflowed are below
// n * 2^-1022, negligible against kSsqMin. Otherwise the scaled two-pass form is used.
constexpr double kSsqMin = 1e-280, kSsqMax = 1e280;

// Overflow- and underflow-safe 2-norm of x[0..n): one pass when the plain sum of squares is in
// range, else scaled by the largest magnitude (two more team reductions).
template <class Team>
SGPU_HD double nrm2(const Team& t, int n, Vec<double> x) {
  double ssq = t.sum(member_sum(t, 0, n, [&](int i) { return x[i] * x[i]; }));
  if (ssq >= kSsqMin && ssq <= kSsqMax) return sqrt(ssq);
  double amax = 0.0;
  for (int i = t.first(0); i < n; i += t.step()) amax = dmax(amax, fabs(x[i]));
  amax = t.max(amax);
  if (amax == 0.0 || !finite(amax)) return amax;
  const Divider inv(amax);  // (amax may be subnormal)
  ssq = member_sum(t, 0, n, [&](int i) {
    const double v = inv(x[i]);
    return v * v;
  });
  return amax * sqrt(t.sum(ssq));
}

template <class Team>
SGPU_HD double znrm2(const Team& t, int n, Vec<zc> x) {
  double ssq = t.sum(member_sum(t, 0, n, [&](int i) { return x[i].re * x[i].re + x[i].im * x[i].im; }));
  if (ssq >= kSsqMin && ssq <= kSsqMax) return sqrt(ssq);
  double amax = 0.0;
  for (int i = t.first(0); i < n; i += t.step()) amax = dmax(amax, dmax(fabs(x[i].re), fabs(x[i].im)));
  amax = t.max(amax);
  if (amax == 0.0 || !finite(amax)) return amax;
  const Divider inv(amax);
  ssq = member_sum(t, 0, n, [&](int i) {
    const double a = inv(x[i].re), b = inv(x[i].im);
    return a * a + b * b;
  });
  return amax * sqrt(t.sum(ssq));
}

template <class Team, class T>
SGPU_HD void scal(const Team& t, int n, double a, Vec<T> x) {
  for (int i = t.first(0); i < n; i += t.step()) x[i] = a * x[i];
  t.sync();
}

// Real reflector H = I - tau v v^T with v = (1, x) such that H (alpha, x) = (beta, 0) (dlarfg).
// Overwrites x with v(2:n) and returns beta.
template <class Team>
SGPU_HD double larfg(const Team& t, int n, double alpha, Vec<double> x, double& tau) {
  tau = 0.0;
  if (n <= 1) return alpha;
  double xnorm = nrm2(t, n - 1, x);
  if (xnorm == 0.0) return alpha;
  double beta = -sign(lapy2(alpha, xnorm), alpha);
  const double safmin = Mach::safmin / Mach::eps, rsafmn = 1.0 / safmin;
  int knt = 0;
  if (fabs(beta) < safmin) {
    do {
      ++knt;
      t.sync();
      scal(t, n - 1, rsafmn, x);
      beta *= rsafmn;
      alpha *= rsafmn;
    } while (fabs(beta) < safmin && knt < 20);
    xnorm = nrm2(t, n - 1, x);
    beta = -sign(lapy2(alpha, xnorm), alpha);
  }
  tau = (beta - alpha) / beta;
  t.sync();
  scal(t, n - 1, 1.0 / (alpha - beta), x);
  for (int j = 0; j < knt; ++j) beta *= safmin;
  return beta;
}

// larfg for n = 2 or 3 with the vector in registers (x2 unused for n = 2): the double-shift
// bulge's reflector, on the serial path of every bulge step. In range (no square under- or
// overflows), with r = 1/sqrt(alpha^2 + |x|^2):
//   beta = -sign(1/r, alpha),  tau = (beta - alpha) / beta = 1 + |alpha| r,
//   v = x / (alpha - beta) = sign(alpha) x / (|alpha| + 1/r),
// one reciprocal square root and one division where larfg takes three square roots (nrm2's,
// lapy2's) and three divisions; the results agree with larfg's to an ulp or two. Out of range,
// larfg itself.
SGPU_HD double larfg3(int n, double alpha, double& x1, double& x2, double& tau) {
  tau = 0.0;
  if (n <= 1) return alpha;
  const double ssq = n == 3 ? x1 * x1 + x2 * x2 : x1 * x1;
  const double s2 = alpha * alpha + ssq;
  if (ssq >= kSsqMin && s2 <= kSsqMax) {
    // |beta| >= sqrt(kSsqMin) = 1e-140, far above larfg's rescaling threshold safmin / eps.
    const double r = rsqrt_in_range(s2), nrm = s2 * r, aa = fabs(alpha);
    tau = 1.0 + aa * r;
    const double inv = sign(rcp_in_range(aa + nrm), alpha);  // aa + nrm in [1e-140, 1e140]
    x1 *= inv;
    if (n == 3) x2 *= inv;
    return -sign(nrm, alpha);
  }
  double v[2] = {x1, n == 3 ? x2 : 0.0};
  const double beta = larfg(TeamOne{}, n, alpha, Vec<double>{v, 1}, tau);
  x1 = v[0];
  if (n == 3) x2 = v[1];
  return beta;
}

// zlarfg's scalars from xnorm = ||x||: returns beta, with tau and the factor inv that turns x into
// v(2:n) (x = inv * x, left to the caller, who may fuse it with other work; inv = 1 when H = I).
// x is rescaled in place only when beta would be below safmin (LAPACK's knt loop).
template <class Team>
SGPU_HD double zlarfg_scalars(const Team& t, int n, zc alpha, Vec<zc> x, double xnorm, zc& tau, zc& inv) {
  tau = zc{0.0, 0.0};
  inv = zc{1.0, 0.0};
  if (n <= 0) return alpha.re;
  double alphr = alpha.re, alphi = alpha.im;
  if (xnorm == 0.0 && alphi == 0.0) return alphr;  // H = I; beta = alpha is real
  double beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
  const double safmin = Mach::safmin / Mach::eps, rsafmn = 1.0 / safmin;
  int knt = 0;
  if (fabs(beta) < safmin) {
    do {
      ++knt;
      t.sync();
      scal(t, n - 1, rsafmn, x);
      beta *= rsafmn;
      alphi *= rsafmn;
      alphr *= rsafmn;
    } while (fabs(beta) < safmin && knt < 20);
    xnorm = znrm2(t, n - 1, x);
    beta = -sign(lapy2(lapy2(alphr, alphi), xnorm), alphr);
  }
  tau = zc{(beta - alphr) / beta, -alphi / beta};
  inv = zdiv(zc{1.0, 0.0}, zc{alphr - beta, alphi});
  for (int j = 0; j < knt; ++j) beta *= safmin;
  return beta;
}

// zlarfg_scalars from ssq, the plain sum of squares of x(1:n-1), where no square under- or
// overflows: with r = 1 / sqrt(|alpha|^2 + ssq) and m = |alphr| + 1/r (no cancellation),
//   beta = -sign(1/r, alphr),  tau = (1 + |alphr| r, sign(r, alphr) alphi),
//   inv = 1 / (alpha - beta) = (sign(m, alphr), -alphi) / (m^2 + alphi^2),
// one reciprocal square root and one reciprocal where zlarfg_scalars takes three square roots and
// four divisions on its serial path; the results agree with it to an ulp or two (test_reflect).
// Returns false, setting nothing, out of that range (and where H = I may be the answer).
SGPU_HD bool zlarfg_scalars_in_range(int n, zc alpha, double ssq, double& beta, zc& tau, zc& inv) {
  const double ar = alpha.re, ai = alpha.im, s2 = ssq + (ar * ar + ai * ai);
  if (n <= 1 || !(ssq >= kSsqMin && s2 <= kSsqMax)) return false;
  // |beta| >= sqrt(kSsqMin) = 1e-140, far above zlarfg's rescaling threshold safmin / eps.
  const double r = rsqrt_in_range(s2), nrm = s2 * r, m = fabs(ar) + nrm;
  tau = zc{1.0 + fabs(ar) * r, sign(r, ar) * ai};
  const double den = m * m + ai * ai;  // >= kSsqMin
  const double rd = den <= kSsqMax ? rcp_in_range(den) : 1.0 / den;
  inv = zc{sign(m, ar) * rd, -ai * rd};
  beta = -sign(nrm, ar);
  return true;
}

// Complex reflector H = I - tau v v^H, v = (1, x), H^H (alpha, x) = (beta, 0) with beta real (zlarfg).
template <class Team>
SGPU_HD double zlarfg(const Team& t, int n, zc alpha, Vec<zc> x, zc& tau) {
  tau = zc{0.0, 0.0};
  if (n <= 0) return alpha.re;
  zc inv;
  const double beta = zlarfg_scalars(t, n, alpha, x, znrm2(t, n - 1, x), tau, inv);
  if (tau.re == 0.0 && tau.im == 0.0) return beta;
  t.sync();
  for (int i = t.first(0); i < n - 1; i += t.step()) x[i] = inv * x[i];
  t.sync();
  return beta;
}

// Plane rotation [c s; -s c] (f, g) = (r, 0) (dlartg, LAPACK 3.10 semantics).
SGPU_HD void lartg(double f, double g, double& c, double& s, double& r) {
  const double safmin = Mach::safmin, safmax = 1.0 / safmin;
  const double rtmin = sqrt(safmin), rtmax = sqrt(safmax / 2);
  double f1 = fabs(f), g1 = fabs(g);
  if (g == 0.0) {
    c = 1.0; s = 0.0; r = f;
  } else if (f == 0.0) {
    c = 0.0; s = sign(1.0, g); r = g1;
  } else if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
    // The QR chains' serial path: 1/d as one reciprocal square root of f^2 + g^2 when that lies
    // in rsqrt_in_range's range (on the GPU: no square root and no division), else one square
    // root and one division.
    const double d2 = f * f + g * g;
    double d, rd;
    if (d2 >= kSsqMin && d2 <= kSsqMax) {
      rd = rsqrt_in_range(d2);
      d = d2 * rd;
    } else {
      d = sqrt(d2);
      rd = 1.0 / d;
    }
    c = f1 * rd;
    r = sign(d, f);
    s = (f > 0.0 ? g : -g) * rd;
  } else {
    double u = dmin(safmax, dmax(safmin, dmax(f1, g1)));
    double fs = f / u, gs = g / u;
    double d = sqrt(fs * fs + gs * gs), rd = 1.0 / d;
    c = fabs(fs) * rd;
    r = sign(d, f);
    s = (f > 0.0 ? gs : -gs) * rd;
    r *= u;
  }
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
