// Eigenvectors of a real upper quasi-triangular (Schur) matrix T by back substitution, multiplied
// into the Schur vectors held in V (LAPACK dtrevc3 with HOWMNY = 'B'). Each vector is scaled so
// its largest component has magnitude 1 (|re| + |im| for complex pairs), with LAPACK's guards
// against overflow. The substitution is sequential in j; its axpy/dot updates and the
// back-transformation are the team's work. The team of one may back-transform kTrevcBlock vectors
// at a time by one matrix product (dtrevc3's blocked path; TrevcBlock below).
#pragma once
#include "gemm.hpp"
#include "laln2.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// wn[j] = sum_{i<j} |T(i, j)|: column norms used by the overflow guards.
template <class Team>
SGPU_HD void trevc_norms(const Team& t, int n, Mat1<double> tm, Vec1<double> wn) {
  for (int j = t.first(1); j <= n; j += t.step()) {
    double s = 0.0;
    for (int i = 1; i < j; ++i) s += fabs(tm(i, j));
    wn[j] = s;
  }
  t.sync();
}

// V(:, c) = V(:, k0:k1) x(k0:k1) + beta V(:, c) in place (c outside k0..k1), as dgemv: scale,
// then the columns' terms in blocks of kSumBlock (defs.hpp), each block's sum added per row. A
// team of one walks down the columns (contiguous on the CPU), a block's sums in part[1..n]; a
// wider team gives each member whole rows, the sums in registers: the same bits either way.
template <class Team>
SGPU_HD void backtransform_range(const Team& t, int n, int k0, int k1, Mat1<double> v, Vec1<double> x, double beta,
                                 int c, Vec1<double> part) {
  for (int r = t.first(1); r <= n; r += t.step()) v(r, c) *= beta;
  for (int b0 = k0; b0 <= k1; b0 += kSumBlock) {
    const int b1 = b0 + kSumBlock - 1 < k1 ? b0 + kSumBlock - 1 : k1;
    if (t.step() == 1) {
      for (int r = 1; r <= n; ++r) part[r] = 0.0;
      for (int k = b0; k <= b1; ++k) {
        const double xk = x[k];
        for (int r = 1; r <= n; ++r) part[r] += v(r, k) * xk;
      }
      for (int r = 1; r <= n; ++r) v(r, c) += part[r];
    } else {
      for (int r = t.first(1); r <= n; r += t.step()) {
        double p = 0.0;
        for (int k = b0; k <= b1; ++k) p += v(r, k) * x[k];
        v(r, c) += p;
      }
    }
  }
  t.sync();
}

// V(:, c) = V(:, 1:m) x(1:m) + beta V(:, c), c > m (right eigenvectors).
template <class Team>
SGPU_HD void backtransform(const Team& t, int n, int m, Mat1<double> v, Vec1<double> x, double beta, int c,
                           Vec1<double> part) {
  backtransform_range(t, n, 1, m, v, x, beta, c, part);
}

// V(:, c) = V(:, c0:n) x(c0:n) + beta V(:, c), c < c0 (left eigenvectors).
template <class Team>
SGPU_HD void backtransform_tail(const Team& t, int n, int c0, Mat1<double> v, Vec1<double> x, double beta,
                                int c, Vec1<double> part) {
  backtransform_range(t, n, c0, n, v, x, beta, c, part);
}

// Vectors a blocked back-transformation holds before its product.
constexpr int kTrevcBlock = 32;
SGPU_HD int64_t trevc_block_work(int n) { return (2 * (int64_t)kTrevcBlock + 4) * n; }

template <class Team>
SGPU_HD void scale_cols_by_max(const Team& t, int n, Mat1<double> v, int c, int c2);

// The blocked back-transformation for the team of one: the solutions x of up to kTrevcBlock
// vectors, each for column c of V, are held as the columns of X, then V(:, c) = V(:, k0:k1) x for
// all of them in one product and each vector (or pair) scaled as the unblocked path does. Right
// vectors come in descending columns and use V(:, 1:c) (k0 = 1, k1 the block's first column),
// left ones in ascending columns and use V(:, c:n). The product's sums run in blocks of
// kSumBlock terms as backtransform_range's. work: trevc_block_work(n) doubles.
struct TrevcBlock {
  int n;
  bool right;
  Mat1<double> v;
  double* work;
  int cnt = 0, c_first = 0, ngroups = 0;
  int cols[kTrevcBlock], group[kTrevcBlock][2];

  SGPU_HD TrevcBlock(int n_, bool right_, Mat1<double> v_, double* work_) : n(n_), right(right_), v(v_), work(work_) {}

  SGPU_HD bool room(int k) const { return cnt + k <= kTrevcBlock; }
  // x[r] for the rows lo..hi of V's column c (zero elsewhere).
  SGPU_HD void add(Vec1<double> x, int c, int lo, int hi) {
    if (cnt == 0) c_first = c;
    const int r0 = right ? 1 : c_first, r1 = right ? c_first : n;
    double* xc = work + (int64_t)cnt * n;
    for (int r = r0; r <= r1; ++r) xc[r - r0] = r >= lo && r <= hi ? x[r] : 0.0;
    cols[cnt++] = c;
  }
  // Scale column c (c2 = 0), or the pair c, c2, once the product is in.
  SGPU_HD void scale(int c, int c2) {
    group[ngroups][0] = c;
    group[ngroups++][1] = c2;
  }
  SGPU_HD void flush() {
    if (cnt == 0) return;
    const int r0 = right ? 1 : c_first, r1 = right ? c_first : n;
    double* p = work + (int64_t)kTrevcBlock * n;
    gemm(n, cnt, r1 - r0 + 1, &v(1, r0), v.cs, work, n, p, n, p + (int64_t)kTrevcBlock * n);
    for (int j = 0; j < cnt; ++j)
      for (int r = 1; r <= n; ++r) v(r, cols[j]) = p[(r - 1) + (int64_t)j * n];
    for (int g = 0; g < ngroups; ++g) scale_cols_by_max(TeamOne{}, n, v, group[g][0], group[g][1]);
    cnt = ngroups = 0;
  }
};

template <class Team>
SGPU_HD void scale_cols_by_max(const Team& t, int n, Mat1<double> v, int c, int c2) {
  // c2 == 0: real vector in column c; else a complex pair (re in c, im in c2).
  double emax = 0.0;
  for (int r = t.first(1); r <= n; r += t.step())
    emax = dmax(emax, c2 ? fabs(v(r, c)) + fabs(v(r, c2)) : fabs(v(r, c)));
  emax = t.max(emax);
  t.sync();
  const double remax = 1.0 / emax;
  for (int r = t.first(1); r <= n; r += t.step()) {
    v(r, c) *= remax;
    if (c2) v(r, c2) *= remax;
  }
  t.sync();
}

template <class Team>
SGPU_HD void trevc_right(const Team& t, int n, Mat1<double> tm, Mat1<double> v, Vec1<double> wn,
                         Vec1<double> xr, Vec1<double> xi, Vec1<double> part, TrevcBlock* blk = nullptr) {
  const double unfl = Mach::safmin, ulp = Mach::ulp;
  const double smlnum = unfl * (n / ulp), bignum = (1.0 - ulp) / smlnum;
  trevc_norms(t, n, tm, wn);
  for (int ki = n; ki >= 1; --ki) {
    const bool pair = ki > 1 && tm(ki, ki - 1) != 0.0;
    const double wr = tm(ki, ki);
    const double wi = pair ? sqrt(fabs(tm(ki, ki - 1))) * sqrt(fabs(tm(ki - 1, ki))) : 0.0;
    const double smin = dmax(ulp * (fabs(wr) + fabs(wi)), smlnum);
    double a[2][2], b[2][2], x[2][2], scale, xnorm;
    if (!pair) {
      // Real right eigenvector: solve (T(1:ki-1,1:ki-1) - wr) x = -T(1:ki-1, ki).
      if (t.leader()) xr[ki] = 1.0;
      for (int k = t.first(1); k < ki; k += t.step()) xr[k] = -tm(k, ki);
      t.sync();
      for (int j = ki - 1; j >= 1; --j) {
        if (j > 1 && tm(j, j - 1) != 0.0) {
          // 2x2 diagonal block (j-1, j).
          a[0][0] = tm(j - 1, j - 1); a[0][1] = tm(j - 1, j);
          a[1][0] = tm(j, j - 1);     a[1][1] = tm(j, j);
          b[0][0] = xr[j - 1];
          b[1][0] = xr[j];
          laln2(false, 2, 1, smin, 1.0, a, 1.0, 1.0, b, wr, 0.0, x, scale, xnorm);
          if (xnorm > 1.0) {
            double beta = dmax(wn[j - 1], wn[j]);
            if (beta > bignum / xnorm) {
              x[0][0] /= xnorm;
              x[1][0] /= xnorm;
              scale /= xnorm;
            }
          }
          t.sync();
          if (scale != 1.0) scal(t, ki, scale, xr.from(1));
          for (int k = t.first(1); k <= j - 2; k += t.step()) xr[k] -= x[0][0] * tm(k, j - 1) + x[1][0] * tm(k, j);
          if (t.leader()) {
            xr[j - 1] = x[0][0];
            xr[j] = x[1][0];
          }
          t.sync();
          --j;
        } else {
          a[0][0] = tm(j, j);
          b[0][0] = xr[j];
          laln2(false, 1, 1, smin, 1.0, a, 1.0, 1.0, b, wr, 0.0, x, scale, xnorm);
          if (xnorm > 1.0 && wn[j] > bignum / xnorm) {
            x[0][0] /= xnorm;
            scale /= xnorm;
          }
          t.sync();
          if (scale != 1.0) scal(t, ki, scale, xr.from(1));
          for (int k = t.first(1); k <= j - 1; k += t.step()) xr[k] -= x[0][0] * tm(k, j);
          if (t.leader()) xr[j] = x[0][0];
          t.sync();
        }
      }
      if (blk) {
        if (!blk->room(1)) blk->flush();
        blk->add(xr, ki, 1, ki);
        blk->scale(ki, 0);
      } else {
        if (ki > 1) backtransform(t, n, ki - 1, v, xr, xr[ki], ki, part);
        scale_cols_by_max(t, n, v, ki, 0);
      }
    } else {
      // Complex right eigenvector for the pair (ki-1, ki): real part in xr, imaginary in xi.
      if (t.leader()) {
        if (fabs(tm(ki - 1, ki)) >= fabs(tm(ki, ki - 1))) {
          xr[ki - 1] = 1.0;
          xi[ki] = wi / tm(ki - 1, ki);
        } else {
          xr[ki - 1] = -wi / tm(ki, ki - 1);
          xi[ki] = 1.0;
        }
        xr[ki] = 0.0;
        xi[ki - 1] = 0.0;
      }
      t.sync();
      const double x1 = xr[ki - 1], x2 = xi[ki];
      for (int k = t.first(1); k <= ki - 2; k += t.step()) {
        xr[k] = -x1 * tm(k, ki - 1);
        xi[k] = -x2 * tm(k, ki);
      }
      t.sync();
      for (int j = ki - 2; j >= 1; --j) {
        if (j > 1 && tm(j, j - 1) != 0.0) {
          a[0][0] = tm(j - 1, j - 1); a[0][1] = tm(j - 1, j);
          a[1][0] = tm(j, j - 1);     a[1][1] = tm(j, j);
          b[0][0] = xr[j - 1]; b[0][1] = xi[j - 1];
          b[1][0] = xr[j];     b[1][1] = xi[j];
          laln2(false, 2, 2, smin, 1.0, a, 1.0, 1.0, b, wr, wi, x, scale, xnorm);
          if (xnorm > 1.0) {
            double beta = dmax(wn[j - 1], wn[j]);
            if (beta > bignum / xnorm) {
              double rec = 1.0 / xnorm;
              x[0][0] *= rec; x[0][1] *= rec;
              x[1][0] *= rec; x[1][1] *= rec;
              scale *= rec;
            }
          }
          t.sync();
          if (scale != 1.0) {
            scal(t, ki, scale, xr.from(1));
            scal(t, ki, scale, xi.from(1));
          }
          for (int k = t.first(1); k <= j - 2; k += t.step()) {
            xr[k] -= x[0][0] * tm(k, j - 1) + x[1][0] * tm(k, j);
            xi[k] -= x[0][1] * tm(k, j - 1) + x[1][1] * tm(k, j);
          }
          if (t.leader()) {
            xr[j - 1] = x[0][0]; xi[j - 1] = x[0][1];
            xr[j] = x[1][0];     xi[j] = x[1][1];
          }
          t.sync();
          --j;
        } else {
          a[0][0] = tm(j, j);
          b[0][0] = xr[j];
          b[0][1] = xi[j];
          laln2(false, 1, 2, smin, 1.0, a, 1.0, 1.0, b, wr, wi, x, scale, xnorm);
          if (xnorm > 1.0 && wn[j] > bignum / xnorm) {
            x[0][0] /= xnorm;
            x[0][1] /= xnorm;
            scale /= xnorm;
          }
          t.sync();
          if (scale != 1.0) {
            scal(t, ki, scale, xr.from(1));
            scal(t, ki, scale, xi.from(1));
          }
          for (int k = t.first(1); k <= j - 1; k += t.step()) {
            xr[k] -= x[0][0] * tm(k, j);
            xi[k] -= x[0][1] * tm(k, j);
          }
          if (t.leader()) {
            xr[j] = x[0][0];
            xi[j] = x[0][1];
          }
          t.sync();
        }
      }
      // Back-transform: columns ki-1 (real part) and ki (imaginary part).
      if (blk) {
        if (!blk->room(2)) blk->flush();
        blk->add(xi, ki, 1, ki);  // (xi[ki - 1] and xr[ki] are zero)
        blk->add(xr, ki - 1, 1, ki);
        blk->scale(ki - 1, ki);
      } else {
        backtransform(t, n, ki - 2, v, xr, xr[ki - 1], ki - 1, part);
        backtransform(t, n, ki - 2, v, xi, xi[ki], ki, part);
        scale_cols_by_max(t, n, v, ki - 1, ki);
      }
      --ki;
    }
  }
  if (blk) blk->flush();
}

template <class Team>
SGPU_HD void trevc_left(const Team& t, int n, Mat1<double> tm, Mat1<double> v, Vec1<double> wn,
                        Vec1<double> xr, Vec1<double> xi, Vec1<double> part, TrevcBlock* blk = nullptr) {
  const double unfl = Mach::safmin, ulp = Mach::ulp;
  const double smlnum = unfl * (n / ulp), bignum = (1.0 - ulp) / smlnum;
  trevc_norms(t, n, tm, wn);
  for (int ki = 1; ki <= n; ++ki) {
    const bool pair = ki < n && tm(ki + 1, ki) != 0.0;
    const double wr = tm(ki, ki);
    const double wi = pair ? sqrt(fabs(tm(ki, ki + 1))) * sqrt(fabs(tm(ki + 1, ki))) : 0.0;
    const double smin = dmax(ulp * (fabs(wr) + fabs(wi)), smlnum);
    double a[2][2], b[2][2], x[2][2], scale, xnorm;
    if (!pair) {
      // Real left eigenvector: solve x^T (T(ki+1:n, ki+1:n) - wr) = -T(ki, ki+1:n).
      if (t.leader()) xr[ki] = 1.0;
      for (int k = t.first(ki + 1); k <= n; k += t.step()) xr[k] = -tm(ki, k);
      t.sync();
      double vmax = 1.0, vcrit = bignum;
      for (int j = ki + 1; j <= n; ++j) {
        const bool blk2 = j < n && tm(j + 1, j) != 0.0;
        if (!blk2) {
          if (wn[j] > vcrit) {
            scal(t, n - ki + 1, 1.0 / vmax, xr.from(ki));
            vmax = 1.0;
            vcrit = bignum;
          }
          double d = 0.0;
          for (int k = t.first(ki + 1); k <= j - 1; k += t.step()) d += tm(k, j) * xr[k];
          d = t.sum(d);
          a[0][0] = tm(j, j);
          b[0][0] = xr[j] - d;
          laln2(false, 1, 1, smin, 1.0, a, 1.0, 1.0, b, wr, 0.0, x, scale, xnorm);
          t.sync();
          if (scale != 1.0) scal(t, n - ki + 1, scale, xr.from(ki));
          if (t.leader()) xr[j] = x[0][0];
          vmax = dmax(fabs(x[0][0]), vmax);
          vcrit = bignum / vmax;
          t.sync();
        } else {
          double beta = dmax(wn[j], wn[j + 1]);
          if (beta > vcrit) {
            scal(t, n - ki + 1, 1.0 / vmax, xr.from(ki));
            vmax = 1.0;
            vcrit = bignum;
          }
          double d1 = 0.0, d2 = 0.0;
          for (int k = t.first(ki + 1); k <= j - 1; k += t.step()) {
            d1 += tm(k, j) * xr[k];
            d2 += tm(k, j + 1) * xr[k];
          }
          d1 = t.sum(d1);
          d2 = t.sum(d2);
          a[0][0] = tm(j, j);     a[0][1] = tm(j, j + 1);
          a[1][0] = tm(j + 1, j); a[1][1] = tm(j + 1, j + 1);
          b[0][0] = xr[j] - d1;
          b[1][0] = xr[j + 1] - d2;
          laln2(true, 2, 1, smin, 1.0, a, 1.0, 1.0, b, wr, 0.0, x, scale, xnorm);
          t.sync();
          if (scale != 1.0) scal(t, n - ki + 1, scale, xr.from(ki));
          if (t.leader()) {
            xr[j] = x[0][0];
            xr[j + 1] = x[1][0];
          }
          vmax = dmax(dmax(fabs(x[0][0]), fabs(x[1][0])), vmax);
          vcrit = bignum / vmax;
          t.sync();
          ++j;
        }
      }
      if (blk) {
        if (!blk->room(1)) blk->flush();
        blk->add(xr, ki, ki, n);
        blk->scale(ki, 0);
      } else {
        if (ki < n) backtransform_tail(t, n, ki + 1, v, xr, xr[ki], ki, part);
        scale_cols_by_max(t, n, v, ki, 0);
      }
    } else {
      // Complex left eigenvector for the pair (ki, ki+1).
      if (t.leader()) {
        if (fabs(tm(ki, ki + 1)) >= fabs(tm(ki + 1, ki))) {
          xr[ki] = wi / tm(ki, ki + 1);
          xi[ki + 1] = 1.0;
        } else {
          xr[ki] = 1.0;
          xi[ki + 1] = -wi / tm(ki + 1, ki);
        }
        xr[ki + 1] = 0.0;
        xi[ki] = 0.0;
      }
      t.sync();
      const double x1 = xr[ki], x2 = xi[ki + 1];
      for (int k = t.first(ki + 2); k <= n; k += t.step()) {
        xr[k] = -x1 * tm(ki, k);
        xi[k] = -x2 * tm(ki + 1, k);
      }
      t.sync();
      double vmax = 1.0, vcrit = bignum;
      for (int j = ki + 2; j <= n; ++j) {
        const bool blk2 = j < n && tm(j + 1, j) != 0.0;
        if (!blk2) {
          if (wn[j] > vcrit) {
            double rec = 1.0 / vmax;
            scal(t, n - ki + 1, rec, xr.from(ki));
            scal(t, n - ki + 1, rec, xi.from(ki));
            vmax = 1.0;
            vcrit = bignum;
          }
          double dr = 0.0, di = 0.0;
          for (int k = t.first(ki + 2); k <= j - 1; k += t.step()) {
            dr += tm(k, j) * xr[k];
            di += tm(k, j) * xi[k];
          }
          dr = t.sum(dr);
          di = t.sum(di);
          a[0][0] = tm(j, j);
          b[0][0] = xr[j] - dr;
          b[0][1] = xi[j] - di;
          laln2(false, 1, 2, smin, 1.0, a, 1.0, 1.0, b, wr, -wi, x, scale, xnorm);
          t.sync();
          if (scale != 1.0) {
            scal(t, n - ki + 1, scale, xr.from(ki));
            scal(t, n - ki + 1, scale, xi.from(ki));
          }
          if (t.leader()) {
            xr[j] = x[0][0];
            xi[j] = x[0][1];
          }
          vmax = dmax(dmax(fabs(x[0][0]), fabs(x[0][1])), vmax);
          vcrit = bignum / vmax;
          t.sync();
        } else {
          double beta = dmax(wn[j], wn[j + 1]);
          if (beta > vcrit) {
            double rec = 1.0 / vmax;
            scal(t, n - ki + 1, rec, xr.from(ki));
            scal(t, n - ki + 1, rec, xi.from(ki));
            vmax = 1.0;
            vcrit = bignum;
          }
          double dr1 = 0.0, di1 = 0.0, dr2 = 0.0, di2 = 0.0;
          for (int k = t.first(ki + 2); k <= j - 1; k += t.step()) {
            dr1 += tm(k, j) * xr[k];
            di1 += tm(k, j) * xi[k];
            dr2 += tm(k, j + 1) * xr[k];
            di2 += tm(k, j + 1) * xi[k];
          }
          dr1 = t.sum(dr1);
          di1 = t.sum(di1);
          dr2 = t.sum(dr2);
          di2 = t.sum(di2);
          a[0][0] = tm(j, j);     a[0][1] = tm(j, j + 1);
          a[1][0] = tm(j + 1, j); a[1][1] = tm(j + 1, j + 1);
          b[0][0] = xr[j] - dr1;     b[0][1] = xi[j] - di1;
          b[1][0] = xr[j + 1] - dr2; b[1][1] = xi[j + 1] - di2;
          laln2(true, 2, 2, smin, 1.0, a, 1.0, 1.0, b, wr, -wi, x, scale, xnorm);
          t.sync();
          if (scale != 1.0) {
            scal(t, n - ki + 1, scale, xr.from(ki));
            scal(t, n - ki + 1, scale, xi.from(ki));
          }
          if (t.leader()) {
            xr[j] = x[0][0];     xi[j] = x[0][1];
            xr[j + 1] = x[1][0]; xi[j + 1] = x[1][1];
          }
          vmax = dmax(dmax(dmax(fabs(x[0][0]), fabs(x[0][1])), dmax(fabs(x[1][0]), fabs(x[1][1]))), vmax);
          vcrit = bignum / vmax;
          t.sync();
          ++j;
        }
      }
      if (blk) {
        if (!blk->room(2)) blk->flush();
        blk->add(xr, ki, ki, n);  // (xr[ki + 1] and xi[ki] are zero)
        blk->add(xi, ki + 1, ki, n);
        blk->scale(ki, ki + 1);
      } else {
        if (ki < n - 1) {
          backtransform_tail(t, n, ki + 2, v, xr, xr[ki], ki, part);
          backtransform_tail(t, n, ki + 2, v, xi, xi[ki + 1], ki + 1, part);
        } else {
          scal(t, n, xr[ki], col(v, 1, ki));
          scal(t, n, xi[ki + 1], col(v, 1, ki + 1));
        }
        scale_cols_by_max(t, n, v, ki, ki + 1);
      }
      ++ki;
    }
  }
  if (blk) blk->flush();
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
