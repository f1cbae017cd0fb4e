// libFuzzer harness over the argument space of the four routines: sizes, leading
// dimensions, strides, flags, NULLs and NaN/Inf contents, on the CPU backend, in a build with
// AddressSanitizer and UndefinedBehaviorSanitizer (tools/sanitize.sh).
//
// Each input picks a routine and its arguments, mostly legal, sometimes just illegal. Every data
// argument gets a buffer of exactly the bytes a legal call may touch (so ASan sees one element too
// far), filled with values from the input, and snapshotted. What must hold after the call:
//  - a negative return is an argument number (-1 .. -last argument): nothing was written;
//  - otherwise the return counts the matrices with info != 0, each info lies in LAPACK's range,
//    bytes outside matrix entries (the gaps below n in a column and between matrices) and outputs
//    not requested are unchanged, and the cheap properties of a success hold: zheev's eigenvalues
//    ascend, complex eigenvalues of dgeev/dhseqr come in conjugate pairs, integer prefix sums are
//    exact (modulo 2^w);
//  - a resource error (< -1000) never happens on the CPU backend at these sizes.
// A violation aborts with a message (libFuzzer then saves the input). Sizes stay small (n <= 40,
// batch <= 4) so that an input runs in milliseconds.
#include <fuzzer/FuzzedDataProvider.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sgpu.h"

namespace {

[[noreturn]] void fail(const char* what, int st) {
  std::fprintf(stderr, "fuzz_args: %s (returned %d)\n", what, st);
  std::abort();
}

// One data argument: `count` items of `cols` lines of `rows` entries of `elem` bytes, lines `ld`
// apart and items `stride` apart, in a buffer of exactly the bytes that spans (at least one byte).
struct Region {
  size_t elem;
  int64_t rows, cols, ld, stride, count;
  bool null = false;     // passed as NULL
  bool written = false;  // the call may write its entries
  std::vector<unsigned char> before;
  unsigned char* p = nullptr;

  static int64_t nonneg(int64_t x) { return x > 0 ? x : 0; }
  size_t span() const {
    if (count <= 0 || rows <= 0 || cols <= 0) return 0;
    return (size_t)((count - 1) * nonneg(stride) + (cols - 1) * nonneg(ld) + rows) * elem;
  }
  Region(size_t e, int64_t r, int64_t c, int64_t l, int64_t s, int64_t n)
      : elem(e), rows(r), cols(c), ld(l), stride(s), count(n) {}
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  // Exactly span() bytes (one when empty), filled from the input: doubles and floats from value(),
  // integers as raw bytes.
  void alloc(FuzzedDataProvider& fdp, bool integer) {
    const size_t bytes = span() > 0 ? span() : 1;
    p = static_cast<unsigned char*>(std::malloc(bytes));
    if (!p) std::abort();
    size_t i = 0;
    if (!integer && elem == 8)
      for (; i + 8 <= bytes; i += 8) {
        const double v = value(fdp);
        std::memcpy(p + i, &v, 8);
      }
    if (!integer && elem == 4)
      for (; i + 4 <= bytes; i += 4) {
        const float v = (float)value(fdp);
        std::memcpy(p + i, &v, 4);
      }
    for (; i < bytes; ++i) p[i] = fdp.ConsumeIntegral<uint8_t>();
    before.assign(p, p + bytes);
  }
  void* arg() const { return null ? nullptr : p; }
  bool is_entry(size_t byte) const {
    const int64_t e = (int64_t)(byte / elem);
    const int64_t in_item = stride > 0 && count > 1 ? e % stride : e;
    const int64_t item = stride > 0 && count > 1 ? e / stride : 0;
    const int64_t line = ld > 0 ? in_item / ld : 0, pos = ld > 0 ? in_item % ld : in_item;
    return item < count && line < cols && pos < rows;
  }
  // Bytes that must not have changed: all of them, or (written) all but the entries.
  void check(const char* what) const {
    for (size_t i = 0; i < before.size(); ++i)
      if (p[i] != before[i] && (!written || !is_entry(i))) {
        std::fprintf(stderr, "fuzz_args: %s: byte %zu of %zu changed outside the entries\n", what, i, before.size());
        std::abort();
      }
  }
  bool unchanged() const { return std::memcmp(p, before.data(), before.size()) == 0; }
  ~Region() { std::free(p); }

  // A double: mostly small values, sometimes a special.
  static double value(FuzzedDataProvider& fdp) {
    static const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e300, -1e300, 1e-300,
                                     DBL_MIN / 4, DBL_MAX, 1.0, -1.0, 1e-8, 1e8, 3.0, 0.5};
    const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
    static_assert(sizeof special / sizeof *special == 16, "one special per byte value from 240");
    if (b < 240) return ((int)b - 120) / 16.0;
    return special[b - 240];
  }
};

// Arguments: mostly legal, sometimes illegal.
int pick_n(FuzzedDataProvider& fdp, int most) {
  const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
  if (b < 240) return b % (most + 1);
  static const int bad[] = {-1, -2, INT_MIN, -1000};
  return bad[b % 4];
}
int pick_ld(FuzzedDataProvider& fdp, int need) {
  const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
  if (b < 232) return (need > 1 ? need : 1) + b % 4;
  static const int bad[] = {0, -1, INT_MIN, 1};
  return b % 2 ? need - 1 : bad[b % 4];
}
int64_t pick_stride(FuzzedDataProvider& fdp, int64_t extent, int64_t batch) {
  const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
  if (batch <= 1 && b >= 200) {  // unused for one matrix: anything goes
    static const int64_t any[] = {0, -1, INT64_MIN, INT64_MAX};
    return any[b % 4];
  }
  if (b < 232) return extent + b % 5;
  static const int64_t bad[] = {-1, 0, INT64_MIN, -7};
  return b % 2 ? extent - 1 : bad[b % 4];
}
int64_t pick_batch(FuzzedDataProvider& fdp) {
  const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
  if (b < 244) return b % 5;
  static const int64_t bad[] = {-1, INT64_MIN, -2, -100};
  return bad[b % 4];
}
char pick_flag(FuzzedDataProvider& fdp, const char* legal) {
  const uint8_t b = fdp.ConsumeIntegral<uint8_t>();
  const size_t k = std::strlen(legal);
  if (b < 232) {
    const char c = legal[b % k];
    return (b / k) % 2 ? (char)std::tolower(c) : c;
  }
  return (char)fdp.ConsumeIntegral<uint8_t>();
}
bool pick_null(FuzzedDataProvider& fdp) { return fdp.ConsumeIntegral<uint8_t>() >= 248; }

sgpu_context_t cpu_context() {
  static sgpu_context_t c = [] {
    sgpu_context_t x = nullptr;
    if (sgpu_context_create(&x) || sgpu_context_set_backend(x, SGPU_BACKEND_CPU) || sgpu_context_set_num_threads(x, 1))
      std::abort();
    return x;
  }();
  return c;
}

// What every call's return value must satisfy; info from the call when it ran (st >= 0).
void check_status(int st, int last_arg, const int* info, int64_t batch, int info_max) {
  if (st < -1000) fail("a resource error on the CPU backend", st);
  if (st < 0) {
    if (st < -last_arg) fail("a negative return that is no argument number", st);
    return;
  }
  int64_t failed = 0;
  for (int64_t b = 0; b < batch; ++b) {
    if (info[b] < 0 || info[b] > info_max) fail("info out of LAPACK's range", info[b]);
    failed += info[b] != 0;
  }
  if (st != failed) fail("the return value does not count the failed matrices", st);
}

// Conjugate pairs as LAPACK returns them: wi[k] > 0 is followed by wi[k+1] == -wi[k], wr equal.
void check_pairs(const double* wr, const double* wi, int n) {
  for (int k = 0; k < n; ++k) {
    if (wi[k] > 0) {
      if (k + 1 >= n || wi[k + 1] != -wi[k] || wr[k + 1] != wr[k]) fail("eigenvalues not in conjugate pairs", k);
      ++k;
    } else if (wi[k] < 0) {
      fail("a negative imaginary part first", k);
    }
  }
}

void run_dhseqr(FuzzedDataProvider& fdp) {
  const char job = pick_flag(fdp, "ES"), compz = pick_flag(fdp, "NIV");
  const int n = pick_n(fdp, 24);
  const int nn = n > 0 ? n : 0;
  const int ilo = (int)fdp.ConsumeIntegralInRange<int>(-1, nn + 1), ihi = fdp.ConsumeIntegralInRange<int>(-1, nn + 1);
  const int64_t batch = pick_batch(fdp);
  const int ldh = pick_ld(fdp, nn), ldz = pick_ld(fdp, nn);
  const int64_t sH = pick_stride(fdp, (int64_t)ldh * nn, batch), sW = pick_stride(fdp, nn, batch),
                sZ = pick_stride(fdp, (int64_t)ldz * nn, batch);
  const bool wantz = compz == 'I' || compz == 'i' || compz == 'V' || compz == 'v';
  Region H{8, nn, nn, ldh, sH, batch}, wr{8, nn, 1, nn, sW, batch}, wi{8, nn, 1, nn, sW, batch},
      Z{8, nn, nn, ldz, sZ, wantz ? batch : 0}, info{4, 1, 1, 1, 1, batch};
  for (Region* r : {&H, &wr, &wi, &Z, &info}) {
    r->null = pick_null(fdp);
    r->written = r != &Z || wantz;
    r->alloc(fdp, r == &info);
  }
  const int st = sgpu_dhseqr_batched(cpu_context(), job, compz, n, ilo, ihi, (double*)H.arg(), ldh, sH,
                                     (double*)wr.arg(), (double*)wi.arg(), sW, (double*)Z.arg(), ldz, sZ,
                                     (int*)info.arg(), batch);
  if (st < 0 || n == 0 || batch == 0) {
    if (!(H.unchanged() && wr.unchanged() && wi.unchanged() && Z.unchanged() && info.unchanged()))
      fail("dhseqr wrote data on a rejected or empty call", st);
    check_status(st, 17, nullptr, 0, 0);
    return;
  }
  const int* inf = (const int*)info.p;
  check_status(st, 17, inf, batch, nn);
  for (const Region* r : {&H, &wr, &wi, &Z}) r->check("dhseqr");
  for (int64_t b = 0; b < batch; ++b)
    if (inf[b] == 0) check_pairs((const double*)wr.p + b * sW, (const double*)wi.p + b * sW, nn);
}

void run_dgeev(FuzzedDataProvider& fdp) {
  const char jobvl = pick_flag(fdp, "NV"), jobvr = pick_flag(fdp, "NV");
  const int n = pick_n(fdp, 24);
  const int nn = n > 0 ? n : 0;
  const int64_t batch = pick_batch(fdp);
  const int lda = pick_ld(fdp, nn), ldvl = pick_ld(fdp, nn), ldvr = pick_ld(fdp, nn);
  const int64_t sA = pick_stride(fdp, (int64_t)lda * nn, batch), sW = pick_stride(fdp, nn, batch),
                sVL = pick_stride(fdp, (int64_t)ldvl * nn, batch), sVR = pick_stride(fdp, (int64_t)ldvr * nn, batch);
  const bool wl = jobvl == 'V' || jobvl == 'v', wr_ = jobvr == 'V' || jobvr == 'v';
  Region A{8, nn, nn, lda, sA, batch}, wr{8, nn, 1, nn, sW, batch}, wi{8, nn, 1, nn, sW, batch},
      VL{8, nn, nn, ldvl, sVL, wl ? batch : 0}, VR{8, nn, nn, ldvr, sVR, wr_ ? batch : 0}, info{4, 1, 1, 1, 1, batch};
  for (Region* r : {&A, &wr, &wi, &VL, &VR, &info}) {
    r->null = pick_null(fdp);
    r->written = (r != &VL || wl) && (r != &VR || wr_);
    r->alloc(fdp, r == &info);
  }
  const int st = sgpu_dgeev_batched(cpu_context(), jobvl, jobvr, n, (double*)A.arg(), lda, sA, (double*)wr.arg(),
                                    (double*)wi.arg(), sW, (double*)VL.arg(), ldvl, sVL, (double*)VR.arg(), ldvr, sVR,
                                    (int*)info.arg(), batch);
  if (st < 0 || n == 0 || batch == 0) {
    if (!(A.unchanged() && wr.unchanged() && wi.unchanged() && VL.unchanged() && VR.unchanged() && info.unchanged()))
      fail("dgeev wrote data on a rejected or empty call", st);
    check_status(st, 18, nullptr, 0, 0);
    return;
  }
  const int* inf = (const int*)info.p;
  check_status(st, 18, inf, batch, nn);
  for (const Region* r : {&A, &wr, &wi, &VL, &VR}) r->check("dgeev");
  for (int64_t b = 0; b < batch; ++b)
    if (inf[b] == 0) check_pairs((const double*)wr.p + b * sW, (const double*)wi.p + b * sW, nn);
}

void run_zheev(FuzzedDataProvider& fdp) {
  const char jobz = pick_flag(fdp, "NV"), uplo = pick_flag(fdp, "UL");
  const int n = pick_n(fdp, 40);
  const int nn = n > 0 ? n : 0;
  const int64_t batch = pick_batch(fdp);
  const int lda = pick_ld(fdp, nn);
  const int64_t sA = pick_stride(fdp, (int64_t)lda * nn, batch), sW = pick_stride(fdp, nn, batch);
  // A: complex entries as pairs of doubles (rows 2n of doubles, lines 2 lda apart).
  // In doubles; an illegal or unused stride (it may be INT64_MIN) as -1 or 0, which span() clamps.
  const int64_t sA2 = batch <= 1 ? 0 : sA < 0 ? -1 : sA > INT64_MAX / 2 ? INT64_MAX / 2 : 2 * sA;
  Region A{8, 2 * (int64_t)nn, nn, 2 * (int64_t)lda, sA2, batch}, w{8, nn, 1, nn, sW, batch},
      info{4, 1, 1, 1, 1, batch};
  for (Region* r : {&A, &w, &info}) {
    r->null = pick_null(fdp);
    r->written = true;
    r->alloc(fdp, r == &info);
  }
  const int st = sgpu_zheev_batched(cpu_context(), jobz, uplo, n, (sgpu_complex_double*)A.arg(), lda, sA,
                                    (double*)w.arg(), sW, (int*)info.arg(), batch);
  if (st < 0 || n == 0 || batch == 0) {
    if (!(A.unchanged() && w.unchanged() && info.unchanged())) fail("zheev wrote data on a rejected or empty call", st);
    check_status(st, 11, nullptr, 0, 0);
    return;
  }
  const int* inf = (const int*)info.p;
  check_status(st, 11, inf, batch, nn);
  A.check("zheev A");
  w.check("zheev w");
  for (int64_t b = 0; b < batch; ++b) {
    if (inf[b] != 0) continue;
    const double* v = (const double*)w.p + b * sW;
    // Ascending and not NaN. (Infinite is allowed: a finite matrix's 2-norm, and so an eigenvalue,
    // can exceed DBL_MAX, e.g. two entries of DBL_MAX in one column.)
    for (int k = 0; k < nn; ++k)
      if (std::isnan(v[k]) || (k > 0 && v[k] < v[k - 1])) {
        std::fprintf(stderr, "zheev jobz %c uplo %c n %d lda %d, matrix %lld of %lld: w =", jobz, uplo, n, lda,
                     (long long)b, (long long)batch);
        for (int i = 0; i < nn; ++i) std::fprintf(stderr, " %.17g", v[i]);
        std::fprintf(stderr, "\n");
        fail("zheev: info 0 but eigenvalues NaN or not ascending", k);
      }
  }
}

// Exact prefix sums of integer columns, modulo 2^w, against the library's.
template <class In, class Out>
void check_int_scan(const Region& A, const Region& B, const unsigned char* a0, bool row_major, int m, int n,
                    int64_t batch) {
  for (int64_t b = 0; b < batch; ++b)
    for (int j = 0; j < n; ++j) {
      Out acc = 0;
      for (int i = 0; i < m; ++i) {
        const int64_t ea = row_major ? (int64_t)i * A.ld + j : i + (int64_t)j * A.ld;
        const int64_t eb = row_major ? (int64_t)i * B.ld + j : i + (int64_t)j * B.ld;
        In x;
        std::memcpy(&x, a0 + (size_t)(b * A.stride + ea) * sizeof(In), sizeof(In));
        acc = (Out)((typename std::make_unsigned<Out>::type)acc + (typename std::make_unsigned<Out>::type)(Out)x);
        Out y;
        std::memcpy(&y, B.p + (size_t)(b * B.stride + eb) * sizeof(Out), sizeof(Out));
        if (y != acc) fail("scan_cols: an integer prefix sum is wrong", i);
      }
    }
}

void run_scan(FuzzedDataProvider& fdp) {
  static const int pairs[][2] = {{SGPU_R_32F, SGPU_R_32F}, {SGPU_R_64F, SGPU_R_64F}, {SGPU_R_32I, SGPU_R_32I},
                                 {SGPU_R_64I, SGPU_R_64I}, {SGPU_R_8U, SGPU_R_32U}, {SGPU_R_32F, SGPU_R_64F}};
  const uint8_t pk = fdp.ConsumeIntegral<uint8_t>();
  int tin = pairs[pk % 6][0], tout = pairs[pk % 6][1];
  if (pk >= 240) {  // an unsupported or unknown type
    tin = fdp.ConsumeIntegralInRange<int>(-1, 7);
    tout = fdp.ConsumeIntegralInRange<int>(-1, 7);
  }
  const uint8_t lb = fdp.ConsumeIntegral<uint8_t>();
  const int layout = lb < 120 ? SGPU_COL_MAJOR : lb < 240 ? SGPU_ROW_MAJOR : (int)lb;
  const bool rm = layout == SGPU_ROW_MAJOR;
  const int m = pick_n(fdp, 40), n = pick_n(fdp, 12);
  const int mm = m > 0 ? m : 0, nn = n > 0 ? n : 0;
  const int64_t batch = pick_batch(fdp);
  const int len = rm ? nn : mm, lines = mm > 0 && nn > 0 ? (rm ? mm : nn) : 0;
  const int lda = pick_ld(fdp, len);
  const bool in_place = fdp.ConsumeIntegral<uint8_t>() >= 200;
  const int ldb = in_place ? lda : pick_ld(fdp, len);
  const int64_t sA = pick_stride(fdp, (int64_t)lda * lines, batch);
  const int64_t sB = in_place ? sA : pick_stride(fdp, (int64_t)ldb * lines, batch);
  auto size = [](int t) { return t == SGPU_R_64F || t == SGPU_R_64I ? 8 : t == SGPU_R_8U ? 1 : 4; };
  const bool int_in = tin == SGPU_R_32I || tin == SGPU_R_64I || tin == SGPU_R_8U;
  Region A{(size_t)size(tin), len, lines, lda, sA, batch}, B{(size_t)size(tout), len, lines, ldb, sB, batch};
  A.null = pick_null(fdp);
  A.alloc(fdp, int_in);
  const bool same = in_place && size(tin) == size(tout);
  if (!same) {
    B.null = pick_null(fdp);
    B.written = true;
    B.alloc(fdp, tout != SGPU_R_32F && tout != SGPU_R_64F);
  }
  const std::vector<unsigned char> a0 = A.before;
  void* bp = same ? A.arg() : B.arg();
  const int st = sgpu_scan_cols(cpu_context(), layout, (sgpu_type_t)tin, (sgpu_type_t)tout, m, n, A.arg(), lda, sA, bp,
                                ldb, sB, batch);
  if (st < 0 || mm == 0 || nn == 0 || batch == 0) {
    if (!A.unchanged() || (!same && !B.unchanged())) fail("scan_cols wrote data on a rejected or empty call", st);
    check_status(st, 13, nullptr, 0, 0);
    return;
  }
  if (st != 0) fail("scan_cols: a positive return", st);
  if (same) {
    A.written = true;
    A.check("scan_cols in place");
  } else {
    A.check("scan_cols A");
    B.check("scan_cols B");
  }
  const Region& out = same ? A : B;
  if (tin == SGPU_R_32I) check_int_scan<int32_t, int32_t>(A, out, a0.data(), rm, mm, nn, batch);
  if (tin == SGPU_R_64I) check_int_scan<int64_t, int64_t>(A, out, a0.data(), rm, mm, nn, batch);
  if (tin == SGPU_R_8U) check_int_scan<uint8_t, uint32_t>(A, out, a0.data(), rm, mm, nn, batch);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider fdp(data, size);
  switch (fdp.ConsumeIntegral<uint8_t>() % 4) {
    case 0: run_dhseqr(fdp); break;
    case 1: run_dgeev(fdp); break;
    case 2: run_zheev(fdp); break;
    default: run_scan(fdp); break;
  }
  return 0;
}
