// One matrix of a CPU backend call, solved by the numerical core (compat/core/) with a team of one.
// compat/cpu_solve.cpp is compiled once for any x86-64 (namespace generic) and, where the compiler
// can, once more for x86-64-v3 (AVX2 and FMA; namespace x86_64_v3); compat/cpu_eig.cpp runs the
// batch and picks the copy. Nothing else is compiled for x86-64-v3: the batch loop, the workspace
// and every library template stay in the portable code.
#pragma once
#include <cstdint>

#include "backend.hpp"

namespace sgpu {
namespace cpu {

// Matrix b of the call; work holds the routine's per-matrix workspace (the *_work function's
// doubles). Returns its info.
struct Solvers {
  const char* isa;
  int64_t (*dhseqr_work)(const args::Dhseqr& a);
  int (*dhseqr)(const args::Dhseqr& a, int64_t b, double* work);
  int64_t (*dgeev_work)(const args::Dgeev& a);
  int (*dgeev)(const args::Dgeev& a, int64_t b, double* work);
  int64_t (*zheev_work)(const args::Zheev& a);
  int (*zheev)(const args::Zheev& a, int64_t b, double* work);
};

namespace generic {
extern const Solvers kSolvers;
}
#if defined(SGPU_CPU_X86_64_V3)
namespace x86_64_v3 {
extern const Solvers kSolvers;
}
#endif

}  // namespace cpu
}  // namespace sgpu
