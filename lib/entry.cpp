// The extern "C" entry points: argument check -> quick return -> dispatch. Nothing is read or
// written before the check has passed.
#include <cctype>

#include "check.hpp"
#include "dispatch.hpp"
#include "internal.hpp"

using namespace sgpu;

extern "C" {

int sgpu_dhseqr_batched(sgpu_context_t ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh,
                        int64_t strideH, double* wr, double* wi, int64_t strideW, double* Z, int ldz,
                        int64_t strideZ, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = check::dhseqr(c != nullptr, job, compz, n, ilo, ihi, H, ldh, strideH, wr, wi, strideW, Z, ldz, strideZ,
                         info, batch);
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  return dispatch(
      c, Routine::kDhseqr, {H, wr, wi, Z, info},
      [&] { return cpu::dhseqr(c, job, compz, n, ilo, ihi, H, ldh, strideH, wr, wi, strideW, Z, ldz, strideZ, info, batch); },
      [&] { return gpu::dhseqr(c, job, compz, n, ilo, ihi, H, ldh, strideH, wr, wi, strideW, Z, ldz, strideZ, info, batch); });
}

int sgpu_dgeev_batched(sgpu_context_t ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA,
                       double* wr, double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR,
                       int ldvr, int64_t strideVR, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = check::dgeev(c != nullptr, jobvl, jobvr, n, A, lda, strideA, wr, wi, strideW, VL, ldvl, strideVL, VR,
                        ldvr, strideVR, info, batch);
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  return dispatch(
      c, Routine::kDgeev, {A, wr, wi, VL, VR, info},
      [&] { return cpu::dgeev(c, jobvl, jobvr, n, A, lda, strideA, wr, wi, strideW, VL, ldvl, strideVL, VR, ldvr, strideVR, info, batch); },
      [&] { return gpu::dgeev(c, jobvl, jobvr, n, A, lda, strideA, wr, wi, strideW, VL, ldvl, strideVL, VR, ldvr, strideVR, info, batch); });
}

int sgpu_zheev_batched(sgpu_context_t ctx, char jobz, char uplo, int n, sgpu_complex_double* A, int lda,
                       int64_t strideA, double* w, int64_t strideW, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = check::zheev(c != nullptr, jobz, uplo, n, A, lda, strideA, w, strideW, info, batch);
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  void* a = static_cast<void*>(A);
  return dispatch(
      c, Routine::kZheev, {a, w, info},
      [&] { return cpu::zheev(c, jobz, uplo, n, a, lda, strideA, w, strideW, info, batch); },
      [&] { return gpu::zheev(c, jobz, uplo, n, a, lda, strideA, w, strideW, info, batch); });
}

int sgpu_scan_cols(sgpu_context_t ctx, int layout, sgpu_type_t type_in, sgpu_type_t type_out, int m, int n,
                   const void* A, int lda, int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = check::scan_cols(c != nullptr, layout, type_in, type_out, m, n, A, lda, strideA, B, ldb, strideB, batch);
  if (st != 0) return st;
  if (m == 0 || n == 0 || batch == 0) return 0;
  return dispatch(
      c, Routine::kScanCols, {A, B},
      [&] { return cpu::scan_cols(c, layout, type_in, type_out, m, n, A, lda, strideA, B, ldb, strideB, batch); },
      [&] { return gpu::scan_cols(c, layout, type_in, type_out, m, n, A, lda, strideA, B, ldb, strideB, batch); });
}

}  // extern "C"
