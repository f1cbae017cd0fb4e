// CPU backend of the eigensolvers: the shared numerical core (compat/core/) with a team of one,
// OpenMP over the batch.
#include <cctype>

#include "batch_loop.hpp"
#include "core/geev.hpp"
#include "core/heev.hpp"
#include "core/hseqr.hpp"

namespace sgpu {
namespace cpu {
namespace {
bool is(char c, char want) { return std::toupper((unsigned char)c) == want; }
}  // namespace

using core::Mat1;
using core::Vec1;

int dhseqr(sgpu_context* ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh, int64_t strideH,
           double* wr, double* wi, int64_t strideW, double* Z, int ldz, int64_t strideZ, int* info, int64_t batch) {
  const bool wantt = is(job, 'S');
  const int cz = is(compz, 'I') ? core::kCompzI : is(compz, 'V') ? core::kCompzV : core::kCompzN;
  return for_each_matrix(ctx, batch, 0, info, [&](int64_t b, double*) {
    Mat1<double> h{H + b * strideH, 1, ldh};
    Mat1<double> z{cz != core::kCompzN ? Z + b * strideZ : nullptr, 1, ldz};
    return core::hseqr(core::TeamOne{}, wantt, cz, n, ilo, ihi, h, Vec1<double>{wr + b * strideW, 1},
                       Vec1<double>{wi + b * strideW, 1}, z);
  });
}

int dgeev(sgpu_context* ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA, double* wr,
          double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR, int ldvr,
          int64_t strideVR, int* info, int64_t batch) {
  const bool wantvl = is(jobvl, 'V'), wantvr = is(jobvr, 'V');
  return for_each_matrix(ctx, batch, core::geev_work(n), info, [&](int64_t b, double* work) {
    Mat1<double> a{A + b * strideA, 1, lda};
    Mat1<double> vl{wantvl ? VL + b * strideVL : nullptr, 1, ldvl};
    Mat1<double> vr{wantvr ? VR + b * strideVR : nullptr, 1, ldvr};
    return core::geev(core::TeamOne{}, wantvl, wantvr, n, a, Vec1<double>{wr + b * strideW, 1},
                      Vec1<double>{wi + b * strideW, 1}, vl, vr, work);
  });
}

int zheev(sgpu_context* ctx, char jobz, char uplo, int n, void* A, int lda, int64_t strideA, double* w,
          int64_t strideW, int* info, int64_t batch) {
  const bool wantz = is(jobz, 'V'), lower = is(uplo, 'L');
  core::zc* a0 = static_cast<core::zc*>(A);
  return for_each_matrix(ctx, batch, core::heev_work(n, wantz), info, [&](int64_t b, double* work) {
    Mat1<core::zc> a{a0 + b * strideA, 1, lda};
    return core::heev(core::TeamOne{}, wantz, lower, n, a, Vec1<double>{w + b * strideW, 1}, work);
  });
}

}  // namespace cpu
}  // namespace sgpu
