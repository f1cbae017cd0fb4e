#include "check.hpp"

#include <cctype>
#include <cstddef>

namespace sgpu {
namespace check {
namespace {

bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }
int64_t max1(int64_t x) { return x > 1 ? x : 1; }

// Elements of `extent` per item, `batch` items `stride` apart, of `elem` bytes: whether the span
// (batch - 1) * stride + extent is addressable (at most PTRDIFF_MAX bytes), computed without
// overflow. Items of a batch must not overlap (stride >= extent; unused for one item).
bool stride_ok(int64_t stride, int64_t extent, int64_t batch, int elem) {
  const int64_t lim = PTRDIFF_MAX / elem;
  if (extent > lim) return false;
  if (batch <= 1 || extent == 0) return true;
  return stride >= extent && stride <= (lim - extent) / (batch - 1);
}

// One matrix (rows x cols, leading dimension ld, `elem` bytes) is addressable.
bool ld_ok(int64_t ld, int64_t rows, int64_t cols, int elem) {
  return ld >= max1(rows) && (cols == 0 || ld <= PTRDIFF_MAX / elem / cols);
}

// ---- overlap of operands ------------------------------------------------------------------------
// An operand as the bytes it spans: `count` items `mstep` apart, each `runs` runs of `run`
// contiguous bytes `step` apart (a column-major matrix: a run per column).
using i128 = __int128;
struct Span {
  i128 base, run, step, runs, mstep, count;
  i128 extent() const { return (runs - 1) * step + run; }
  i128 end() const { return base + (count - 1) * mstep + extent(); }
};

i128 floor_div(i128 a, i128 b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }  // b > 0
i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }

Span span_of(const Operand& o) {
  Span s{(i128)(uintptr_t)o.p, (i128)o.rows * o.elem, (i128)o.ld * o.elem, o.cols, (i128)o.stride * o.elem,
         o.count};
  if (s.runs > 1 && s.step == s.run) s.run *= s.runs, s.runs = 1;                     // contiguous columns
  if (s.count > 1 && s.runs == 1 && s.mstep == s.run) s.run *= s.count, s.count = 1;  // contiguous items
  if (s.runs == 1) s.step = s.run;
  if (s.count == 1) s.mstep = s.extent();
  return s;
}

// Indices k of the items base + k * step (each `len` bytes long) that meet [lo, hi), clipped to
// [kmin, kmax]; empty when k0 > k1.
void meeting(i128 base, i128 step, i128 len, i128 lo, i128 hi, i128 kmin, i128 kmax, i128& k0, i128& k1) {
  k0 = ceil_div(lo - base - len + 1, step);
  k1 = floor_div(hi - 1 - base, step);
  if (k0 < kmin) k0 = kmin;
  if (k1 > kmax) k1 = kmax;
}

// Whether some byte lies in both. Every run of x (the operand with fewer runs) that meets y's
// bounds is tested against the runs of the items of y it meets. With equal item steps the pattern
// repeats: item b of x meets item c of y as item 0 of x meets item c - b, so x's item 0 is tested
// against y's items shifted by -(x.count - 1) .. y.count - 1 (interleaved batches cost one item).
bool overlap(Span x, Span y) {
  if (x.end() <= y.base || y.end() <= x.base) return false;
  if (x.count * x.runs > y.count * y.runs) {
    const Span t = x;
    x = y;
    y = t;
  }
  const bool periodic = x.count > 1 && y.count > 1 && x.mstep == y.mstep;
  i128 b0 = 0, b1 = 0;
  if (!periodic) meeting(x.base, x.mstep, x.extent(), y.base, y.end(), 0, x.count - 1, b0, b1);
  const i128 cmin = periodic ? -(x.count - 1) : 0;
  for (i128 b = b0; b <= b1; ++b)
    for (i128 j = 0; j < x.runs; ++j) {
      const i128 lo = x.base + b * x.mstep + j * x.step, hi = lo + x.run;
      i128 c0, c1;
      meeting(y.base, y.mstep, y.extent(), lo, hi, cmin, y.count - 1, c0, c1);
      for (i128 c = c0; c <= c1; ++c) {
        i128 r0, r1;
        meeting(y.base + c * y.mstep, y.step, y.run, lo, hi, 0, y.runs - 1, r0, r1);
        if (r0 <= r1) return true;
      }
    }
  return false;
}

bool same_layout(const Operand& a, const Operand& b) {
  return a.p == b.p && a.rows == b.rows && a.cols == b.cols && a.ld == b.ld && a.elem == b.elem &&
         (a.count <= 1 || a.stride == b.stride);
}

}  // namespace

int first_overlap(const Operand* ops, int count, bool in_place_ok) {
  for (int k = 1; k < count; ++k) {
    if (!ops[k].p || ops[k].count <= 0 || ops[k].rows <= 0 || ops[k].cols <= 0) continue;
    for (int i = 0; i < k; ++i) {
      if (!ops[i].p || ops[i].count <= 0 || ops[i].rows <= 0 || ops[i].cols <= 0) continue;
      if (!ops[i].out && !ops[k].out) continue;
      if (in_place_ok && same_layout(ops[i], ops[k])) continue;
      if (overlap(span_of(ops[i]), span_of(ops[k]))) return -ops[k].arg;
    }
  }
  return 0;
}

namespace {
// Operand descriptions for the routines' overlap checks.
Operand mat(int arg, const void* p, int64_t rows, int64_t cols, int64_t ld, int64_t stride, int64_t batch, int elem,
            bool out) {
  return Operand{arg, p, rows, cols, ld, batch > 1 ? stride : 0, batch, elem, out};
}
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
  if (!ld_ok(ldh, n, n, 8)) return -8;
  if (!stride_ok(strideH, (int64_t)ldh * n, batch, 8)) return -9;
  if (touch && !wr) return -10;
  if (touch && !wi) return -11;
  if (!stride_ok(strideW, n, batch, 8)) return -12;
  if (touch && wantz && !Z) return -13;
  if (ldz < 1 || (wantz && !ld_ok(ldz, n, n, 8))) return -14;
  if (wantz && !stride_ok(strideZ, (int64_t)ldz * n, batch, 8)) return -15;
  if (touch && !info) return -16;
  if (batch < 0) return -17;
  if (!touch) return 0;
  const Operand ops[] = {mat(7, H, n, n, ldh, strideH, batch, 8, true), mat(10, wr, n, 1, n, strideW, batch, 8, true),
                         mat(11, wi, n, 1, n, strideW, batch, 8, true),
                         mat(13, wantz ? Z : nullptr, n, n, ldz, strideZ, batch, 8, true),
                         mat(16, info, batch, 1, batch, 0, 1, sizeof(int), true)};
  return first_overlap(ops, 5, false);
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
  if (!ld_ok(lda, n, n, 8)) return -6;
  if (!stride_ok(strideA, (int64_t)lda * n, batch, 8)) return -7;
  if (touch && !wr) return -8;
  if (touch && !wi) return -9;
  if (!stride_ok(strideW, n, batch, 8)) return -10;
  if (touch && wantvl && !VL) return -11;
  if (ldvl < 1 || (wantvl && !ld_ok(ldvl, n, n, 8))) return -12;
  if (wantvl && !stride_ok(strideVL, (int64_t)ldvl * n, batch, 8)) return -13;
  if (touch && wantvr && !VR) return -14;
  if (ldvr < 1 || (wantvr && !ld_ok(ldvr, n, n, 8))) return -15;
  if (wantvr && !stride_ok(strideVR, (int64_t)ldvr * n, batch, 8)) return -16;
  if (touch && !info) return -17;
  if (batch < 0) return -18;
  if (!touch) return 0;
  const Operand ops[] = {mat(5, A, n, n, lda, strideA, batch, 8, true), mat(8, wr, n, 1, n, strideW, batch, 8, true),
                         mat(9, wi, n, 1, n, strideW, batch, 8, true),
                         mat(11, wantvl ? VL : nullptr, n, n, ldvl, strideVL, batch, 8, true),
                         mat(14, wantvr ? VR : nullptr, n, n, ldvr, strideVR, batch, 8, true),
                         mat(17, info, batch, 1, batch, 0, 1, sizeof(int), true)};
  return first_overlap(ops, 6, false);
}

int zheev(bool ctx_ok, char jobz, char uplo, int n, const void* A, int lda, int64_t strideA, const void* w,
          int64_t strideW, const void* info, int64_t batch) {
  const bool touch = n > 0 && batch > 0;
  if (!ctx_ok) return -1;
  if (!is(jobz, 'N') && !is(jobz, 'V')) return -2;
  if (!is(uplo, 'U') && !is(uplo, 'L')) return -3;
  if (n < 0) return -4;
  if (touch && !A) return -5;
  if (!ld_ok(lda, n, n, 16)) return -6;
  if (!stride_ok(strideA, (int64_t)lda * n, batch, 16)) return -7;
  if (touch && !w) return -8;
  if (!stride_ok(strideW, n, batch, 8)) return -9;
  if (touch && !info) return -10;
  if (batch < 0) return -11;
  if (!touch) return 0;
  const Operand ops[] = {mat(5, A, n, n, lda, strideA, batch, 16, true), mat(8, w, n, 1, n, strideW, batch, 8, true),
                         mat(10, info, batch, 1, batch, 0, 1, sizeof(int), true)};
  return first_overlap(ops, 3, false);
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
  const int64_t len = row_major ? n : m;
  // Lines of one matrix (0 when it is empty, so any stride is fine).
  const int64_t lines = (m > 0 && n > 0) ? (row_major ? m : n) : 0;
  const int ea = type_size(type_in), eb = type_size(type_out);
  if (!ld_ok(lda, len, lines, ea)) return -8;
  if (!stride_ok(strideA, (int64_t)lda * lines, batch, ea)) return -9;
  if (touch && !B) return -10;
  // In place needs the same element size (so each B element sits exactly on its A element).
  if (touch && A == B && ea != eb) return -10;
  if (!ld_ok(ldb, len, lines, eb) || (touch && A == B && ldb != lda)) return -11;
  if (!stride_ok(strideB, (int64_t)ldb * lines, batch, eb) || (touch && A == B && batch > 1 && strideB != strideA))
    return -12;
  if (batch < 0) return -13;
  if (!touch) return 0;
  // B may lie exactly on A (the in-place form) and nowhere else on it.
  const Operand ops[] = {mat(7, A, len, lines, lda, strideA, batch, ea, false),
                         mat(10, B, len, lines, ldb, strideB, batch, eb, true)};
  return first_overlap(ops, 2, true);
}

}  // namespace check
}  // namespace sgpu
