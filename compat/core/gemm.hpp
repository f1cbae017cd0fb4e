// The matrix product C = A B of the blocked steps of the CPU backend (the multishift QR's
// accumulated reflectors applied to the rows and columns away from its window), for column-major
// operands with unit row stride.
//
// Each element of C is the same arithmetic wherever it lies in C and whatever C's size: its sum
// over k in blocks of kSumBlock terms as the core's other long products, each block's partial sum
// a chain of multiply-adds (fused in the x86-64-v3 copy, in the AVX2 tiles and the scalar edges
// alike). So a row or column of H gets bitwise the same update whether the product covers the
// whole matrix (Schur form wanted) or only the active block (eigenvalues only).
#pragma once
#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

SGPU_HD double gemm_madd(double a, double b, double c) {
#if defined(SGPU_CORE_AVX2)
  return __builtin_fma(a, b, c);
#else
  return c + a * b;
#endif
}

// C(i, j) for one element: the sum in blocks of kSumBlock terms (B's column at stride bs).
SGPU_HD double gemm_element(int k, const double* a, int64_t lda, const double* b, int64_t bs) {
  double acc = 0.0;
  for (int k0 = 0; k0 < k; k0 += kSumBlock) {
    const int k1 = k0 + kSumBlock < k ? k0 + kSumBlock : k;
    double part = 0.0;
    for (int q = k0; q < k1; ++q) part = gemm_madd(a[q * lda], b[q * bs], part);
    acc += part;
  }
  return acc;
}

#if defined(SGPU_CORE_AVX2)
// Blocks of B whose kSumBlock x 4 elements are all zero (the multishift sweep's accumulated
// reflectors are about 40% zeros) are skipped: their partial sum would be +0, which leaves the
// total as it is (a total is never -0: it starts at +0, and x + (-x) rounds to +0), so the bits
// are those of the full product. Flags for the first kGemmFlagBlocks blocks of a column tile.
constexpr int kGemmFlagBlocks = 128;

// An 8 x 4 tile of C from A's 8 rows (two registers) and four columns of B packed by rows
// (bp[4 q + j]): eight partial sums of the current block in registers, the totals in C.
SGPU_HD void gemm_tile_8x4(int k, const double* a, int64_t lda, const double* bp, const bool* nonzero, double* c,
                           int64_t ldc) {
  bool first = true;
  for (int k0 = 0; k0 < k; k0 += kSumBlock) {
    const int kb = k0 / kSumBlock;
    if (kb < kGemmFlagBlocks && !nonzero[kb]) continue;
    const int k1 = k0 + kSumBlock < k ? k0 + kSumBlock : k;
    __m256d p00 = _mm256_setzero_pd(), p01 = p00, p02 = p00, p03 = p00, p10 = p00, p11 = p00, p12 = p00, p13 = p00;
    for (int q = k0; q < k1; ++q) {
      const __m256d a0 = _mm256_loadu_pd(a + q * lda), a1 = _mm256_loadu_pd(a + q * lda + 4);
      const double* bq = bp + 4 * q;
      __m256d bb = _mm256_broadcast_sd(bq);
      p00 = _mm256_fmadd_pd(a0, bb, p00);
      p10 = _mm256_fmadd_pd(a1, bb, p10);
      bb = _mm256_broadcast_sd(bq + 1);
      p01 = _mm256_fmadd_pd(a0, bb, p01);
      p11 = _mm256_fmadd_pd(a1, bb, p11);
      bb = _mm256_broadcast_sd(bq + 2);
      p02 = _mm256_fmadd_pd(a0, bb, p02);
      p12 = _mm256_fmadd_pd(a1, bb, p12);
      bb = _mm256_broadcast_sd(bq + 3);
      p03 = _mm256_fmadd_pd(a0, bb, p03);
      p13 = _mm256_fmadd_pd(a1, bb, p13);
    }
    const __m256d ps[8] = {p00, p10, p01, p11, p02, p12, p03, p13};
    for (int j = 0; j < 4; ++j)
      for (int h = 0; h < 2; ++h) {
        double* cj = c + j * ldc + 4 * h;
        const __m256d acc = first ? _mm256_setzero_pd() : _mm256_loadu_pd(cj);
        _mm256_storeu_pd(cj, _mm256_add_pd(acc, ps[2 * j + h]));
      }
    first = false;
  }
  if (first)
    for (int j = 0; j < 4; ++j) {
      _mm256_storeu_pd(c + j * ldc, _mm256_setzero_pd());
      _mm256_storeu_pd(c + j * ldc + 4, _mm256_setzero_pd());
    }
}
#endif

// C (m x n, leading dimension ldc) = A (m x k, lda) B (k x n, ldb); C apart from A and B. bpack:
// 4 k doubles of workspace.
SGPU_HD void gemm(int m, int n, int k, const double* a, int64_t lda, const double* b, int64_t ldb, double* c,
                  int64_t ldc, double* bpack) {
  int j = 0;
#if defined(SGPU_CORE_AVX2)
  bool nonzero[kGemmFlagBlocks];
  for (; j + 3 < n; j += 4) {
    for (int kb = 0; kb < kGemmFlagBlocks; ++kb) nonzero[kb] = false;
    for (int q = 0; q < k; ++q)
      for (int jj = 0; jj < 4; ++jj) {
        const double x = b[q + (j + jj) * ldb];
        bpack[4 * q + jj] = x;
        if (x != 0.0 && q / kSumBlock < kGemmFlagBlocks) nonzero[q / kSumBlock] = true;
      }
    const int m8 = m - m % 8;
    for (int i = 0; i < m8; i += 8) gemm_tile_8x4(k, a + i, lda, bpack, nonzero, c + i + j * ldc, ldc);
    for (int jj = 0; jj < 4; ++jj)
      for (int i = m8; i < m; ++i) c[i + (j + jj) * ldc] = gemm_element(k, a + i, lda, bpack + jj, 4);
  }
  for (; j < n; ++j)
    for (int i = 0; i < m; ++i) c[i + j * ldc] = gemm_element(k, a + i, lda, b + j * ldb, 1);
#else
  (void)bpack;
  // Down the columns of A, 64 rows at a time (the compiler vectorizes the row loops).
  constexpr int kRows = 64;
  double part[kRows];
  for (; j < n; ++j)
    for (int i0 = 0; i0 < m; i0 += kRows) {
      const int mi = m - i0 < kRows ? m - i0 : kRows;
      double* cj = c + i0 + j * ldc;
      for (int i = 0; i < mi; ++i) cj[i] = 0.0;
      for (int k0 = 0; k0 < k; k0 += kSumBlock) {
        const int k1 = k0 + kSumBlock < k ? k0 + kSumBlock : k;
        for (int i = 0; i < mi; ++i) part[i] = 0.0;
        for (int q = k0; q < k1; ++q) {
          const double bq = b[q + j * ldb];
          const double* aq = a + i0 + q * lda;
          for (int i = 0; i < mi; ++i) part[i] = gemm_madd(aq[i], bq, part[i]);
        }
        for (int i = 0; i < mi; ++i) cj[i] += part[i];
      }
    }
#endif
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
