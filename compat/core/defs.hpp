// Base definitions of sgpu's numerical core: the host/device qualifier, strided views,
// the CPU "team of one", machine constants and a small complex type.
//
// Every per-matrix algorithm in compat/core/ is written once as a template over
//   - a Team (who shares the element loops: one thread on the CPU, p lanes on the GPU), and
//   - strided views (so MW, EW and RW arrangements of seed 000 §4.4 are the same code).
// A team loop is written `for (int j = t.first(lo); j < hi; j += t.step())`; scalar work
// (reflector coefficients, shifts) is done redundantly by every member after t.sync(), so
// the arithmetic, and therefore the rounding, is the same for any team size.
#pragma once

#include <stdint.h>
#include <math.h>

#if defined(__CUDACC__)
#define SGPU_HD __host__ __device__ __forceinline__
#else
#define SGPU_HD inline
#endif

// Iteration limits (LAPACK's). Overridable only so that tests/test_nonconvergence.cpp can compile
// the core with tiny limits and exercise the failure paths; the library always uses these.
#ifndef SGPU_CORE_LAHQR_ITMAX
#define SGPU_CORE_LAHQR_ITMAX(nh) (30 * ((nh) > 10 ? (nh) : 10))  // dlahqr: per deflation
#endif
#ifndef SGPU_CORE_STEQR_MAXIT
#define SGPU_CORE_STEQR_MAXIT 30  // dsteqr/dsterf: maxit * n sweeps in all
#endif
#ifndef SGPU_CORE_STEIN_MAXITS
#define SGPU_CORE_STEIN_MAXITS 5  // dstein: inverse iterations per eigenvector
#endif

// The instruction set this copy of the core is compiled for: the CPU backend's solvers are built
// for any x86-64 and for x86-64-v3 (compat/cpu_solve.cpp, picked at run time by compat/cpu_eig.cpp).
// Each copy lives in an inline namespace of its own, so that the two copies in one library share
// no symbol and the linker cannot hand one copy's callers the other's code.
#ifndef SGPU_CORE_ISA
#define SGPU_CORE_ISA generic
#endif
// Where the compiler targets AVX2 and FMA (the x86-64-v3 copy), a few kernels of the core override
// their portable loops with AVX2 forms (hetrd.hpp); device code never takes them.
#if defined(__AVX2__) && defined(__FMA__) && !defined(__CUDACC__)
#define SGPU_CORE_AVX2 1
#include <immintrin.h>
#endif

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

// Long inner products (the reflector updates of the Hessenberg reduction, the back-transformation
// of eigenvectors) are summed in blocks of kSumBlock terms, each block's partial sum added to the
// total: the rounding error grows as (kSumBlock + len / kSumBlock) u instead of len u. A plain
// running sum over a matrix of repeated entries (the all-ones matrix) makes every rounding error
// the same sign, and the eigenvector residuals of dgeev then exceeded LAPACK's (whose BLAS sums in
// several accumulators) eight-fold at n = 166 (docs/testing.md, "Summation order").
constexpr int kSumBlock = 16;

// The sum of f(i) over a team member's share i = t.first(lo), t.first(lo) + t.step(), ... < hi,
// in blocks of kSumBlock terms (the team then combines the members' sums).
template <class Team, class F>
SGPU_HD double member_sum(const Team& t, int lo, int hi, F f) {
  double s = 0.0, p = 0.0;
  int c = 0;
  for (int i = t.first(lo); i < hi; i += t.step()) {
    p += f(i);
    if (++c == kSumBlock) {
      s += p;
      p = 0.0;
      c = 0;
    }
  }
  return s + p;
}

// LAPACK's dlamch values for IEEE double: 'S' safe minimum, 'E' eps (rounding), 'P' eps*base.
struct Mach {
  static constexpr double safmin = 2.2250738585072014e-308;  // 2^-1022
  static constexpr double eps = 1.1102230246251565e-16;      // 2^-53
  static constexpr double ulp = 2.2204460492503131e-16;      // 2^-52
};

// x / s for several x as x * (1 / s): one division instead of several on a serial path. Where
// 1 / s would overflow (s below 2^-1022, a subnormal; or s == 0) s and x are first scaled by 2^54
// (exact), so the ratios stay finite as LAPACK's true divisions do: the fuzzer
// (fuzz/fuzz_args.cpp) found the reciprocal turning a finite tridiagonal into NaN eigenvalues with
// info 0. The scaling is branch-free and carries no division: the earlier select between x / s and
// x * r cost dgeev 5.5-10.5% on the GPU (H100, device-resident, n = 5, 10, 30: code size; see
// docs/performance.md "Divider"). With s >= 2^-1022, k = 1 and the quotient is x * r exactly; s = 0
// or NaN gives Inf or NaN as a division would.
struct Divider {
  double k, r;
  SGPU_HD explicit Divider(double den) : k(fabs(den) >= Mach::safmin ? 1.0 : 0x1p54), r(1.0 / (den * k)) {}
  SGPU_HD double operator()(double x) const { return (x * k) * r; }
};

// Matrix view: element (i, j) at p[i*rs + j*cs]. MW: rs=1, cs=ld. EW: rs=N, cs=N*n.
template <class T>
struct Mat {
  T* p;
  int64_t rs, cs;
  SGPU_HD T& operator()(int i, int j) const { return p[(int64_t)i * rs + (int64_t)j * cs]; }
};

// Vector view: element i at p[i*s].
template <class T>
struct Vec {
  T* p;
  int64_t s;
  SGPU_HD T& operator[](int i) const { return p[(int64_t)i * s]; }
};


// 1-based views, so that routines following LAPACK's reference keep its indices.
template <class T>
struct Mat1 {
  T* p;
  int64_t rs, cs;
  SGPU_HD T& operator()(int i, int j) const { return p[(int64_t)(i - 1) * rs + (int64_t)(j - 1) * cs]; }
};
template <class T>
struct Vec1 {
  T* p;
  int64_t s;
  SGPU_HD T& operator[](int i) const { return p[(int64_t)(i - 1) * s]; }
  SGPU_HD Vec<T> from(int i) const { return Vec<T>{&(*this)[i], s}; }  // 0-based tail starting at i
};
template <class T>
SGPU_HD Mat1<T> one_based(Mat<T> m) { return Mat1<T>{m.p, m.rs, m.cs}; }
template <class T>
SGPU_HD Vec1<T> one_based(Vec<T> v) { return Vec1<T>{v.p, v.s}; }
// Column j from row i as a 0-based vector; row i from column j likewise.
template <class T>
SGPU_HD Vec<T> col(Mat1<T> m, int i, int j) { return Vec<T>{&m(i, j), m.rs}; }
template <class T>
SGPU_HD Vec<T> row(Mat1<T> m, int i, int j) { return Vec<T>{&m(i, j), m.cs}; }

// The CPU team: one member. The GPU backends provide teams of p lanes with the same interface.
struct TeamOne {
  SGPU_HD int first(int lo) const { return lo; }
  SGPU_HD int step() const { return 1; }
  SGPU_HD bool owns(int lo, int i) const { return i >= lo; }  // i is visited by this member's loop from lo
  SGPU_HD bool leader() const { return true; }
  SGPU_HD void sync() const {}
  SGPU_HD double sum(double x) const { return x; }
  SGPU_HD double max(double x) const { return x; }
};

// Fortran SIGN(a, b).
SGPU_HD double sign(double a, double b) { return copysign(fabs(a), b); }
SGPU_HD double dmax(double a, double b) { return a > b ? a : b; }  // Fortran MAX semantics are not needed:
SGPU_HD double dmin(double a, double b) { return a < b ? a : b; }  // NaNs are screened before iteration.
SGPU_HD bool finite(double x) { return x - x == 0.0; }
// 1 / sqrt(x) and 1 / x for x in [1e-280, 1e280] (no denormals, infinities or NaNs: callers
// check the range first). On the GPU: the special-function unit's approximation (about 2^-22
// relative error) refined by two Newton steps, to within an ulp or two, in about seven
// instructions, where the library's rsqrt and division carry branches for the values excluded here.
SGPU_HD double rsqrt_in_range(double x) {
#if defined(__CUDA_ARCH__)
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  const double hx = 0.5 * x;
  y = y * fma(-hx * y, y, 1.5);
  return y * fma(-hx * y, y, 1.5);
#else
  return 1.0 / sqrt(x);
#endif
}
SGPU_HD double rcp_in_range(double x) {
#if defined(__CUDA_ARCH__)
  double y;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  y = fma(y, fma(-x, y, 1.0), y);
  return fma(y, fma(-x, y, 1.0), y);
#else
  return 1.0 / x;
#endif
}

// sqrt(x^2 + y^2) without unnecessary overflow (LAPACK dlapy2).
SGPU_HD double lapy2(double x, double y) {
  double xa = fabs(x), ya = fabs(y);
  double w = dmax(xa, ya), z = dmin(xa, ya);
  if (z == 0.0 || w > 1.7976931348623157e308) return w;
  double q = z / w;
  return w * sqrt(1.0 + q * q);
}

// Complex double, layout-compatible with double _Complex, std::complex<double> and cuDoubleComplex.
struct zc {
  double re, im;
};
SGPU_HD zc operator+(zc a, zc b) { return zc{a.re + b.re, a.im + b.im}; }
SGPU_HD zc operator-(zc a, zc b) { return zc{a.re - b.re, a.im - b.im}; }
SGPU_HD zc operator*(zc a, zc b) { return zc{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
SGPU_HD zc operator*(double s, zc a) { return zc{s * a.re, s * a.im}; }
SGPU_HD zc conj(zc a) { return zc{a.re, -a.im}; }
SGPU_HD double zabs(zc a) { return lapy2(a.re, a.im); }

// Robust complex division (a + ib) / (c + id), Smith's method (as LAPACK dladiv's fallback).
SGPU_HD void ladiv(double a, double b, double c, double d, double& p, double& q) {
  if (fabs(d) < fabs(c)) {
    double e = d / c, f = c + d * e;
    p = (a + b * e) / f;
    q = (b - a * e) / f;
  } else {
    double e = c / d, f = d + c * e;
    p = (b + a * e) / f;
    q = (-a + b * e) / f;
  }
}
SGPU_HD zc zdiv(zc x, zc y) {
  zc r;
  ladiv(x.re, x.im, y.re, y.im, r.re, r.im);
  return r;
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
