// Argument checks: pure functions of the arguments (they read no data and write nothing), in a
// fixed order documented in README.md ("Argument checks") and tested by tests/test_args.cpp.
// Each returns 0 or -i for the first illegal argument i (ctx is argument 1).
//
// Rules shared by all routines:
//  - flags are case-insensitive, as in LAPACK;
//  - a pointer is checked for NULL only when the call will touch it: n > 0 (m > 0 too for the
//    scan) and batch > 0, and for optional outputs only when requested;
//  - a stride must be >= the extent of one matrix (or vector) when batch > 1, so matrices of a
//    batch never overlap; with batch == 1 it is not used. The whole span of an operand must be
//    addressable (at most PTRDIFF_MAX bytes; else its stride, or for one matrix its leading
//    dimension, is illegal);
//  - after every argument has passed its own check, operands the call writes must not overlap
//    each other or its inputs (exactly, over the bytes each spans; the scan's documented in-place
//    form excepted): the first operand in argument order that meets an earlier one is illegal.
#pragma once
#include <cstdint>

#include "sgpu.h"

namespace sgpu {
namespace check {

// An operand of a call for the overlap check: argument position, `count` items `stride` elements
// apart, each rows x cols with leading dimension ld, of `elem` bytes; whether the call writes it.
// A NULL or empty operand is skipped.
struct Operand {
  int arg;
  const void* p;
  int64_t rows, cols, ld, stride, count;
  int elem;
  bool out;
};
// -arg of the first operand (in the order given) that overlaps an earlier one where either is
// written, or 0. in_place_ok: two operands at the same address with the same layout may coincide.
int first_overlap(const Operand* ops, int count, bool in_place_ok);

int dhseqr(bool ctx_ok, char job, char compz, int n, int ilo, int ihi, const void* H, int ldh, int64_t strideH,
           const void* wr, const void* wi, int64_t strideW, const void* Z, int ldz, int64_t strideZ,
           const void* info, int64_t batch);
int dgeev(bool ctx_ok, char jobvl, char jobvr, int n, const void* A, int lda, int64_t strideA, const void* wr,
          const void* wi, int64_t strideW, const void* VL, int ldvl, int64_t strideVL, const void* VR, int ldvr,
          int64_t strideVR, const void* info, int64_t batch);
int zheev(bool ctx_ok, char jobz, char uplo, int n, const void* A, int lda, int64_t strideA, const void* w,
          int64_t strideW, const void* info, int64_t batch);
int scan_cols(bool ctx_ok, int layout, int type_in, int type_out, int m, int n, const void* A, int lda,
              int64_t strideA, const void* B, int ldb, int64_t strideB, int64_t batch);

// Size in bytes of a scan element type, 0 if unknown; whether (in, out) is a supported pair.
int type_size(int type);
bool scan_pair_supported(int type_in, int type_out);

}  // namespace check
}  // namespace sgpu
