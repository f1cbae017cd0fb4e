// Several GPUs: end-to-end time of each routine on host memory (pinned and
// pageable) on one device and on a list of devices (sgpu_context_set_devices), at the largest
// batches of the single-routine benchmarks (sgpu_geev_bench: 500 000 matrices for n <= 30;
// sgpu_heev_bench: 1 GB of matrices; sgpu_scan_bench: the 32K x 32K float matrix).
// speedup = one-device time / list time. "same": every output of the list run equals the
// one-device run's bitwise (zheev's cuBLAS-applied vectors, n >= 100: within 1e-12 relative).
// Inputs are restored (untimed) before each of the best-of-3 runs. Pinned rows also give the copy
// floor (copy_floor()): the row's bytes moved over one device's links, and split over the list's.
// Usage: sgpu_multi_gpu_bench [--devices 0,1] [--quick] [--rows 4,7] [--memory pinned|pageable] [--threads T]
//   --devices: the list (default: every GPU of the machine); --rows: only these rows of the table
//   (0-based, in its order); --memory: only that kind; --threads: both contexts' host threads
//   (sgpu_context_set_num_threads; default 0, OpenMP's count). Pageable rows give the host
//   staging floor (staging_floor()).
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sgpu.h"

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// One operand: pageable or pinned host memory; inputs keep their initial contents in `orig`.
struct Op {
  size_t bytes = 0;
  bool input = false, output = false, pinned = false;
  unsigned char* p = nullptr;
  std::vector<unsigned char> orig, saved;
  Op(size_t b, bool in, bool out, bool pin) : bytes(b), input(in), output(out), pinned(pin) {
    if (pinned ? cudaMallocHost(reinterpret_cast<void**>(&p), bytes) != cudaSuccess
               : !(p = static_cast<unsigned char*>(std::malloc(bytes)))) {
      std::fprintf(stderr, "allocation of %zu bytes failed\n", bytes);
      std::exit(1);
    }
  }
  ~Op() { pinned ? (void)cudaFreeHost(p) : std::free(p); }
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;
};

// Copies in parallel (restoring GBs of inputs would otherwise dominate the run).
void pcopy(unsigned char* d, const unsigned char* s, size_t bytes) {
  const int64_t parts = 64, chunk = (int64_t)((bytes + parts - 1) / parts);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < parts; ++k) {
    const int64_t a = k * chunk, b = std::min<int64_t>((int64_t)bytes, a + chunk);
    if (a < b) std::memcpy(d + a, s + a, (size_t)(b - a));
  }
}

// Uniform doubles in [-1, 1) (floats for the scan: small integers, so sums are exact), per block seeded.
void fill(unsigned char* p, size_t bytes, bool floats, uint64_t seed) {
  const int64_t blocks = 1024;
  const size_t elem = floats ? sizeof(float) : sizeof(double), count = bytes / elem;
  const int64_t per = (int64_t)((count + blocks - 1) / blocks);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < blocks; ++k) {
    std::mt19937_64 g(seed * 1000003 + (uint64_t)k);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int64_t i = k * per; i < std::min<int64_t>((int64_t)count, (k + 1) * per); ++i) {
      if (floats) reinterpret_cast<float*>(p)[i] = (float)std::floor(u(g) * 8);
      else reinterpret_cast<double*>(p)[i] = u(g);
    }
  }
}

enum Kind { kGeev, kHseqr, kHeev, kScan };
struct Spec {
  Kind kind;
  int n;
  int64_t batch;
  bool vectors;
  const char* label;
};

// The operands of a spec: [0] the matrices (input), then the outputs.
std::vector<Op*> make_ops(const Spec& s, bool pinned) {
  const size_t nn = (size_t)s.n * s.n, b = (size_t)s.batch;
  std::vector<Op*> ops;
  switch (s.kind) {
    case kGeev:
      ops = {new Op(8 * nn * b, true, false, pinned), new Op(8 * s.n * b, false, true, pinned),
             new Op(8 * s.n * b, false, true, pinned), new Op(4 * b, false, true, pinned)};
      if (s.vectors) ops.push_back(new Op(8 * nn * b, false, true, pinned));
      break;
    case kHseqr:
      ops = {new Op(8 * nn * b, true, true, pinned), new Op(8 * s.n * b, false, true, pinned),
             new Op(8 * s.n * b, false, true, pinned), new Op(4 * b, false, true, pinned),
             new Op(8 * nn * b, false, true, pinned)};
      break;
    case kHeev:
      ops = {new Op(16 * nn * b, true, s.vectors, pinned), new Op(8 * s.n * b, false, true, pinned),
             new Op(4 * b, false, true, pinned)};
      break;
    case kScan:
      ops = {new Op(4 * nn, true, false, pinned), new Op(4 * nn, false, true, pinned)};
      break;
  }
  Op& a = *ops[0];
  fill(a.p, a.bytes, s.kind == kScan, 1234 + s.n);
  if (s.kind == kHseqr)  // upper Hessenberg
    for (size_t m = 0; m < b; ++m)
      for (int j = 0; j < s.n; ++j)
        for (int i = j + 2; i < s.n; ++i) reinterpret_cast<double*>(a.p)[m * nn + i + (size_t)j * s.n] = 0;
  if (s.kind == kHeev)  // Hermitian: real diagonal (uplo L reads the lower triangle only)
    for (size_t m = 0; m < b; ++m)
      for (int i = 0; i < s.n; ++i) reinterpret_cast<double*>(a.p)[2 * (m * nn + i + (size_t)i * s.n) + 1] = 0;
  a.orig.assign(a.p, a.p + a.bytes);
  return ops;
}

int call(const Spec& s, sgpu_context_t ctx, std::vector<Op*>& o) {
  const int n = s.n;
  const int64_t nn = (int64_t)n * n;
  auto d = [&](int k) { return reinterpret_cast<double*>(o[k]->p); };
  auto info = [&](int k) { return reinterpret_cast<int*>(o[k]->p); };
  switch (s.kind) {
    case kGeev:
      return sgpu_dgeev_batched(ctx, 'N', s.vectors ? 'V' : 'N', n, d(0), n, nn, d(1), d(2), n, nullptr, 1, 0,
                                s.vectors ? d(4) : nullptr, n, nn, info(3), s.batch);
    case kHseqr:
      return sgpu_dhseqr_batched(ctx, 'S', 'I', n, 1, n, d(0), n, nn, d(1), d(2), n, d(4), n, nn, info(3), s.batch);
    case kHeev:
      return sgpu_zheev_batched(ctx, s.vectors ? 'V' : 'N', 'L', n, reinterpret_cast<sgpu_complex_double*>(d(0)), n,
                                nn, d(1), n, info(2), s.batch);
    case kScan:
      return sgpu_scan_cols(ctx, SGPU_COL_MAJOR, SGPU_R_32F, SGPU_R_32F, n, n, o[0]->p, n, nn, o[1]->p, n, nn, 1);
  }
  return -1;
}

// Best of `reps` timed calls on ctx (inputs restored before each); the outputs are left in ops.
double timed(const Spec& s, sgpu_context_t ctx, std::vector<Op*>& ops, int reps, int* status) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    for (Op* op : ops)
      if (op->input) pcopy(op->p, op->orig.data(), op->bytes);
    const double t0 = now();
    *status = call(s, ctx, ops);
    best = std::min(best, now() - t0);
  }
  return best;
}

bool same_outputs(const Spec& s, const std::vector<Op*>& ops) {
  const bool approx = s.kind == kHeev && s.vectors && s.n >= 100;
  for (size_t k = 0; k < ops.size(); ++k) {
    const Op& op = *ops[k];
    if (!op.output) continue;
    if (approx && k == 0) {
      const double* x = reinterpret_cast<const double*>(op.p);
      const double* y = reinterpret_cast<const double*>(op.saved.data());
      double dmax = 0, ymax = 0;
      for (size_t i = 0; i < op.bytes / 8; ++i) {
        dmax = std::max(dmax, std::fabs(x[i] - y[i]));
        ymax = std::max(ymax, std::fabs(y[i]));
      }
      if (dmax > 1e-12 * ymax) return false;
    } else if (std::memcmp(op.p, op.saved.data(), op.bytes) != 0) {
      return false;
    }
  }
  return true;
}

// The host staging floor of a pageable row: every input byte copied from the user's buffer and
// every output byte into it, by all host threads, with no device involved. Staging moves at least
// these bytes through host memory on any number of devices, so t(1 GPU) / floor bounds the
// speedup a device list can give a row that staging dominates. Best of 3, seconds.
double staging_floor(const std::vector<Op*>& ops) {
  size_t most = 0;
  for (const Op* op : ops) most = std::max(most, op->bytes);
  std::vector<unsigned char> stage(most, 1);
  double best = 1e300;
  for (int r = 0; r < 3; ++r) {
    const double t0 = now();
    for (Op* op : ops) {
      if (op->input) pcopy(stage.data(), op->p, op->bytes);
      if (op->output) pcopy(op->p, stage.data(), op->bytes);
    }
    best = std::min(best, now() - t0);
  }
  return best;
}

// The copy floor of a pinned row on `devices`: every input byte host-to-device and every output
// byte device-to-host, the bytes split evenly over the devices, all copies in flight at once (one
// stream each way per device). Best of 3, seconds; what no pipeline over those links can beat.
double copy_floor(const std::vector<Op*>& ops, const std::vector<int>& devices) {
  struct Dev {
    void* buf = nullptr;
    cudaStream_t up = nullptr, down = nullptr;
  };
  size_t in = 0, out = 0;
  for (const Op* op : ops) {
    if (op->input) in += op->bytes;
    if (op->output) out += op->bytes;
  }
  const size_t D = devices.size();
  std::vector<Dev> dv(D);
  for (size_t k = 0; k < D; ++k) {
    cudaSetDevice(devices[k]);
    if (cudaMalloc(&dv[k].buf, (in + out) / D + 2 * D * 64 + 4096) != cudaSuccess) return -1;
    cudaStreamCreateWithFlags(&dv[k].up, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&dv[k].down, cudaStreamNonBlocking);
  }
  double best = 1e300;
  for (int r = 0; r < 3; ++r) {
    const double t0 = now();
    for (size_t k = 0; k < D; ++k) {
      cudaSetDevice(devices[k]);
      char* dst = static_cast<char*>(dv[k].buf);
      for (const Op* op : ops) {  // device k's share of each operand
        const size_t a = op->bytes * k / D, b = op->bytes * (k + 1) / D;
        if (op->input) cudaMemcpyAsync(dst, op->p + a, b - a, cudaMemcpyHostToDevice, dv[k].up);
        if (op->output) cudaMemcpyAsync(op->p + a, dst, b - a, cudaMemcpyDeviceToHost, dv[k].down);
        dst += b - a;
      }
    }
    for (size_t k = 0; k < D; ++k) {
      cudaSetDevice(devices[k]);
      cudaStreamSynchronize(dv[k].up);
      cudaStreamSynchronize(dv[k].down);
    }
    best = std::min(best, now() - t0);
  }
  for (size_t k = 0; k < D; ++k) {
    cudaSetDevice(devices[k]);
    cudaFree(dv[k].buf);
    cudaStreamDestroy(dv[k].up);
    cudaStreamDestroy(dv[k].down);
  }
  cudaSetDevice(devices[0]);
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    std::printf("no GPU\n");
    return 0;
  }
  std::vector<int> list, rows;
  bool quick = false;
  const char* memory = "";
  int threads = 0;
  auto ints = [](const char* p, std::vector<int>& v) {
    while (*p) {
      v.push_back(std::atoi(p));
      while (*p && *p != ',') ++p;
      if (*p == ',') ++p;
    }
  };
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--devices") && i + 1 < argc) ints(argv[++i], list);
    else if (!std::strcmp(argv[i], "--rows") && i + 1 < argc) ints(argv[++i], rows);
    else if (!std::strcmp(argv[i], "--memory") && i + 1 < argc) memory = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (list.empty())
    for (int d = 0; d < gpus; ++d) list.push_back(d);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, list[0]);
  std::printf("devices: %d x %s (list {", gpus, prop.name);
  for (int d : list) std::printf(" %d", d);
  std::printf(" }), %d host threads (context: %d); ms, best of 3, end to end from host memory\n", omp_get_max_threads(),
              threads);
  sgpu_context_t one = nullptr, many = nullptr;
  sgpu_context_create(&one);
  sgpu_context_set_backend(one, SGPU_BACKEND_GPU);
  sgpu_context_set_device(one, list[0]);
  sgpu_context_create(&many);
  sgpu_context_set_backend(many, SGPU_BACKEND_GPU);
  sgpu_context_set_devices(many, list.data(), (int)list.size());
  sgpu_context_set_num_threads(one, threads);
  sgpu_context_set_num_threads(many, threads);
  const int64_t gb_heev = 1000000000;
  std::vector<Spec> specs = {
      {kGeev, 10, 500000, true, "dgeev N,V"},     {kGeev, 30, 500000, true, "dgeev N,V"},
      {kGeev, 30, 500000, false, "dgeev N,N"},    {kHseqr, 30, 500000, true, "dhseqr S,I"},
      {kHeev, 16, gb_heev / (16 * 16 * 16), true, "zheev V"}, {kHeev, 64, gb_heev / (16 * 64 * 64), true, "zheev V"},
      {kHeev, 256, gb_heev / (16 * 256 * 256), true, "zheev V"}, {kHeev, 64, gb_heev / (16 * 64 * 64), false, "zheev N"},
      {kScan, 32768, 1, false, "scan f32 col"},
  };
  if (quick)
    for (Spec& s : specs) s.batch = std::max<int64_t>(1, s.batch / 10);
  std::printf("| routine | n | batch | memory | 1 GPU (ms) | %zu GPUs (ms) | speedup | copy floor 1 GPU (ms) | copy floor "
              "%zu GPUs (ms) | floor speedup | staging floor (ms) | status | same |\n", list.size(), list.size());
  std::printf("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  for (size_t row = 0; row < specs.size(); ++row) {
    if (!rows.empty() && std::find(rows.begin(), rows.end(), (int)row) == rows.end()) continue;
    const Spec& s = specs[row];
    for (bool pinned : {true, false}) {
      if (*memory && std::strcmp(memory, pinned ? "pinned" : "pageable")) continue;
      std::vector<Op*> ops = make_ops(s, pinned);
      int st1 = 0, st2 = 0;
      const double t1 = timed(s, one, ops, 3, &st1);
      for (Op* op : ops)
        if (op->output) op->saved.assign(op->p, op->p + op->bytes);
      const double t2 = timed(s, many, ops, 3, &st2);
      const bool ok = same_outputs(s, ops);
      const double f1 = pinned ? copy_floor(ops, {list[0]}) : -1, f2 = pinned ? copy_floor(ops, list) : -1;
      const double fs = pinned ? -1 : staging_floor(ops);
      char floors[128] = "- | - | - | -";
      if (f1 > 0 && f2 > 0) std::snprintf(floors, sizeof floors, "%.1f | %.1f | %.2f | -", 1e3 * f1, 1e3 * f2, f1 / f2);
      if (fs > 0) std::snprintf(floors, sizeof floors, "- | - | - | %.1f", 1e3 * fs);
      std::printf("| %s | %d | %lld | %s | %.1f | %.1f | %.2f | %s | %d / %d | %s |\n", s.label, s.n,
                  (long long)s.batch, pinned ? "pinned" : "pageable", 1e3 * t1, 1e3 * t2, t1 / t2, floors, st1, st2,
                  ok ? "yes" : "NO");
      std::fflush(stdout);
      for (Op* op : ops) delete op;
    }
  }
  sgpu_context_destroy(one);
  sgpu_context_destroy(many);
  return 0;
}
