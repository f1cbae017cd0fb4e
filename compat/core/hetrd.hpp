// Householder tridiagonalization of a Hermitian matrix held in its lower triangle (LAPACK zhetd2,
// and seed 002's reduced form: one matrix-vector product per step, p = tau A v,
// w = p - (tau/2)(p^H v) v, A -= v w^H + w v^H), the explicit unitary factor (zungtr), and the
// phase scaling that turns a Hermitian tridiagonal into a real symmetric one (seed 002 §3).
#pragma once
#include "reflect.hpp"

namespace sgpu {
namespace core {

// Reduces the Hermitian A, held in its lower triangle (n x n), to T = Q^H A Q (LAPACK zhetd2 with
// uplo = 'L'). On return d[1..n] is diag(T), e[1..n-1] the subdiagonal of T (complex in general;
// real with zlarfg's reflectors), reflector i in A(i+2:n, i) with scalar tau[i]. y[1..n] is
// workspace. The strictly upper triangle is neither read nor written.
//
// Every inner loop runs down a column of the lower triangle, members owning rows (contiguous on
// the CPU, coalesced on the GPU): y = tau A v as zhemv's column algorithm (a saxpy below the
// diagonal and a dot with the same column, the dot reduced over the team and added by the owner of
// that row), then the rank-2 update A -= v w^H + w v^H column by column.
template <class Team>
SGPU_HD void hetd2(const Team& t, int n, Mat1<zc> a, Vec1<double> d, Vec1<zc> e, Vec1<zc> tau, Vec1<zc> y) {
  for (int i = 1; i <= n - 1; ++i) {
    const int m = n - i;  // order of the trailing matrix A(i+1:n, i+1:n)
    t.sync();
    zc alpha = a(i + 1, i);
    zc taui;
    Vec<zc> x = col(a, i + 2 <= n ? i + 2 : n, i);  // v = (1, x)
    double beta = zlarfg(t, m, alpha, x, taui);
    auto v = [&](int k) -> zc { return k == 1 ? zc{1.0, 0.0} : x[k - 2]; };  // v_k, k = 1..m
    if (taui.re != 0.0 || taui.im != 0.0) {
      for (int r = t.first(1); r <= m; r += t.step()) y[r] = zc{0.0, 0.0};
      for (int c = 1; c <= m; ++c) {
        const zc vc = v(c);
        zc dot{0.0, 0.0};
        for (int r = t.first(c + 1); r <= m; r += t.step()) {
          const zc arc = a(i + r, i + c);
          y[r] = y[r] + arc * vc;
          dot = dot + conj(arc) * v(r);
        }
        dot.re = t.sum(dot.re);
        dot.im = t.sum(dot.im);
        if (t.owns(1, c)) y[c] = y[c] + a(i + c, i + c).re * vc + dot;
      }
      for (int r = t.first(1); r <= m; r += t.step()) y[r] = taui * y[r];
      t.sync();
      // w = y - (tau/2) (y^H v) v
      zc dot{0.0, 0.0};
      for (int k = t.first(1); k <= m; k += t.step()) dot = dot + conj(y[k]) * v(k);
      dot.re = t.sum(dot.re);
      dot.im = t.sum(dot.im);
      const zc alph = (-0.5) * (taui * dot);
      t.sync();
      for (int k = t.first(1); k <= m; k += t.step()) y[k] = y[k] + alph * v(k);
      t.sync();
      // A -= v w^H + w v^H on the lower triangle, column by column; the diagonal stays real.
      for (int c = 1; c <= m; ++c) {
        const zc vc = conj(v(c)), wc = conj(y[c]);
        for (int r = t.first(c); r <= m; r += t.step()) a(i + r, i + c) = a(i + r, i + c) - (v(r) * wc + y[r] * vc);
      }
      for (int c = t.first(1); c <= m; c += t.step()) a(i + c, i + c).im = 0.0;
    } else {
      if (t.leader()) a(i + 1, i + 1) = zc{a(i + 1, i + 1).re, 0.0};
    }
    t.sync();
    if (t.leader()) {
      e[i] = zc{beta, 0.0};
      d[i] = a(i, i).re;
      tau[i] = taui;
    }
  }
  if (t.leader()) d[n] = a(n, n).re;
  t.sync();
}

// Q = H(1) H(2) ... H(n-1) into q (n x n), by backward accumulation; column c is owned by one member.
template <class Team>
SGPU_HD void ungtr(const Team& t, int n, Mat1<zc> a, Vec1<zc> tau, Mat1<zc> q) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) q(r, c) = zc{r == c ? 1.0 : 0.0, 0.0};
  t.sync();
  for (int i = n - 1; i >= 1; --i) {
    const zc ti = tau[i];
    const int m = n - i;
    for (int c = t.first(i + 1); c <= n; c += t.step()) {
      zc w = q(i + 1, c);
      for (int k = 2; k <= m; ++k) w = w + conj(a(i + k, i)) * q(i + k, c);
      w = ti * w;
      q(i + 1, c) = q(i + 1, c) - w;
      for (int k = 2; k <= m; ++k) q(i + k, c) = q(i + k, c) - a(i + k, i) * w;
    }
  }
  t.sync();
}

// Phase scaling: with D = diag(p_1..p_n), p_1 = 1, p_{k+1} = p_k e_k/|e_k|, D^H T D is real
// symmetric tridiagonal with off-diagonals |e_k|; Q D then holds the matching basis.
// er[k] receives |e_k|; ph[1..n] is workspace for the phases. wantq: scale the columns of q.
template <class Team>
SGPU_HD void phase_scale(const Team& t, int n, Vec1<zc> e, Vec1<double> er, Vec1<zc> ph, bool wantq, int nq,
                         Mat1<zc> q) {
  if (t.leader()) {
    zc p{1.0, 0.0};
    ph[1] = p;
    for (int k = 1; k <= n - 1; ++k) {
      double ak = zabs(e[k]);
      if (ak != 0.0) p = p * ((1.0 / ak) * e[k]);
      ph[k + 1] = p;
      er[k] = ak;
    }
  }
  t.sync();
  if (wantq)
    for (int k = 2; k <= n; ++k) {
      const zc pk = ph[k];
      for (int r = t.first(1); r <= nq; r += t.step()) q(r, k) = q(r, k) * pk;
    }
  t.sync();
}

}  // namespace core
}  // namespace sgpu
