// The extern "C" entry points: argument check -> quick return -> decode into the routine's
// argument struct (backend.hpp) -> classify its operands -> dispatch. Nothing is read or written
// before the check has passed.
#include <cctype>
#include <cstdio>

#include "check.hpp"
#include "core/hseqr.hpp"
#include "dispatch.hpp"
#include "internal.hpp"

using namespace sgpu;

namespace {
bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }

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
  args::Dhseqr a;
  a.wantt = is(job, 'S');
  a.compz = is(compz, 'I') ? core::kCompzI : is(compz, 'V') ? core::kCompzV : core::kCompzN;
  a.n = n;
  a.ilo = ilo;
  a.ihi = ihi;
  a.H = H;
  a.ldh = ldh;
  a.sH = strideH;
  a.wr = wr;
  a.wi = wi;
  a.sW = strideW;
  a.Z = a.compz != core::kCompzN ? Z : nullptr;
  a.ldz = ldz;
  a.sZ = strideZ;
  a.info = info;
  a.batch = batch;
  return mark_not_computed(
      dispatch(c, Routine::kDhseqr, CallSize{n, batch, a.Z != nullptr}, classify_operands(a), cpu::dhseqr,
               gpu::dhseqr),
      a);
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
  args::Dgeev a;
  a.wantvl = is(jobvl, 'V');
  a.wantvr = is(jobvr, 'V');
  a.n = n;
  a.A = A;
  a.lda = lda;
  a.sA = strideA;
  a.wr = wr;
  a.wi = wi;
  a.sW = strideW;
  a.VL = a.wantvl ? VL : nullptr;
  a.ldvl = ldvl;
  a.sVL = strideVL;
  a.VR = a.wantvr ? VR : nullptr;
  a.ldvr = ldvr;
  a.sVR = strideVR;
  a.info = info;
  a.batch = batch;
  return mark_not_computed(dispatch(c, Routine::kDgeev, CallSize{n, batch, a.wantvl || a.wantvr},
                                    classify_operands(a), cpu::dgeev, gpu::dgeev),
                           a);
}

int sgpu_zheev_batched(sgpu_context_t ctx, char jobz, char uplo, int n, sgpu_complex_double* A, int lda,
                       int64_t strideA, double* w, int64_t strideW, int* info, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_zheev_batched", kZheevArgs,
                  check::zheev(c != nullptr, jobz, uplo, n, A, lda, strideA, w, strideW, info, batch));
  if (st != 0) return st;
  if (n == 0 || batch == 0) return 0;
  args::Zheev a;
  a.wantz = is(jobz, 'V');
  a.lower = is(uplo, 'L');
  a.n = n;
  a.A = static_cast<void*>(A);
  a.lda = lda;
  a.sA = strideA;
  a.w = w;
  a.sW = strideW;
  a.info = info;
  a.batch = batch;
  return mark_not_computed(
      dispatch(c, Routine::kZheev, CallSize{n, batch, a.wantz}, classify_operands(a), cpu::zheev, gpu::zheev), a);
}

int sgpu_scan_cols(sgpu_context_t ctx, int layout, sgpu_type_t type_in, sgpu_type_t type_out, int m, int n,
                   const void* A, int lda, int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch) {
  sgpu_context* c = resolve_context(ctx);
  int st = report("sgpu_scan_cols", kScanArgs,
                  check::scan_cols(c != nullptr, layout, type_in, type_out, m, n, A, lda, strideA, B, ldb, strideB,
                                   batch));
  if (st != 0) return st;
  if (m == 0 || n == 0 || batch == 0) return 0;
  args::ScanCols a;
  a.row_major = layout == SGPU_ROW_MAJOR;
  a.tin = type_in;
  a.tout = type_out;
  a.ein = (size_t)check::type_size(type_in);
  a.eout = (size_t)check::type_size(type_out);
  a.m = m;
  a.n = n;
  a.A = A;
  a.lda = lda;
  a.sA = strideA;
  a.B = B;
  a.ldb = ldb;
  a.sB = strideB;
  a.batch = batch;
  return dispatch(c, Routine::kScanCols, CallSize{m, batch, false}, classify_operands(a), cpu::scan_cols,
                  gpu::scan_cols);
}

}  // extern "C"
