// dgeev and dhseqr eigenvalues of one matrix of order N held in one thread's registers: the
// per-thread algorithm of the register kernels (eig_reg_kernel.cuh has the kernel and why).
// Host and device code: tests/test_eig_reg.cpp runs it on the CPU against the core.
//
// The order N is a template parameter and every loop over rows or columns runs over all of
// 1..N, unrolled on the GPU, with the run-time bounds (ilo, ihi, the active block l..i, the bulge
// position) as predicates: every index into the matrix is then a compile-time constant and the
// array never leaves registers.
//
// The arithmetic is the core's (compat/core/: gebal, gehd2, hseqr with dlahqr, wantt = false)
// operation for operation, through the core's value-based helpers where the core has them, so
// that the eigenvalues are bitwise those of the shared-memory kernels that serve the same order
// with vectors. Those run the core on teams of P lanes whose 2-norms are sums split over the P
// members and combined by a butterfly (core::nrm2 on cuda::WarpTeam<P>); SsqTeam below adds in
// exactly that order. Every other team reduction in these routines is a maximum (exact) and every
// other sum is formed by one member, so P matters nowhere else.
#pragma once
#include "core/balance.hpp"
#include "core/geev.hpp"
#include "core/hseqr.hpp"

#if defined(__CUDA_ARCH__)
#define SGPU_UNROLL _Pragma("unroll")
#else
#define SGPU_UNROLL
#endif

namespace sgpu {
namespace gpu {
namespace eig_reg {

// A sum of squares in the order of core::member_sum on a team of P followed by the team's
// butterfly: term t goes to member t mod P, each member adds its terms in order (at most 16, so
// member_sum's blocks of kSumBlock never split), and the butterfly adds member r to member r ^ o
// for o = P/2, ..., 1.
template <int P>
struct SsqTeam {
  double acc[P];
  SGPU_HD SsqTeam() {
SGPU_UNROLL
    for (int r = 0; r < P; ++r) acc[r] = 0.0;
  }
  SGPU_HD void add(int t, double x) {
SGPU_UNROLL
    for (int r = 0; r < P; ++r)
      if ((t & (P - 1)) == r) acc[r] += x * x;
  }
  SGPU_HD double total() const {
    double x[P];
SGPU_UNROLL
    for (int r = 0; r < P; ++r) x[r] = acc[r];
SGPU_UNROLL
    for (int o = P / 2; o > 0; o /= 2) {
      double y[P];
SGPU_UNROLL
      for (int r = 0; r < P; ++r) y[r] = x[r] + x[r ^ o];
SGPU_UNROLL
      for (int r = 0; r < P; ++r) x[r] = y[r];
    }
    return x[0];
  }
};

// core::nrm2 on a team of P over the terms that each(f) hands to f(t, x) in order (t = 0, 1, ...).
template <int P, class Each>
SGPU_HD double nrm2_team(Each each) {
  SsqTeam<P> s;
  each([&](int t, double x) { s.add(t, x); });
  const double ssq = s.total();
  if (ssq >= core::kSsqMin && ssq <= core::kSsqMax) return sqrt(ssq);
  double amax = 0.0;
  each([&](int, double x) { amax = core::dmax(amax, fabs(x)); });
  if (amax == 0.0 || !core::finite(amax)) return amax;
  const core::Divider inv(amax);
  SsqTeam<P> s2;
  each([&](int t, double x) { s2.add(t, inv(x)); });
  return amax * sqrt(s2.total());
}

// One thread's matrix of order N (1-based accessors, as the core) and its eigenvalues (in the
// warp's shared-memory rows: written at run-time indices, read back by the warp's store).
template <int N, int P>
struct RegEig {
  static_assert(N >= 1 && N <= 16, "one thread per matrix serves orders 1..16");
  double h[N][N];
  double* wr;
  double* wi;

  SGPU_HD double& at(int r, int c) { return h[r - 1][c - 1]; }

  // H(i, i + D) for a run-time i (0 where it lies outside the matrix).
  template <int D>
  SGPU_HD double band(int i) const {
    double v = 0.0;
SGPU_UNROLL
    for (int r = 1; r <= N; ++r)
      if (r + D >= 1 && r + D <= N && r == i) v = h[r - 1][r + D - 1];
    return v;
  }
  template <int D>
  SGPU_HD void set_band(int i, double v) {
SGPU_UNROLL
    for (int r = 1; r <= N; ++r)
      if (r + D >= 1 && r + D <= N && r == i) h[r - 1][r + D - 1] = v;
  }
  // The 2x2 block H(i-1:i, i-1:i) for a run-time i in 2..N (one pass over the orders for the
  // four entries, where four band() calls would take four).
  SGPU_HD void get2(int i, double& a, double& b, double& c, double& d) const {
SGPU_UNROLL
    for (int r = 2; r <= N; ++r)
      if (r == i) {
        a = h[r - 2][r - 2];
        b = h[r - 2][r - 1];
        c = h[r - 1][r - 2];
        d = h[r - 1][r - 1];
      }
  }
  SGPU_HD void set2(int i, double a, double b, double c, double d) {
SGPU_UNROLL
    for (int r = 2; r <= N; ++r)
      if (r == i) {
        h[r - 2][r - 2] = a;
        h[r - 2][r - 1] = b;
        h[r - 1][r - 2] = c;
        h[r - 1][r - 1] = d;
      }
  }
  // The bulge's first column at a run-time m in 1..N-2 (core::bulge_first_column(h, m, ...)).
  SGPU_HD void first_column(int m, const core::Shifts& sh, double& u0, double& u1, double& u2) const {
    double hmm = 0.0, h21 = 0.0, h12 = 0.0, h22 = 0.0, h32 = 0.0;
SGPU_UNROLL
    for (int r = 1; r <= N - 2; ++r)
      if (r == m) {
        hmm = h[r - 1][r - 1];
        h21 = h[r][r - 1];
        h12 = h[r - 1][r];
        h22 = h[r][r];
        h32 = h[r + 1][r];
      }
    core::bulge_first_column(hmm, h21, h12, h22, h32, sh, u0, u1, u2);
  }
  SGPU_HD void set_w(int i, double re, double im) {
    wr[i - 1] = re;
    wi[i - 1] = im;
  }

  // Swaps columns a and b over rows r0..r1, and rows a and b over columns c0..c1 (run-time).
  SGPU_HD void swap_cols(int a, int b, int r0, int r1) {
SGPU_UNROLL
    for (int r = 1; r <= N; ++r) {
      if (r < r0 || r > r1) continue;
      double xa = 0.0, xb = 0.0;
SGPU_UNROLL
      for (int c = 1; c <= N; ++c) {
        if (c == a) xa = at(r, c);
        if (c == b) xb = at(r, c);
      }
SGPU_UNROLL
      for (int c = 1; c <= N; ++c) {
        if (c == a) at(r, c) = xb;
        if (c == b) at(r, c) = xa;
      }
    }
  }
  SGPU_HD void swap_rows(int a, int b, int c0, int c1) {
SGPU_UNROLL
    for (int c = 1; c <= N; ++c) {
      if (c < c0 || c > c1) continue;
      double xa = 0.0, xb = 0.0;
SGPU_UNROLL
      for (int r = 1; r <= N; ++r) {
        if (r == a) xa = at(r, c);
        if (r == b) xb = at(r, c);
      }
SGPU_UNROLL
      for (int r = 1; r <= N; ++r) {
        if (r == a) at(r, c) = xb;
        if (r == b) at(r, c) = xa;
      }
    }
  }

  // core::gebal (job 'B'), without the permutation record (no eigenvectors to back-transform).
  SGPU_HD void gebal(int& ilo, int& ihi) {
    int k = 1, l = N;
    // Permutation: push rows that isolate an eigenvalue to the bottom: the largest j <= l whose
    // row is zero in columns 1..l off the diagonal ...
    bool found = true;
    while (found && l >= 1) {
      found = false;
      int jf = 0;
SGPU_UNROLL
      for (int j = 1; j <= N; ++j) {
        bool zero = j <= l;
SGPU_UNROLL
        for (int i = 1; i <= N; ++i)
          if (i != j && i <= l && at(j, i) != 0.0) zero = false;
        if (zero) jf = j;
      }
      if (jf == 0) break;
      if (jf != l) {
        swap_cols(jf, l, 1, l);
        swap_rows(jf, l, k, N);
      }
      if (l == 1) {
        ilo = ihi = 1;
        return;
      }
      --l;
      found = true;
    }
    // ... and columns that isolate an eigenvalue to the left: the smallest j in k..l whose column
    // is zero in rows k..l off the diagonal.
    found = true;
    while (found) {
      found = false;
      int jf = 0;
SGPU_UNROLL
      for (int j = N; j >= 1; --j) {
        bool zero = j >= k && j <= l;
SGPU_UNROLL
        for (int i = 1; i <= N; ++i)
          if (i != j && i >= k && i <= l && at(i, j) != 0.0) zero = false;
        if (zero) jf = j;
      }
      if (jf == 0) break;
      if (jf != k) {
        swap_cols(jf, k, 1, l);
        swap_rows(jf, k, k, N);
      }
      ++k;
      found = true;
    }
    // Iterative scaling toward equal row and column norms.
    double scale[N];
SGPU_UNROLL
    for (int i = 0; i < N; ++i) scale[i] = 1.0;
    bool noconv = true;
    while (noconv) {
      noconv = false;
SGPU_UNROLL
      for (int i = 1; i <= N; ++i) {
        if (i < k || i > l) continue;
        const double c = nrm2_team<P>([&](auto f) {
SGPU_UNROLL
          for (int q = 1; q <= N; ++q)
            if (q >= k && q <= l) f(q - k, at(q, i));
        });
        const double r = nrm2_team<P>([&](auto f) {
SGPU_UNROLL
          for (int q = 1; q <= N; ++q)
            if (q >= k && q <= l) f(q - k, at(i, q));
        });
        double ca = 0.0, ra = 0.0;
SGPU_UNROLL
        for (int q = 1; q <= N; ++q) {
          if (q <= l) ca = core::dmax(ca, fabs(at(q, i)));
          if (q >= k) ra = core::dmax(ra, fabs(at(i, q)));
        }
        double f;
        if (!core::balance_factor(c, r, ca, ra, scale[i - 1], f)) continue;
        scale[i - 1] *= f;
        noconv = true;
        const double inv = 1.0 / f;
SGPU_UNROLL
        for (int q = 1; q <= N; ++q)
          if (q >= k) at(i, q) = inv * at(i, q);
SGPU_UNROLL
        for (int q = 1; q <= N; ++q)
          if (q <= l) at(q, i) = f * at(q, i);
      }
    }
    ilo = k;
    ihi = l;
  }

  // core::gehd2: A(ilo:ihi, ilo:ihi) to upper Hessenberg form; reflector i below the subdiagonal
  // of column i (its tau is dropped: no Q is formed).
  SGPU_HD void gehd2(int ilo, int ihi) {
    const double safmin = core::Mach::safmin / core::Mach::eps, rsafmn = 1.0 / safmin;
SGPU_UNROLL
    for (int i = 1; i <= N - 1; ++i) {
      if (i < ilo || i > ihi - 1) continue;
      const int m = ihi - i;  // reflector length: rows i+1..ihi; x = rows i+2..ihi of column i
      auto each_x = [&](auto f) {
SGPU_UNROLL
        for (int q = i + 2; q <= N; ++q)
          if (q <= ihi) f(q - i - 2, at(q, i));
      };
      // core::larfg(m, alpha, x, tau)
      double alpha = at(i + 1, i), tau = 0.0, beta = alpha;
      if (m > 1) {
        double xnorm = nrm2_team<P>(each_x);
        if (xnorm != 0.0) {
          beta = -core::sign(core::lapy2(alpha, xnorm), alpha);
          int knt = 0;
          if (fabs(beta) < safmin) {
            do {
              ++knt;
SGPU_UNROLL
              for (int q = i + 2; q <= N; ++q)
                if (q <= ihi) at(q, i) = rsafmn * at(q, i);
              beta *= rsafmn;
              alpha *= rsafmn;
            } while (fabs(beta) < safmin && knt < 20);
            xnorm = nrm2_team<P>(each_x);
            beta = -core::sign(core::lapy2(alpha, xnorm), alpha);
          }
          tau = (beta - alpha) / beta;
          const double sc = 1.0 / (alpha - beta);
SGPU_UNROLL
          for (int q = i + 2; q <= N; ++q)
            if (q <= ihi) at(q, i) = sc * at(q, i);
          for (int j = 0; j < knt; ++j) beta *= safmin;
        }
      }
      // Right: A(1:ihi, i+1:ihi) -= tau (A v) v^T, each row's sum as core::dot_v.
SGPU_UNROLL
      for (int r = 1; r <= N; ++r) {
        if (r > ihi) continue;
        double s = at(r, i + 1);
        if (m >= 2) {
          double p = 0.0;
SGPU_UNROLL
          for (int q = i + 2; q <= N; ++q)
            if (q <= ihi) p += at(q, i) * at(r, q);
          s += p;
        }
        s = tau * s;
        at(r, i + 1) -= s;
SGPU_UNROLL
        for (int q = i + 2; q <= N; ++q)
          if (q <= ihi) at(r, q) -= s * at(q, i);
      }
      // Left: A(i+1:ihi, i+1:n) -= tau v (v^T A).
SGPU_UNROLL
      for (int c = i + 1; c <= N; ++c) {
        double w = at(i + 1, c);
        if (m >= 2) {
          double p = 0.0;
SGPU_UNROLL
          for (int q = i + 2; q <= N; ++q)
            if (q <= ihi) p += at(q, i) * at(q, c);
          w += p;
        }
        w = tau * w;
        at(i + 1, c) -= w;
SGPU_UNROLL
        for (int q = i + 2; q <= N; ++q)
          if (q <= ihi) at(q, c) -= w * at(q, i);
      }
      at(i + 1, i) = beta;
    }
  }

  // core::lahqr with wantt = false and no Z: the eigenvalues of H(ilo:ihi, ilo:ihi), updating only
  // the active block. Returns info as dlahqr.
  SGPU_HD int lahqr(int ilo, int ihi) {
    const int kexsh = 10;
    // Clear out the trash below the first subdiagonal's neighbours.
SGPU_UNROLL
    for (int j = 1; j <= N - 2; ++j)
      if (j >= ilo && j <= ihi - 3) {
        at(j + 2, j) = 0.0;
        if (j + 3 <= N) at(j + 3, j) = 0.0;
      }
    if (ilo <= ihi - 2) set_band<-2>(ihi, 0.0);
    const int nh = ihi - ilo + 1;
    const double ulp = core::Mach::ulp, smlnum = core::Mach::safmin * ((double)nh / ulp);
    const int itmax = SGPU_CORE_LAHQR_ITMAX(nh);
    // One pass of this loop is one deflation test followed by either the deflation of one or two
    // eigenvalues or one QR sweep (dlahqr's two nested loops, flattened): the threads of a warp
    // then run through sweeps together whatever eigenvalue each is at, where nested loops would
    // make every thread wait for the slowest at each deflation.
    int kdefl = 0, i = ihi, l = ilo, its = 0;
    while (i >= ilo) {
      if (its > itmax) return i;  // failure to converge in the remaining iterations
      {  // (one indentation level as dlahqr's its loop)
        // The largest k in l+1..i with H(k, k-1) negligible, else l.
        int k = l;
SGPU_UNROLL
        for (int kk = 2; kk <= N; ++kk) {
          if (kk < l + 1 || kk > i) continue;
          const double left = kk >= 3 && kk - 2 >= ilo ? at(kk - 1, kk - 2) : 0.0;
          const double below = kk + 1 <= N && kk + 1 <= ihi ? at(kk + 1, kk) : 0.0;
          if (core::negligible_subdiag(at(kk, kk - 1), at(kk - 1, kk - 1), at(kk, kk), at(kk - 1, kk), left, below,
                                       smlnum, ulp))
            k = kk;
        }
        l = k;
        if (l > ilo) set_band<-1>(l, 0.0);
        if (l >= i - 1) {
          if (l == i) {
            set_w(i, band<0>(i), 0.0);
          } else {
            // A pair has converged: standardize the 2x2 block.
            double a = 0.0, b = 0.0, c = 0.0, d = 0.0;
            get2(i, a, b, c, d);
            double r1r, r1i, r2r, r2i, cs, sn;
            core::lanv2(a, b, c, d, r1r, r1i, r2r, r2i, cs, sn);
            set2(i, a, b, c, d);
            set_w(i - 1, r1r, r1i);
            set_w(i, r2r, r2i);
          }
          kdefl = 0;
          i = l - 1;
          l = ilo;
          its = 0;
          continue;
        }
        ++kdefl;
        double h11, h12, h21, h22;
        if (kdefl % (2 * kexsh) == 0) {
          core::exceptional_block(fabs(band<-1>(i)) + fabs(band<-1>(i - 1)), band<0>(i), h11, h12, h21, h22);
        } else if (kdefl % kexsh == 0) {
          core::exceptional_block(fabs(band<-1>(l + 1)) + fabs(band<-1>(l + 2)), band<0>(l), h11, h12, h21, h22);
        } else {
          h11 = h12 = h21 = h22 = 0.0;
          get2(i, h11, h12, h21, h22);
        }
        const core::Shifts sh = core::francis_shifts(h11, h12, h21, h22);
        // The largest m in l+1..i-2 where the bulge may start, else l; its first column.
        int m = l;
        double u0 = 0.0, u1 = 0.0, u2 = 0.0;
SGPU_UNROLL
        for (int mm = 2; mm <= N - 2; ++mm) {
          if (mm <= l || mm > i - 2) continue;
          double v0, v1, v2;
          core::bulge_first_column(at(mm, mm), at(mm + 1, mm), at(mm, mm + 1), at(mm + 1, mm + 1), at(mm + 2, mm + 1),
                                   sh, v0, v1, v2);
          if (core::bulge_can_start(at(mm, mm - 1), at(mm - 1, mm - 1), at(mm, mm), at(mm + 1, mm + 1), v0, v1, v2,
                                    ulp)) {
            m = mm;
            u0 = v0;
            u1 = v1;
            u2 = v2;
          }
        }
        if (m == l) first_column(l, sh, u0, u1, u2);
        // Double-shift QR step: create the bulge at m and chase it down to i.
SGPU_UNROLL
        for (int k2 = 1; k2 <= N - 1; ++k2) {
          if (k2 < m || k2 > i - 1) continue;
          const bool three = k2 + 2 <= i;  // nr = 3, else 2 (the last step)
          if (k2 > m && k2 >= 2) {
            u0 = at(k2, k2 - 1);
            u1 = at(k2 + 1, k2 - 1);
            if (k2 + 2 <= N && three) u2 = at(k2 + 2, k2 - 1);
          }
          double t1;
          u0 = core::larfg3(three ? 3 : 2, u0, u1, u2, t1);
          const core::BulgeReflector rf{u1, u2, t1, t1 * u1, t1 * u2};
          // Rows k2..k2+2 from the left, columns k2..i.
SGPU_UNROLL
          for (int j = k2; j <= N; ++j) {
            if (j > i) continue;
            if (k2 + 2 <= N && three) {
              rf.apply<3>(at(k2, j), at(k2 + 1, j), at(k2 + 2, j));
            } else {
              double x = 0.0;
              rf.apply<2>(at(k2, j), at(k2 + 1, j), x);
            }
          }
          if (k2 >= 2) {
            if (k2 > m) {
              at(k2, k2 - 1) = u0;
              at(k2 + 1, k2 - 1) = 0.0;
              if (k2 + 2 <= N && k2 < i - 1) at(k2 + 2, k2 - 1) = 0.0;
            } else if (m > l) {
              at(k2, k2 - 1) *= (1.0 - t1);
            }
          }
          // Columns k2..k2+2 from the right, rows l..min(k2+3, i).
SGPU_UNROLL
          for (int j = 1; j <= N; ++j) {
            if (j < l || j > k2 + 3 || j > i) continue;
            if (k2 + 2 <= N && three) {
              rf.apply<3>(at(j, k2), at(j, k2 + 1), at(j, k2 + 2));
            } else {
              double x = 0.0;
              rf.apply<2>(at(j, k2), at(j, k2 + 1), x);
            }
          }
        }
      }
      ++its;
    }
    return 0;
  }

  // core::hseqr with wantt = false and compz N.
  SGPU_HD int hseqr(int ilo, int ihi) {
SGPU_UNROLL
    for (int q = 1; q <= N; ++q)
      if (q < ilo || q > ihi) set_w(q, at(q, q), 0.0);
    bool bad = false;
SGPU_UNROLL
    for (int c = 1; c <= N; ++c)
SGPU_UNROLL
      for (int r = 1; r <= N && r <= c + 1; ++r)
        if (c >= ilo && c <= ihi && r >= ilo && r <= ihi && !core::finite(at(r, c))) bad = true;
    int info;
    if (bad) {
SGPU_UNROLL
      for (int q = 1; q <= N; ++q)
        if (q >= ilo && q <= ihi) set_w(q, NAN, NAN);
      info = ihi;
    } else if (ilo == ihi) {
      set_w(ilo, band<0>(ilo), 0.0);
      return 0;
    } else {
      info = lahqr(ilo, ihi);
    }
    if (info != 0 && N > 2) {
SGPU_UNROLL
      for (int c = 1; c <= N - 2; ++c)
SGPU_UNROLL
        for (int r = c + 2; r <= N; ++r) at(r, c) = 0.0;
    }
    return info;
  }

  // core::geev with jobvl = jobvr = N.
  SGPU_HD int geev() {
    bool bad = false;
    double anrm = 0.0;
SGPU_UNROLL
    for (int c = 1; c <= N; ++c)
SGPU_UNROLL
      for (int r = 1; r <= N; ++r) {
        if (!core::finite(at(r, c))) bad = true;
        anrm = core::dmax(anrm, fabs(at(r, c)));
      }
    if (bad) {
      for (int q = 1; q <= N; ++q) set_w(q, NAN, NAN);
      return N;
    }
    const double cscale = core::geev_scale_target(anrm);
    const bool scalea = cscale != 0.0;
    if (scalea)
      core::lascl_factors(anrm, cscale, [&](double mul) {
SGPU_UNROLL
        for (int c = 1; c <= N; ++c)
SGPU_UNROLL
          for (int r = 1; r <= N; ++r) at(r, c) = mul * at(r, c);
      });
    int ilo, ihi;
    gebal(ilo, ihi);
    gehd2(ilo, ihi);
    const int info = hseqr(ilo, ihi);
    if (scalea) {
      // Undo the scaling of the valid eigenvalues (info+1..n, and 1..ilo-1 on failure).
      auto undo = [&](int lo, int hi) {
        core::lascl_factors(cscale, anrm, [&](double mul) {
          for (int q = lo; q <= hi; ++q) wr[q - 1] = mul * wr[q - 1];
        });
        core::lascl_factors(cscale, anrm, [&](double mul) {
          for (int q = lo; q <= hi; ++q) wi[q - 1] = mul * wi[q - 1];
        });
      };
      undo(info + 1, N);
      if (info > 0) undo(1, ilo - 1);
    }
    return info;
  }
};

}  // namespace eig_reg
}  // namespace gpu
}  // namespace sgpu
