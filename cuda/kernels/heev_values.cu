// zheev's eigenvalues where inverse iteration takes them from a separate kernel (the block path's
// register reduction at 33-64, the team path's stages at 9-32), from the tridiagonal of each
// matrix's record, in one of two ways by order (tuning::kHeevValuesWarpMinN):
//  - Below tuning::kHeevValuesWarpMinN, one thread a matrix runs core::stebz_sterf. dsterf's chain
//    is about n^2 dependent steps, which inside a matrix's block or team would hold its other
//    threads idle; one thread a matrix keeps the arithmetic at the chain's and puts a batch's
//    matrices side by side instead. A thread's eigenvalues, e's working copy and the order live in
//    shared memory, interleaved across the block's threads (element i of thread t at i T + t: a
//    warp's accesses to one element fall in distinct banks); d and e are read from the record.
//  - From it, a warp a matrix runs core::stebz (dstebz's bisection, each lane two eigenvalues
//    side by side): some 25 times dsterf's arithmetic, but no chain, where one thread a matrix
//    left a batch of a few thousand matrices (a streamed piece) with about one warp an SM, its
//    time the chain's latency (2.4 ms at n = 64 on the H200); below that order the extra
//    arithmetic costs more than the latency it hides. d, e, the eigenvalues and the order
//    live in the warp's part of shared memory; every lane reads the same d and e (a broadcast).
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

// Warps a block of the bisection kernel: one matrix each.
constexpr int kWarpsPerBlock = 4;

// Shared doubles a warp: d, e, the eigenvalues (n each), the order (n ints).
__host__ __device__ inline int64_t warp_smem_doubles(int n) { return 3 * (int64_t)n + (n + 1) / 2; }

// Writes what a record's eigenvalues w (as stebz leaves them) and order give: for inverse
// iteration into the record, else the matrix's eigenvalues ascending, unscaled, and info 0.
__global__ void __launch_bounds__(32 * kWarpsPerBlock) k_heev_values_warp(const Args g) {
  extern __shared__ double sm[];
  const int n = g.n, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t b = (int64_t)blockIdx.x * kWarpsPerBlock + warp;
  if (b >= g.batch) return;  // the whole warp: its matrix is absent
  const cuda::WarpTeam<32> t = cuda::WarpTeam<32>::make();
  double* rec = g.rec + b * record_doubles(n);
  double* w = g.w + b * g.sW;
  if (rec[record_bad(n)] != 0.0) {
    if (!g.wantz) {
      for (int i = lane; i < n; i += 32) w[i] = NAN;
      if (lane == 0) g.info[b] = n;
    }
    return;
  }
  double* own = sm + warp * warp_smem_doubles(n);
  for (int i = lane; i < 2 * n; i += 32) own[i] = rec[i];  // d, then e (the last unused)
  t.sync();
  const Vec1<double> d{own, 1}, e{own + n, 1}, wv{own + 2 * n, 1};
  const Vec1<int> order{reinterpret_cast<int*>(own + 3 * n), 1};
  core::stebz<2>(t, n, d, e, wv, order);
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
  const bool by_warp = n >= tuning::kHeevValuesWarpMinN;
  const int per_block = by_warp ? kWarpsPerBlock : kThreads;
  const size_t shmem = sizeof(double) * (size_t)(by_warp ? warp_smem_doubles(n) : smem_doubles(n)) * per_block;
  if (smem_slots::allow_max_smem(by_warp ? k_heev_values_warp : k_heev_values) != 0) return SGPU_ERR_DEVICE;
  const int64_t most = (int64_t)INT_MAX * per_block;
  for (int64_t b0 = 0; b0 < batch; b0 += most) {
    const int64_t nb = batch - b0 < most ? batch - b0 : most;
    const Args g{wantz, n, rec + b0 * record_doubles(n), w + b0 * strideW, strideW, info + b0, nb};
    const unsigned blocks = (unsigned)((nb + per_block - 1) / per_block);
    if (by_warp) k_heev_values_warp<<<blocks, 32 * kWarpsPerBlock, shmem, s>>>(g);
    else k_heev_values<<<blocks, kThreads, shmem, s>>>(g);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  return 0;
}

}  // namespace heev_values
}  // namespace gpu
}  // namespace sgpu
