// zheev's eigenvalues where inverse iteration takes them from a separate kernel (the block path's
// register reduction at 33-128, the team path's stages at 9-32), from the tridiagonal of each
// matrix's record, in one of two ways by order (tuning::kHeevValuesBlockMinN):
//  - Below it, one thread a matrix runs core::stebz_sterf. dsterf's chain is about n^2 dependent
//    steps, which inside a matrix's block or team would hold its other threads idle; one thread a
//    matrix keeps the arithmetic at the chain's and puts a batch's matrices side by side instead.
//    A thread's eigenvalues, e's working copy and the order live in shared memory, interleaved
//    across the block's threads (element i of thread t at i T + t: a warp's accesses to one
//    element fall in distinct banks); d and e are read from the record.
//  - From it, a block a matrix runs core::stebz (dstebz's bisection), one eigenvalue a thread
//    (n rounded up to whole warps): some 25 times dsterf's arithmetic, but no chain. Each count is
//    a chain of n divisions, so what hides its latency is how many eigenvalues an SM narrows side
//    by side: a thread each puts a streamed piece's (a few thousand matrices') every eigenvalue in
//    flight at once, where a warp a matrix (two eigenvalues a lane side by side) ran a quarter of
//    them at n = 128 and walked the rest one after another. d, e, the eigenvalues and the order
//    live in the block's shared memory; every thread reads the same d and e (a broadcast).
#include <cuda_runtime.h>

#include <climits>

#include "core/bisect.hpp"
#include "core/stein.hpp"
#include "backend.hpp"
#include "device/fault.hpp"
#include "device/smem_slots.cuh"
#include "device/team.cuh"
#include "kernels/heev_reg_reduce.hpp"
#include "kernels/heev_values.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace heev_values {

namespace {

using core::Vec1;
using heev_reg_reduce::record_bad;
using heev_reg_reduce::record_doubles;
using heev_reg_reduce::record_order;
using heev_reg_reduce::record_sigma;
using heev_reg_reduce::record_w;

// Threads a block: one warp, so that a batch of a few thousand matrices still spreads over every SM.
constexpr int kThreads = 32;

struct Args {
  bool wantz;
  int n;
  double* rec;
  double* w;
  int64_t sW;
  int* info;
  int64_t batch;
};

// Shared doubles a thread: the eigenvalues and e's copy (n each), the order (n ints).
__host__ __device__ inline int64_t smem_doubles(int n) { return 2 * (int64_t)n + (n + 1) / 2; }

__global__ void __launch_bounds__(kThreads) k_heev_values(const Args g) {
  extern __shared__ double sm[];
  constexpr int T = kThreads;  // the stride of a thread's arrays, known to the compiler
  const int n = g.n, tid = threadIdx.x;
  const int64_t b = (int64_t)blockIdx.x * T + tid;
  if (b >= g.batch) return;
  double* rec = g.rec + b * record_doubles(n);
  double* w = g.w + b * g.sW;
  if (rec[record_bad(n)] != 0.0) {
    if (!g.wantz) {
      for (int i = 0; i < n; ++i) w[i] = NAN;
      g.info[b] = n;
    }
    return;
  }
  const Vec1<double> wv{sm + tid, T}, ework{sm + (int64_t)n * T + tid, T};
  const Vec1<int> order{reinterpret_cast<int*>(sm + 2 * (int64_t)n * T) + tid, T};
  core::stebz_sterf(n, Vec1<double>{rec, 1}, Vec1<double>{rec + n, 1}, wv, order, ework);
  if (g.wantz) {
    for (int i = 1; i <= n; ++i) {
      rec[record_w(n) + i - 1] = wv[i];
      rec[record_order(n) + i - 1] = (double)order[i];
    }
  } else {
    const double sigma = rec[record_sigma(n)];
    for (int i = 1; i <= n; ++i) {
      const double x = wv[order[i]];
      w[i - 1] = sigma != 1.0 ? x / sigma : x;
    }
    g.info[b] = 0;
  }
}

static_assert(tuning::kHeevRegReduce[sizeof(tuning::kHeevRegReduce) / sizeof(tuning::kHeevRegReduce[0]) - 1].n <=
                  tuning::kHeevValuesBlockMaxN,
              "the bisection kernel's block covers the register reduction's largest order");

// Threads a block of the bisection kernel: n rounded up to whole warps (an eigenvalue a thread).
__host__ __device__ inline int block_threads(int n) { return (n + 31) / 32 * 32; }

// Shared doubles a block: d, e, the eigenvalues (n each), the order (n ints).
__host__ __device__ inline int64_t block_smem_doubles(int n) { return 3 * (int64_t)n + (n + 1) / 2; }

// Writes what a record's eigenvalues w (as stebz leaves them) and order give: for inverse
// iteration into the record, else the matrix's eigenvalues ascending, unscaled, and info 0.
__global__ void __launch_bounds__(tuning::kHeevValuesBlockMaxN) k_heev_values_block(const Args g) {
  extern __shared__ double sm[];
  const int n = g.n;
  const int64_t b = blockIdx.x;
  const cuda::BlockTeam t{nullptr};  // stebz takes no reductions
  double* rec = g.rec + b * record_doubles(n);
  double* w = g.w + b * g.sW;
  if (rec[record_bad(n)] != 0.0) {
    if (!g.wantz) {
      for (int i = t.first(0); i < n; i += t.step()) w[i] = NAN;
      if (t.leader()) g.info[b] = n;
    }
    return;
  }
  for (int i = t.first(0); i < 2 * n; i += t.step()) sm[i] = rec[i];  // d, then e (the last unused)
  t.sync();
  const Vec1<double> d{sm, 1}, e{sm + n, 1}, wv{sm + 2 * n, 1};
  const Vec1<int> order{reinterpret_cast<int*>(sm + 3 * n), 1};
  core::stebz<1>(t, n, d, e, wv, order);
  if (g.wantz) {
    for (int i = t.first(1); i <= n; i += t.step()) {
      rec[record_w(n) + i - 1] = wv[i];
      rec[record_order(n) + i - 1] = (double)order[i];
    }
  } else {
    const double sigma = rec[record_sigma(n)];
    for (int i = t.first(1); i <= n; i += t.step()) {
      const double x = wv[order[i]];
      w[i - 1] = sigma != 1.0 ? x / sigma : x;
    }
    if (t.leader()) g.info[b] = 0;
  }
}

}  // namespace

int launch(bool wantz, int n, double* rec, double* w, int64_t strideW, int* info, int64_t batch, cudaStream_t s) {
  if (n >= tuning::kHeevValuesBlockMinN) {
    if (n > tuning::kHeevValuesBlockMaxN) return SGPU_ERR_DEVICE;  // the block's eigenvalue a thread
    const size_t shmem = sizeof(double) * (size_t)block_smem_doubles(n);
    for (int64_t b0 = 0; b0 < batch; b0 += INT_MAX) {
      const int64_t nb = batch - b0 < INT_MAX ? batch - b0 : INT_MAX;
      const Args g{wantz, n, rec + b0 * record_doubles(n), w + b0 * strideW, strideW, info + b0, nb};
      k_heev_values_block<<<(unsigned)nb, block_threads(n), shmem, s>>>(g);
      if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
    }
    return 0;
  }
  const size_t shmem = sizeof(double) * (size_t)smem_doubles(n) * kThreads;
  if (smem_slots::allow_max_smem(k_heev_values) != 0) return SGPU_ERR_DEVICE;
  const int64_t most = (int64_t)INT_MAX * kThreads;
  for (int64_t b0 = 0; b0 < batch; b0 += most) {
    const int64_t nb = batch - b0 < most ? batch - b0 : most;
    const Args g{wantz, n, rec + b0 * record_doubles(n), w + b0 * strideW, strideW, info + b0, nb};
    k_heev_values<<<(unsigned)((nb + kThreads - 1) / kThreads), kThreads, shmem, s>>>(g);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  return 0;
}

}  // namespace heev_values
}  // namespace gpu
}  // namespace sgpu
