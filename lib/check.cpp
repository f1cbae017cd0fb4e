#include "check.hpp"

#include <cctype>

namespace sgpu {
namespace check {
namespace {

bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }
int64_t max1(int64_t x) { return x > 1 ? x : 1; }

// Stride between consecutive items of a batch: unused for one item, else at least the extent.
bool stride_ok(int64_t stride, int64_t extent, int64_t batch) { return batch <= 1 || stride >= extent; }

}  // namespace

int dhseqr(bool ctx_ok, char job, char compz, int n, int ilo, int ihi, const void* H, int ldh, int64_t strideH,
           const void* wr, const void* wi, int64_t strideW, const void* Z, int ldz, int64_t strideZ,
           const void* info, int64_t batch) {
  const bool touch = n > 0 && batch > 0;
  const bool wantz = is(compz, 'I') || is(compz, 'V');
  if (!ctx_ok) return -1;
  if (!is(job, 'E') && !is(job, 'S')) return -2;
  if (!is(compz, 'N') && !wantz) return -3;
  if (n < 0) return -4;
  if (ilo < 1 || ilo > max1(n)) return -5;
  if (ihi < (ilo < n ? ilo : n) || ihi > n) return -6;
  if (touch && !H) return -7;
  if (ldh < max1(n)) return -8;
  if (!stride_ok(strideH, (int64_t)ldh * n, batch)) return -9;
  if (touch && !wr) return -10;
  if (touch && !wi) return -11;
  if (!stride_ok(strideW, n, batch)) return -12;
  if (touch && wantz && !Z) return -13;
  if (ldz < 1 || (wantz && ldz < max1(n))) return -14;
  if (wantz && !stride_ok(strideZ, (int64_t)ldz * n, batch)) return -15;
  if (touch && !info) return -16;
  if (batch < 0) return -17;
  return 0;
}

int dgeev(bool ctx_ok, char jobvl, char jobvr, int n, const void* A, int lda, int64_t strideA, const void* wr,
          const void* wi, int64_t strideW, const void* VL, int ldvl, int64_t strideVL, const void* VR, int ldvr,
          int64_t strideVR, const void* info, int64_t batch) {
  const bool touch = n > 0 && batch > 0;
  const bool wantvl = is(jobvl, 'V'), wantvr = is(jobvr, 'V');
  if (!ctx_ok) return -1;
  if (!wantvl && !is(jobvl, 'N')) return -2;
  if (!wantvr && !is(jobvr, 'N')) return -3;
  if (n < 0) return -4;
  if (touch && !A) return -5;
  if (lda < max1(n)) return -6;
  if (!stride_ok(strideA, (int64_t)lda * n, batch)) return -7;
  if (touch && !wr) return -8;
  if (touch && !wi) return -9;
  if (!stride_ok(strideW, n, batch)) return -10;
  if (touch && wantvl && !VL) return -11;
  if (ldvl < 1 || (wantvl && ldvl < n)) return -12;
  if (wantvl && !stride_ok(strideVL, (int64_t)ldvl * n, batch)) return -13;
  if (touch && wantvr && !VR) return -14;
  if (ldvr < 1 || (wantvr && ldvr < n)) return -15;
  if (wantvr && !stride_ok(strideVR, (int64_t)ldvr * n, batch)) return -16;
  if (touch && !info) return -17;
  if (batch < 0) return -18;
  return 0;
}

int zheev(bool ctx_ok, char jobz, char uplo, int n, const void* A, int lda, int64_t strideA, const void* w,
          int64_t strideW, const void* info, int64_t batch) {
  const bool touch = n > 0 && batch > 0;
  if (!ctx_ok) return -1;
  if (!is(jobz, 'N') && !is(jobz, 'V')) return -2;
  if (!is(uplo, 'U') && !is(uplo, 'L')) return -3;
  if (n < 0) return -4;
  if (touch && !A) return -5;
  if (lda < max1(n)) return -6;
  if (!stride_ok(strideA, (int64_t)lda * n, batch)) return -7;
  if (touch && !w) return -8;
  if (!stride_ok(strideW, n, batch)) return -9;
  if (touch && !info) return -10;
  if (batch < 0) return -11;
  return 0;
}

int type_size(int type) {
  switch (type) {
    case SGPU_R_32F: return 4;
    case SGPU_R_64F: return 8;
    case SGPU_R_32I: return 4;
    case SGPU_R_64I: return 8;
    case SGPU_R_8U: return 1;
    case SGPU_R_32U: return 4;
    default: return 0;
  }
}

bool scan_pair_supported(int in, int out) {
  return (in == SGPU_R_32F && out == SGPU_R_32F) || (in == SGPU_R_64F && out == SGPU_R_64F) ||
         (in == SGPU_R_32I && out == SGPU_R_32I) || (in == SGPU_R_64I && out == SGPU_R_64I) ||
         (in == SGPU_R_8U && out == SGPU_R_32U) || (in == SGPU_R_32F && out == SGPU_R_64F);
}

int scan_cols(bool ctx_ok, int layout, int type_in, int type_out, int m, int n, const void* A, int lda,
              int64_t strideA, const void* B, int ldb, int64_t strideB, int64_t batch) {
  const bool touch = m > 0 && n > 0 && batch > 0;
  const bool row_major = layout == SGPU_ROW_MAJOR;
  if (!ctx_ok) return -1;
  if (layout != SGPU_COL_MAJOR && !row_major) return -2;
  if (type_size(type_in) == 0) return -3;
  if (type_size(type_out) == 0 || !scan_pair_supported(type_in, type_out)) return -4;
  if (m < 0) return -5;
  if (n < 0) return -6;
  if (touch && !A) return -7;
  // Leading dimension: >= rows (column-major) or >= columns (row-major).
  const int64_t lmin = max1(row_major ? n : m);
  // Extent of one matrix (0 when it is empty, so any stride is fine).
  const int64_t lines = (m > 0 && n > 0) ? (row_major ? m : n) : 0;
  const int64_t extA = (int64_t)lda * lines, extB = (int64_t)ldb * lines;
  if (lda < lmin) return -8;
  if (!stride_ok(strideA, extA, batch)) return -9;
  if (touch && !B) return -10;
  // In place needs the same element size (so each B element sits exactly on its A element).
  if (touch && A == B && type_size(type_in) != type_size(type_out)) return -10;
  if (ldb < lmin || (touch && A == B && ldb != lda)) return -11;
  if (!stride_ok(strideB, extB, batch) || (touch && A == B && batch > 1 && strideB != strideA)) return -12;
  if (batch < 0) return -13;
  return 0;
}

}  // namespace check
}  // namespace sgpu
