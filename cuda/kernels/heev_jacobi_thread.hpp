// zheev of one Hermitian matrix of order N held in one thread's registers, by the cyclic Jacobi
// method: the per-thread algorithm of a kernel for the smallest orders, where the team path's
// reduction and QL chain leave most of a warp idle. Host and device code: tests/test_heev_jacobi.cpp
// runs it on the CPU against LAPACKE_zheev.
//
// N is a template parameter and every loop over rows, columns and pairs is unrolled on the GPU, so
// every index into the matrix's arrays is a compile-time constant and they never leave registers;
// the sweeps and their rounds are run-time loops. Only the diagonal (real) and the strict upper
// triangle are kept, which halves the matrix's registers (6 V spilled with both triangles). The
// eigenvectors go where the caller's Vectors type keeps them: RegVectors, an array in registers
// moved round the circle with the matrix, or SlotVectors, column-major in memory (the kernel's
// shared-memory slot), whose columns are found through the circle's position instead.
//
// Order (the circle method of parallel Jacobi, run by one thread): M = N rounded up to even
// positions, position 0 a phantom for odd N; a round rotates the disjoint pairs (0, 1) and (1 + k,
// M - k), k = 1 .. M/2 - 1, then moves positions 1 .. M - 1 one place round the circle, so that the
// M - 1 rounds of a sweep meet every pair once and end where they began. One round's code, not a
// sweep's, runs in the loop: a whole sweep unrolled (N(N-1)/2 rotations) overflowed the
// instruction cache (6 V: warps stalled on instruction fetch half their cycles).
//
// Method (Rutishauser's cyclic Jacobi, complex form): pair (p, q) with b = a(p, q) is rotated when
// |b| exceeds ulp sqrt(|a(p, p)| |a(q, q)|) (the relative criterion, which leaves each eigenvalue a
// few ulp of ||A|| from the exact one) and tiny = safmin / ulp; D = diag(1, conj(b) / |b|) makes the
// pair real, and the real rotation with t = sign(theta) / (|theta| + sqrt(theta^2 + 1)), theta =
// (a(q, q) - a(p, p)) / (2 |b|), annihilates it: G = D R, A <- G^H A G, V <- V G. A sweep that
// rotates nothing ends the iteration. The rotations do not depend on wantz, so the eigenvalues are
// bitwise the same with and without vectors. Eigenvalues ascending (a stable exchange sort, the
// vectors' columns with them).
#pragma once
#include "core/defs.hpp"
#include "core/heev.hpp"

#if defined(__CUDA_ARCH__)
#define SGPU_JACOBI_UNROLL _Pragma("unroll")
#else
#define SGPU_JACOBI_UNROLL
#endif

namespace sgpu {
namespace gpu {
namespace heev_jacobi {

using core::zc;

// Sweeps before info > 0: random matrices take 4-6 at N <= 8.
constexpr int kMaxSweeps = 30;

// a(i, j) of the Hermitian matrix held as d and u (i != j).
template <int N>
SGPU_HD zc off(const zc (&u)[N][N], int i, int j) {
  return i < j ? u[i][j] : core::conj(u[j][i]);
}
template <int N>
SGPU_HD void set_off(zc (&u)[N][N], int i, int j, const zc& x) {
  if (i < j)
    u[i][j] = x;
  else
    u[j][i] = core::conj(x);
}

// One place round the circle: data index i takes what index from(i) held (odd N: every index
// moves, i + 1; even N: index 0 stays, 1 .. N - 2 take i + 1 and N - 1 takes 1).
template <int N>
SGPU_HD constexpr int from(int i) {
  return (N & 1) ? (i + 1) % N : i == 0 ? 0 : i == N - 1 ? 1 : i + 1;
}

// The eigenvectors in registers: v[r][c], moved round the circle with the matrix, so that every
// index stays a compile-time constant.
template <int N>
struct RegVectors {
  zc (&v)[N][N];
  SGPU_HD zc get(int r, int c) const { return v[r][c]; }
  SGPU_HD void set(int r, int c, const zc& x) const { v[r][c] = x; }
  SGPU_HD int col(int i, int) const { return i; }
  SGPU_HD void circle() const {
    SGPU_JACOBI_UNROLL
    for (int k = 0; k < N; ++k) {
      zc r[N];
      SGPU_JACOBI_UNROLL
      for (int j = 0; j < N; ++j) r[j] = v[k][from<N>(j)];
      SGPU_JACOBI_UNROLL
      for (int j = 0; j < N; ++j) v[k][j] = r[j];
    }
  }
};

// The eigenvectors column-major at m (ld N), left in place round the circle: data index i's column
// after `round` rounds is the index it held at the sweep's start.
template <int N>
struct SlotVectors {
  zc* m;
  SGPU_HD zc get(int r, int c) const { return m[r + c * N]; }
  SGPU_HD void set(int r, int c, const zc& x) const { m[r + c * N] = x; }
  SGPU_HD int col(int i, int round) const {
    return (N & 1) ? (i + round) % N : i == 0 ? 0 : 1 + (i - 1 + round) % (N - 1);
  }
  SGPU_HD void circle() const {}
};

// Rotates pair (p, q), p < q, in round `round` where a(p, q) is above the criterion: A <- G^H A G,
// V <- V G. Returns whether it rotated.
template <int N, bool kWantz, class Vectors>
SGPU_HD int rotate(int p, int q, int round, double (&d)[N], zc (&u)[N][N], const Vectors& v, double tiny) {
  const zc b = u[p][q];
  const double app = d[p], aqq = d[q], b2 = b.re * b.re + b.im * b.im;
  double ab, rab;  // |b| and 1 / |b|
  if (b2 >= 1e-280 && b2 <= 1e280) {
    // The common case, |b| in [1e-140, 1e140] (above tiny): the criterion squared, and |b| and its
    // reciprocal from one reciprocal square root, no square root or division (the rotations'
    // scalars were most of the instructions at N = 4).
    if (b2 <= core::Mach::ulp * core::Mach::ulp * fabs(app * aqq)) return 0;
    rab = core::rsqrt_in_range(b2);
    ab = b2 * rab;
  } else {
    ab = core::zabs(b);
    if (ab <= tiny || ab <= core::Mach::ulp * sqrt(fabs(app)) * sqrt(fabs(aqq))) return 0;
    rab = 1.0 / ab;
  }
  const double theta = (aqq - app) * (0.5 * rab);
  double t;
  if (fabs(theta) <= 1e140) {
    const double r = fma(theta, theta, 1.0);  // sqrt(r) = r / sqrt(r)
    t = copysign(core::rcp_in_range(fabs(theta) + r * core::rsqrt_in_range(r)), theta);
  } else {
    t = 0.5 / theta;
  }
  const double c = core::rsqrt_in_range(fma(t, t, 1.0)), s = t * c;
  const zc e = rab * b;  // b / |b|
  const zc se = s * core::conj(e), ce = c * core::conj(e);
  // Columns p and q of every other row: A G (rows p and q are their conjugates).
  SGPU_JACOBI_UNROLL
  for (int k = 0; k < N; ++k) {
    if (k == p || k == q) continue;
    const zc xp = off<N>(u, k, p), xq = off<N>(u, k, q);
    set_off<N>(u, k, p, c * xp - se * xq);
    set_off<N>(u, k, q, s * xp + ce * xq);
  }
  d[p] = app - t * ab;
  d[q] = aqq + t * ab;
  u[p][q] = zc{0.0, 0.0};
  if (kWantz) {
    const int cp = v.col(p, round), cq = v.col(q, round);
    SGPU_JACOBI_UNROLL
    for (int k = 0; k < N; ++k) {
      const zc xp = v.get(k, cp), xq = v.get(k, cq);
      v.set(k, cp, c * xp - se * xq);
      v.set(k, cq, s * xp + ce * xq);
    }
  }
  return 1;
}

// The matrix one place round the circle (the vectors follow where they live in registers).
template <int N, bool kWantz, class Vectors>
SGPU_HD void circle(double (&d)[N], zc (&u)[N][N], const Vectors& v) {
  double d2[N];
  zc u2[N][N];
  SGPU_JACOBI_UNROLL
  for (int j = 0; j < N; ++j) {
    d2[j] = d[from<N>(j)];
    SGPU_JACOBI_UNROLL
    for (int i = 0; i < j; ++i) u2[i][j] = off<N>(u, from<N>(i), from<N>(j));
  }
  SGPU_JACOBI_UNROLL
  for (int j = 0; j < N; ++j) {
    d[j] = d2[j];
    SGPU_JACOBI_UNROLL
    for (int i = 0; i < j; ++i) u[i][j] = u2[i][j];
  }
  if (kWantz) v.circle();
}

// a: the Hermitian matrix, both triangles set (the diagonal's imaginary parts ignored); w: its
// eigenvalues ascending; v (kWantz): the eigenvectors, column j for w[j] (RegVectors or
// SlotVectors). Returns 0, N where A held NaN or Inf (w and v NaN), or, when kMaxSweeps did not
// converge, the number of pairs still above the criterion (w and v then hold the last iterate's
// diagonal and basis, sorted).
template <int N, bool kWantz, class Vectors>
SGPU_HD int heev_into(zc (&a)[N][N], double (&w)[N], const Vectors& v) {
  double bad = 0.0, anrm = 0.0;
  SGPU_JACOBI_UNROLL
  for (int c = 0; c < N; ++c) {
    a[c][c].im = 0.0;
    SGPU_JACOBI_UNROLL
    for (int r = 0; r < N; ++r) {
      if (!core::finite(a[r][c].re) || !core::finite(a[r][c].im)) bad = 1.0;
      anrm = core::dmax(anrm, core::zabs(a[r][c]));
    }
  }
  if (bad != 0.0) {
    SGPU_JACOBI_UNROLL
    for (int c = 0; c < N; ++c) {
      w[c] = NAN;
      if (kWantz) {
        SGPU_JACOBI_UNROLL
        for (int r = 0; r < N; ++r) v.set(r, c, zc{NAN, NAN});
      }
    }
    return N;
  }
  // zheev's scaling to an allowable range.
  const double sigma = core::heev_scale(anrm);
  if (sigma != 1.0) {
    SGPU_JACOBI_UNROLL
    for (int c = 0; c < N; ++c) {
      SGPU_JACOBI_UNROLL
      for (int r = 0; r < N; ++r) a[r][c] = sigma * a[r][c];
    }
  }
  if (kWantz) {
    SGPU_JACOBI_UNROLL
    for (int c = 0; c < N; ++c) {
      SGPU_JACOBI_UNROLL
      for (int r = 0; r < N; ++r) v.set(r, c, zc{r == c ? 1.0 : 0.0, 0.0});
    }
  }
  // d: the diagonal; u: the strict upper triangle, u[i][j] for i < j (a(j, i) is its conjugate).
  double d[N];
  zc u[N][N];
  SGPU_JACOBI_UNROLL
  for (int c = 0; c < N; ++c) {
    d[c] = a[c][c].re;
    SGPU_JACOBI_UNROLL
    for (int r = 0; r < c; ++r) u[r][c] = a[r][c];
  }
  constexpr double kTiny = core::Mach::safmin / core::Mach::ulp;
  constexpr int kOdd = N & 1, kM = N + kOdd;
  // Up to 3 a whole sweep unrolled is small, and its moves round the circle vanish into renaming.
  constexpr int kUnrollRounds = N <= 3 ? kM - 1 : 1;
  int left = 0;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    int rotated = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll kUnrollRounds
#endif
    for (int round = 0; round < kM - 1; ++round) {
      SGPU_JACOBI_UNROLL
      for (int k = 0; k < kM / 2; ++k) {
        // Positions (0, 1), then (1 + k, M - k); data index = position - kOdd.
        const int p = (k == 0 ? 0 : 1 + k) - kOdd, q = (k == 0 ? 1 : kM - k) - kOdd;
        if (p < 0) continue;  // the phantom's pair
        rotated += rotate<N, kWantz>(p, q, round, d, u, v, kTiny);
      }
      circle<N, kWantz>(d, u, v);
    }
    left = rotated;
    if (rotated == 0) break;
  }
  SGPU_JACOBI_UNROLL
  for (int i = 0; i < N; ++i) w[i] = sigma != 1.0 ? d[i] / sigma : d[i];
  // Ascending: N - 1 passes of neighbour exchanges (stable; every index compile-time).
  SGPU_JACOBI_UNROLL
  for (int pass = 0; pass < N - 1; ++pass) {
    SGPU_JACOBI_UNROLL
    for (int i = 0; i + 1 < N - pass; ++i) {
      const bool swap = w[i + 1] < w[i];
      const double lo = swap ? w[i + 1] : w[i], hi = swap ? w[i] : w[i + 1];
      w[i] = lo;
      w[i + 1] = hi;
      if (kWantz && swap) {
        SGPU_JACOBI_UNROLL
        for (int k = 0; k < N; ++k) {
          const zc x = v.get(k, i), y = v.get(k, i + 1);
          v.set(k, i, y);
          v.set(k, i + 1, x);
        }
      }
    }
  }
  return left;
}

// The same with the eigenvectors in registers.
template <int N, bool kWantz>
SGPU_HD int heev(zc (&a)[N][N], double (&w)[N], zc (&v)[N][N]) {
  return heev_into<N, kWantz>(a, w, RegVectors<N>{v});
}

}  // namespace heev_jacobi
}  // namespace gpu
}  // namespace sgpu
