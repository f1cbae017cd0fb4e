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
// A team of one runs zhemv's column algorithm down the columns of the lower triangle (contiguous
// on the CPU): y = tau A v as a saxpy below the diagonal plus a dot with the same column, then the
// rank-2 update A -= v w^H + w v^H column by column. A wider team (the GPU, the matrix in shared
// memory) owns rows instead: a member forms its rows' y from the row to the left of the diagonal
// and the column below it, in the same order of additions, so no sum crosses members (the column
// form needed two team reductions per column, a chain of shuffles on every step's critical path);
// and it updates its rows of the lower triangle. The same products in the same order: the result
// does not depend on the team's width, up to the contraction of multiply-adds.
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
      if (t.step() == 1) {
        for (int r = 1; r <= m; ++r) y[r] = zc{0.0, 0.0};
        for (int c = 1; c <= m; ++c) {
          const zc vc = v(c);
          zc dot{0.0, 0.0};
          for (int r = c + 1; r <= m; ++r) {
            const zc arc = a(i + r, i + c);
            y[r] = y[r] + arc * vc;
            dot = dot + conj(arc) * v(r);
          }
          y[c] = y[c] + a(i + c, i + c).re * vc + dot;
        }
        for (int r = 1; r <= m; ++r) y[r] = taui * y[r];
      } else {
        // Row r: A(r, 1:r-1) v(1:r-1), then A(r, r) v_r plus the dot of column r below the
        // diagonal with v. At step j the members read row-wise left of their diagonals and
        // column-wise below them.
        for (int r = t.first(1); r <= m; r += t.step()) {
          zc left{0.0, 0.0}, dot{0.0, 0.0};
          for (int j = 1; j < r; ++j) left = left + a(i + r, i + j) * v(j);
          for (int k = r + 1; k <= m; ++k) dot = dot + conj(a(i + k, i + r)) * v(k);
          y[r] = taui * (left + a(i + r, i + r).re * v(r) + dot);
        }
      }
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
      // A -= v w^H + w v^H on the lower triangle; the diagonal stays real.
      if (t.step() == 1) {
        for (int c = 1; c <= m; ++c) {
          const zc vc = conj(v(c)), wc = conj(y[c]);
          for (int r = c; r <= m; ++r) a(i + r, i + c) = a(i + r, i + c) - (v(r) * wc + y[r] * vc);
        }
      } else {
        for (int r = t.first(1); r <= m; r += t.step()) {
          const zc vr = v(r), yr = y[r];
          for (int c = 1; c <= r; ++c) a(i + r, i + c) = a(i + r, i + c) - (vr * conj(y[c]) + yr * conj(v(c)));
        }
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

// Column c of q, rows i+1..i+m, times H(i) = I - tau v v^H, v = (1, a(i+2:i+m, i)) (zlarf on one
// column).
SGPU_HD void apply_reflector(Mat1<zc> a, int i, int m, zc ti, Mat1<zc> q, int c) {
  zc w = q(i + 1, c);
  for (int k = 2; k <= m; ++k) w = w + conj(a(i + k, i)) * q(i + k, c);
  w = ti * w;
  q(i + 1, c) = q(i + 1, c) - w;
  for (int k = 2; k <= m; ++k) q(i + k, c) = q(i + k, c) - a(i + k, i) * w;
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
    for (int c = t.first(i + 1); c <= n; c += t.step()) apply_reflector(a, i, m, ti, q, c);
  }
  t.sync();
}

// Q = H(1) H(2) ... H(n-1) formed in place of the reflectors in a (LAPACK zungtr with uplo = 'L',
// whose zung2r works in place too): no second n x n matrix, which lets a small matrix's whole
// problem sit in shared memory. d and e must already be out of a (hetd2 puts them in their own
// vectors); the upper triangle is overwritten. Q's column j + 1 comes from reflector j (held in
// column j, rows j+2..n), so each step reads column j and rewrites column j + 1, whose reflector
// the previous step used: one team barrier a step. The arithmetic is ungtr's above, element for
// element (column j + 1 starts as the unit vector it would hold there).
template <class Team>
SGPU_HD void ungtr_inplace(const Team& t, int n, Mat1<zc> a, Vec1<zc> tau) {
  for (int i = n - 1; i >= 1; --i) {
    t.sync();  // column i + 1's reflector has been applied by every member
    const zc ti = tau[i];
    const int m = n - i;
    for (int c = t.first(i + 1); c <= n; c += t.step()) {
      if (c == i + 1) {
        // H(i) applied to e_{i+1}: 1 - tau on the diagonal, -tau v below it, zeros above.
        for (int r = 1; r <= i; ++r) a(r, c) = zc{0.0, 0.0};
        a(i + 1, c) = zc{1.0, 0.0} - ti;
        for (int k = 2; k <= m; ++k) a(i + k, c) = zc{0.0, 0.0} - a(i + k, i) * ti;
        continue;
      }
      apply_reflector(a, i, m, ti, a, c);
    }
  }
  t.sync();
  for (int r = t.first(1); r <= n; r += t.step()) a(r, 1) = zc{r == 1 ? 1.0 : 0.0, 0.0};
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
