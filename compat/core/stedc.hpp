// Eigenvalues and eigenvectors of a real symmetric tridiagonal matrix by divide and conquer
// (Cuppen's method with Gu and Eisenstat's eigenvectors, as LAPACK dstedc / dlaed0-dlaed4): the
// matrix is cut into leaves of at most kStedcLeaf rows by rank-one tears, each leaf is solved by
// implicit QL/QR (steqr), and neighbouring blocks are merged bottom-up. A merge deflates small
// components of the updating vector z and nearly equal poles (Givens rotations), finds each root
// of the secular equation 1 + rho sum z_j^2 / (d_j - lambda) = 0 in its own interval, recomputes
// z from the roots (Loewner's formula, so that the eigenvectors come out orthogonal), and forms the
// block's eigenvectors with one matrix product.
//
// This is the reference the GPU's parallel tridiagonal stage is written against (issue 3: the
// roots and the vectors of a merge are independent, one per thread). Where it departs from LAPACK:
// each secular root is found by safeguarded bisection in coordinates relative to its nearer pole
// (relative accuracy of the distance to the pole, which is what the vectors need) instead of
// dlaed4's rational interpolation, and the merge's product uses the full block instead of its two
// diagonal halves.
//
// Written over a Team like the rest of the core, but so far run and tested with the CPU's team of
// one (tests/test_stedc.cpp): the merge's bookkeeping (sorting, deflation lists) is done by every
// member into the shared workspace, which a GPU team must restrict to its leader first.
#pragma once
#include "steqr.hpp"

namespace sgpu {
namespace core {

constexpr int kStedcLeaf = 25;  // LAPACK's SMLSIZ

// Workspace of stedc for order n: doubles and ints.
SGPU_HD int64_t stedc_work(int n) { return 2 * (int64_t)n * n + 10 * (int64_t)n; }
SGPU_HD int64_t stedc_iwork(int n) { return 6 * (int64_t)n; }

namespace stedc_detail {

// A root of one merge's secular equation: lambda = d[o] + s * u, with u > 0 the distance from its
// nearer pole d[o] (s = +1: the pole below, -1: the pole above).
struct Root {
  int o, s;
  double u;
};

// s * (1 + rho * sum z_j^2 / ((d_j - d_o) - s u)): increasing in u on the root's interval.
SGPU_HD double secular(int k, const double* d, const double* z, double rho, int o, int s, double u) {
  double g = 1.0;
  for (int j = 0; j < k; ++j) g += rho * z[j] * z[j] / ((d[j] - d[o]) - s * u);
  return s * g;
}

// Root i (0-based) of 1 + rho sum z_j^2 / (d_j - lambda) = 0, d ascending, z_j != 0, rho > 0.
SGPU_HD Root secular_root(int k, const double* d, const double* z, double rho, int i) {
  Root r;
  double w;  // the root lies at u in (0, w]
  if (i < k - 1) {
    const double half = 0.5 * (d[i + 1] - d[i]);
    double g = 1.0;
    for (int j = 0; j < k; ++j) g += rho * z[j] * z[j] / ((d[j] - d[i]) - half);
    r.o = g >= 0.0 ? i : i + 1;
    r.s = g >= 0.0 ? 1 : -1;
    w = half;
  } else {
    double zz = 0.0;
    for (int j = 0; j < k; ++j) zz += z[j] * z[j];
    r.o = i;
    r.s = 1;
    w = rho * zz;
  }
  double lo = 0.0, hi = w;
  // First split: the pole's own term against the others at u = 0 (u0 = rho z_o^2 / c).
  double c = 1.0;
  for (int j = 0; j < k; ++j)
    if (j != r.o) c += rho * z[j] * z[j] / (d[j] - d[r.o]);
  c *= r.s;
  if (c > 0.0) {
    const double u0 = rho * z[r.o] * z[r.o] / c;
    if (u0 > 0.0 && u0 < hi) {
      if (secular(k, d, z, rho, r.o, r.s, u0) > 0.0) hi = u0;
      else lo = u0;
    }
  }
  // Bisection, geometric while the bracket spans more than a factor 8: at most a few hundred
  // steps even when the root sits within 1e-300 of its pole.
  for (int it = 0; it < 400; ++it) {
    if (lo > 0.0 && hi - lo <= 2.0 * Mach::eps * lo) break;
    double mid = (lo > 0.0 && hi > 8.0 * lo) ? sqrt(lo) * sqrt(hi) : (lo == 0.0 ? 0.125 * hi : 0.5 * (lo + hi));
    if (!(mid > lo && mid < hi)) break;
    const double v = secular(k, d, z, rho, r.o, r.s, mid);
    if (v > 0.0) hi = mid;
    else if (v < 0.0) lo = mid;
    else {
      lo = hi = mid;
      break;
    }
  }
  r.u = lo > 0.0 ? 0.5 * (lo + hi) : hi;
  return r;
}

// d_i - lambda_j, accurate relative to the distance from lambda_j's pole.
SGPU_HD double gap(const double* d, int i, const Root& rj) { return (d[i] - d[rj.o]) - rj.s * rj.u; }

// Merges the solved blocks [lo, m] and [m + 1, hi] (1-based rows and columns of q) joined by
// rho = e(m): on return d(lo..hi) ascending and q(lo..hi, lo..hi) their eigenvectors.
template <class Team>
SGPU_HD void merge(const Team& t, int lo, int m, int hi, double rho, Vec1<double> d, Mat1<double> q, double* work,
                   int* iwork) {
  const int N = hi - lo + 1, n1 = m - lo + 1;
  double* A = work;                    // N x N: the rank-one problem's vectors U (K x K), then the result
  double* B = A + (int64_t)N * N;      // N x K: Q * U
  double* z = B + (int64_t)N * N;      // N each from here
  double* dl = z + N;
  double* dk = dl + N;
  double* zk = dk + N;
  double* dd = zk + N;
  double* zh = dd + N;
  double* val = zh + N;
  int* p = iwork;                      // N each
  int* ck = p + N;
  int* cd = ck + N;
  int* src = cd + N;
  Root* roots = reinterpret_cast<Root*>(val + N);  // N Roots: 2N doubles of room
  // z: the last row of the upper block's vectors and the first row of the lower block's.
  if (t.leader()) {
    const double s2 = 1.0 / sqrt(2.0);
    for (int i = 0; i < N; ++i) {
      z[i] = (i < n1 ? q(m, lo + i) : q(m + 1, lo + i)) * s2;
      if (i >= n1 && rho < 0.0) z[i] = -z[i];
    }
  }
  t.sync();
  rho = fabs(2.0 * rho);
  // Merge the two ascending lists of eigenvalues (p: block column of each sorted position).
  {
    int a = 0, b = n1, k = 0;
    while (k < N) {
      const bool take_a = b >= N || (a < n1 && d[lo + a] <= d[lo + b]);
      p[k] = take_a ? a++ : b++;
      dl[k] = d[lo + p[k]];
      ++k;
    }
  }
  double dmax = 0.0, zmax = 0.0;
  for (int i = 0; i < N; ++i) {
    dmax = dmax > fabs(dl[i]) ? dmax : fabs(dl[i]);
    zmax = zmax > fabs(z[i]) ? zmax : fabs(z[i]);
  }
  const double tol = 8.0 * Mach::eps * (dmax > zmax ? dmax : zmax);
  // Deflation (dlaed2): small z components, and nearly equal poles by a rotation that zeroes one
  // of the two z components. K kept (dk, zk, column ck), D deflated (dd, column cd).
  int K = 0, D = 0;
  for (int j = 0; j < N; ++j) {
    const int cj = lo + p[j];
    const double zj = z[p[j]], dj = dl[j];
    if (rho * fabs(zj) <= tol) {
      dd[D] = dj;
      cd[D++] = cj;
      continue;
    }
    if (K > 0) {
      double s = zk[K - 1], c = zj;
      const double tau = lapy2(c, s), tt = dj - dk[K - 1];
      c /= tau;
      s = -s / tau;
      if (fabs(tt * c * s) <= tol) {
        const int cl = ck[K - 1];
        for (int r = t.first(lo); r <= hi; r += t.step()) {
          const double x = q(r, cl), y = q(r, cj);
          q(r, cl) = c * x + s * y;
          q(r, cj) = c * y - s * x;
        }
        t.sync();
        dd[D] = dk[K - 1] * c * c + dj * s * s;
        cd[D++] = cl;
        dk[K - 1] = dk[K - 1] * s * s + dj * c * c;
        zk[K - 1] = tau;
        ck[K - 1] = cj;
        continue;
      }
    }
    dk[K] = dj;
    zk[K] = zj;
    ck[K++] = cj;
  }
  // The roots and their vectors (columns of U in A, K x K), and Q * U into B.
  if (K == 1) {
    val[0] = dk[0] + rho * zk[0] * zk[0];
    for (int r = t.first(0); r < N; r += t.step()) B[r] = q(lo + r, ck[0]);
  } else if (K > 1) {
    for (int i = t.first(0); i < K; i += t.step()) {
      roots[i] = secular_root(K, dk, zk, rho, i);
      val[i] = dk[roots[i].o] + roots[i].s * roots[i].u;
    }
    t.sync();
    // Loewner: the z for which the computed roots are exact, so that the vectors are orthogonal.
    for (int i = t.first(0); i < K; i += t.step()) {
      double w = gap(dk, i, roots[i]);
      for (int j = 0; j < K; ++j)
        if (j != i) w *= gap(dk, i, roots[j]) / (dk[i] - dk[j]);
      zh[i] = copysign(sqrt(fabs(w)), zk[i]);
    }
    t.sync();
    for (int j = t.first(0); j < K; j += t.step()) {
      double nrm = 0.0;
      for (int i = 0; i < K; ++i) {
        const double v = zh[i] / gap(dk, i, roots[j]);
        A[i + (int64_t)j * K] = v;
        nrm += v * v;
      }
      nrm = 1.0 / sqrt(nrm);
      for (int i = 0; i < K; ++i) A[i + (int64_t)j * K] *= nrm;
    }
    t.sync();
    for (int r = t.first(0); r < N; r += t.step())
      for (int j = 0; j < K; ++j) {
        double s = 0.0;
        for (int i = 0; i < K; ++i) s += q(lo + r, ck[i]) * A[i + (int64_t)j * K];
        B[r + (int64_t)j * N] = s;
      }
    t.sync();
  }
  // Everything ascending: roots (from B) and deflated values (from q's columns), insertion sort of
  // their positions (src >= 0: column of B; < 0: deflated entry -1 - src).
  if (t.leader()) {
    for (int j = 0; j < K; ++j) src[j] = j;
    for (int j = 0; j < D; ++j) {
      val[K + j] = dd[j];
      src[K + j] = -1 - j;
    }
    for (int a = 1; a < N; ++a) {
      const double v = val[a];
      const int s = src[a];
      int b = a - 1;
      while (b >= 0 && val[b] > v) {
        val[b + 1] = val[b];
        src[b + 1] = src[b];
        --b;
      }
      val[b + 1] = v;
      src[b + 1] = s;
    }
  }
  t.sync();
  for (int r = t.first(0); r < N; r += t.step())
    for (int f = 0; f < N; ++f)
      A[r + (int64_t)f * N] = src[f] >= 0 ? B[r + (int64_t)src[f] * N] : q(lo + r, cd[-1 - src[f]]);
  t.sync();
  for (int r = t.first(0); r < N; r += t.step())
    for (int f = 0; f < N; ++f) q(lo + r, lo + f) = A[r + (int64_t)f * N];
  if (t.leader())
    for (int f = 0; f < N; ++f) d[lo + f] = val[f];
  t.sync();
}

}  // namespace stedc_detail

// dstedc (compz = I): d holds the eigenvalues ascending on return, q (n x n) the eigenvectors;
// e is destroyed. work: stedc_work(n) doubles, iwork: stedc_iwork(n) ints. Returns 0, or i > 0
// when a leaf's QL/QR failed (as dstedc's info).
template <class Team>
SGPU_HD int stedc(const Team& t, int n, Vec1<double> d, Vec1<double> e, Mat1<double> q, double* work, int* iwork) {
  if (n <= 0) return 0;
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) q(r, c) = r == c ? 1.0 : 0.0;
  t.sync();
  if (n == 1) return 0;
  // Scale to unit max norm (dstedc does, so the secular equations neither overflow nor underflow).
  double anrm = 0.0;
  for (int i = 1; i <= n; ++i) anrm = dmax(anrm, fabs(d[i]));
  for (int i = 1; i < n; ++i) anrm = dmax(anrm, fabs(e[i]));
  if (anrm == 0.0) return 0;
  if (t.leader()) {
    for (int i = 1; i <= n; ++i) d[i] /= anrm;
    for (int i = 1; i < n; ++i) e[i] /= anrm;
  }
  t.sync();
  // Leaves: L = 2^levels blocks of at most kStedcLeaf rows; block b starts at 1 + b * n / L.
  int leaves = 1;
  while ((n + leaves - 1) / leaves > kStedcLeaf) leaves *= 2;
  auto start = [&](int b) { return 1 + (int)((int64_t)b * n / leaves); };
  // Rank-one tears: T = diag(T1', T2') + rho v v^T with v = e_m + e_{m+1}.
  if (t.leader())
    for (int b = 1; b < leaves; ++b) {
      const int m = start(b) - 1;
      d[m] -= fabs(e[m]);
      d[m + 1] -= fabs(e[m]);
    }
  t.sync();
  double* cw = work;
  double* sw = work + n;
  for (int b = 0; b < leaves; ++b) {
    const int lo = start(b), hi = start(b + 1) - 1, len = hi - lo + 1;
    Mat1<double> ql{&q(lo, lo), q.rs, q.cs};
    const int info = steqr(t, true, len, Vec1<double>{&d[lo], d.s}, Vec1<double>{&e[lo], e.s}, len, ql,
                           Vec1<double>{cw, 1}, Vec1<double>{sw, 1});
    if (info != 0) return lo + info;  // approximately dstedc's (i, j) encoding: the failing row
  }
  // Merges, bottom-up: blocks of `width` leaves joined pairwise.
  for (int width = 1; width < leaves; width *= 2)
    for (int b = 0; b + width < leaves; b += 2 * width) {
      const int lo = start(b), m = start(b + width) - 1, hi = start(b + 2 * width > leaves ? leaves : b + 2 * width) - 1;
      stedc_detail::merge(t, lo, m, hi, e[m], d, q, work, iwork);
    }
  if (t.leader())
    for (int i = 1; i <= n; ++i) d[i] *= anrm;
  t.sync();
  return 0;
}

}  // namespace core
}  // namespace sgpu
