// One matrix of zheev: eigenvalues (ascending) and optionally eigenvectors of a Hermitian matrix:
// scaling as zheev, Householder tridiagonalization, phase scaling to a real symmetric tridiagonal,
// then as zheevd: vectors by implicit QL/QR accumulated into the unitary factor (dsteqr, Q formed
// in place of the reflectors) up to kStedcLeaf, above it by divide and conquer (dstedc) on a real Z
// followed by the product Q Z (zlacrm). A caller may instead ask for the vectors as zheevx finds
// them: values by bisection, the real Z by inverse iteration (dstein), then Q Z. The eigenvalues
// are bitwise the same with and without vectors: the call without vectors runs the method whose
// values the call with vectors returns (the chain's, dstebz's), and above kStedcLeaf both return
// dsterf's (bisection's for a team wider than one).
#pragma once
#include "bisect.hpp"
#include "hetrd.hpp"
#include "stedc.hpp"
#include "stein.hpp"
#include "steqr.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Vectors by divide and conquer from order dc_from (default: above one leaf, as zheevd); a caller
// that keeps the QL/QR chain passes kHeevNoStedc (the GPU's warp path, n <= 32: its code as it was
// measured and tested before divide and conquer).
constexpr int kHeevNoStedc = 1 << 30;
// In place of dc_from: no divide and conquer, and vectors by bisection and inverse iteration
// instead of the chain (the GPU's team path: every member finds its own vectors, where the chain
// runs n^2 dependent rotations through one; docs/performance.md).
constexpr int kHeevInverse = kHeevNoStedc + 1;
SGPU_HD bool heev_uses_stedc(int n, bool wantz, int dc_from) { return wantz && dc_from < kHeevNoStedc && n >= dc_from; }

// Doubles of heev's lower_copy for a team of one (the CPU backend): the upper triangle without
// vectors, from order 64. Through the transposed view the reduction took 1.2-1.3x as long at orders
// 48-96, 2.8x at 128 and 4x at 512 (the x86-64-v3 copy, 2-core VM); the copy moves n^2 / 2
// elements against the reduction's n^3.
constexpr int kHeevCopyFrom = 64;
SGPU_HD int64_t heev_copy_work(int n, bool wantz, bool uplo_lower) {
  return !wantz && !uplo_lower && n >= kHeevCopyFrom ? 2 * (int64_t)n * n : 0;
}

// Doubles of workspace one matrix needs: d, er, cw, sw (n each), e, tau, y (n complex each); with
// divide and conquer also Q (n x n complex), the real Z (n x n) and stedc's workspace (its ints
// in doubles' room). Without it Q is formed in A itself, and a team of `members` > 1 needs each
// member's own copy of d and e for the QL/QR chain (2 n per member). Inverse iteration (kHeevInverse)
// needs the real Z (n x heev_ldz(n)) and each member's scratch (stein_member_work).
SGPU_HD int heev_ldz(int n) { return n | 1; }  // odd: members reading their own columns hit distinct banks
SGPU_HD int64_t heev_work(int n, bool wantz, int dc_from = kStedcLeaf + 1, int members = 1) {
  if (heev_uses_stedc(n, wantz, dc_from))
    return 10 * (int64_t)n + 3 * (int64_t)n * n + stedc_work(n) + (stedc_iwork(n) + 1) / 2;
  if (wantz && dc_from == kHeevInverse)
    return 10 * (int64_t)n + (int64_t)n * heev_ldz(n) + stein_member_work(n) * members;
  const bool chain = n < dc_from && dc_from != kHeevInverse;  // the chain, or (jobz N) its values
  return 10 * (int64_t)n + (chain && members > 1 ? 2 * (int64_t)n * members : 0);
}

// The scaling of zheevd, zheevr and zheevx: the factor that brings a matrix of max-abs norm anrm
// into [sqrt(safmin/ulp), rmax] with rmax = min(sqrt(ulp/safmin), 1/sqrt(sqrt(safmin))) (about
// 8e76), or 1 when it already lies there. zheev's own rmax, sqrt(ulp/safmin) (about 1e146), leaves
// a dominant entry whose square overflows in the tridiagonal QL/QR and in bisection's pivots:
// LAPACK's zheev fails (info > 0) on about half of the matrices with one off-diagonal pair at 1e300
// among uniform entries (n = 6-32; so do dstebz + dstein on its tridiagonal), while with this rmax
// zheev's own method, inverse iteration and divide and conquer all succeed on them.
// anrm = +Inf (called only for finite entries: some |a_ij| overflowed, both its parts near DBL_MAX)
// gets the factor that brings DBL_MAX to rmax / 2, so every |a_ij| lands below rmax; LAPACK's
// rmax / anrm would be 0 and every eigenvalue NaN with info 0 (the fuzzer's find,
// fuzz/fuzz_args.cpp).
SGPU_HD double heev_scale(double anrm) {
  const double smlnum = Mach::safmin / Mach::ulp, bignum = 1.0 / smlnum;
  const double rmin = sqrt(smlnum), rmax = dmin(sqrt(bignum), 1.0 / sqrt(sqrt(Mach::safmin)));
  if (anrm > 1.7976931348623157e308) return 0.5 * (rmax / 1.7976931348623157e308);
  if (anrm > 0.0 && anrm < rmin) return rmin / anrm;
  if (anrm > rmax) return rmax / anrm;
  return 1.0;
}

// The QL/QR chain (dsteqr; wantz: its rotations into Q in place in a) on d and er, with every
// member of the team on its own copy of them (interleaved at work + 10 n, so a team's copies share
// no bank), the leader alone storing the rotations, and the leader alone handing d back: the
// members never write a shared scalar. Returns steqr's info.
template <class Team>
SGPU_HD int heev_chain(const Team& t, bool wantz, int n, Vec1<double> d, Vec1<double> er, Mat1<zc> a,
                       Vec1<double> cw, Vec1<double> sw, double* work) {
  const int p = t.step(), rank = t.first(0);
  Vec1<double> dm = d, em = er;
  if (p > 1) {
    dm = Vec1<double>{work + 10 * (int64_t)n + rank, p};
    em = Vec1<double>{work + 10 * (int64_t)n + (int64_t)n * p + rank, p};
    for (int i = 1; i <= n; ++i) {
      dm[i] = d[i];
      em[i] = i < n ? er[i] : 0.0;
    }
    t.sync();  // every member has its copy before the leader hands d back
  }
  const int info = steqr(t, wantz, n, dm, em, wantz ? n : 0, a, cw, sw, true);
  if (p > 1) {
    if (t.leader())
      for (int i = 1; i <= n; ++i) d[i] = dm[i];
    t.sync();
  }
  return info;
}

// heev's first steps: the referenced triangle into the lower one (through the transposed view
// without vectors and uplo U, a copied into lower_copy where given), the NaN/Inf screen, zheev's
// scaling (sigma) and the reduction to tridiagonal form (hetd2: d, e, tau, y in work as heev lays
// them out). Returns 0 with the reduced matrix in a (the view the reduction ran on), 1 where n = 1
// was solved outright, -1 where A held NaN or Inf (w and, with vectors, A then NaN).
template <class Team>
SGPU_HD int heev_start(const Team& t, bool wantz, bool uplo_lower, int n, Mat1<zc>& a, Vec1<double> w, double* work,
                       double& sigma, zc* lower_copy = nullptr) {
  // Without vectors zheev writes only the referenced triangle. An upper one is then taken as the
  // lower triangle of the transposed view, conj(A), which has A's eigenvalues: each step of the
  // reduction is symmetric under conjugation (complex products and sums of conjugates are the
  // conjugates, bit for bit), so they are bitwise those of uplo = 'L' on the same matrix.
  const bool view_t = !wantz && !uplo_lower, lower = uplo_lower || view_t;
  if (view_t) a = Mat1<zc>{a.p, a.cs, a.rs};
  // Read through that view the reduction strides across columns; where the caller gives room
  // (lower_copy: n x n complex, heev_copy_work) the view's lower triangle is first copied into a
  // matrix of unit row stride, with the same values and so the same results.
  if (view_t && lower_copy) {
    const Mat1<zc> own{lower_copy, 1, n};
    for (int c = t.first(1); c <= n; c += t.step())
      for (int r = c; r <= n; ++r) own(r, c) = a(r, c);
    t.sync();
    a = own;
  }
  // Mirror the referenced triangle into the other one so the core works on the lower triangle.
  double bad = 0.0, anrm = 0.0;
  for (int c = t.first(1); c <= n; c += t.step())
    for (int r = c; r <= n; ++r) {
      zc x = lower ? a(r, c) : conj(a(c, r));
      if (r == c) x.im = 0.0;
      if (!finite(x.re) || !finite(x.im)) bad = 1.0;
      anrm = dmax(anrm, zabs(x));
    }
  bad = t.max(bad);
  anrm = t.max(anrm);
  t.sync();
  if (bad != 0.0) {
    if (t.leader())
      for (int i = 1; i <= n; ++i) w[i] = NAN;
    if (wantz)
      for (int c = t.first(1); c <= n; c += t.step())
        for (int r = 1; r <= n; ++r) a(r, c) = zc{NAN, NAN};
    t.sync();
    return -1;
  }
  // The core works on the lower triangle: mirror an upper one into it; drop the diagonal's
  // imaginary parts (not referenced, as in LAPACK).
  for (int c = t.first(1); c <= n; c += t.step()) {
    if (!lower)
      for (int r = c + 1; r <= n; ++r) a(r, c) = conj(a(c, r));
    a(c, c).im = 0.0;
  }
  t.sync();
  if (n == 1) {
    if (t.leader()) {
      w[1] = a(1, 1).re;
      if (wantz) a(1, 1) = zc{1.0, 0.0};
    }
    t.sync();
    return 1;
  }
  Vec1<double> d{work, 1};
  zc* zw = reinterpret_cast<zc*>(work + 4 * n);
  Vec1<zc> e{zw, 1}, tau{zw + n, 1}, y{zw + 2 * n, 1};
  // Scale the matrix to an allowable range, if necessary.
  sigma = heev_scale(anrm);
  if (sigma != 1.0)
    for (int c = t.first(1); c <= n; c += t.step())
      for (int r = c; r <= n; ++r) a(r, c) = sigma * a(r, c);
  t.sync();
  hetd2(t, n, a, d, e, tau, y);
  return 0;
}

// heev's inverse iteration after the eigenvalues: with Q in a (phase-scaled), T in work's d and
// er, its eigenvalues as stebz leaves them in cw and their order in sw's room (work + 3 n, ints),
// the real Z by inverse iteration (stein_all with dstein's iteration for every vector, as the GPU's
// teams take it), then A = Q Z row by row, the columns taken in that order: each member keeps its
// row of Q in its stein scratch (free again by then); d gets the eigenvalues ascending. Returns
// stein_all's count of vectors that did not converge.
template <class Team>
SGPU_HD int heev_inverse_vectors(const Team& t, int n, Mat1<zc> a, double* work) {
  const Vec1<double> d{work, 1}, er{work + n, 1}, cw{work + 2 * n, 1};
  const Vec1<int> order{reinterpret_cast<int*>(work + 3 * (int64_t)n), 1};
  const int p = t.step(), rank = t.first(0);
  const Mat1<double> z{work + 10 * (int64_t)n, 1, heev_ldz(n)};
  double* scratch = work + 10 * (int64_t)n + (int64_t)n * heev_ldz(n);
  const int info = stein_all<1, 0>(t, n, d, er, cw, z, scratch);
  const Vec1<double> row{scratch + rank, p};  // re and im of Q(r, k) at 2k - 1 and 2k
  for (int r = t.first(1); r <= n; r += p) {
    for (int k = 1; k <= n; ++k) {
      const zc q = a(r, k);
      row[2 * k - 1] = q.re;
      row[2 * k] = q.im;
    }
    // Four columns at a time: each element of the row is loaded once for four of them (each sum
    // still runs over k in order, so the same bits as one column at a time).
    int c = 1;
    for (; c + 3 <= n; c += 4) {
      const int o0 = order[c], o1 = order[c + 1], o2 = order[c + 2], o3 = order[c + 3];
      double s0r = 0.0, s0i = 0.0, s1r = 0.0, s1i = 0.0, s2r = 0.0, s2i = 0.0, s3r = 0.0, s3i = 0.0;
      for (int k = 1; k <= n; ++k) {
        const double qr = row[2 * k - 1], qi = row[2 * k];
        const double z0 = z(k, o0), z1 = z(k, o1), z2 = z(k, o2), z3 = z(k, o3);
        s0r += qr * z0;
        s0i += qi * z0;
        s1r += qr * z1;
        s1i += qi * z1;
        s2r += qr * z2;
        s2i += qi * z2;
        s3r += qr * z3;
        s3i += qi * z3;
      }
      a(r, c) = zc{s0r, s0i};
      a(r, c + 1) = zc{s1r, s1i};
      a(r, c + 2) = zc{s2r, s2i};
      a(r, c + 3) = zc{s3r, s3i};
    }
    for (; c <= n; ++c) {
      const int oc = order[c];
      double sr = 0.0, si = 0.0;
      for (int k = 1; k <= n; ++k) {
        const double zk = z(k, oc);
        sr += row[2 * k - 1] * zk;
        si += row[2 * k] * zk;
      }
      a(r, c) = zc{sr, si};
    }
  }
  t.sync();  // every member has read d (in stein_all) before it is overwritten
  for (int i = t.first(1); i <= n; i += p) d[i] = cw[order[i]];
  t.sync();
  return info;
}

// Returns info as zheev: 0, or i > 0 when i off-diagonals failed to converge (w[1..i-1] hold
// eigenvalues, unordered, in that case; with divide and conquer i is the failing leaf's row and
// w is not meaningful). With inverse iteration, i > 0 is the number of eigenvectors whose iteration
// failed (zheevx's count; w holds every eigenvalue, and every vector is still stored).
// Non-finite input: w and (wantz) A are NaN, info = n.
template <class Team>
SGPU_HD int heev(const Team& t, bool wantz, bool uplo_lower, int n, Mat1<zc> a_in, Vec1<double> w, double* work,
                 int dc_from = kStedcLeaf + 1, zc* lower_copy = nullptr) {
  if (n == 0) return 0;
  Mat1<zc> a = a_in;
  double sigma = 1.0;
  const int start = heev_start(t, wantz, uplo_lower, n, a, w, work, sigma, lower_copy);
  if (start != 0) return start < 0 ? n : 0;
  Vec1<double> d{work, 1}, er{work + n, 1}, cw{work + 2 * n, 1}, sw{work + 3 * n, 1};
  zc* zw = reinterpret_cast<zc*>(work + 4 * n);
  Vec1<zc> e{zw, 1}, tau{zw + n, 1}, y{zw + 2 * n, 1};
  // (The first test folds away where the caller passes kHeevNoStedc: its kernels then carry no
  // divide-and-conquer code or stack.)
  const bool dc = heev_uses_stedc(n, wantz, dc_from);
  const bool inverse = wantz && dc_from == kHeevInverse;

  int info = 0;
  if (dc) {
    // Divide and conquer on a real Z, then A = Q Z (complex times real).
    const Mat1<zc> q{reinterpret_cast<zc*>(work + 10 * (int64_t)n), 1, n};
    double* zr = work + 10 * (int64_t)n + 2 * (int64_t)n * n;
    double* dw = zr + (int64_t)n * n;
    int* iw = reinterpret_cast<int*>(dw + stedc_work(n));
    const Mat1<double> z{zr, 1, n};
    ungtr(t, n, a, tau, q);
    phase_scale(t, n, e, er, y, true, n, q);
    // The eigenvalues are those of the call without vectors (dsterf's, or bisection's for a wider
    // team), taken from copies of d and e (y's space) or from bisection's pass before stedc:
    // divide and conquer's own differ from them in the last bits (by up to about twice LAPACK's
    // dsterf-against-dsteqr difference: zdrvst's test 3 at n = 600).
    double* d0 = reinterpret_cast<double*>(&y[1]);
    double* e0 = d0 + n;
    if (t.step() == 1) {
      for (int i = 1; i <= n; ++i) {
        d0[i - 1] = d[i];
        e0[i - 1] = er[i];
      }
    } else {
      bisect_all<2>(t, n, d, er, cw);
    }
    info = stedc(t, n, d, er, z, dw, iw);
    if (info == 0) {
      if (t.step() > 1) {
        for (int i = t.first(1); i <= n; i += t.step()) d[i] = cw[i];
      } else if (sterf(t, n, Vec1<double>{d0, 1}, Vec1<double>{e0, 1}) == 0) {
        for (int i = 1; i <= n; ++i) d[i] = d0[i - 1];
      }
    }
    t.sync();
    if (t.step() == 1) {
      // Down Q's columns (a team of one: the CPU, where Q's rows are far apart in memory); each
      // element's sum runs in the same order as in the loop below, so the bits are the same.
      for (int c = 1; c <= n; ++c) {
        for (int r = 1; r <= n; ++r) a(r, c) = zc{0.0, 0.0};
        for (int k = 1; k <= n; ++k) {
          const double zk = z(k, c);
          for (int r = 1; r <= n; ++r) {
            a(r, c).re += q(r, k).re * zk;
            a(r, c).im += q(r, k).im * zk;
          }
        }
      }
    } else {
      for (int c = t.first(1); c <= n; c += t.step())
        for (int r = 1; r <= n; ++r) {
          double sr = 0.0, si = 0.0;
          for (int k = 1; k <= n; ++k) {
            sr += q(r, k).re * z(k, c);
            si += q(r, k).im * z(k, c);
          }
          a(r, c) = zc{sr, si};
        }
    }
  } else if (inverse) {
    // Q in place of the reflectors; eigenvalues by bisection (into cw; their ascending order into
    // sw's room), then heev_inverse_vectors.
    ungtr_inplace(t, n, a, tau);
    phase_scale(t, n, e, er, y, true, n, a);
    stebz(t, n, d, er, cw, Vec1<int>{reinterpret_cast<int*>(work + 3 * (int64_t)n), 1});
    info = heev_inverse_vectors(t, n, a, work);
  } else if (wantz) {
    // Q in place of the reflectors, then implicit QL/QR with the rotations accumulated into it
    // (dsteqr). Every member runs the chain on its own copy of d and e (interleaved, so a team's
    // copies share no bank), the leader alone stores the rotations, and it hands d back.
    ungtr_inplace(t, n, a, tau);
    phase_scale(t, n, e, er, y, true, n, a);
    info = heev_chain(t, true, n, d, er, a, cw, sw, work);
  } else {
    // Values only, by the method whose values the call with vectors returns at this order, so that
    // the two agree bitwise: the QL/QR chain without its rotations (below dc_from), dstebz's
    // bisection by blocks (kHeevInverse), else as zheev: dsterf, the root-free QL/QR, for a team of
    // one; bisection on Sturm counts for a wider team (dsterf is one serial chain with two
    // divisions a step, run by one lane while the team's other lanes idle and the warp's other
    // teams, on other matrices, diverge from it; docs/tuning.md, "zheev, small orders").
    phase_scale(t, n, e, er, y, false, n, a);
    const int p = t.step();
    if (dc_from == kHeevInverse) {
      const Vec1<int> order{reinterpret_cast<int*>(work + 3 * (int64_t)n), 1};
      stebz(t, n, d, er, cw, order);
      for (int i = t.first(1); i <= n; i += p) d[i] = cw[order[i]];
      t.sync();
    } else if (n < dc_from) {
      info = heev_chain(t, false, n, d, er, a, cw, sw, work);
    } else if (p == 1) {
      info = sterf(t, n, d, er);
    } else {
      bisect_all<2>(t, n, d, er, cw);
      for (int i = t.first(1); i <= n; i += p) d[i] = cw[i];
      t.sync();
    }
  }
  // Undo the scaling of the eigenvalues.
  const int imax = info == 0 || inverse ? n : info - 1;  // inverse iteration: every eigenvalue found
  if (t.leader())
    for (int i = 1; i <= n; ++i) w[i] = (sigma != 1.0 && i <= imax) ? d[i] / sigma : d[i];
  t.sync();
  return info;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
