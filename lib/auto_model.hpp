// AUTO's size model for host data: whether the GPU backend, copies included, is measured faster
// than the CPU backend for a call of this routine, order and batch on this many host threads.
// Pure (no CUDA, no state), so CI tests it on machines without a GPU (tests/test_auto_model.cpp).
//
// The crossovers below are the smallest batches from which the forced GPU backend, end to end
// from pageable host memory, beat the forced CPU backend at every larger batch measured, batches
// growing by 4x (an H200 with 16 host threads, sgpu_auto_bench; docs/performance.md, "AUTO for
// host data", has the table, its date, commit and command). At orders 4-32 both take 0.1-4 ms at
// the crossover: the GPU's fixed cost (launches, two copies, a synchronization) is what the CPU
// has to exceed. Other orders take the row of the largest measured order below them; orders below
// the first row (4) or above the last measured one, and the scan, stay on the CPU.
//
// Host threads: the CPU backend's time for a batch well above its thread count falls in
// proportion to the threads, so a crossover measured on 16 scales by threads / 16 (at least 1).
#pragma once
#include <stdint.h>

namespace sgpu {
namespace auto_model {

constexpr int kMeasuredThreads = 16;
constexpr int64_t kNever = -1;

struct Crossover {
  int n;          // measured at this order; taken up to the next row's
  int64_t batch;  // the GPU from this many matrices on (kNever: not within the batches measured)
};

// dgeev N,V (every jobvl/jobvr takes it). n = 256: the CPU stayed ahead up to 16 matrices (the
// sweep's end; 94.2 against 556.7 ms at 16).
constexpr Crossover kDgeev[] = {{4, 4096}, {8, 1024}, {16, 1024}, {32, 256}, {64, 256}, {128, 256}, {256, kNever}};
constexpr int kDgeevLast = 256;
// dhseqr S,I (every job/compz takes it). n = 256 as dgeev's.
constexpr Crossover kDhseqr[] = {{4, 4096}, {8, 1024}, {16, 256}, {32, 256}, {64, 64}, {128, 256}, {256, kNever}};
constexpr int kDhseqrLast = 256;
// zheev jobz V and jobz N (the GPU from one matrix at every order measured from 128 with vectors,
// and at 512 without).
constexpr Crossover kZheevV[] = {{4, 1024}, {8, 1024}, {16, 256}, {32, 256}, {64, 4}, {128, 1}};
constexpr Crossover kZheevN[] = {{4, 1024}, {8, 1024}, {16, 1024}, {32, 256}, {64, 64}, {512, 1}};
constexpr int kZheevLast = 512;

enum class Kind { kDgeev, kDhseqr, kZheevV, kZheevN, kScan };

template <int N>
constexpr int64_t lookup(const Crossover (&rows)[N], int n) {
  int64_t b = kNever;
  for (int k = 0; k < N; ++k)
    if (n >= rows[k].n) b = rows[k].batch;
  return b;
}

// The crossover batch on `threads` host threads for order n (kNever: the CPU backend).
constexpr int64_t crossover(Kind k, int n, int threads) {
  int64_t b = kNever;
  switch (k) {
    case Kind::kDgeev: b = n <= kDgeevLast ? lookup(kDgeev, n) : kNever; break;
    case Kind::kDhseqr: b = n <= kDhseqrLast ? lookup(kDhseqr, n) : kNever; break;
    case Kind::kZheevV: b = n <= kZheevLast ? lookup(kZheevV, n) : kNever; break;
    case Kind::kZheevN: b = n <= kZheevLast ? lookup(kZheevN, n) : kNever; break;
    case Kind::kScan: b = kNever; break;  // from host memory the GPU lost at every size measured
  }
  if (b == kNever) return kNever;
  const int t = threads > 0 ? threads : 1;
  const int64_t scaled = (b * t + kMeasuredThreads - 1) / kMeasuredThreads;
  return scaled > 0 ? scaled : 1;
}

// Whether AUTO sends a host-data call of `batch` matrices of order n to the GPU.
constexpr bool gpu_pays(Kind k, int n, int64_t batch, int threads) {
  const int64_t b = crossover(k, n, threads);
  return b != kNever && batch >= b;
}

}  // namespace auto_model
}  // namespace sgpu
