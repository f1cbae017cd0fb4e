// The CPU backend's per-matrix solvers (compat/cpu_solve.hpp), in namespace SGPU_CORE_ISA: this
// file is compiled once per instruction set. It must not instantiate templates outside that
// namespace (a library's inline functions compiled for x86-64-v3 could be the copy the linker
// keeps for the portable code too); tests/check_isa_symbols.sh checks the built library.
#include "cpu_solve.hpp"

#include "core/geev.hpp"
#include "core/heev.hpp"
#include "core/hseqr.hpp"

// The copy's name as SGPU_CPU_ISA and SGPU_VERBOSE spell it.
#ifndef SGPU_CORE_ISA_NAME
#define SGPU_CORE_ISA_NAME "generic"
#endif

namespace sgpu {
namespace cpu {
namespace SGPU_CORE_ISA {
namespace {

using core::Mat1;
using core::Vec1;

int dhseqr(const args::Dhseqr& a, int64_t b, double* w) {
  Mat1<double> h{a.H + b * a.sH, 1, a.ldh};
  Mat1<double> z{a.Z ? a.Z + b * a.sZ : nullptr, 1, a.ldz};
  return core::hseqr<true>(core::TeamOne{}, a.wantt, a.compz, a.n, a.ilo, a.ihi, h, Vec1<double>{a.wr + b * a.sW, 1},
                           Vec1<double>{a.wi + b * a.sW, 1}, z, w);
}

int dgeev(const args::Dgeev& a, int64_t b, double* work) {
  Mat1<double> vl{a.VL ? a.VL + b * a.sVL : nullptr, 1, a.ldvl};
  Mat1<double> vr{a.VR ? a.VR + b * a.sVR : nullptr, 1, a.ldvr};
  return core::geev<true>(core::TeamOne{}, a.wantvl, a.wantvr, a.n, Mat1<double>{a.A + b * a.sA, 1, a.lda},
                          Vec1<double>{a.wr + b * a.sW, 1}, Vec1<double>{a.wi + b * a.sW, 1}, vl, vr, work);
}

int zheev(const args::Zheev& a, int64_t b, double* work) {
  core::zc* a0 = static_cast<core::zc*>(a.A);
  Mat1<core::zc> m{a0 + b * a.sA, 1, a.lda};
  double* copy = core::heev_copy_work(a.n, a.wantz, a.lower) ? work + core::heev_work(a.n, a.wantz) : nullptr;
  return core::heev(core::TeamOne{}, a.wantz, a.lower, a.n, m, Vec1<double>{a.w + b * a.sW, 1}, work,
                    core::kStedcLeaf + 1, reinterpret_cast<core::zc*>(copy));
}

}  // namespace

extern const Solvers kSolvers = {SGPU_CORE_ISA_NAME, dhseqr, dgeev, zheev};

}  // namespace SGPU_CORE_ISA
}  // namespace cpu
}  // namespace sgpu
