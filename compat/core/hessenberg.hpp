// Householder reduction to upper Hessenberg form (seed 000 Alg. 1; LAPACK dgehd2) and the
// explicit orthogonal factor (dorghr). Rows and columns are the team's units of work: the
// right update gives each member whole rows, the left update whole columns.
#pragma once
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// v^T y for the reflector v = (1, x[0..m-2]) and y[0..m-1], summed in blocks (defs.hpp: kSumBlock).
SGPU_HD double dot_v(int m, Vec<double> x, Vec<double> y) {
  double s = y[0];
  for (int k0 = 1; k0 < m; k0 += kSumBlock) {
    const int k1 = k0 + kSumBlock < m ? k0 + kSumBlock : m;
    double p = 0.0;
    for (int k = k0; k < k1; ++k) p += x[k - 1] * y[k];
    s += p;
  }
  return s;
}

// A(ilo:ihi, ilo:ihi) is reduced; reflector i (i = ilo..ihi-1) is stored below the subdiagonal
// of column i with its scalar in tau[i] (1-based, as LAPACK). w[1..n] and part[1..n] are
// workspace.
template <class Team>
SGPU_HD void gehd2(const Team& t, int n, int ilo, int ihi, Mat1<double> a, Vec1<double> tau, Vec1<double> w,
                   Vec1<double> part) {
  for (int i = ilo; i <= ihi - 1; ++i) {
    const int m = ihi - i;  // reflector length: rows i+1..ihi
    t.sync();
    double alpha = a(i + 1, i);
    double ti;
    Vec<double> x = col(a, i + 2 <= n ? i + 2 : n, i);
    double beta = larfg(t, m, alpha, x, ti);
    if (t.leader()) tau[i] = ti;
    // Right: A(1:ihi, i+1:ihi) -= tau (A v) v^T (LAPACK dlarf), each row's sum in blocks of
    // kSumBlock columns (defs.hpp). A team of one walks down the columns (contiguous on the CPU),
    // a block's sums in part[]; a wider team gives each member whole rows and keeps the sums in
    // registers. Both add the same terms in the same order, so they give the same bits.
    if (t.step() == 1) {
      for (int r = 1; r <= ihi; ++r) w[r] = a(r, i + 1);
      for (int k0 = 1; k0 < m; k0 += kSumBlock) {
        const int k1 = k0 + kSumBlock < m ? k0 + kSumBlock : m;
        for (int r = 1; r <= ihi; ++r) part[r] = 0.0;
        for (int k = k0; k < k1; ++k) {
          const double xk = x[k - 1];
          for (int r = 1; r <= ihi; ++r) part[r] += a(r, i + 1 + k) * xk;
        }
        for (int r = 1; r <= ihi; ++r) w[r] += part[r];
      }
      for (int r = 1; r <= ihi; ++r) {
        w[r] *= ti;
        a(r, i + 1) -= w[r];
      }
      for (int k = 1; k < m; ++k) {
        const double xk = x[k - 1];
        for (int r = 1; r <= ihi; ++r) a(r, i + 1 + k) -= w[r] * xk;
      }
    } else {
      for (int r = t.first(1); r <= ihi; r += t.step()) {
        const double s = ti * dot_v(m, x, row(a, r, i + 1));
        a(r, i + 1) -= s;
        for (int k = 1; k < m; ++k) a(r, i + 1 + k) -= s * x[k - 1];
      }
    }
    t.sync();
    // Left: A(i+1:ihi, i+1:n) -= tau v (v^T A), one column per member.
    for (int c = t.first(i + 1); c <= n; c += t.step()) {
      const double w = ti * dot_v(m, x, col(a, i + 1, c));
      a(i + 1, c) -= w;
      for (int k = 1; k < m; ++k) a(i + 1 + k, c) -= w * x[k - 1];
    }
    t.sync();
    if (t.leader()) a(i + 1, i) = beta;
  }
  t.sync();
}

// Q = H(ilo) H(ilo+1) ... H(ihi-1) into q (n x n), from the reflectors gehd2 left in a.
template <class Team>
SGPU_HD void orghr(const Team& t, int n, int ilo, int ihi, Mat1<double> a, Vec1<double> tau, Mat1<double> q) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) q(r, c) = (r == c) ? 1.0 : 0.0;
  t.sync();
  // Backward accumulation: column c of Q only ever changes in the member that owns c, so the
  // ownership must not move with i (team loops start at 1, not at i + 1: no sync is needed).
  for (int i = ihi - 1; i >= ilo; --i) {
    const int m = ihi - i;
    const double ti = tau[i];
    for (int c = t.first(1); c <= ihi; c += t.step()) {
      if (c < i + 1) continue;
      const double w = ti * dot_v(m, col(a, i + 2 <= n ? i + 2 : n, i), col(q, i + 1, c));
      q(i + 1, c) -= w;
      for (int k = 1; k < m; ++k) q(i + 1 + k, c) -= w * a(i + 1 + k, i);
    }
  }
  t.sync();
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
