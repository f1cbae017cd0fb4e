// The extern "C" entry points: argument check -> quick return -> dispatch. Nothing is read or
// written before the check has passed. Each entry point lists its data operands (extent in bytes,
// written or not) so that dispatch can stage device memory for the CPU backend.
#include <cctype>
#include <cstdio>

#include "check.hpp"
#include "dispatch.hpp"
#include "internal.hpp"

using namespace sgpu;

namespace {
bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }
template <class T>
T* as(void* p) { return static_cast<T*>(p); }

// Argument names in order (ctx is argument 1), for the SGPU_VERBOSE report of an illegal one.
const char* const kDhseqrArgs[] = {"ctx", "job", "compz", "n", "ilo", "ihi", "H", "ldh", "strideH", "wr", "wi",
                                   "strideW", "Z", "ldz", "strideZ", "info", "batch"};
const char* const kDgeevArgs[] = {"ctx", "jobvl", "jobvr", "n", "A", "lda", "strideA", "wr", "wi", "strideW", "VL",
                                  "ldvl", "strideVL", "VR", "ldvr", "strideVR", "info", "batch"};
const char* const kZheevArgs[] = {"ctx", "jobz", "uplo", "n", "A", "lda", "strideA", "w", "strideW", "info", "batch"};
const char* const kScanArgs[] = {"ctx", "layout", "type_in", "type_out", "m", "n", "A", "lda", "strideA", "B", "ldb",
                                 "strideB", "batch"};

// The check's verdict st (0 or -i), reported on stderr as LAPACK's xerbla does when SGPU_VERBOSE
// is set.
template <size_t N>
int report(const char* routine, const char* const (&names)[N], int st) {
  if (st < 0 && -st <= (int)N && verbose())
    std::fprintf(stderr, "sgpu: on entry to %s argument %d (%s) had an illegal value\n", routine, -st, names[-st - 1]);
  return st;
}
}  // namespace

extern "C" {

int sgpu_dhseqr_batched(sgpu_context_t ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh,
                        int64_t strideH, double* wr, double* wi, int64_t strideW, double* Z, int ldz,
                        int64_t strideZ, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_dhseqr_batched", kDhseqrArgs,
                  check::dhseqr(c != nullptr, job, compz, n, ilo, ihi, H, ldh, strideH, wr, wi, strideW, Z, ldz,
                                strideZ, info, batch));
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  const bool wantz = !is(compz, 'N');
  void *h = H, *r = wr, *i = wi, *z = wantz ? Z : nullptr, *f = info;
  const size_t D = sizeof(double);
  return mark_not_computed(dispatch(
      c, Routine::kDhseqr, CallSize{n, batch, wantz},
      {{&h, span_bytes(batch, strideH, ldh, n, n, D), true}, {&r, span_bytes(batch, strideW, n, n, 1, D), true},
       {&i, span_bytes(batch, strideW, n, n, 1, D), true},
       {&z, wantz ? span_bytes(batch, strideZ, ldz, n, n, D) : 0, true},
       {&f, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true}},
      [&] {
        return cpu::dhseqr(c, job, compz, n, ilo, ihi, as<double>(h), ldh, strideH, as<double>(r), as<double>(i),
                           strideW, as<double>(z), ldz, strideZ, as<int>(f), batch);
      },
      [&] {
        return gpu::dhseqr(c, job, compz, n, ilo, ihi, as<double>(h), ldh, strideH, as<double>(r), as<double>(i),
                           strideW, as<double>(z), ldz, strideZ, as<int>(f), batch);
      }), info, batch);
}

int sgpu_dgeev_batched(sgpu_context_t ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA,
                       double* wr, double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR,
                       int ldvr, int64_t strideVR, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_dgeev_batched", kDgeevArgs,
                  check::dgeev(c != nullptr, jobvl, jobvr, n, A, lda, strideA, wr, wi, strideW, VL, ldvl, strideVL, VR,
                               ldvr, strideVR, info, batch));
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  void *a = A, *r = wr, *i = wi, *f = info;
  void *vl = is(jobvl, 'V') ? VL : nullptr, *vr = is(jobvr, 'V') ? VR : nullptr;
  const size_t D = sizeof(double);
  return mark_not_computed(dispatch(
      c, Routine::kDgeev, CallSize{n, batch, vl || vr},
      {{&a, span_bytes(batch, strideA, lda, n, n, D), true}, {&r, span_bytes(batch, strideW, n, n, 1, D), true},
       {&i, span_bytes(batch, strideW, n, n, 1, D), true},
       // (the stride of an output not requested is not checked: its span is not computed)
       {&vl, vl ? span_bytes(batch, strideVL, ldvl, n, n, D) : 0, true},
       {&vr, vr ? span_bytes(batch, strideVR, ldvr, n, n, D) : 0, true},
       {&f, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true}},
      [&] {
        return cpu::dgeev(c, jobvl, jobvr, n, as<double>(a), lda, strideA, as<double>(r), as<double>(i), strideW,
                          as<double>(vl), ldvl, strideVL, as<double>(vr), ldvr, strideVR, as<int>(f), batch);
      },
      [&] {
        return gpu::dgeev(c, jobvl, jobvr, n, as<double>(a), lda, strideA, as<double>(r), as<double>(i), strideW,
                          as<double>(vl), ldvl, strideVL, as<double>(vr), ldvr, strideVR, as<int>(f), batch);
      }), info, batch);
}

int sgpu_zheev_batched(sgpu_context_t ctx, char jobz, char uplo, int n, sgpu_complex_double* A, int lda,
                       int64_t strideA, double* w, int64_t strideW, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_zheev_batched", kZheevArgs,
                  check::zheev(c != nullptr, jobz, uplo, n, A, lda, strideA, w, strideW, info, batch));
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  void *a = static_cast<void*>(A), *ww = w, *f = info;
  return mark_not_computed(dispatch(
      c, Routine::kZheev, CallSize{n, batch, is(jobz, 'V')},
      {{&a, span_bytes(batch, strideA, lda, n, n, 2 * sizeof(double)), true},
       {&ww, span_bytes(batch, strideW, n, n, 1, sizeof(double)), true},
       {&f, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true}},
      [&] { return cpu::zheev(c, jobz, uplo, n, a, lda, strideA, as<double>(ww), strideW, as<int>(f), batch); },
      [&] { return gpu::zheev(c, jobz, uplo, n, a, lda, strideA, as<double>(ww), strideW, as<int>(f), batch); }),
      info, batch);
}

int sgpu_scan_cols(sgpu_context_t ctx, int layout, sgpu_type_t type_in, sgpu_type_t type_out, int m, int n,
                   const void* A, int lda, int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_scan_cols", kScanArgs,
                  check::scan_cols(c != nullptr, layout, type_in, type_out, m, n, A, lda, strideA, B, ldb, strideB,
                                   batch));
  if (st != 0) return st;
  if (m == 0 || n == 0 || batch == 0) return 0;
  // Storage shape: `lines` of `len` contiguous elements (columns col-major, rows row-major).
  const bool rm = layout == SGPU_ROW_MAJOR;
  const int64_t lines = rm ? m : n, len = rm ? n : m;
  void *a = const_cast<void*>(A), *b = B;
  return dispatch(
      c, Routine::kScanCols, CallSize{m, batch, false},
      {{&a, span_bytes(batch, strideA, lda, len, lines, check::type_size(type_in)), false},
       {&b, span_bytes(batch, strideB, ldb, len, lines, check::type_size(type_out)), true}},
      [&] { return cpu::scan_cols(c, layout, type_in, type_out, m, n, a, lda, strideA, b, ldb, strideB, batch); },
      [&] { return gpu::scan_cols(c, layout, type_in, type_out, m, n, a, lda, strideA, b, ldb, strideB, batch); });
}

}  // extern "C"
