// Shared support of the conformance suite: backend selection (a GPU run skips with 77 when there
// is no GPU or no GPU implementation yet), a seeded RNG that prints its seed, matrix generators,
// and LAPACK TESTING/EIG-style ratios. References are LAPACKE/OpenBLAS, never sgpu itself.
#pragma once

#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include <algorithm>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sgpu.h"

namespace st {

using cd = std::complex<double>;
constexpr int kSkip = 77;
const double ulp = std::numeric_limits<double>::epsilon();  // 2^-52, LAPACK's 'P'
const double unfl = std::numeric_limits<double>::min();

// ---- harness -----------------------------------------------------------------------------------
struct Harness {
  sgpu_context_t ctx = nullptr;
  bool gpu = false;
  bool quick = false;       // small sizes only (for valgrind)
  std::vector<int> sizes;   // --sizes 33,64,200: these orders only (tests that take it; sanitizer runs)
  std::vector<int> kinds;   // --kinds 0,11: these matrix kinds only (by index; the sanitizer runs)
  int64_t batch = 0;        // --batch B: matrices a call (tests that take it; 0: the test's own)
  uint64_t seed = 0;
  std::mt19937_64 rng;
  int failures = 0, checks = 0;
  const char* name;

  Harness(const char* nm, int argc, char** argv) : name(nm) {
    const char* backend = "cpu";
    for (int i = 1; i < argc; ++i) {
      if (!std::strcmp(argv[i], "--backend") && i + 1 < argc) backend = argv[++i];
      else if (!std::strcmp(argv[i], "--quick")) quick = true;
      else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
      else if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) batch = std::strtoll(argv[++i], nullptr, 10);
      else if ((!std::strcmp(argv[i], "--sizes") || !std::strcmp(argv[i], "--kinds")) && i + 1 < argc) {
        std::vector<int>& list = argv[i][2] == 's' ? sizes : kinds;
        for (char* p = argv[++i]; *p;) {
          list.push_back((int)std::strtol(p, &p, 10));
          if (*p == ',') ++p;
          else if (*p) break;
        }
      }
    }
    // SGPU_TEST_QUICK=1: as --quick (the sanitizer build, tools/sanitize.sh, runs the suite so).
    if (const char* q = std::getenv("SGPU_TEST_QUICK")) quick = quick || (*q && std::strcmp(q, "0") != 0);
    if (const char* s = std::getenv("SGPU_TEST_SEED")) seed = std::strtoull(s, nullptr, 10);
    if (!seed) seed = (uint64_t)std::chrono::high_resolution_clock::now().time_since_epoch().count() % 1000000007ull;
    rng.seed(seed);
    gpu = !std::strcmp(backend, "gpu");
    std::printf("%s: backend %s, seed %llu (rerun with SGPU_TEST_SEED=%llu)\n", name, backend,
                (unsigned long long)seed, (unsigned long long)seed);
    if (gpu && sgpu_gpu_count() == 0) {
      std::printf("SKIP: no CUDA device on this machine\n");
      std::exit(kSkip);
    }
    if (sgpu_context_create(&ctx) != 0) {
      std::printf("FAIL: cannot create a context\n");
      std::exit(1);
    }
    sgpu_context_set_backend(ctx, gpu ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU);
  }
  ~Harness() { sgpu_context_destroy(ctx); }

  // Every routine has a GPU implementation: a GPU run the library refuses fails at once (exit 77
  // means only "no GPU on this machine").
  void fail_if_refused(int status, const char* what) {
    if (gpu && (status == SGPU_ERR_NOT_SUPPORTED || status == SGPU_ERR_NO_BACKEND)) {
      std::printf("FAIL: the GPU backend refused %s (%s)\n", what, sgpu_strerror(status));
      std::exit(1);
    }
  }

  bool kind_on(int k) const { return kinds.empty() || std::find(kinds.begin(), kinds.end(), k) != kinds.end(); }
  bool expect(bool ok, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
  int finish() {
    std::printf("%s: %d checks, %d failures (seed %llu)\n", name, checks, failures, (unsigned long long)seed);
    return failures ? 1 : 0;
  }

  double uniform(double lo = -1.0, double hi = 1.0) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  double normal() { return std::normal_distribution<double>(0.0, 1.0)(rng); }
  int randint(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  int iseed4(int* is) {  // LAPACK generator seeds: 4 integers in [0, 4095], the last odd
    for (int i = 0; i < 4; ++i) is[i] = randint(0, 4095);
    is[3] |= 1;
    return 0;
  }
};

inline bool Harness::expect(bool ok, const char* fmt, ...) {
  ++checks;
  if (!ok) {
    ++failures;
    if (failures <= 40) {
      std::va_list ap;
      va_start(ap, fmt);
      std::printf("FAIL: ");
      std::vprintf(fmt, ap);
      std::printf("\n");
      va_end(ap);
    }
  }
  return ok;
}

// ---- dense helpers (column-major, leading dimension n) ----------------------------------------
template <class T>
double norm1(int m, int n, const T* a, int lda) {
  double best = 0.0;
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    for (int i = 0; i < m; ++i) s += std::abs(a[i + (size_t)j * lda]);
    best = std::max(best, s);
  }
  return best;
}

// LAPACK's guarded ratio (dhst01/dget22): residual norm over matrix norm, in units of n*ulp.
inline double ratio(double resid, double anorm, int n) {
  anorm = std::max(anorm, unfl);
  if (n == 0) return 0.0;
  if (anorm > resid) return (resid / anorm) / (n * ulp);
  if (anorm < 1.0) return (std::min(resid, n * anorm) / anorm) / (n * ulp);
  return std::min(resid / anorm, (double)n) / (n * ulp);
}

inline double conj_if(double x) { return x; }
inline cd conj_if(cd x) { return std::conj(x); }

// ||I - Q^H Q||_1 / (n ulp)
template <class T>
double orth_ratio(int n, const T* q, int ldq) {
  double worst = 0.0;
  for (int j = 0; j < n; ++j) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
      T d = 0;
      for (int k = 0; k < n; ++k) d += conj_if(q[k + (size_t)i * ldq]) * q[k + (size_t)j * ldq];
      s += std::abs(d - T(i == j ? 1.0 : 0.0));
    }
    worst = std::max(worst, s);
  }
  return n ? worst / (n * ulp) : 0.0;
}

// Random orthogonal matrix (QR of a normal matrix, via LAPACKE).
inline std::vector<double> random_orthogonal(Harness& h, int n) {
  std::vector<double> q((size_t)n * n), tau(std::max(n, 1));
  for (auto& x : q) x = h.normal();
  if (n > 0) {
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, q.data(), n, tau.data());
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, q.data(), n, tau.data());
  }
  return q;
}

// C = A * B (n x n)
inline std::vector<double> matmul(int n, const std::vector<double>& a, const std::vector<double>& b, bool ta = false,
                                  bool tb = false) {
  std::vector<double> c((size_t)n * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k) {
      double bkj = tb ? b[j + (size_t)k * n] : b[k + (size_t)j * n];
      for (int i = 0; i < n; ++i) c[i + (size_t)j * n] += (ta ? a[k + (size_t)i * n] : a[i + (size_t)k * n]) * bkj;
    }
  return c;
}

// A leading dimension above n that is a multiple of 32 doubles: from order 65 the CPU backend
// solves such an operand in a copy of another stride (compat/cpu_solve.cpp), which the tests
// take at half their orders above 64.
inline int aliasing_ld(int n) { return (n / 32 + 1) * 32; }

// ---- nonsymmetric test matrices -----------------------------------------------------------------
enum class Kind {
  kUniform, kNormal, kLagge, kZero, kIdentity, kDiagonal, kTriangular, kHessenberg, kJordan, kCompanion,
  kRotations, kClustered, kGraded, kHuge, kTiny, kOnes, kCount
};
inline const char* kind_name(Kind k) {
  static const char* names[] = {"uniform", "normal", "dlagge", "zero", "identity", "diagonal", "triangular",
                                "hessenberg", "jordan", "companion", "rotations", "clustered", "graded",
                                "near-overflow", "near-underflow", "all-ones"};
  return names[(int)k];
}

// n x n column-major matrix of the given kind.
inline std::vector<double> make_general(Harness& h, Kind kind, int n) {
  std::vector<double> a((size_t)n * n, 0.0);
  auto at = [&](int i, int j) -> double& { return a[i + (size_t)j * n]; };
  switch (kind) {
    case Kind::kUniform:
      for (auto& x : a) x = h.uniform();
      break;
    case Kind::kNormal:
      for (auto& x : a) x = h.normal();
      break;
    case Kind::kLagge: {
      // Random matrix with singular values 1 .. 1e-6 (LAPACK's test generator, via LAPACKE).
      std::vector<double> d(std::max(n, 1));
      for (int i = 0; i < n; ++i) d[i] = std::pow(10.0, -6.0 * i / std::max(n - 1, 1));
      int is[4];
      h.iseed4(is);
      if (n > 0) LAPACKE_dlagge(LAPACK_COL_MAJOR, n, n, n - 1, n - 1, d.data(), a.data(), n, is);
      break;
    }
    case Kind::kZero:
      break;
    case Kind::kIdentity:
      for (int i = 0; i < n; ++i) at(i, i) = 1.0;
      break;
    case Kind::kDiagonal:
      for (int i = 0; i < n; ++i) at(i, i) = h.uniform(-10, 10);
      break;
    case Kind::kTriangular:
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i) at(i, j) = h.uniform();
      break;
    case Kind::kHessenberg:
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= std::min(j + 1, n - 1); ++i) at(i, j) = h.uniform();
      break;
    case Kind::kJordan:  // one Jordan block for eigenvalue 2 (maximally defective)
      for (int i = 0; i < n; ++i) {
        at(i, i) = 2.0;
        if (i + 1 < n) at(i, i + 1) = 1.0;
      }
      break;
    case Kind::kCompanion:  // companion matrix of a random monic polynomial
      for (int i = 0; i < n; ++i) at(0, i) = h.uniform();
      for (int i = 1; i < n; ++i) at(i, i - 1) = 1.0;
      break;
    case Kind::kRotations: {  // 2x2 rotation blocks (complex pairs on the unit circle), orthogonally mixed
      std::vector<double> t((size_t)n * n, 0.0);
      for (int i = 0; i + 1 < n; i += 2) {
        double th = h.uniform(0.1, 3.0);
        t[i + (size_t)i * n] = std::cos(th);
        t[i + (size_t)(i + 1) * n] = -std::sin(th);
        t[i + 1 + (size_t)i * n] = std::sin(th);
        t[i + 1 + (size_t)(i + 1) * n] = std::cos(th);
      }
      if (n % 2) t[(size_t)n * n - 1] = 1.0;
      auto q = random_orthogonal(h, n);
      a = matmul(n, matmul(n, q, t), q, false, true);
      break;
    }
    case Kind::kClustered:
    case Kind::kGraded: {  // Q T Q^T with a chosen triangular T
      std::vector<double> t((size_t)n * n, 0.0);
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < j; ++i) t[i + (size_t)j * n] = 0.1 * h.uniform();
        t[j + (size_t)j * n] = kind == Kind::kClustered ? 1.0 + 1e-9 * h.uniform() : std::pow(10.0, -12.0 * j / std::max(n - 1, 1));
      }
      auto q = random_orthogonal(h, n);
      a = matmul(n, matmul(n, q, t), q, false, true);
      break;
    }
    case Kind::kHuge:
      for (auto& x : a) x = h.uniform() * 1e300;
      break;
    case Kind::kTiny:
      for (auto& x : a) x = h.uniform() * 1e-300;
      break;
    case Kind::kOnes:  // rank one, eigenvalue 0 of multiplicity n - 1: rounding errors all alike
      for (auto& x : a) x = 1.0;
      break;
    default:
      break;
  }
  return a;
}

// ---- Hermitian test matrices --------------------------------------------------------------------
// kSpike: uniform entries and one off-diagonal pair at 1e300 (the fuzzer's find: after zheev's
// scaling the tridiagonal's squared off-diagonals went subnormal and dsterf's rotations overflowed).
enum class HKind { kUniform, kLaghe, kZero, kIdentity, kDiagonal, kTridiagonal, kClustered, kGraded, kHuge, kTiny, kSpike, kCount };
inline const char* hkind_name(HKind k) {
  static const char* names[] = {"uniform", "zlaghe", "zero", "identity", "diagonal", "tridiagonal",
                                "clustered", "graded", "near-overflow", "near-underflow", "spike"};
  return names[(int)k];
}

// Full Hermitian n x n matrix (both triangles set).
inline std::vector<cd> make_hermitian(Harness& h, HKind kind, int n) {
  std::vector<cd> a((size_t)n * n, 0.0);
  auto at = [&](int i, int j) -> cd& { return a[i + (size_t)j * n]; };
  auto with_spectrum = [&](const std::vector<double>& d) {
    int is[4];
    h.iseed4(is);
    if (n > 0) LAPACKE_zlaghe(LAPACK_COL_MAJOR, n, n - 1, d.data(), a.data(), n, is);
  };
  switch (kind) {
    case HKind::kUniform:
    case HKind::kHuge:
    case HKind::kTiny: {
      double s = kind == HKind::kHuge ? 1e300 : kind == HKind::kTiny ? 1e-300 : 1.0;
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < j; ++i) {
          at(i, j) = s * cd(h.uniform(), h.uniform());
          at(j, i) = std::conj(at(i, j));
        }
        at(j, j) = s * h.uniform();
      }
      break;
    }
    case HKind::kSpike:
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < j; ++i) {
          at(i, j) = cd(h.uniform(), h.uniform());
          at(j, i) = std::conj(at(i, j));
        }
        at(j, j) = h.uniform();
      }
      if (n >= 3) {
        at(2, 0) = cd(h.uniform(), 1e300);
        at(0, 2) = std::conj(at(2, 0));
      }
      break;
    case HKind::kLaghe: {
      std::vector<double> d(std::max(n, 1));
      for (int i = 0; i < n; ++i) d[i] = h.uniform(-5, 5);
      with_spectrum(d);
      break;
    }
    case HKind::kZero:
      break;
    case HKind::kIdentity:
      for (int i = 0; i < n; ++i) at(i, i) = 1.0;
      break;
    case HKind::kDiagonal:
      for (int i = 0; i < n; ++i) at(i, i) = h.uniform(-10, 10);
      break;
    case HKind::kTridiagonal:
      for (int i = 0; i < n; ++i) {
        at(i, i) = h.uniform();
        if (i + 1 < n) {
          at(i + 1, i) = cd(h.uniform(), h.uniform());
          at(i, i + 1) = std::conj(at(i + 1, i));
        }
      }
      break;
    case HKind::kClustered: {
      std::vector<double> d(std::max(n, 1));
      for (int i = 0; i < n; ++i) d[i] = (i % 3 == 0 ? -1.0 : 1.0) + 1e-10 * h.uniform();
      with_spectrum(d);
      break;
    }
    case HKind::kGraded: {
      std::vector<double> d(std::max(n, 1));
      for (int i = 0; i < n; ++i) d[i] = std::pow(10.0, -14.0 * i / std::max(n - 1, 1)) * (i % 2 ? -1 : 1);
      with_spectrum(d);
      break;
    }
    default:
      break;
  }
  return a;
}

// A Hermitian eigendecomposition (w, U: n x n, ld n) of a0 judged against LAPACKE's eigenvalues
// ref as TESTING/EIG judges LAPACK: w ascending, max |w - ref| <= 2 * 60 n ulp ||A||_1, ||A - U L
// U^H||_1 / (n ulp ||A||_1) < 60, ||I - U^H U||_1 / (n ulp) < 60. The ratios go into the worst.
inline void expect_hermitian_eig(Harness& h, const char* c, int n, const std::vector<cd>& a0, const double* w,
                                 const std::vector<cd>& u, const std::vector<double>& ref, double& worst_res,
                                 double& worst_orth, double& worst_ev) {
  const double anorm = norm1(n, n, a0.data(), n);
  double ev = 0.0;
  for (int i = 0; i < n; ++i) {
    ev = std::max(ev, std::abs(w[i] - ref[i]));
    if (i + 1 < n) h.expect(w[i] <= w[i + 1], "%s: not ascending at %d", c, i);
  }
  const double evr = ev / (2 * 60 * n * ulp * std::max(anorm, unfl));
  std::vector<cd> r = a0;
  for (int kk = 0; kk < n; ++kk)
    for (int j = 0; j < n; ++j) {
      const cd f = w[kk] * std::conj(u[j + (size_t)kk * n]);
      for (int i = 0; i < n; ++i) r[i + (size_t)j * n] -= u[i + (size_t)kk * n] * f;
    }
  const double res = ratio(norm1(n, n, r.data(), n), anorm, n), orth = orth_ratio(n, u.data(), n);
  worst_ev = std::max(worst_ev, evr);
  worst_res = std::max(worst_res, res);
  worst_orth = std::max(worst_orth, orth);
  h.expect(evr <= 1.0, "%s: eigenvalues differ from LAPACKE by %.3g (x%.3g of the bound)", c, ev, evr);
  h.expect(res < 60, "%s: ||A - U L U^H|| ratio %.3g", c, res);
  h.expect(orth < 60, "%s: ||I - U^H U|| ratio %.3g", c, orth);
}


// Symmetric tridiagonals for the core's tridiagonal solvers (test_stedc, test_stein): d[0..n) and
// e[0..n-1) (e sized max(n - 1, 1)) of kind k, named by tridiagonal_kind_name(k).
constexpr int kTridiagonalKinds = 12;
inline const char* tridiagonal_kind_name(int k) {
  static const char* names[] = {"uniform", "clustered", "graded",    "wilkinson", "split",     "tiny",
                                "huge",    "constant",  "zero",      "gap-above", "gap-below", "repeated-diagonal"};
  return names[k];
}
inline void make_tridiagonal(Harness& h, int kind, int n, std::vector<double>& d, std::vector<double>& e) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  d.assign(n, 0.0);
  e.assign(std::max(n - 1, 1), 0.0);
  for (int i = 0; i < n; ++i) {
    d[i] = u(h.rng);
    if (i + 1 < n) e[i] = u(h.rng);
    const double g = std::pow(10.0, -12.0 * i / std::max(n - 1, 1));
    switch (kind) {
      case 1: d[i] = 1.0 + 1e-12 * u(h.rng); if (i + 1 < n) e[i] *= 1e-13; break;
      case 2: d[i] *= g; if (i + 1 < n) e[i] *= g; break;
      case 3: d[i] = std::abs((i % 21) - 10.0); if (i + 1 < n) e[i] = (i % 21 == 20) ? 1e-8 : 1.0; break;  // glued W21+
      case 4: if (i + 1 < n && i % 7 == 3) e[i] = 0.0; break;
      case 5: d[i] *= 1e-140; if (i + 1 < n) e[i] *= 1e-140; break;  // zheev scales ||A|| into [1e-146, 1e146]
      case 6: d[i] *= 1e140; if (i + 1 < n) e[i] *= 1e140; break;
      case 7: d[i] = 2.0; if (i + 1 < n) e[i] = 1.0; break;
      case 8: d[i] = 0.0; if (i + 1 < n) e[i] = 0.0; break;
      // Nearly diagonal, eigenvalues spaced about 1.2e-3 (above dstein's reorthogonalization
      // threshold 1e-3 ||T||) or 0.8e-3 (below it: one cluster) of ||T|| ~ 1.
      case 9: case 10: d[i] = 1.0 + (kind == 9 ? 1.2e-3 : 0.8e-3) * i; if (i + 1 < n) e[i] *= 1e-5; break;
      case 11: if (i + 1 < n) e[i] = 0.0; if (i % 3 == 1) d[i] = d[i - 1]; break;  // diagonal, entries repeated
    }
  }
}

// ||T||_1 of the symmetric tridiagonal with diagonal d and off-diagonal e, at least floor (the
// scale of the tridiagonal tests' ratios).
inline double tridiagonal_norm1(int n, const std::vector<double>& d, const std::vector<double>& e, double floor) {
  double tn = 0.0;
  for (int i = 0; i < n; ++i)
    tn = std::max(tn, std::abs(d[i]) + (i > 0 ? std::abs(e[i - 1]) : 0.0) + (i + 1 < n ? std::abs(e[i]) : 0.0));
  return std::max(tn, floor);
}

// ---- batched buffers with poisoned gaps ----------------------------------------------------------
// `count` blocks of rows x cols (leading dimension ld) placed `stride` apart. Everything starts as
// the sentinel; after a call, gaps must still hold it and the written region must not.
template <class T>
struct Batch {
  int rows, cols, ld;
  int64_t stride, count;
  std::vector<T> buf;
  static T sentinel() { return T(-7.0e77); }
  Batch(int r, int c, int ldx, int64_t s, int64_t cnt) : rows(r), cols(c), ld(ldx), stride(s), count(cnt) {
    buf.assign((size_t)std::max<int64_t>(1, (cnt - 1) * s + (int64_t)ldx * std::max(c, 1) + 3), sentinel());
  }
  T* data() { return buf.data(); }
  T* block(int64_t b) { return buf.data() + b * stride; }
  T& at(int64_t b, int i, int j) { return buf[(size_t)(b * stride + i + (int64_t)j * ld)]; }
  void poison() { std::fill(buf.begin(), buf.end(), sentinel()); }
  bool in_region(size_t k) const {
    for (int64_t b = 0; b < count; ++b) {
      int64_t off = (int64_t)k - b * stride;
      if (off >= 0 && off < (int64_t)ld * cols && off % ld < rows) return true;
    }
    return false;
  }
  // Number of gap elements changed, and of region elements never written.
  int gaps_changed() const {
    int bad = 0;
    for (size_t k = 0; k < buf.size(); ++k)
      if (!in_region(k) && !(buf[k] == sentinel())) ++bad;
    return bad;
  }
  int unwritten() const {
    int bad = 0;
    for (size_t k = 0; k < buf.size(); ++k)
      if (in_region(k) && buf[k] == sentinel()) ++bad;
    return bad;
  }
  void load(int64_t b, const std::vector<T>& m) {  // m is rows x cols with leading dimension rows
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) at(b, i, j) = m[i + (size_t)j * rows];
  }
  std::vector<T> get(int64_t b) {
    std::vector<T> m((size_t)rows * cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) m[i + (size_t)j * rows] = at(b, i, j);
    return m;
  }
};

// Reference spectrum of a general matrix, for comparing two backward-stable solvers (each exact
// for some A + E with ||E||_F <= 20 n ulp ||A||_F, so pert = 40 n ulp ||A||_F between them).
//  - bound[i]: the first-order bound pert / s_i (s = LAPACK's rconde) on |lambda_i - ours|.
//  - first_order[i]: that bound's premise holds, pert <= s_i sep_i / 4 (sep = rcondv), the
//    condition of Stewart's perturbation theorem. Where it fails (a simple eigenvalue beside a
//    near-defective cluster, a Jordan block) first-order theory says nothing: perturbations of
//    size pert move such eigenvalues by pert^(1/k), or move a well-conditioned neighbour further
//    than pert / s (seen: x1.41 at n = 12, "clustered"). Those eigenvalues of ours are judged by
//    their backward error instead: sigma_min(A - lambda I) <= pert, which LAPACK's accuracy
//    claim implies whatever the conditioning.
struct RefSpectrum {
  int n = 0;
  std::vector<double> a;  // A itself, column-major
  std::vector<cd> lam;
  std::vector<double> bound;
  std::vector<char> first_order;
  double pert = 0.0;
  void widen(double f) {  // a looser accuracy claim: bounds and backward-error limit alike
    for (auto& b : bound) b *= f;
    pert *= f;
  }
};

inline RefSpectrum reference_eigenvalues(int n, const std::vector<double>& a0) {
  RefSpectrum r;
  r.n = n;
  r.a = a0;
  r.lam.assign(n, 0.0);
  r.bound.assign(n, 0.0);
  r.first_order.assign(n, 0);
  if (n == 0) return r;
  std::vector<double> a = a0, wr(n), wi(n), vl((size_t)n * n), vr((size_t)n * n), scale(n), rce(n), rcv(n);
  int ilo, ihi;
  double abnrm;
  int info = LAPACKE_dgeevx(LAPACK_COL_MAJOR, 'B', 'V', 'V', 'B', n, a.data(), n, wr.data(), wi.data(), vl.data(), n,
                            vr.data(), n, &ilo, &ihi, scale.data(), &abnrm, rce.data(), rcv.data());
  double fro = 0.0;
  for (double x : a0) fro = std::hypot(fro, x);
  r.pert = 40.0 * n * ulp * std::max(fro, unfl);
  for (int i = 0; i < n; ++i) {
    r.lam[i] = cd(wr[i], wi[i]);
    r.bound[i] = (info != 0 || rce[i] < 1e-300) ? INFINITY : r.pert / rce[i];
    r.first_order[i] = info == 0 && r.pert <= rce[i] * rcv[i] / 4;
  }
  return r;
}

// Backward error of lambda as an eigenvalue of A: sigma_min(A - lambda I) / pert. A and lambda
// are scaled by a power of two near 1/||A||_F first, so the extreme-scale kinds keep full
// precision (and lambda beyond the range of A's scale still gives a large, finite ratio).
inline double eig_backward_ratio(const RefSpectrum& r, cd lam) {
  const int n = r.n;
  double fro = 0.0;
  for (double x : r.a) fro = std::hypot(fro, x);
  if (fro == 0.0) return lam == 0.0 ? 0.0 : INFINITY;
  if (!std::isfinite(lam.real()) || !std::isfinite(lam.imag())) return INFINITY;
  const int e = -std::ilogb(fro);
  // Padded: OpenBLAS's zgemv kernels (reached through zgesvd) read past the matrix's end,
  // which valgrind reports as invalid reads (seen up to 3 elements past; padded by n + 16).
  std::vector<std::complex<double>> m((size_t)n * n + n + 16);
  for (size_t k = (size_t)n * n; k < m.size(); ++k) m[k] = 0.0;
  for (size_t k = 0; k < r.a.size(); ++k) m[k] = std::ldexp(r.a[k], e);
  const cd ls(std::ldexp(lam.real(), e), std::ldexp(lam.imag(), e));
  for (int i = 0; i < n; ++i) m[i + (size_t)i * n] -= ls;
  std::vector<double> sv(n), superb(n);
  int info = LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', n, n, reinterpret_cast<lapack_complex_double*>(m.data()), n,
                            sv.data(), nullptr, 1, nullptr, 1, superb.data());
  if (info != 0) return INFINITY;
  return sv[n - 1] / std::ldexp(r.pert, e);
}

// ours against the reference as multisets (the whole spectrum): each reference value whose
// first-order bound holds (in order of that bound) takes the nearest unmatched value of ours and
// is judged by distance/bound; the values of ours left over are judged by their backward error;
// and the sum of ours must be trace(A) to within sqrt(n) pert plus the sum's own rounding, which
// the left-over values could otherwise dodge by collapsing onto one eigenvalue. Returns the
// largest ratio seen (<= 1 passes).
inline double match_eigenvalues(const std::vector<cd>& ours, const RefSpectrum& r) {
  const int n = r.n;
  if ((int)ours.size() != n) return INFINITY;
  std::vector<int> order, used(n, 0);
  for (int i = 0; i < n; ++i)
    if (r.first_order[i]) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return r.bound[a] < r.bound[b]; });
  double worst = 0.0;
  for (int oi : order) {
    int best = -1;
    double bd = 0.0;
    for (int j = 0; j < n; ++j)
      if (!used[j]) {
        double d = std::abs(ours[j] - r.lam[oi]);
        if (best < 0 || d < bd) best = j, bd = d;
      }
    used[best] = 1;
    double q = r.bound[oi] > 0 ? bd / r.bound[oi] : (bd == 0 ? 0.0 : INFINITY);
    if (std::isnan(bd)) q = INFINITY;
    worst = std::max(worst, q);
  }
  for (int j = 0; j < n; ++j)
    if (!used[j]) worst = std::max(worst, eig_backward_ratio(r, ours[j]));
  cd sum = 0.0, tr = 0.0;
  double mag = 0.0;
  for (int j = 0; j < n; ++j) sum += ours[j], mag += std::abs(ours[j]), tr += r.a[j + (size_t)j * n];
  const double tq = std::abs(sum - tr) / (std::sqrt((double)n) * r.pert + 2 * n * ulp * (mag + std::abs(tr)));
  worst = std::max(worst, std::isnan(tq) ? INFINITY : tq);
  return worst;
}

// A subset of the spectrum (e.g. the converged eigenvalues after a failure): each of ours takes
// the nearest unmatched reference value and is judged by distance/bound where the first-order
// bound holds, by its backward error otherwise.
inline double match_subset(const std::vector<cd>& ours, const RefSpectrum& r) {
  std::vector<int> used(r.n, 0);
  double worst = 0.0;
  for (const cd& x : ours) {
    int best = -1;
    double bd = 0.0;
    for (int j = 0; j < r.n; ++j)
      if (!used[j] && (best < 0 || std::abs(x - r.lam[j]) < bd)) best = j, bd = std::abs(x - r.lam[j]);
    if (best < 0) return INFINITY;
    used[best] = 1;
    double q = !r.first_order[best] ? eig_backward_ratio(r, x)
               : r.bound[best] > 0  ? bd / r.bound[best]
                                    : (bd == 0 ? 0.0 : INFINITY);
    worst = std::max(worst, std::isnan(q) ? INFINITY : q);
  }
  return worst;
}

}  // namespace st
