// Householder reduction to upper Hessenberg form (seed 000 Alg. 1; LAPACK dgehd2) and the
// explicit orthogonal factor (dorghr). Rows and columns are the team's units of work: the
// right update gives each member whole rows, the left update whole columns.
#pragma once
#include "gemm.hpp"
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

// Reflectors i = ihi_r down to ilo_r applied to columns i+1..cmax of Q (rows i+1..ihi), backward
// (dorg2r's order). Column c of Q only ever changes in the member that owns c, so the ownership
// must not move with i (team loops start at 1, not at i + 1: no sync is needed).
template <class Team>
SGPU_HD void org2r_range(const Team& t, int n, int ihi, int ilo_r, int ihi_r, int cmax, Mat1<double> a,
                         Vec1<double> tau, Mat1<double> q) {
  for (int i = ihi_r; i >= ilo_r; --i) {
    const int m = ihi - i;
    const double ti = tau[i];
    for (int c = t.first(1); c <= cmax; c += t.step()) {
      if (c < i + 1) continue;
      const double w = ti * dot_v(m, col(a, i + 2 <= n ? i + 2 : n, i), col(q, i + 1, c));
      q(i + 1, c) -= w;
      for (int k = 1; k < m; ++k) q(i + 1 + k, c) -= w * a(i + 1 + k, i);
    }
  }
}

// Q = H(ilo) H(ilo+1) ... H(ihi-1) into q (n x n), from the reflectors gehd2 left in a.
template <class Team>
SGPU_HD void orghr(const Team& t, int n, int ilo, int ihi, Mat1<double> a, Vec1<double> tau, Mat1<double> q) {
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = 1; r <= n; ++r) q(r, c) = (r == c) ? 1.0 : 0.0;
  t.sync();
  org2r_range(t, n, ihi, ilo, ihi - 1, ihi, a, tau, q);
  t.sync();
}

// The blocked reduction (LAPACK's dgehrd with dlahr2) for the team of one (the CPU backend):
// panels of kGehrdBlock columns reduced against the trailing matrix by matrix-vector products,
// then the trailing matrix updated from both sides by products with the panel's reflectors
// (gemm.hpp). The last kGehrdTail columns, or a matrix whose active block has fewer rows, take
// gehd2.
constexpr int kGehrdBlock = 32;  // ilaenv's NB for dgehrd
constexpr int kGehrdTail = 128;  // ilaenv's NX for dgehrd
constexpr int kGehrdPanel = 64;  // columns of the trailing matrix a product takes at a time

// Doubles of workspace gehrd needs for order n.
SGPU_HD int64_t gehrd_work_size(int n) {
  const int64_t nb = kGehrdBlock;
  return nb * (3 * (int64_t)n + nb + kGehrdPanel) + (int64_t)(kGehrdPanel + 4) * n + 8;
}

// M(0:m-1, 0:nc-1) -= P(0:m-1, 0:nc-1) (column-major, leading dimensions ldm and m).
SGPU_HD void sub_panel(int m, int nc, double* x, int64_t ldm, const double* p) {
  for (int j = 0; j < nc; ++j)
    for (int i = 0; i < m; ++i) x[i + j * ldm] -= p[i + (int64_t)j * m];
}

// A(ilo:ihi, ilo:ihi) is reduced, the reflectors and tau as gehd2 leaves them. A with unit row
// stride; work: gehrd_work_size(n) doubles.
SGPU_HD void gehrd(int n, int ilo, int ihi, Mat1<double> a, Vec1<double> tau, double* work) {
  const TeamOne t;
  const int nb = kGehrdBlock;
  const int64_t lda = a.cs;
  double* y = work;                                // Y: n x nb (rows 1..ihi)
  double* v = y + (int64_t)n * nb;                 // V: its reflectors, explicit, m x nb
  double* vt = v + (int64_t)n * nb;                // V^T: nb x m
  double* tt = vt + (int64_t)n * nb;               // T: nb x nb, upper triangular
  double* w = tt + (int64_t)nb * nb;               // nb x kGehrdPanel
  double* p = w + (int64_t)nb * kGehrdPanel;       // n x kGehrdPanel
  double* bpack = p + (int64_t)n * kGehrdPanel;    // 4 n
  int i = ilo;
  if (a.rs == 1)
    for (; i <= ihi - 1 - kGehrdTail; i += nb) {
      const int ib = nb < ihi - i ? nb : ihi - i;
      const int m = ihi - i;  // rows i+1..ihi of the panel's reflectors
      auto Y = [&](int r, int l) -> double& { return y[(r - 1) + (int64_t)(l - 1) * n]; };
      auto V = [&](int r, int l) -> double& { return v[(r - i - 1) + (int64_t)(l - 1) * m]; };  // rows i+1..ihi
      auto T = [&](int r, int l) -> double& { return tt[(r - 1) + (l - 1) * nb]; };
      // The panel (dlahr2): column c = i + l - 1 takes the panel's earlier reflectors from the right
      // (through Y = A V T) and the left, then yields reflector l.
      for (int l = 1; l <= ib; ++l) {
        const int c = i + l - 1;
        if (l > 1) {
          for (int j = 1; j < l; ++j) {
            const double vcj = V(c, j);
            for (int r = i + 1; r <= ihi; ++r) a(r, c) -= Y(r, j) * vcj;
          }
          // b = (I - V T^T V^T) b, b = A(i+1:ihi, c).
          double* wv = w;  // l - 1 doubles
          for (int j = 1; j < l; ++j) wv[j - 1] = gemm_element(m, &V(i + 1, j), 1, &a(i + 1, c), 1);
          for (int j = l - 1; j >= 1; --j) {  // w = T^T w
            double s = 0.0;
            for (int q = 1; q <= j; ++q) s += T(q, j) * wv[q - 1];
            wv[j - 1] = s;
          }
          for (int j = 1; j < l; ++j) {
            const double wj = wv[j - 1];
            for (int r = i + 1; r <= ihi; ++r) a(r, c) -= V(r, j) * wj;
          }
        }
        // Reflector l annihilates A(c+2:ihi, c).
        double ti;
        const double beta = larfg(t, ihi - c, a(c + 1, c), col(a, c + 2 <= n ? c + 2 : n, c), ti);
        tau[c] = ti;
        a(c + 1, c) = beta;
        for (int r = i + 1; r <= ihi; ++r) V(r, l) = r <= c ? 0.0 : (r == c + 1 ? 1.0 : a(r, c));
        // Y(i+1:ihi, l) = tau (A(i+1:ihi, c+1:ihi) v - Y(:, 1:l-1) (V(:, 1:l-1)^T v)), the trailing
        // matrix as it was before the panel.
        // (Down the columns, each row's sum in blocks of kSumBlock terms as gehd2's.)
        double* yl = &Y(1, l);
        double* part = p;  // n doubles
        for (int r = i + 1; r <= ihi; ++r) yl[r - 1] = 0.0;
        for (int k0 = c + 1; k0 <= ihi; k0 += kSumBlock) {
          const int k1 = k0 + kSumBlock - 1 < ihi ? k0 + kSumBlock - 1 : ihi;
          for (int r = i + 1; r <= ihi; ++r) part[r - 1] = 0.0;
          for (int k = k0; k <= k1; ++k) {
            const double vk = V(k, l);
            const double* ak = &a(1, k);
            for (int r = i + 1; r <= ihi; ++r) part[r - 1] += ak[r - 1] * vk;
          }
          for (int r = i + 1; r <= ihi; ++r) yl[r - 1] += part[r - 1];
        }
        double* tl = &T(1, l);
        for (int j = 1; j < l; ++j) tl[j - 1] = gemm_element(ihi - c, &V(c + 1, j), 1, &V(c + 1, l), 1);
        for (int j = 1; j < l; ++j) {
          const double tj = tl[j - 1];
          for (int r = i + 1; r <= ihi; ++r) Y(r, l) -= Y(r, j) * tj;
        }
        for (int r = i + 1; r <= ihi; ++r) Y(r, l) *= ti;
        // T(1:l-1, l) = -tau T(1:l-1, 1:l-1) (V^T v); T(l, l) = tau.
        for (int j = 1; j < l; ++j) {
          double s = 0.0;
          for (int q = j; q < l; ++q) s += T(j, q) * tl[q - 1];
          tl[j - 1] = s;
        }
        for (int j = 1; j < l; ++j) tl[j - 1] *= -ti;
        for (int j = l + 1; j <= nb; ++j) T(j, l) = 0.0;
        T(l, l) = ti;
      }
      for (int l = 1; l <= ib; ++l)
        for (int r = i + 1; r <= ihi; ++r) vt[(l - 1) + (int64_t)(r - i - 1) * ib] = V(r, l);
      // Y(1:i, :) = A(1:i, i+1:ihi) V T.
      gemm(i, ib, m, &a(1, i + 1), lda, v, m, p, i, bpack);
      for (int l = 1; l <= ib; ++l)
        for (int r = 1; r <= i; ++r) {
          double s = 0.0;
          for (int q = 1; q <= l; ++q) s += p[(r - 1) + (int64_t)(q - 1) * i] * T(q, l);
          Y(r, l) = s;
        }
      // From the right: A(1:ihi, i+ib:ihi) -= Y V(i+ib:ihi, :)^T, A(1:i, i+1:i+ib-1) -= Y(1:i, :) V(i+1:i+ib-1, :)^T.
      for (int c = i + ib; c <= ihi; c += kGehrdPanel) {
        const int nc = ihi - c + 1 < kGehrdPanel ? ihi - c + 1 : kGehrdPanel;
        gemm(ihi, nc, ib, y, n, vt + (int64_t)(c - i - 1) * ib, ib, p, ihi, bpack);
        sub_panel(ihi, nc, &a(1, c), lda, p);
      }
      if (ib > 1) {
        gemm(i, ib - 1, ib, y, n, vt, ib, p, i, bpack);
        sub_panel(i, ib - 1, &a(1, i + 1), lda, p);
      }
      // From the left (dlarfb): A(i+1:ihi, i+ib:n) -= V T^T (V^T A(i+1:ihi, i+ib:n)).
      for (int c = i + ib; c <= n; c += kGehrdPanel) {
        const int nc = n - c + 1 < kGehrdPanel ? n - c + 1 : kGehrdPanel;
        double* x = &a(i + 1, c);
        gemm(ib, nc, m, vt, ib, x, lda, w, ib, bpack);
        for (int j = 0; j < nc; ++j) {
          double* wj = w + (int64_t)j * ib;
          for (int l = ib; l >= 1; --l) {
            double s = 0.0;
            for (int q = 1; q <= l; ++q) s += T(q, l) * wj[q - 1];
            wj[l - 1] = s;
          }
        }
        gemm(m, nc, ib, v, m, w, ib, p, m, bpack);
        sub_panel(m, nc, x, lda, p);
      }
    }
  gehd2(t, n, i, ihi, a, tau, Vec1<double>{p, 1}, Vec1<double>{p + n, 1});
}

// orghr for the team of one with blocks of kGehrdBlock reflectors (LAPACK's dorgqr): each block
// applied to the columns right of it as I - V T V^T by products (gemm.hpp), then to its own
// columns one reflector at a time; the last reflectors as orghr. Q with unit row stride; work:
// gehrd_work_size(n) doubles.
SGPU_HD void orghr_blocked(int n, int ilo, int ihi, Mat1<double> a, Vec1<double> tau, Mat1<double> q, double* work) {
  for (int c = 1; c <= n; ++c)
    for (int r = 1; r <= n; ++r) q(r, c) = (r == c) ? 1.0 : 0.0;
  const int nb = kGehrdBlock, k = ihi - ilo;  // reflectors ilo..ihi-1
  const int kk = q.rs == 1 && a.rs == 1 && k > kGehrdTail ? ((k - kGehrdTail + nb - 1) / nb) * nb : 0;
  org2r_range(TeamOne{}, n, ihi, ilo + kk, ihi - 1, ihi, a, tau, q);
  double* v = work;                                // V: m x nb
  double* vt = v + (int64_t)n * nb;                // V^T: nb x m
  double* tt = vt + (int64_t)n * nb;               // T: nb x nb
  double* w = tt + (int64_t)nb * nb;               // nb x kGehrdPanel
  double* p = w + (int64_t)nb * kGehrdPanel;       // n x kGehrdPanel
  double* bpack = p + (int64_t)n * kGehrdPanel;    // 4 n
  for (int i0 = ilo + kk - nb; i0 >= ilo; i0 -= nb) {
    const int ib = nb, m = ihi - i0;  // rows i0+1..ihi
    auto V = [&](int r, int l) -> double& { return v[(r - i0 - 1) + (int64_t)(l - 1) * m]; };
    auto T = [&](int r, int l) -> double& { return tt[(r - 1) + (l - 1) * nb]; };
    for (int l = 1; l <= ib; ++l) {
      const int c = i0 + l - 1;
      for (int r = i0 + 1; r <= ihi; ++r) V(r, l) = r <= c ? 0.0 : (r == c + 1 ? 1.0 : a(r, c));
    }
    for (int l = 1; l <= ib; ++l)
      for (int r = i0 + 1; r <= ihi; ++r) vt[(l - 1) + (int64_t)(r - i0 - 1) * ib] = V(r, l);
    // T (dlarft, forward): T(1:l-1, l) = -tau_l T(1:l-1, 1:l-1) V(:, 1:l-1)^T v_l.
    for (int l = 1; l <= ib; ++l) {
      const int c = i0 + l - 1;
      const double tl = tau[c];
      double* col_l = &T(1, l);
      for (int j = 1; j < l; ++j) col_l[j - 1] = gemm_element(ihi - c, &V(c + 1, j), 1, &V(c + 1, l), 1);
      for (int j = 1; j < l; ++j) {
        double s = 0.0;
        for (int qq = j; qq < l; ++qq) s += T(j, qq) * col_l[qq - 1];
        col_l[j - 1] = -tl * s;
      }
      for (int j = l + 1; j <= nb; ++j) T(j, l) = 0.0;
      T(l, l) = tl;
    }
    // Q(i0+1:ihi, i0+ib+1:ihi) = (I - V T V^T) Q(i0+1:ihi, i0+ib+1:ihi).
    for (int c = i0 + ib + 1; c <= ihi; c += kGehrdPanel) {
      const int nc = ihi - c + 1 < kGehrdPanel ? ihi - c + 1 : kGehrdPanel;
      double* x = &q(i0 + 1, c);
      gemm(ib, nc, m, vt, ib, x, q.cs, w, ib, bpack);
      for (int j = 0; j < nc; ++j) {
        double* wj = w + (int64_t)j * ib;
        for (int l = 1; l <= ib; ++l) {  // w = T w, T upper triangular
          double s = 0.0;
          for (int qq = l; qq <= ib; ++qq) s += T(l, qq) * wj[qq - 1];
          wj[l - 1] = s;
        }
      }
      gemm(m, nc, ib, v, m, w, ib, p, m, bpack);
      sub_panel(m, nc, x, q.cs, p);
    }
    org2r_range(TeamOne{}, n, ihi, i0, i0 + ib - 1, i0 + ib, a, tau, q);
  }
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
