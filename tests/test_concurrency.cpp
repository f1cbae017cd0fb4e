// Concurrent callers: 16 host threads, 200 mixed calls each (dhseqr, dgeev,
// zheev, scan_cols; mixed orders, batches and flags) on the default context, on one context
// shared by several threads, on a context of their own, and on a context created and destroyed
// for each call. Every result is checked against the same call on a private CPU-backend context
// made by the checking thread:
//  - CPU backend: bitwise (each matrix is computed by one thread whatever the batch or the
//    number of threads, so concurrency must not change a bit);
//  - GPU backend (--backend gpu: the test contexts are forced to the GPU, every fourth own
//    context stays on the CPU): status and info exactly; eigenvalues matched to the CPU's within
//    a loose tolerance, eigenvectors and Schur factors by their residual against the input. A
//    race (a workspace or a stream shared by mistake) produces garbage, not rounding.
// The test also fails on a deadlock: CTest's timeout.
#include <atomic>
#include <mutex>
#include <thread>

#include "common.hpp"

namespace {

using st::cd;

constexpr int kThreads = 16;
constexpr int kCallsPerThread = 200;

enum Routine { kDhseqr, kDgeev, kZheev, kScan, kRoutines };

// One call's inputs, drawn from a per-call seed.
struct Call {
  Routine r;
  int n;
  int64_t batch;
  char f1, f2;  // dhseqr job/compz, dgeev jobvl/jobvr, zheev jobz/uplo; scan: f1 = 'I' for int32
  std::vector<double> a;  // real matrices, or complex as pairs (zheev), or the scan's input
  std::vector<int32_t> ai;
};

// Outputs of one call.
struct Result {
  int status = 0;
  std::vector<double> a, wr, wi, z, vl;
  std::vector<int> info;
  std::vector<int32_t> bi;
};

Call draw(std::mt19937_64& g, bool gpu) {
  static const int orders[] = {1, 2, 3, 5, 8, 12, 17, 24, 33, 40};
  auto pick = [&](int k) { return (int)(g() % (uint64_t)k); };
  Call c;
  c.r = (Routine)pick(kRoutines);
  c.n = orders[pick(c.r == kZheev ? 10 : 8)];  // zheev's block path from 33
  c.batch = 1 + pick(c.n >= 33 ? 4 : 16);
  if (gpu && pick(8) == 0) c.batch += 600;  // some calls long enough to be cut into pieces
  std::uniform_real_distribution<double> u(-1, 1);
  const int64_t nn = (int64_t)c.n * c.n;
  switch (c.r) {
    case kDhseqr: {
      c.f1 = "ES"[pick(2)];
      c.f2 = c.f1 == 'S' ? 'I' : "NI"[pick(2)];
      c.a.assign(c.batch * nn, 0.0);
      for (int64_t b = 0; b < c.batch; ++b)
        for (int j = 0; j < c.n; ++j)
          for (int i = 0; i <= std::min(j + 1, c.n - 1); ++i) c.a[b * nn + i + (int64_t)j * c.n] = u(g);
      break;
    }
    case kDgeev:
      c.f1 = 'N';
      c.f2 = "NV"[pick(2)];
      c.a.resize(c.batch * nn);
      for (double& x : c.a) x = u(g);
      break;
    case kZheev:
      c.f1 = "NV"[pick(2)];
      c.f2 = "UL"[pick(2)];
      c.a.resize(2 * c.batch * nn);
      for (int64_t b = 0; b < c.batch; ++b)
        for (int j = 0; j < c.n; ++j)
          for (int i = 0; i <= j; ++i) {  // both triangles, so that the residual can use either
            const double re = u(g), im = i == j ? 0.0 : u(g);
            double* p = c.a.data() + 2 * (b * nn);
            p[2 * (i + (int64_t)j * c.n)] = re;
            p[2 * (i + (int64_t)j * c.n) + 1] = im;
            p[2 * (j + (int64_t)i * c.n)] = re;
            p[2 * (j + (int64_t)i * c.n) + 1] = -im;
          }
      break;
    default:
      c.f1 = "DI"[pick(2)];
      c.n = 1 + pick(40);
      c.batch = 1 + pick(8);
      if (c.f1 == 'I') {
        c.ai.resize(c.batch * 37 * (int64_t)c.n);
        for (int32_t& x : c.ai) x = (int32_t)(g() % 2001) - 1000;
      } else {
        c.a.resize(c.batch * 37 * (int64_t)c.n);
        for (double& x : c.a) x = u(g);
      }
  }
  return c;
}

// Runs c on ctx (the scan as 37 x n column-major matrices).
Result run(sgpu_context_t ctx, const Call& c) {
  Result o;
  const int n = c.n;
  const int64_t nn = (int64_t)n * n;
  o.info.assign(c.batch, -1);
  switch (c.r) {
    case kDhseqr:
      o.a = c.a;
      o.wr.assign(c.batch * n, 0.0);
      o.wi.assign(c.batch * n, 0.0);
      if (c.f2 != 'N') o.z.assign(c.batch * nn, 0.0);
      o.status = sgpu_dhseqr_batched(ctx, c.f1, c.f2, n, 1, n, o.a.data(), n, nn, o.wr.data(), o.wi.data(), n,
                                     c.f2 != 'N' ? o.z.data() : nullptr, n, nn, o.info.data(), c.batch);
      break;
    case kDgeev:
      o.a = c.a;
      o.wr.assign(c.batch * n, 0.0);
      o.wi.assign(c.batch * n, 0.0);
      if (c.f2 == 'V') o.z.assign(c.batch * nn, 0.0);
      o.status = sgpu_dgeev_batched(ctx, c.f1, c.f2, n, o.a.data(), n, nn, o.wr.data(), o.wi.data(), n, nullptr, 1, 0,
                                    c.f2 == 'V' ? o.z.data() : nullptr, n, nn, o.info.data(), c.batch);
      break;
    case kZheev:
      o.a = c.a;
      o.wr.assign(c.batch * n, 0.0);
      o.status = sgpu_zheev_batched(ctx, c.f1, c.f2, n, reinterpret_cast<sgpu_complex_double*>(o.a.data()), n, nn,
                                    o.wr.data(), n, o.info.data(), c.batch);
      break;
    default: {
      const int64_t s = 37 * (int64_t)n;
      o.info.clear();
      if (c.f1 == 'I') {
        o.bi.assign(c.ai.size(), 0);
        o.status = sgpu_scan_cols(ctx, SGPU_COL_MAJOR, SGPU_R_32I, SGPU_R_32I, 37, n, c.ai.data(), 37, s,
                                  o.bi.data(), 37, s, c.batch);
      } else {
        o.a.assign(c.a.size(), 0.0);
        o.status = sgpu_scan_cols(ctx, SGPU_COL_MAJOR, SGPU_R_64F, SGPU_R_64F, 37, n, c.a.data(), 37, s,
                                  o.a.data(), 37, s, c.batch);
      }
    }
  }
  return o;
}

bool same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), sizeof(double) * x.size()) == 0);
}

// The GPU's spectrum of one matrix against the CPU's: each eigenvalue of ours near one of theirs
// (|d| <= tol), as multisets. Random matrices of these orders are far from defective.
bool spectra_match(int n, const double* wr, const double* wi, const double* rr, const double* ri, double tol) {
  std::vector<bool> used(n, false);
  for (int i = 0; i < n; ++i) {
    int best = -1;
    double bd = 0;
    for (int k = 0; k < n; ++k) {
      if (used[k]) continue;
      const double d = std::abs(cd(wr[i], wi ? wi[i] : 0.0) - cd(rr[k], ri ? ri[k] : 0.0));
      if (best < 0 || d < bd) best = k, bd = d;
    }
    if (best < 0 || !(bd <= tol)) return false;
    used[best] = true;
  }
  return true;
}

// max over vectors of ||A v - lambda v||_inf, for dgeev's right vectors (pairs as LAPACK stores them).
double dgeev_residual(int n, const double* a, const double* wr, const double* wi, const double* v) {
  double worst = 0;
  for (int j = 0; j < n; ++j) {
    const bool pair = wi[j] != 0.0;
    for (int i = 0; i < n; ++i) {
      cd s = 0;
      for (int k = 0; k < n; ++k) s += a[i + k * n] * cd(v[k + j * n], pair ? v[k + (j + 1) * n] : 0.0);
      s -= cd(wr[j], wi[j]) * cd(v[i + j * n], pair ? v[i + (j + 1) * n] : 0.0);
      worst = std::max(worst, std::abs(s));
    }
    if (pair) {
      if (j + 1 < n && !(wi[j + 1] == -wi[j])) return INFINITY;  // not a conjugate pair
      ++j;
    }
  }
  return worst;
}

// max |H - Z T Z^T| for dhseqr's Schur form.
double schur_residual(int n, const double* h, const double* t, const double* z) {
  double worst = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l) s += z[i + k * n] * t[k + l * n] * z[j + l * n];
      worst = std::max(worst, std::abs(h[i + j * n] - s));
    }
  return worst;
}

// max over vectors of ||A x - w x||_inf for zheev's (A full, both triangles).
double zheev_residual(int n, const double* a, const double* w, const double* x) {
  auto at = [](const double* p, int64_t k) { return cd(p[2 * k], p[2 * k + 1]); };
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      cd s = -w[j] * at(x, i + (int64_t)j * n);
      for (int k = 0; k < n; ++k) s += at(a, i + (int64_t)k * n) * at(x, k + (int64_t)j * n);
      worst = std::max(worst, std::abs(s));
    }
  return worst;
}

// What is wrong with `got` against `ref` (the same call on the CPU backend), or "" when nothing.
std::string compare(const Call& c, const Result& got, const Result& ref, bool exact) {
  if (got.status != ref.status) return "status " + std::to_string(got.status) + ", CPU " + std::to_string(ref.status);
  if (got.info != ref.info) return "info differs";
  if (exact) {
    if (!same_bits(got.a, ref.a) || !same_bits(got.wr, ref.wr) || !same_bits(got.wi, ref.wi) ||
        !same_bits(got.z, ref.z) || got.bi != ref.bi)
      return "results differ from the CPU backend's";
    return "";
  }
  const int n = c.n;
  const int64_t nn = (int64_t)n * n;
  if (c.r == kScan) {
    if (got.bi != ref.bi) return "integer scan differs";
    for (size_t k = 0; k < got.a.size(); ++k)
      if (!(std::abs(got.a[k] - ref.a[k]) <= 1e-12 * 37)) return "float scan differs";
    return "";
  }
  for (int64_t b = 0; b < c.batch; ++b) {
    if (ref.info[b] != 0) continue;  // (random inputs: none fails; info already compared)
    const double tol = 1e-8 * n;     // entries in [-1, 1]: ||A|| <= n
    const bool sym = c.r == kZheev;
    if (!spectra_match(n, &got.wr[b * n], sym ? nullptr : &got.wi[b * n], &ref.wr[b * n],
                       sym ? nullptr : &ref.wi[b * n], tol))
      return "eigenvalues of matrix " + std::to_string(b) + " differ from the CPU's";
    double res = 0;
    if (c.r == kDgeev && c.f2 == 'V')
      res = dgeev_residual(n, &c.a[b * nn], &got.wr[b * n], &got.wi[b * n], &got.z[b * nn]);
    if (c.r == kDhseqr && c.f1 == 'S')
      res = schur_residual(n, &c.a[b * nn], &got.a[b * nn], &got.z[b * nn]);
    if (sym && c.f1 == 'V') res = zheev_residual(n, &c.a[2 * b * nn], &got.wr[b * n], &got.a[2 * b * nn]);
    if (!(res <= tol)) return "vectors of matrix " + std::to_string(b) + ": residual " + std::to_string(res);
  }
  return "";
}

const char* routine_name(Routine r) {
  static const char* names[] = {"dhseqr", "dgeev", "zheev", "scan_cols"};
  return names[r];
}

}  // namespace

int main(int argc, char** argv) {
  st::Harness h("test_concurrency", argc, argv);
  const sgpu_backend_t backend = h.gpu ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU;
  if (sgpu_context_set_backend(nullptr, backend) != 0) {
    std::printf("FAIL: cannot set the default context's backend\n");
    return 1;
  }
  const int calls = h.quick ? 20 : kCallsPerThread;
  std::atomic<int> failures{0}, done{0};
  std::mutex print;
  auto worker = [&](int t) {
    std::mt19937_64 g(h.seed * 7919 + (uint64_t)t);
    // Context of this thread: 0 default, 1 the harness's (shared by a quarter of the threads),
    // 2 its own, 3 a new one for each call. Own contexts of every fourth thread stay on the CPU.
    const int mode = t % 4;
    const sgpu_backend_t own = (t / 4) % 4 == 3 ? SGPU_BACKEND_CPU : backend;
    sgpu_context_t mine = nullptr, ref = nullptr;
    if (sgpu_context_create(&ref) != 0 || sgpu_context_set_backend(ref, SGPU_BACKEND_CPU) != 0 ||
        sgpu_context_set_num_threads(ref, 1) != 0 ||
        (mode == 2 && (sgpu_context_create(&mine) != 0 || sgpu_context_set_backend(mine, own) != 0))) {
      ++failures;
      return;
    }
    for (int k = 0; k < calls; ++k) {
      const Call c = draw(g, h.gpu);
      sgpu_context_t ctx = mode == 0 ? nullptr : mode == 1 ? h.ctx : mine;
      sgpu_backend_t used = mode == 2 ? own : backend;
      if (mode == 3) {
        if (sgpu_context_create(&ctx) != 0 || sgpu_context_set_backend(ctx, backend) != 0) {
          ++failures;
          break;
        }
        if (k % 2) sgpu_context_set_num_threads(ctx, 1 + k % 3);
      }
      const Result got = run(ctx, c);
      if (mode == 3) sgpu_context_destroy(ctx);
      const Result want = run(ref, c);
      const std::string why = compare(c, got, want, used == SGPU_BACKEND_CPU);
      if (!why.empty()) {
        if (++failures <= 40) {
          std::lock_guard<std::mutex> lock(print);
          std::printf("FAIL: thread %d call %d: %s n=%d batch=%lld flags %c%c (%s backend, context mode %d): %s\n", t, k,
                      routine_name(c.r), c.n, (long long)c.batch, c.f1, c.f2,
                      used == SGPU_BACKEND_GPU ? "gpu" : "cpu", mode, why.c_str());
        }
      }
      ++done;
    }
    sgpu_context_destroy(mine);
    sgpu_context_destroy(ref);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) pool.emplace_back(worker, t);
  for (std::thread& th : pool) th.join();
  h.checks = done.load();
  h.failures = failures.load();
  h.expect(done.load() == kThreads * calls, "%d of %d calls completed", done.load(), kThreads * calls);
  return h.finish();
}
