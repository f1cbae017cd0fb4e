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

// Working copies. Columns whose stride is a multiple of kAliasLd doubles (256 bytes) share few
// sets of the L1 cache (its sets repeat every 4 KiB: a stride of 2 KiB uses 2 of 64), and the steps
// that sweep a few rows across every column (bulge chases, reflectors applied from the left) then
// miss on each column. From order kCopyMinN such an operand is solved in a copy in the workspace
// whose stride is an odd multiple of 64 bytes. (One core, dgeev N,V, lda = n: n = 256 26% less
// time, 512 14%, 1024 11%; orders 128-352 at multiples of 32: 2-10%.)
constexpr int kAliasLd = 32;
constexpr int kCopyMinN = 65;

// The copy's leading dimension for an n x n operand of leading dimension ld, 0 for none.
int copy_ld(int n, int ld) {
  if (n < kCopyMinN || ld % kAliasLd != 0) return 0;
  const int p = (n + 7) / 8 * 8;
  return p % 16 == 0 ? p + 8 : p;
}
int64_t copy_size(int n, int ld) { return (int64_t)copy_ld(n, ld) * n; }

// m itself, or (when its stride aliases) a view of the next copy_size doubles of *w, which
// advances past them; the contents are copied when `in`.
Mat1<double> working(Mat1<double> m, int n, bool in, double*& w) {
  const int ld = copy_ld(n, (int)m.cs);
  if (ld == 0) return m;
  Mat1<double> c{w, 1, ld};
  w += (int64_t)ld * n;
  if (in) core::copy_mat(core::TeamOne{}, n, m, c);
  return c;
}

// The copy's contents back to m.
void give_back(Mat1<double> c, int n, Mat1<double> m) {
  if (c.p != m.p) core::copy_mat(core::TeamOne{}, n, c, m);
}

int64_t dhseqr_work(const args::Dhseqr& a) {
  const int64_t laqr = a.n >= core::kLaqrNmin ? core::laqr_work_size(a.n) : 0;
  return laqr + copy_size(a.n, a.ldh) + (a.compz != core::kCompzN ? copy_size(a.n, a.ldz) : 0);
}

int dhseqr(const args::Dhseqr& a, int64_t b, double* work) {
  const Mat1<double> h{a.H + b * a.sH, 1, a.ldh};
  const Mat1<double> z{a.Z ? a.Z + b * a.sZ : nullptr, 1, a.ldz};
  double* w = work + (a.n >= core::kLaqrNmin ? core::laqr_work_size(a.n) : 0);
  const Mat1<double> hc = working(h, a.n, true, w);
  const Mat1<double> zc = a.compz != core::kCompzN ? working(z, a.n, a.compz == core::kCompzV, w) : z;
  const int info = core::hseqr<true>(core::TeamOne{}, a.wantt, a.compz, a.n, a.ilo, a.ihi, hc,
                                     Vec1<double>{a.wr + b * a.sW, 1}, Vec1<double>{a.wi + b * a.sW, 1}, zc, work);
  give_back(hc, a.n, h);
  if (a.compz != core::kCompzN) give_back(zc, a.n, z);
  return info;
}

int64_t dgeev_work(const args::Dgeev& a) {
  return core::geev_work(a.n, true) + copy_size(a.n, a.lda) + (a.wantvl ? copy_size(a.n, a.ldvl) : 0) +
         (a.wantvr ? copy_size(a.n, a.ldvr) : 0);
}

// A's copy is not given back: dgeev leaves A's contents unspecified.
int dgeev(const args::Dgeev& a, int64_t b, double* work) {
  const Mat1<double> vl{a.VL ? a.VL + b * a.sVL : nullptr, 1, a.ldvl};
  const Mat1<double> vr{a.VR ? a.VR + b * a.sVR : nullptr, 1, a.ldvr};
  double* w = work + core::geev_work(a.n, true);
  const Mat1<double> ac = working(Mat1<double>{a.A + b * a.sA, 1, a.lda}, a.n, true, w);
  const Mat1<double> vlc = a.wantvl ? working(vl, a.n, false, w) : vl;
  const Mat1<double> vrc = a.wantvr ? working(vr, a.n, false, w) : vr;
  const int info = core::geev<true>(core::TeamOne{}, a.wantvl, a.wantvr, a.n, ac, Vec1<double>{a.wr + b * a.sW, 1},
                                    Vec1<double>{a.wi + b * a.sW, 1}, vlc, vrc, work);
  if (a.wantvl) give_back(vlc, a.n, vl);
  if (a.wantvr) give_back(vrc, a.n, vr);
  return info;
}

int64_t zheev_work(const args::Zheev& a) {
  return core::heev_work(a.n, a.wantz) + core::heev_copy_work(a.n, a.wantz, a.lower);
}

int zheev(const args::Zheev& a, int64_t b, double* work) {
  core::zc* a0 = static_cast<core::zc*>(a.A);
  Mat1<core::zc> m{a0 + b * a.sA, 1, a.lda};
  double* copy = core::heev_copy_work(a.n, a.wantz, a.lower) ? work + core::heev_work(a.n, a.wantz) : nullptr;
  return core::heev(core::TeamOne{}, a.wantz, a.lower, a.n, m, Vec1<double>{a.w + b * a.sW, 1}, work,
                    core::kStedcLeaf + 1, reinterpret_cast<core::zc*>(copy));
}

}  // namespace

extern const Solvers kSolvers = {SGPU_CORE_ISA_NAME, dhseqr_work, dhseqr, dgeev_work, dgeev, zheev_work, zheev};

}  // namespace SGPU_CORE_ISA
}  // namespace cpu
}  // namespace sgpu
