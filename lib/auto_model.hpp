// AUTO's size model for host data: whether the GPU backend, copies included, is measured faster
// than the CPU backend for a call of this routine, order and batch on this many host threads.
// Pure (no CUDA, no state), so CI tests it on machines without a GPU (tests/test_auto_model.cpp).
//
// The crossovers below are the smallest batches from which the forced GPU backend, end to end
// from pageable host memory, beat the forced CPU backend at every larger batch measured, batches
// growing by 4x (sgpu_auto_bench with 16 host threads: an H200 up to order 64, 128 for zheev; an
// H100 above, where the GPU runs one block per matrix; docs/performance.md, "AUTO for host data",
// has the tables, their dates, commits and commands). Where the two were within 10% at every batch
// from some point on, the CPU keeps the order. At orders 4-32 both take 0.1-4 ms at the crossover:
// the GPU's fixed cost (launches, two copies, a synchronization) is what the CPU has to exceed.
// Other orders take the row of the largest measured order below them; orders below the first row
// (4) or above the last measured one, and the scan, stay on the CPU.
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

// dgeev N,V (every jobvl/jobvr takes it). From n = 320 the block path's lead is gone (320: level
// at 64 and 256 matrices; 384 and 448: the CPU ahead at 64; 512: 2x ahead at 64).
constexpr Crossover kDgeev[] = {{4, 4096}, {8, 1024}, {16, 1024}, {32, 256}, {64, 256}, {128, 256}, {256, 64}, {320, kNever}};
constexpr int kDgeevLast = 512;
// dhseqr S,I (every job/compz takes it). 384: level at 64 (the last batch within 256 MB); 448 and
// 512: the CPU 2-4x ahead at 64.
constexpr Crossover kDhseqr[] = {{4, 4096}, {8, 1024}, {16, 256}, {32, 256}, {64, 64}, {128, 64}, {256, 64}, {320, 256}, {384, kNever}};
constexpr int kDhseqrLast = 512;
// zheev jobz V and jobz N (the GPU from one matrix at every order measured from 128 with vectors;
// without, from 4 at 256 and from one at 512).
constexpr Crossover kZheevV[] = {{4, 1024}, {8, 1024}, {16, 256}, {32, 256}, {64, 4}, {128, 1}};
constexpr Crossover kZheevN[] = {{4, 1024}, {8, 1024}, {16, 1024}, {32, 256}, {64, 64}, {256, 4}, {512, 1}};
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
