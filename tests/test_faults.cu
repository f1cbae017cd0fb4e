// Faults on the GPU backend, in a build with -DSGPU_DEV_HOOKS=ON: for each
// call below and each kind of fault (device allocation, pinned host allocation, kernel launch,
// copy), the call is first run clean to count that kind's occurrences (allocations on a fresh
// context, whose buffers are not cached yet), then once with each
// occurrence failing in turn (at most max_per_kind() of them, spread over the count). A faulted call
// must:
//  - return the documented code (SGPU_ERR_DEVICE_ALLOC, SGPU_ERR_HOST_ALLOC, SGPU_ERR_DEVICE);
//  - leave every info[b] at SGPU_INFO_NOT_COMPUTED, so no matrix reads as done;
//  - leave the same context working: the next clean call returns 0 and bitwise the clean results.
// Device memory in use after the sweep (contexts destroyed, pools trimmed) must be what it was
// before: nothing leaked. Host leaks: test_soak and valgrind cover the host code; this test's
// resident set is printed. Skips (77) without a GPU or without the option.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "sgpu.h"

#include "gpu_expect.hpp"

#ifdef SGPU_DEV_HOOKS
extern "C" int64_t sgpu_fault_arm(int kind, int64_t k);

namespace {

constexpr int kKinds = 4;
const char* kKindName[kKinds] = {"device alloc", "pinned alloc", "launch", "copy"};
const int kCode[kKinds] = {SGPU_ERR_DEVICE_ALLOC, SGPU_ERR_HOST_ALLOC, SGPU_ERR_DEVICE, SGPU_ERR_DEVICE};
// Faults tried per kind and call, spread over its occurrences (SGPU_FAULT_MAX_PER_KIND overrides:
// the compute-sanitizer run takes fewer).
int64_t max_per_kind() {
  const char* e = std::getenv("SGPU_FAULT_MAX_PER_KIND");
  return e && std::atoll(e) > 0 ? std::atoll(e) : 60;
}

enum Where { kPageable, kPinned, kDevice };
const char* where_name(Where w) { return w == kPageable ? "pageable" : w == kPinned ? "pinned" : "device"; }

// An operand: its contents on the host, placed where the case wants it for each run.
template <class T>
struct Buf {
  std::vector<T> init;
  Where w;
  T* p = nullptr;
  Buf(size_t n, Where where) : init(n), w(where) {
    if (w == kPinned) CUDA_OK(cudaMallocHost(&p, sizeof(T) * n));
    if (w == kDevice) CUDA_OK(cudaMalloc(&p, sizeof(T) * n));
    if (w == kPageable) p = new T[n];
  }
  ~Buf() {
    if (w == kPinned) cudaFreeHost(p);
    if (w == kDevice) cudaFree(p);
    if (w == kPageable) delete[] p;
  }
  void reset() {
    if (w == kDevice) CUDA_OK(cudaMemcpy(p, init.data(), sizeof(T) * init.size(), cudaMemcpyHostToDevice));
    else std::memcpy(p, init.data(), sizeof(T) * init.size());
  }
  std::vector<T> get() const {
    std::vector<T> r(init.size());
    if (w == kDevice) CUDA_OK(cudaMemcpy(r.data(), p, sizeof(T) * r.size(), cudaMemcpyDeviceToHost));
    else std::memcpy(r.data(), p, sizeof(T) * r.size());
    return r;
  }
};

// One call of a case: resets its operands, runs, and returns the status; outputs() reads them.
struct Case {
  const char* name;
  std::function<int(sgpu_context_t)> run;
  std::function<std::vector<double>()> outputs;  // every output, as doubles (bitwise copies)
  std::function<std::vector<int>()> info;        // empty for the scan
};

template <class T>
void append_bits(std::vector<double>& out, const std::vector<T>& v) {
  const size_t n = (sizeof(T) * v.size() + sizeof(double) - 1) / sizeof(double);
  const size_t at = out.size();
  out.resize(at + n, 0.0);
  std::memcpy(out.data() + at, v.data(), sizeof(T) * v.size());
}

size_t device_used() {
  cudaDeviceSynchronize();
  cudaMemPool_t pool;
  int dev = 0;
  cudaGetDevice(&dev);
  if (cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess) cudaMemPoolTrimTo(pool, 0);
  size_t free_b = 0, total = 0;
  cudaMemGetInfo(&free_b, &total);
  return total - free_b;
}

long rss_kb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (f) {
    if (std::fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
    std::fclose(f);
  }
  return res * 4;
}

// warm: one clean call only (the first pass loads every kernel and library the calls use, so that
// the device memory measured after it is the baseline).
bool g_warm = false;

void sweep(const Case& c) {
  sgpu_context_t ctx = nullptr;
  EXPECT(sgpu_context_create(&ctx) == 0 && sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU) == 0, "%s: context",
         c.name);
  for (int k = 0; k < kKinds; ++k) sgpu_fault_arm(k, 0);
  int st = c.run(ctx);
  EXPECT(st == 0, "%s: clean call returned %d", c.name, st);
  const std::vector<double> ref = c.outputs();
  if (g_warm) {
    sgpu_context_destroy(ctx);
    return;
  }
  for (int kind = 0; kind < kKinds; ++kind) {
    // Allocation faults on a fresh context each time: a used one has its buffers cached already.
    const bool fresh = kind == 0 || kind == 1;
    auto renew = [&] {
      if (!fresh) return;
      sgpu_context_destroy(ctx);
      EXPECT(sgpu_context_create(&ctx) == 0 && sgpu_context_set_backend(ctx, SGPU_BACKEND_GPU) == 0, "%s: context",
             c.name);
    };
    renew();
    sgpu_fault_arm(kind, 0);
    st = c.run(ctx);
    const int64_t count = sgpu_fault_arm(kind, 0);
    EXPECT(st == 0 && c.outputs() == ref, "%s: clean call (counting) returned %d or other results", c.name, st);
    const int64_t step = std::max<int64_t>(1, count / max_per_kind());
    int64_t faulted = 0;
    for (int64_t at = 1; at <= count; at += (at + step > count && at != count) ? count - at : step) {
      renew();
      sgpu_fault_arm(kind, at);
      st = c.run(ctx);
      const int64_t seen = sgpu_fault_arm(kind, 0);
      if (seen < at) {  // the run had fewer occurrences (paths may differ with timing): no fault
        EXPECT(st == 0, "%s: %s fault %lld not reached, yet returned %d", c.name, kKindName[kind], (long long)at, st);
        continue;
      }
      ++faulted;
      EXPECT(st == kCode[kind], "%s: %s fault at occurrence %lld of %lld returned %d, expected %d", c.name,
             kKindName[kind], (long long)at, (long long)count, st, kCode[kind]);
      const std::vector<int> info = c.info ? c.info() : std::vector<int>{};
      const bool none_done =
          std::all_of(info.begin(), info.end(), [](int i) { return i == SGPU_INFO_NOT_COMPUTED; });
      EXPECT(none_done, "%s: %s fault at %lld: some info[b] is not SGPU_INFO_NOT_COMPUTED", c.name, kKindName[kind],
             (long long)at);
      st = c.run(ctx);
      EXPECT(st == 0 && c.outputs() == ref, "%s: the call after a %s fault at %lld returned %d or other results",
             c.name, kKindName[kind], (long long)at, st);
    }
    std::printf("%s: %s: %lld occurrences, %lld faulted\n", c.name, kKindName[kind], (long long)count,
                (long long)faulted);
  }
  EXPECT(sgpu_context_destroy(ctx) == 0, "%s: destroy", c.name);
}

void run_all() {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> U(-1, 1);

  // dgeev, n = 8, right vectors: host data (pinned, pageable) streamed in pieces; device data.
  for (Where w : {kPinned, kPageable, kDevice}) {
    const int n = 8;
    const int64_t nb = 3000, sA = n * n;
    Buf<double> A(nb * sA, w), wr(nb * n, w), wi(nb * n, w), vr(nb * sA, w);
    Buf<int> info(nb, w);
    for (auto& x : A.init) x = U(rng);
    char name[64];
    std::snprintf(name, sizeof name, "dgeev n=8 V %s", where_name(w));
    Case c{name,
           [&](sgpu_context_t ctx) {
             A.reset();
             wr.reset();
             wi.reset();
             vr.reset();
             info.reset();
             return sgpu_dgeev_batched(ctx, 'N', 'V', n, A.p, n, sA, wr.p, wi.p, n, nullptr, 1, 0, vr.p, n, sA, info.p,
                                       nb);
           },
           [&] {
             std::vector<double> o;
             append_bits(o, wr.get());
             append_bits(o, wi.get());
             append_bits(o, vr.get());
             append_bits(o, info.get());
             return o;
           },
           [&] { return info.get(); }};
    sweep(c);
  }
  // dgeev at an order past shared memory (values only: one warp per matrix from n = 167, with its
  // stream-ordered workspace).
  {
    const int n = 170;
    const int64_t nb = 40, sA = n * n;
    Buf<double> A(nb * sA, kDevice), wr(nb * n, kDevice), wi(nb * n, kDevice);
    Buf<int> info(nb, kDevice);
    for (auto& x : A.init) x = U(rng);
    Case c{"dgeev n=170 N device",
           [&](sgpu_context_t ctx) {
             A.reset();
             info.reset();
             return sgpu_dgeev_batched(ctx, 'N', 'N', n, A.p, n, sA, wr.p, wi.p, n, nullptr, 1, 0, nullptr, 1, 0,
                                       info.p, nb);
           },
           [&] {
             std::vector<double> o;
             append_bits(o, wr.get());
             append_bits(o, wi.get());
             append_bits(o, info.get());
             return o;
           },
           [&] { return info.get(); }};
    sweep(c);
  }
  // zheev: the team path (n = 20), the block path (n = 40), the block path with cuBLAS split over
  // the lanes (n = 120, 210 matrices); host and device data; and mixed memory (staged whole).
  struct Z {
    int n;
    int64_t nb;
    Where a, info;
  };
  for (const Z z : {Z{20, 2000, kPinned, kPinned}, Z{40, 300, kPageable, kPageable}, Z{120, 210, kDevice, kDevice},
                    Z{40, 100, kPinned, kDevice}}) {
    const int n = z.n;
    const int64_t sA = (int64_t)n * n;
    Buf<double> A(2 * z.nb * sA, z.a), w(z.nb * n, z.a);
    Buf<int> info(z.nb, z.info);
    for (int64_t b = 0; b < z.nb; ++b)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) A.init[2 * (b * sA + i + (int64_t)j * n) + (i == j ? 0 : 1)] = U(rng);
    char name[80];
    std::snprintf(name, sizeof name, "zheev n=%d V %s%s", n, where_name(z.a), z.a != z.info ? " (info on the device)" : "");
    Case c{name,
           [&](sgpu_context_t ctx) {
             A.reset();
             info.reset();
             return sgpu_zheev_batched(ctx, 'V', 'L', n, reinterpret_cast<sgpu_complex_double*>(A.p), n, sA, w.p, n,
                                       info.p, z.nb);
           },
           [&] {
             std::vector<double> o;
             append_bits(o, A.get());
             append_bits(o, w.get());
             append_bits(o, info.get());
             return o;
           },
           [&] { return info.get(); }};
    sweep(c);
  }
  // The scan streamed from pinned memory (its own pipeline; no info).
  {
    const int m = 300, n = 200;
    const int64_t nb = 40, s = (int64_t)m * n;
    Buf<float> A(nb * s, kPinned), B(nb * s, kPinned);
    for (auto& x : A.init) x = (float)U(rng);
    Case c{"scan_cols 300x200 pinned",
           [&](sgpu_context_t ctx) {
             A.reset();
             B.reset();
             return sgpu_scan_cols(ctx, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, m, n, A.p, m, s, B.p, m, s, nb);
           },
           [&] {
             std::vector<double> o;
             append_bits(o, B.get());
             return o;
           },
           nullptr};
    sweep(c);
  }
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  g_warm = true;
  run_all();
  g_warm = false;
  const size_t used0 = device_used();
  const long rss0 = rss_kb();
  run_all();
  const size_t used1 = device_used();
  std::printf("device memory in use: %zu -> %zu bytes; resident set %ld -> %ld KB\n", used0, used1, rss0, rss_kb());
  EXPECT(used1 <= used0, "device memory grew by %zu bytes over the sweep", used1 - used0);
  std::printf("test_faults: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
#else
int main() {
  std::printf("SKIP: built without SGPU_DEV_HOOKS\n");
  return 77;
}
#endif
