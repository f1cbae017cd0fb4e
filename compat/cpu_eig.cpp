// CPU backend of the eigensolvers: OpenMP over the batch, each matrix solved by the numerical core
// (compat/core/) with a team of one, compiled for the best instruction set the processor has
// (compat/cpu_solve.hpp).
#include <strings.h>

#include <cstdio>
#include <cstdlib>

#include "batch_loop.hpp"
#include "cpu_solve.hpp"

namespace sgpu {
namespace cpu {
namespace {

// The solvers' copy for this processor: x86-64-v3 where it was built and the processor has it,
// unless SGPU_CPU_ISA=generic asks for the portable copy (whose results do not depend on the
// processor: the x86-64-v3 copy contracts multiply-adds into FMA instructions).
const Solvers& pick_solvers() {
  const char* v = std::getenv("SGPU_CPU_ISA");
  const bool want_generic = v && *v && !strcasecmp(v, "generic");
  if (v && *v && !want_generic && strcasecmp(v, "x86-64-v3"))
    std::fprintf(stderr, "sgpu: ignoring SGPU_CPU_ISA=%s (expected generic or x86-64-v3)\n", v);
  const Solvers* s = &generic::kSolvers;
#if defined(SGPU_CPU_X86_64_V3)
  __builtin_cpu_init();
  if (!want_generic && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
    s = &x86_64_v3::kSolvers;
#endif
  if (verbose()) std::fprintf(stderr, "sgpu: CPU backend solvers for %s\n", s->isa);
  return *s;
}

const Solvers& solvers() {
  static const Solvers& s = pick_solvers();
  return s;
}

}  // namespace

int dhseqr(sgpu_context* ctx, const args::Dhseqr& a) {
  const Solvers& s = solvers();
  return for_each_matrix(ctx, a.batch, s.dhseqr_work(a), a.info, [&](int64_t b, double* w) { return s.dhseqr(a, b, w); });
}

int dgeev(sgpu_context* ctx, const args::Dgeev& a) {
  const Solvers& s = solvers();
  return for_each_matrix(ctx, a.batch, s.dgeev_work(a), a.info, [&](int64_t b, double* w) { return s.dgeev(a, b, w); });
}

int zheev(sgpu_context* ctx, const args::Zheev& a) {
  const Solvers& s = solvers();
  return for_each_matrix(ctx, a.batch, s.zheev_work(a), a.info, [&](int64_t b, double* w) { return s.zheev(a, b, w); });
}

}  // namespace cpu
}  // namespace sgpu
