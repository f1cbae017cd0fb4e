// CPU backend of the eigensolvers: the shared numerical core (compat/core/) with a team of one,
// OpenMP over the batch.
#include "batch_loop.hpp"
#include "core/geev.hpp"
#include "core/heev.hpp"
#include "core/hseqr.hpp"

namespace sgpu {
namespace cpu {

using core::Mat1;
using core::Vec1;

int dhseqr(sgpu_context* ctx, const args::Dhseqr& a) {
  const int64_t work = a.n >= core::kLaqrNmin ? core::laqr_work_size(a.n) : 0;
  return for_each_matrix(ctx, a.batch, work, a.info, [&](int64_t b, double* w) {
    Mat1<double> h{a.H + b * a.sH, 1, a.ldh};
    Mat1<double> z{a.Z ? a.Z + b * a.sZ : nullptr, 1, a.ldz};
    return core::hseqr<true>(core::TeamOne{}, a.wantt, a.compz, a.n, a.ilo, a.ihi, h, Vec1<double>{a.wr + b * a.sW, 1},
                             Vec1<double>{a.wi + b * a.sW, 1}, z, w);
  });
}

int dgeev(sgpu_context* ctx, const args::Dgeev& a) {
  return for_each_matrix(ctx, a.batch, core::geev_work(a.n, true), a.info, [&](int64_t b, double* work) {
    Mat1<double> vl{a.VL ? a.VL + b * a.sVL : nullptr, 1, a.ldvl};
    Mat1<double> vr{a.VR ? a.VR + b * a.sVR : nullptr, 1, a.ldvr};
    return core::geev<true>(core::TeamOne{}, a.wantvl, a.wantvr, a.n, Mat1<double>{a.A + b * a.sA, 1, a.lda},
                      Vec1<double>{a.wr + b * a.sW, 1}, Vec1<double>{a.wi + b * a.sW, 1}, vl, vr, work);
  });
}

int zheev(sgpu_context* ctx, const args::Zheev& a) {
  core::zc* a0 = static_cast<core::zc*>(a.A);
  return for_each_matrix(ctx, a.batch, core::heev_work(a.n, a.wantz), a.info, [&](int64_t b, double* work) {
    Mat1<core::zc> m{a0 + b * a.sA, 1, a.lda};
    return core::heev(core::TeamOne{}, a.wantz, a.lower, a.n, m, Vec1<double>{a.w + b * a.sW, 1}, work);
  });
}

}  // namespace cpu
}  // namespace sgpu
