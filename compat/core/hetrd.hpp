// Householder tridiagonalization of a Hermitian matrix held in its lower triangle (LAPACK zhetd2,
// and seed 002's reduced form: one matrix-vector product per step, p = tau A v,
// w = p - (tau/2)(p^H v) v, A -= v w^H + w v^H), the explicit unitary factor (zungtr), and the
// phase scaling that turns a Hermitian tridiagonal into a real symmetric one (seed 002 §3).
#pragma once
#include "reflect.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// y = T v, T Hermitian held in its lower triangle, len x len (zhemv's column algorithm: a saxpy
// below the diagonal and a dot product with the same column). 0-based: T(r, c) at
// t[r * rs + c * cs], v_r at v[r * rs], y contiguous (hetd2's y has unit stride). hemv_lower below
// picks this loop or its AVX2 form.
SGPU_HD void hemv_lower_loop(int len, const zc* __restrict__ t, int64_t rs, int64_t cs, const zc* __restrict__ v,
                             zc* __restrict__ y) {
  for (int r = 0; r < len; ++r) y[r] = zc{0.0, 0.0};
  for (int c = 0; c < len; ++c) {
    const zc* __restrict__ tc = t + c * cs;
    const zc vc = v[c * rs];
    zc dot{0.0, 0.0};
    for (int r = c + 1; r < len; ++r) {
      const zc arc = tc[r * rs];
      y[r] = y[r] + arc * vc;
      dot = dot + conj(arc) * v[r * rs];
    }
    y[c] = y[c] + tc[c * rs].re * vc + dot;
  }
}

#if defined(SGPU_CORE_AVX2)
// Two consecutive elements of a strided complex vector in one register (re0, im0, re1, im1).
template <bool kUnit>
SGPU_HD __m256d load2(const zc* p, int64_t s) {
  return kUnit ? _mm256_loadu_pd(&p->re) : _mm256_loadu2_m128d(&p[s].re, &p->re);
}

// The AVX2 and FMA form (the CPU backend's x86-64-v3 copy; 2.7x that loop with four partial sums on
// the 2-core VM): two complex numbers a register, the saxpy as two fused multiply-adds, the dot
// product in eight partial sums (four elements' real and imaginary products apart). The same
// operations for any stride (a strided view loads its pairs in halves), and conjugating T and v
// conjugates every result: heev's upper triangle, read as the lower one of conj(A) through a
// transposed view, gets bitwise the eigenvalues of the lower one.
template <bool kUnit>
SGPU_HD void hemv_lower_avx2(int len, const zc* __restrict__ t, int64_t rs, int64_t cs, const zc* __restrict__ v,
                             zc* __restrict__ y) {
  if (kUnit) rs = 1;
  double* yd = &y->re;
  for (int r = 0; r < len; ++r) y[r] = zc{0.0, 0.0};
  for (int c = 0; c < len; ++c) {
    const zc* tc = t + c * cs;
    const zc vc = v[c * rs];
    const __m256d vre = _mm256_set1_pd(vc.re), vim = _mm256_setr_pd(-vc.im, vc.im, -vc.im, vc.im);
    __m256d d0 = _mm256_setzero_pd(), d1 = d0, e0 = d0, e1 = d0;  // (ar xr, ai xi), (ai xr, ar xi)
    int r = c + 1;
    for (; r + 3 < len; r += 4) {
      const __m256d a0 = load2<kUnit>(tc + r * rs, rs), a1 = load2<kUnit>(tc + (r + 2) * rs, rs);
      const __m256d s0 = _mm256_permute_pd(a0, 5), s1 = _mm256_permute_pd(a1, 5);  // (ai, ar)
      const __m256d x0 = load2<kUnit>(v + r * rs, rs), x1 = load2<kUnit>(v + (r + 2) * rs, rs);
      __m256d y0 = _mm256_loadu_pd(yd + 2 * r), y1 = _mm256_loadu_pd(yd + 2 * r + 4);
      y0 = _mm256_fmadd_pd(s0, vim, _mm256_fmadd_pd(a0, vre, y0));  // y += a vc
      y1 = _mm256_fmadd_pd(s1, vim, _mm256_fmadd_pd(a1, vre, y1));
      _mm256_storeu_pd(yd + 2 * r, y0);
      _mm256_storeu_pd(yd + 2 * r + 4, y1);
      d0 = _mm256_fmadd_pd(a0, x0, d0);
      d1 = _mm256_fmadd_pd(a1, x1, d1);
      e0 = _mm256_fmadd_pd(s0, x0, e0);
      e1 = _mm256_fmadd_pd(s1, x1, e1);
    }
    alignas(32) double dd[4], ee[4];
    _mm256_store_pd(dd, _mm256_add_pd(d0, d1));
    _mm256_store_pd(ee, _mm256_add_pd(e0, e1));
    double sr = (dd[0] + dd[1]) + (dd[2] + dd[3]), si = (ee[1] - ee[0]) + (ee[3] - ee[2]);  // conj(a) x
    // The last rows in scalars, each multiply-add written out: left to the compiler, its contraction
    // could differ between the unit-stride and strided copies of this loop.
    for (; r < len; ++r) {
      const zc arc = tc[r * rs], x = v[r * rs];
      y[r].re = fma(arc.im, -vc.im, fma(arc.re, vc.re, y[r].re));
      y[r].im = fma(arc.re, vc.im, fma(arc.im, vc.re, y[r].im));
      sr = fma(arc.im, x.im, fma(arc.re, x.re, sr));
      si = fma(-arc.im, x.re, fma(arc.re, x.im, si));
    }
    const double tcc = tc[c * rs].re;
    y[c].re = fma(tcc, vc.re, y[c].re) + sr;
    y[c].im = fma(tcc, vc.im, y[c].im) + si;
  }
}
#endif
SGPU_HD void hemv_lower(int len, const zc* t, int64_t rs, int64_t cs, const zc* v, zc* y) {
#if defined(SGPU_CORE_AVX2)
  if (rs == 1)
    hemv_lower_avx2<true>(len, t, rs, cs, v, y);
  else
    hemv_lower_avx2<false>(len, t, rs, cs, v, y);
#else
  hemv_lower_loop(len, t, rs, cs, v, y);
#endif
}

// A -= v w^H + w v^H on the lower triangle of the m x m A (zher2 with alpha = -1; 0-based, A(r, c)
// at a[r * rs + c * cs], v_r at v[r * rs], w contiguous); the diagonal stays real. her2_lower below
// picks this loop or its AVX2 form.
SGPU_HD void her2_lower_loop(int m, zc* __restrict__ a, int64_t rs, int64_t cs, const zc* __restrict__ v,
                             const zc* __restrict__ w) {
  for (int c = 0; c < m; ++c) {
    zc* __restrict__ ac = a + c * cs;
    const zc vc = conj(v[c * rs]), wc = conj(w[c]);
    for (int r = c; r < m; ++r) ac[r * rs] = ac[r * rs] - (v[r * rs] * wc + w[r] * vc);
    ac[c * rs].im = 0.0;
  }
}

#if defined(SGPU_CORE_AVX2)
template <bool kUnit>
SGPU_HD void store2(zc* p, int64_t s, __m256d x) {
  if (kUnit)
    _mm256_storeu_pd(&p->re, x);
  else
    _mm256_storeu2_m128d(&p[s].re, &p->re, x);
}
// The AVX2 and FMA form: two elements a register, four fused multiply-subtracts each, the same
// operations for any stride and symmetric under conjugation (see hemv_lower).
template <bool kUnit>
SGPU_HD void her2_lower_avx2(int m, zc* __restrict__ a, int64_t rs, int64_t cs, const zc* __restrict__ v,
                             const zc* __restrict__ w) {
  if (kUnit) rs = 1;
  for (int c = 0; c < m; ++c) {
    zc* ac = a + c * cs;
    const zc vc = conj(v[c * rs]), wc = conj(w[c]);
    const __m256d wre = _mm256_set1_pd(wc.re), wim = _mm256_setr_pd(-wc.im, wc.im, -wc.im, wc.im);
    const __m256d vre = _mm256_set1_pd(vc.re), vim = _mm256_setr_pd(-vc.im, vc.im, -vc.im, vc.im);
    int r = c;
    for (; r + 1 < m; r += 2) {
      const __m256d x = load2<kUnit>(v + r * rs, rs), y = _mm256_loadu_pd(&w[r].re);
      __m256d t = load2<kUnit>(ac + r * rs, rs);
      t = _mm256_fnmadd_pd(x, wre, t);
      t = _mm256_fnmadd_pd(_mm256_permute_pd(x, 5), wim, t);
      t = _mm256_fnmadd_pd(y, vre, t);
      t = _mm256_fnmadd_pd(_mm256_permute_pd(y, 5), vim, t);
      store2<kUnit>(ac + r * rs, rs, t);
    }
    for (; r < m; ++r) {
      const zc x = v[r * rs], y = w[r];
      zc& t = ac[r * rs];
      t.re = fma(-y.im, -vc.im, fma(-y.re, vc.re, fma(-x.im, -wc.im, fma(-x.re, wc.re, t.re))));
      t.im = fma(-y.re, vc.im, fma(-y.im, vc.re, fma(-x.re, wc.im, fma(-x.im, wc.re, t.im))));
    }
    ac[c * rs].im = 0.0;
  }
}
#endif
SGPU_HD void her2_lower(int m, zc* a, int64_t rs, int64_t cs, const zc* v, const zc* w) {
#if defined(SGPU_CORE_AVX2)
  if (rs == 1)
    her2_lower_avx2<true>(m, a, rs, cs, v, w);
  else
    her2_lower_avx2<false>(m, a, rs, cs, v, w);
#else
  her2_lower_loop(m, a, rs, cs, v, w);
#endif
}

// Reduces the Hermitian A, held in its lower triangle (n x n), to T = Q^H A Q (LAPACK zhetd2 with
// uplo = 'L'). On return d[1..n] is diag(T), e[1..n-1] the subdiagonal of T (complex in general;
// real with zlarfg's reflectors), reflector i in A(i+2:n, i) with scalar tau[i]. y[1..n] is
// workspace. The strictly upper triangle is neither read nor written.
//
// A team of one runs zhemv's column algorithm down the columns of the lower triangle (contiguous
// on the CPU; hemv_lower): y = tau A v as a saxpy below the diagonal plus a dot with the same
// column, then the rank-2 update A -= v w^H + w v^H column by column. A wider team (the GPU, the
// matrix in shared memory) owns rows instead: a member forms its rows' y from the row to the left
// of the diagonal and the column below it, so no sum crosses members (the column form needed two
// team reductions per column, a chain of shuffles on every step's critical path); and it updates
// its rows of the lower triangle. The x86-64-v3 copy's team of one splits each column's dot product
// into partial sums (hemv_lower), so there the two differ in rounding.
template <class Team>
SGPU_HD void hetd2(const Team& t, int n, Mat1<zc> a, Vec1<double> d, Vec1<zc> e, Vec1<zc> tau, Vec1<zc> y) {
  for (int i = 1; i <= n - 1; ++i) {
    const int m = n - i;  // order of the trailing matrix A(i+1:n, i+1:n)
    t.sync();
    zc alpha = a(i + 1, i);
    zc taui;
    Vec<zc> x = col(a, i + 2 <= n ? i + 2 : n, i);  // v = (1, x)
    double beta = zlarfg(t, m, alpha, x, taui);
    // v whole in A(i+1:n, i), its leading 1 in place of alpha until the rank-2 update is done
    // (zhetd2 does the same), so that the loops below read it as a plain column (a select for v_1
    // in their inner loops was 8% of the small GPU zheev's instructions).
    auto v = [&](int k) -> zc { return a(i + k, i); };  // v_k, k = 1..m
    if (taui.re != 0.0 || taui.im != 0.0) {
      if (t.leader()) a(i + 1, i) = zc{1.0, 0.0};
      t.sync();
      if (t.step() == 1) {
        hemv_lower(m, &a(i + 1, i + 1), a.rs, a.cs, &a(i + 1, i), &y[1]);
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
        her2_lower(m, &a(i + 1, i + 1), a.rs, a.cs, &a(i + 1, i), &y[1]);
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
      a(i + 1, i) = alpha;  // every member has read v (the sync above)
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

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
