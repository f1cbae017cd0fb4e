// Illegal arguments: every one returns its -i, checked in argument order, with nothing written;
// quick returns (n == 0, batch == 0) succeed without touching data (NULL allowed); the context API
// and status strings.
#include "common.hpp"

#include <functional>

using namespace st;

namespace {

// Buffers of a call, all poisoned; unchanged() tells whether any byte changed since.
struct Buffers {
  std::vector<double> a, wr, wi, vl, vr;
  std::vector<cd> z;
  std::vector<float> f;
  std::vector<int> info;
  Buffers() : a(4096, 3.25), wr(256, 3.25), wi(256, 3.25), vl(4096, 3.25), vr(4096, 3.25), z(4096, cd(3.25, 1)),
              f(4096, 3.25f), info(64, -77) {}
  bool operator==(const Buffers& o) const {
    return a == o.a && wr == o.wr && wi == o.wi && vl == o.vl && vr == o.vr && z == o.z && f == o.f && info == o.info;
  }
};

// Runs call(buffers) and expects status `want` with the buffers unchanged.
void expect_rejected(Harness& h, const char* what, int want, const std::function<int(Buffers&)>& call) {
  Buffers b, before;
  int st = call(b);
  h.expect(st == want, "%s: returned %d, expected %d", what, st, want);
  h.expect(b == before, "%s: data was written", what);
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_args", argc, argv);
  // A context whose magic is wrong: argument 1 is illegal.
  alignas(64) static unsigned char fake[512] = {0};
  sgpu_context_t bad = reinterpret_cast<sgpu_context_t>(fake);
  sgpu_context_t c = h.ctx;
  const int n = 4;

  // ---- dhseqr: (ctx, job, compz, n, ilo, ihi, H, ldh, sH, wr, wi, sW, Z, ldz, sZ, info, batch)
  auto hs = [&](Buffers& b, sgpu_context_t cx, char job, char compz, int nn, int ilo, int ihi, double* H, int ldh,
                int64_t sH, double* wr, double* wi, int64_t sW, double* Z, int ldz, int64_t sZ, int* info, int64_t nb) {
    (void)b;
    return sgpu_dhseqr_batched(cx, job, compz, nn, ilo, ihi, H, ldh, sH, wr, wi, sW, Z, ldz, sZ, info, nb);
  };
#define HS(...) [&](Buffers& b) { return hs(b, __VA_ARGS__); }
  expect_rejected(h, "dhseqr ctx", -1, HS(bad, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr job", -2, HS(c, 'X', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr compz", -3, HS(c, 'S', 'X', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr n", -4, HS(c, 'S', 'I', -1, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ilo<1", -5, HS(c, 'S', 'I', n, 0, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ilo>n", -5, HS(c, 'S', 'I', n, n + 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ihi<ilo", -6, HS(c, 'S', 'I', n, 3, 2, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ihi>n", -6, HS(c, 'S', 'I', n, 1, n + 1, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr H", -7, HS(c, 'S', 'I', n, 1, n, nullptr, n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ldh", -8, HS(c, 'S', 'I', n, 1, n, b.a.data(), n - 1, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr strideH", -9, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 15, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr wr", -10, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, nullptr, b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr wi", -11, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), nullptr, n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr strideW", -12, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n - 1, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr Z", -13, HS(c, 'S', 'V', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ldz", -14, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n - 1, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ldz<1", -14, HS(c, 'S', 'N', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, 0, 0, b.info.data(), 2));
  expect_rejected(h, "dhseqr strideZ", -15, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 15, b.info.data(), 2));
  expect_rejected(h, "dhseqr info", -16, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, nullptr, 2));
  expect_rejected(h, "dhseqr batch", -17, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), -1));
  // First illegal argument wins.
  expect_rejected(h, "dhseqr job+n", -2, HS(c, 'X', 'I', -1, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dhseqr ldh+batch", -8, HS(c, 'S', 'I', n, 1, n, b.a.data(), 1, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.info.data(), -5));
  // Z may be NULL when compz = 'N'; strides unused for one matrix.
  expect_rejected(h, "dhseqr n=0 NULLs", 0, HS(c, 'S', 'I', 0, 1, 0, nullptr, 1, 0, nullptr, nullptr, 0, nullptr, 1, 0, nullptr, 5));
  expect_rejected(h, "dhseqr batch=0 NULLs", 0, HS(c, 'S', 'I', n, 1, n, nullptr, n, 0, nullptr, nullptr, 0, nullptr, n, 0, nullptr, 0));

  // ---- dgeev: (ctx, jobvl, jobvr, n, A, lda, sA, wr, wi, sW, VL, ldvl, sVL, VR, ldvr, sVR, info, batch)
  auto ge = [&](sgpu_context_t cx, char jl, char jr, int nn, double* A, int lda, int64_t sA, double* wr, double* wi,
                int64_t sW, double* VL, int ldvl, int64_t sVL, double* VR, int ldvr, int64_t sVR, int* info, int64_t nb) {
    return sgpu_dgeev_batched(cx, jl, jr, nn, A, lda, sA, wr, wi, sW, VL, ldvl, sVL, VR, ldvr, sVR, info, nb);
  };
#define GE(...) [&](Buffers& b) { return ge(__VA_ARGS__); }
  expect_rejected(h, "dgeev ctx", -1, GE(bad, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev jobvl", -2, GE(c, 'Q', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev jobvr", -3, GE(c, 'V', 'Q', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev n", -4, GE(c, 'V', 'V', -3, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev A", -5, GE(c, 'V', 'V', n, nullptr, n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev lda", -6, GE(c, 'V', 'V', n, b.a.data(), n - 1, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev strideA", -7, GE(c, 'V', 'V', n, b.a.data(), n, 3, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev wr", -8, GE(c, 'V', 'V', n, b.a.data(), n, 16, nullptr, b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev wi", -9, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), nullptr, n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev strideW", -10, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), -1, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev VL", -11, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev ldvl", -12, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), 2, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev ldvl<1", -12, GE(c, 'N', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, 0, 0, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev strideVL", -13, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 12, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev VR", -14, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, nullptr, n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev ldvr", -15, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), 1, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev strideVR", -16, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 0, b.info.data(), 2));
  expect_rejected(h, "dgeev info", -17, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, nullptr, 2));
  expect_rejected(h, "dgeev batch", -18, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), -2));
  expect_rejected(h, "dgeev lda+wr", -6, GE(c, 'V', 'V', n, b.a.data(), 0, 16, nullptr, b.wi.data(), n, b.vl.data(), n, 16, b.vr.data(), n, 16, b.info.data(), 2));
  expect_rejected(h, "dgeev n=0 NULLs", 0, GE(c, 'V', 'V', 0, nullptr, 1, 0, nullptr, nullptr, 0, nullptr, 1, 0, nullptr, 1, 0, nullptr, 9));
  expect_rejected(h, "dgeev batch=0 NULLs", 0, GE(c, 'V', 'V', n, nullptr, n, 0, nullptr, nullptr, 0, nullptr, n, 0, nullptr, n, 0, nullptr, 0));

  // ---- zheev: (ctx, jobz, uplo, n, A, lda, sA, w, sW, info, batch)
  auto he = [&](sgpu_context_t cx, char jz, char ul, int nn, cd* A, int lda, int64_t sA, double* w, int64_t sW, int* info,
                int64_t nb) { return sgpu_zheev_batched(cx, jz, ul, nn, A, lda, sA, w, sW, info, nb); };
#define HE(...) [&](Buffers& b) { return he(__VA_ARGS__); }
  expect_rejected(h, "zheev ctx", -1, HE(bad, 'V', 'L', n, b.z.data(), n, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev jobz", -2, HE(c, 'A', 'L', n, b.z.data(), n, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev uplo", -3, HE(c, 'V', 'A', n, b.z.data(), n, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev n", -4, HE(c, 'V', 'L', -1, b.z.data(), n, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev A", -5, HE(c, 'V', 'L', n, nullptr, n, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev lda", -6, HE(c, 'V', 'L', n, b.z.data(), 3, 16, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev strideA", -7, HE(c, 'V', 'L', n, b.z.data(), n, 15, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "zheev w", -8, HE(c, 'V', 'L', n, b.z.data(), n, 16, nullptr, n, b.info.data(), 2));
  expect_rejected(h, "zheev strideW", -9, HE(c, 'V', 'L', n, b.z.data(), n, 16, b.wr.data(), 3, b.info.data(), 2));
  expect_rejected(h, "zheev info", -10, HE(c, 'V', 'L', n, b.z.data(), n, 16, b.wr.data(), n, nullptr, 2));
  expect_rejected(h, "zheev batch", -11, HE(c, 'V', 'L', n, b.z.data(), n, 16, b.wr.data(), n, b.info.data(), -1));
  expect_rejected(h, "zheev n=0 NULLs", 0, HE(c, 'V', 'L', 0, nullptr, 1, 0, nullptr, 0, nullptr, 3));

  // ---- scan_cols: (ctx, layout, tin, tout, m, n, A, lda, sA, B, ldb, sB, batch)
  auto sc = [&](sgpu_context_t cx, int layout, int tin, int tout, int m, int nn, const void* A, int lda, int64_t sA,
                void* B, int ldb, int64_t sB, int64_t nb) {
    return sgpu_scan_cols(cx, layout, (sgpu_type_t)tin, (sgpu_type_t)tout, m, nn, A, lda, sA, B, ldb, sB, nb);
  };
#define SC(...) [&](Buffers& b) { return sc(__VA_ARGS__); }
  const int F = SGPU_R_32F, D = SGPU_R_64F, CM = SGPU_COL_MAJOR, RM = SGPU_ROW_MAJOR;
  expect_rejected(h, "scan ctx", -1, SC(bad, CM, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan layout", -2, SC(c, 100, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan type_in", -3, SC(c, CM, 9, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan type_out", -4, SC(c, CM, F, 9, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan pair", -4, SC(c, CM, D, F, 4, 3, b.a.data(), 4, 12, b.f.data(), 4, 12, 2));
  expect_rejected(h, "scan m", -5, SC(c, CM, F, F, -4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan n", -6, SC(c, CM, F, F, 4, -3, b.f.data(), 4, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan A", -7, SC(c, CM, F, F, 4, 3, nullptr, 4, 12, b.f.data(), 4, 12, 2));
  expect_rejected(h, "scan lda col-major", -8, SC(c, CM, F, F, 4, 3, b.f.data(), 3, 12, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan lda row-major", -8, SC(c, RM, F, F, 4, 3, b.f.data(), 2, 12, b.a.data(), 3, 12, 2));
  expect_rejected(h, "scan strideA", -9, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 11, b.a.data(), 4, 12, 2));
  expect_rejected(h, "scan B", -10, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, nullptr, 4, 12, 2));
  expect_rejected(h, "scan in place widening", -10, SC(c, CM, F, D, 4, 3, b.f.data(), 4, 12, b.f.data(), 4, 12, 2));
  expect_rejected(h, "scan ldb", -11, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 2, 12, 2));
  expect_rejected(h, "scan in place ldb", -11, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 20, b.f.data(), 5, 20, 2));
  expect_rejected(h, "scan strideB", -12, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 0, 2));
  expect_rejected(h, "scan in place strideB", -12, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.f.data(), 4, 24, 2));
  expect_rejected(h, "scan batch", -13, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, 12, -1));
  expect_rejected(h, "scan m=0 NULLs", 0, SC(c, CM, F, F, 0, 3, nullptr, 1, 0, nullptr, 1, 0, 2));

  // ---- spans: a stride whose span passes 2^63 bytes cannot be addressed (it wrapped before)
  const int64_t huge = int64_t(1) << 61;
  expect_rejected(h, "dgeev strideA 2^61", -7, GE(c, 'N', 'N', n, b.a.data(), n, huge, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, nullptr, 1, 0, b.info.data(), 2));
  expect_rejected(h, "dhseqr strideW 2^61", -12, HS(c, 'E', 'N', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), huge, nullptr, 1, 0, b.info.data(), 2));
  expect_rejected(h, "zheev strideA 2^60", -7, HE(c, 'N', 'L', n, b.z.data(), n, huge / 2, b.wr.data(), n, b.info.data(), 2));
  expect_rejected(h, "scan strideB 2^62", -12, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.a.data(), 4, huge * 2, 2));
  expect_rejected(h, "zheev lda*n*16 past 2^63", -6, HE(c, 'N', 'L', 1 << 30, b.z.data(), INT32_MAX, 0, b.wr.data(), 0, b.info.data(), 1));

  // ---- overlapping operands: -i of the later argument of the first pair that meets, both ways
  // round in memory; legal interleavings pass. (n = 4, batch 2, matrices 16 apart.)
  {
    expect_rejected(h, "dgeev VR on A", -14, GE(c, 'N', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, b.a.data(), n, 16, b.info.data(), 2));
    expect_rejected(h, "dgeev VR on A + 3", -14, GE(c, 'N', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, b.a.data() + 3, n, 16, b.info.data(), 2));
    expect_rejected(h, "dgeev A on VR + 3", -14, GE(c, 'N', 'V', n, b.a.data() + 3, n, 16, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, b.a.data(), n, 16, b.info.data(), 2));
    expect_rejected(h, "dgeev VL on A", -11, GE(c, 'V', 'N', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.a.data() + 20, n, 16, nullptr, 1, 0, b.info.data(), 2));
    expect_rejected(h, "dgeev VR on VL", -14, GE(c, 'V', 'V', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, b.vl.data() + 16, n, 16, b.info.data(), 2));
    expect_rejected(h, "dgeev wi on wr", -9, GE(c, 'N', 'N', n, b.a.data(), n, 16, b.wr.data(), b.wr.data() + 1, n, nullptr, 1, 0, nullptr, 1, 0, b.info.data(), 2));
    expect_rejected(h, "dgeev wr on wi", -9, GE(c, 'N', 'N', n, b.a.data(), n, 16, b.wr.data() + 7, b.wr.data(), n, nullptr, 1, 0, nullptr, 1, 0, b.info.data(), 2));
    expect_rejected(h, "dgeev VR of matrix 0 on A of matrix 1", -14, GE(c, 'N', 'V', n, b.a.data(), n, 32, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, b.a.data() + 32, n, 32, b.info.data(), 2));
    expect_rejected(h, "dgeev info on wr", -17, GE(c, 'N', 'N', n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, nullptr, 1, 0, nullptr, 1, 0, reinterpret_cast<int*>(b.wr.data() + 7), 2));
    expect_rejected(h, "dgeev wr on an element of A (lda > n)", -8, GE(c, 'N', 'N', n, b.a.data(), n + 1, 21, b.a.data() + 2, b.wi.data(), n, nullptr, 1, 0, nullptr, 1, 0, b.info.data(), 1));
    expect_rejected(h, "dhseqr Z on H", -13, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.a.data() + 17, n, 16, b.info.data(), 2));
    expect_rejected(h, "dhseqr info on Z", -16, HS(c, 'S', 'I', n, 1, n, b.a.data(), n, 16, b.wr.data(), b.wi.data(), n, b.vl.data(), n, 16, reinterpret_cast<int*>(b.vl.data() + 31), 2));
    expect_rejected(h, "zheev w in A", -8, HE(c, 'N', 'L', n, b.z.data(), n, 16, reinterpret_cast<double*>(b.z.data() + 20), n, b.info.data(), 2));
    expect_rejected(h, "zheev info in w", -10, HE(c, 'V', 'L', n, b.z.data(), n, 16, b.wr.data(), n, reinterpret_cast<int*>(b.wr.data() + 3), 2));
    expect_rejected(h, "scan B = A + 1", -10, SC(c, CM, F, F, 4, 3, b.f.data(), 4, 12, b.f.data() + 1, 4, 12, 2));
    expect_rejected(h, "scan A = B + 1 (row-major)", -10, SC(c, RM, F, F, 3, 4, b.f.data() + 1, 4, 12, b.f.data(), 4, 12, 2));
    // Legal: interleaved without a common byte, and the in-place scan.
    std::vector<double> m(2 * 2 * 16 + 8, 0.0), ev(4 * n);
    std::vector<int> inf(2, -1);
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < n; ++i) m[32 * k + i * (n + 1)] = 1.0 + i + k;  // diagonal A_k
    int st = sgpu_dgeev_batched(c, 'N', 'V', n, m.data(), n, 32, ev.data(), ev.data() + n, 2 * n, nullptr, 1, 0,
                                m.data() + 16, n, 32, inf.data(), 2);
    h.expect(st == 0 && inf[0] == 0 && inf[1] == 0 && ev[0] + ev[1] + ev[2] + ev[3] == 10.0 && ev[2 * n] == 2.0,
             "interleaved A/VR and wr/wi: status %d", st);
    std::vector<float> sf(24, 1.0f);
    h.expect(sgpu_scan_cols(c, CM, SGPU_R_32F, SGPU_R_32F, 4, 3, sf.data(), 4, 12, sf.data(), 4, 12, 2) == 0 &&
                 sf[3] == 4.0f && sf[15] == 4.0f,
             "scan in place");
    std::vector<float> gaps(2 * 8 * 3, 0.5f);  // columns of A and B alternate in one array: ld 8, rows 4
    h.expect(sgpu_scan_cols(c, CM, SGPU_R_32F, SGPU_R_32F, 4, 3, gaps.data(), 8, 24, gaps.data() + 4, 8, 24, 2) == 0 &&
                 gaps[7] == 2.0f && gaps[31] == 2.0f,
             "scan B in A's column gaps");
  }

  // ---- context API and status strings
  sgpu_context_t mine = nullptr;
  h.expect(sgpu_context_create(&mine) == 0 && mine, "context create");
  sgpu_backend_t be;
  h.expect(sgpu_context_set_backend(mine, SGPU_BACKEND_CPU) == 0 && sgpu_context_get_backend(mine, &be) == 0 &&
               be == SGPU_BACKEND_CPU, "set/get backend");
  h.expect(sgpu_context_set_backend(mine, (sgpu_backend_t)7) == SGPU_ERR_INVALID_CONTEXT, "bad backend rejected");
  {  // The GPU only where there is one: the setter says so at once, the context keeps its backend.
    const int st = sgpu_context_set_backend(mine, SGPU_BACKEND_GPU);
    h.expect(sgpu_gpu_count() ? st == 0 : st == SGPU_ERR_NO_BACKEND, "set_backend(GPU) with %d devices: %d",
             sgpu_gpu_count(), st);
    h.expect(sgpu_context_get_backend(mine, &be) == 0 && be == (sgpu_gpu_count() ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU),
             "backend after set_backend(GPU)");
    sgpu_context_set_backend(mine, SGPU_BACKEND_CPU);
  }
  h.expect(sgpu_context_set_num_threads(mine, 1) == 0 && sgpu_context_set_num_threads(mine, -1) != 0, "thread count");
  // More threads than OpenMP could start would end the process: refused, and the context still works.
  for (int huge_threads : {1 << 30, INT32_MAX, 100000})
    h.expect(sgpu_context_set_num_threads(mine, huge_threads) == SGPU_ERR_INVALID_CONTEXT, "%d threads accepted",
             huge_threads);
  {
    double a[4] = {1, 2, 3, 4}, wr[2], wi[2];
    int info = -1;
    h.expect(sgpu_context_set_num_threads(mine, 64) == 0 &&
                 sgpu_dgeev_batched(mine, 'N', 'N', 2, a, 2, 4, wr, wi, 2, nullptr, 1, 0, nullptr, 1, 0, &info, 1) == 0,
             "64 threads");
    sgpu_context_set_num_threads(mine, 0);
  }
  {  // A destroyed context is illegal for good, also once its memory has been reused by another.
    std::vector<sgpu_context_t> gone, live;
    for (int k = 0; k < 8; ++k) {
      sgpu_context_t x = nullptr;
      sgpu_context_create(&x);
      gone.push_back(x);
      sgpu_context_destroy(x);
      sgpu_context_create(&x);  // (the allocator tends to hand the freed block out again)
      live.push_back(x);
    }
    for (sgpu_context_t g : gone) {
      double a[4] = {1, 2, 3, 4}, wr[2], wi[2];
      int info = -1;
      h.expect(sgpu_dgeev_batched(g, 'N', 'N', 2, a, 2, 4, wr, wi, 2, nullptr, 1, 0, nullptr, 1, 0, &info, 1) == -1 &&
                   info == -1,
               "a call on a destroyed context");
      h.expect(sgpu_context_set_num_threads(g, 1) == SGPU_ERR_INVALID_CONTEXT && sgpu_context_destroy(g) == SGPU_ERR_INVALID_CONTEXT,
               "setter and destroy on a destroyed context");
    }
    for (sgpu_context_t x : live) h.expect(sgpu_context_destroy(x) == 0, "destroy a live context");
  }
  h.expect(sgpu_context_set_device(mine, 0) == 0 && sgpu_context_set_device(mine, -1) != 0, "device");
  h.expect(sgpu_context_set_stream(mine, nullptr) == 0, "stream");
  {  // device lists: whole list checked before anything changes; set_device is the list {d}
    const int two[2] = {1, 0}, badl[2] = {0, -1};
    int got[4] = {-7, -7, -7, -7}, count = -1;
    h.expect(sgpu_context_set_devices(mine, two, 2) == 0 && sgpu_context_get_devices(mine, got, 4, &count) == 0 &&
                 count == 2 && got[0] == 1 && got[1] == 0 && got[2] == -7, "set/get devices");
    h.expect(sgpu_context_set_devices(mine, badl, 2) == SGPU_ERR_INVALID_CONTEXT &&
                 sgpu_context_get_devices(mine, got, 1, &count) == 0 && count == 2 && got[0] == 1,
             "a bad list changes nothing; get writes only capacity ids");
    h.expect(sgpu_context_set_devices(mine, two, 0) != 0 && sgpu_context_set_devices(mine, two, SGPU_MAX_DEVICES + 1) != 0 &&
                 sgpu_context_set_devices(mine, nullptr, 1) != 0, "device list count and NULL");
    h.expect(sgpu_context_get_devices(mine, nullptr, 1, &count) != 0 && sgpu_context_get_devices(mine, got, 4, nullptr) != 0 &&
                 sgpu_context_get_devices(mine, nullptr, 0, &count) == 0 && count == 2, "get devices arguments");
    h.expect(sgpu_context_set_device(mine, 0) == 0 && sgpu_context_get_devices(mine, got, 4, &count) == 0 && count == 1 &&
                 got[0] == 0, "set_device resets the list");
    h.expect(sgpu_context_set_device_memory_limit(mine, 1 << 20) == 0 && sgpu_context_set_device_memory_limit(mine, 0) == 0 &&
                 sgpu_context_set_device_memory_limit(bad, 1) == SGPU_ERR_INVALID_CONTEXT, "device memory limit");
    // The CPU backend ignores both: a call on a context with a list and a tiny limit runs.
    double a[4] = {1, 2, 3, 4}, wr[2], wi[2];
    int info = -1;
    h.expect(sgpu_context_set_devices(mine, two, 2) == 0 && sgpu_context_set_device_memory_limit(mine, 1) == 0 &&
                 sgpu_dgeev_batched(mine, 'N', 'N', 2, a, 2, 4, wr, wi, 2, nullptr, 1, 0, nullptr, 1, 0, &info, 1) == 0 &&
                 info == 0, "cpu backend with a device list and limit");
    sgpu_context_set_device(mine, 0);
    sgpu_context_set_device_memory_limit(mine, 0);
  }
  h.expect(sgpu_context_set_backend(bad, SGPU_BACKEND_CPU) == SGPU_ERR_INVALID_CONTEXT, "setter on a bad context");
  h.expect(sgpu_context_create(nullptr) == SGPU_ERR_INVALID_CONTEXT, "create(NULL)");
  h.expect(sgpu_context_destroy(mine) == 0 && sgpu_context_destroy(nullptr) == 0, "destroy");
  h.expect(sgpu_context_get_backend(nullptr, &be) == 0, "default context reachable");
  // A call on the default context (NULL) works.
  {
    double a[4] = {1, 2, 3, 4}, wr[2], wi[2];
    int info = -1;
    int st = sgpu_dgeev_batched(nullptr, 'N', 'N', 2, a, 2, 4, wr, wi, 2, nullptr, 1, 0, nullptr, 1, 0, &info, 1);
    if (!h.gpu) h.expect(st == 0 && info == 0, "default-context dgeev: %d", st);
  }
  for (int code : {0, 3, -2, SGPU_ERR_HOST_ALLOC, SGPU_ERR_DEVICE_ALLOC, SGPU_ERR_DEVICE, SGPU_ERR_NO_BACKEND,
                   SGPU_ERR_NOT_SUPPORTED, SGPU_ERR_INVALID_CONTEXT, -5000})
    h.expect(sgpu_strerror(code) && std::strlen(sgpu_strerror(code)) > 0, "strerror(%d)", code);
  h.expect(std::strcmp(sgpu_strerror(SGPU_ERR_DEVICE), sgpu_strerror(SGPU_ERR_HOST_ALLOC)) != 0, "distinct messages");
  h.expect(std::strcmp(sgpu_version(), "0.1.0") == 0, "version %s", sgpu_version());
  return h.finish();
}
