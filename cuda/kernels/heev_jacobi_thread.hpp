// zheev of one Hermitian matrix of order N held in one thread's registers, by the cyclic Jacobi
// method: the per-thread algorithm of a kernel for the smallest orders, where the team path's
// reduction and QL chain leave most of a warp idle. Host and device code: tests/test_heev_jacobi.cpp
// runs it on the CPU against LAPACKE_zheev.
//
// N is a template parameter and every loop over rows, columns and pairs is unrolled on the GPU, so
// every index into a and v is a compile-time constant and the arrays never leave registers; only
// the sweeps are a run-time loop.
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

// a: the Hermitian matrix, both triangles set (the diagonal's imaginary parts ignored); w: its
// eigenvalues ascending; v (kWantz): the eigenvectors, column j for w[j]. Returns 0, N where A held
// NaN or Inf (w and v NaN), or, when kMaxSweeps did not converge, the number of pairs still above
// the criterion (w and v then hold the last iterate's diagonal and basis, sorted).
template <int N, bool kWantz>
SGPU_HD int heev(zc (&a)[N][N], double (&w)[N], zc (&v)[N][N]) {
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
        for (int r = 0; r < N; ++r) v[r][c] = zc{NAN, NAN};
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
      for (int r = 0; r < N; ++r) v[r][c] = zc{r == c ? 1.0 : 0.0, 0.0};
    }
  }
  constexpr double kTiny = core::Mach::safmin / core::Mach::ulp;
  int left = 0;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    int rotated = 0;
    SGPU_JACOBI_UNROLL
    for (int p = 0; p < N - 1; ++p) {
      SGPU_JACOBI_UNROLL
      for (int q = p + 1; q < N; ++q) {
        const zc b = a[p][q];
        const double ab = core::zabs(b), app = a[p][p].re, aqq = a[q][q].re;
        if (ab <= kTiny || ab <= core::Mach::ulp * sqrt(fabs(app)) * sqrt(fabs(aqq))) continue;
        ++rotated;
        const double theta = (aqq - app) / (2.0 * ab);
        const double t = fabs(theta) > 1e150 ? 0.5 / theta
                                             : core::sign(1.0, theta) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        const zc u = (1.0 / ab) * b;  // b / |b|
        const zc su = s * core::conj(u), cu = c * core::conj(u);
        // Columns p and q of every row: A G (rows p and q follow as their conjugates).
        SGPU_JACOBI_UNROLL
        for (int k = 0; k < N; ++k) {
          if (k == p || k == q) continue;
          const zc xp = a[k][p], xq = a[k][q];
          const zc yp = c * xp - su * xq, yq = s * xp + cu * xq;
          a[k][p] = yp;
          a[k][q] = yq;
          a[p][k] = core::conj(yp);
          a[q][k] = core::conj(yq);
        }
        a[p][p] = zc{app - t * ab, 0.0};
        a[q][q] = zc{aqq + t * ab, 0.0};
        a[p][q] = zc{0.0, 0.0};
        a[q][p] = zc{0.0, 0.0};
        if (kWantz) {
          SGPU_JACOBI_UNROLL
          for (int k = 0; k < N; ++k) {
            const zc xp = v[k][p], xq = v[k][q];
            v[k][p] = c * xp - su * xq;
            v[k][q] = s * xp + cu * xq;
          }
        }
      }
    }
    left = rotated;
    if (rotated == 0) break;
  }
  SGPU_JACOBI_UNROLL
  for (int i = 0; i < N; ++i) w[i] = sigma != 1.0 ? a[i][i].re / sigma : a[i][i].re;
  // Ascending: N - 1 passes of neighbour exchanges (stable; every index compile-time).
  SGPU_JACOBI_UNROLL
  for (int pass = 0; pass < N - 1; ++pass) {
    SGPU_JACOBI_UNROLL
    for (int i = 0; i + 1 < N - pass; ++i) {
      const bool swap = w[i + 1] < w[i];
      const double lo = swap ? w[i + 1] : w[i], hi = swap ? w[i] : w[i + 1];
      w[i] = lo;
      w[i + 1] = hi;
      if (kWantz) {
        SGPU_JACOBI_UNROLL
        for (int k = 0; k < N; ++k) {
          const zc x = v[k][i], y = v[k][i + 1];
          v[k][i] = swap ? y : x;
          v[k][i + 1] = swap ? x : y;
        }
      }
    }
  }
  return left;
}

}  // namespace heev_jacobi
}  // namespace gpu
}  // namespace sgpu
