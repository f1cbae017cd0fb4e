// zheev at the smallest orders, one thread a matrix: each warp copies its 32 matrices into shared
// memory with all 32 lanes on consecutive elements (smem_slots.cuh), each lane takes its matrix
// from its slot into registers (the uplo triangle read, mirrored), runs the cyclic Jacobi method
// (heev_jacobi_thread.hpp) and, with vectors, puts them back through its slot the same way.
#include <cuda_runtime.h>

#include <climits>

#include "backend.hpp"
#include "device/fault.hpp"
#include "device/smem_slots.cuh"
#include "kernels/heev_jacobi.hpp"
#include "kernels/heev_jacobi_thread.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace heev_jacobi {

namespace {

using core::zc;

struct Args {
  bool lower;
  double* A;  // complex, as pairs of doubles
  int64_t lda, sA;  // in complex elements
  double* w;
  int64_t sW;
  int* info;
  int64_t batch;
};

// Warps a block: static shared memory (48 KB) holds their 32 slots each.
template <int N>
constexpr int kWarps = N <= 4 ? 4 : N <= 6 ? 2 : 1;

// A lane's slot: 2 N^2 + 1 doubles (odd, so that the lanes' same elements fall in distinct banks):
// the matrix in, then the vectors, which the iteration updates there.
template <int N, bool kWantz>
__global__ void __launch_bounds__(32 * kWarps<N>) k_heev_jacobi(const Args g) {
  constexpr int kSlot = 2 * N * N + 1;
  __shared__ double sm[kWarps<N>][32 * kSlot];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t b0 = ((int64_t)blockIdx.x * kWarps<N> + warp) * 32;
  if (b0 >= g.batch) return;  // the whole warp: no warp-wide operation skipped by part of it
  const int cnt = g.batch - b0 < 32 ? (int)(g.batch - b0) : 32;
  double* s = sm[warp];
  smem_slots::warp_copy<true>(lane, cnt, 2 * N, N, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, s, 2 * N, kSlot);
  __syncwarp();
  zc a[N][N];
  double w[N];
  zc* m = reinterpret_cast<zc*>(s + lane * kSlot);  // 8-byte aligned: zc's alignment
  if (lane < cnt) {
#pragma unroll
    for (int c = 0; c < N; ++c)
#pragma unroll
      for (int r = 0; r < N; ++r)
        a[r][c] = (g.lower ? r >= c : r <= c) ? m[r + c * N] : core::conj(m[c + r * N]);
    // The vectors in the lane's slot, which the matrix has left for registers.
    const int info = heev_into<N, kWantz>(a, w, SlotVectors<N>{m});
    g.info[b0 + lane] = info;
#pragma unroll
    for (int j = 0; j < N; ++j) g.w[(b0 + lane) * g.sW + j] = w[j];
  }
  if (!kWantz) return;
  __syncwarp();
  smem_slots::warp_copy<false>(lane, cnt, 2 * N, N, g.A + 2 * b0 * g.sA, 2 * g.lda, 2 * g.sA, s, 2 * N, kSlot);
}

template <int N>
int launch_n(bool wantz, const Args& g, cudaStream_t s) {
  if constexpr (N > tuning::kHeevJacobiMaxN) {
    return SGPU_ERR_DEVICE;  // not built
  } else {
    constexpr int threads = 32 * kWarps<N>;
    constexpr int64_t kMaxBatch = (int64_t)INT_MAX * threads;
    for (int64_t b0 = 0; b0 < g.batch; b0 += kMaxBatch) {
      Args c = g;
      c.A += 2 * b0 * g.sA;
      c.w += b0 * g.sW;
      c.info += b0;
      c.batch = g.batch - b0 < kMaxBatch ? g.batch - b0 : kMaxBatch;
      const unsigned grid = (unsigned)((c.batch + threads - 1) / threads);
      if (wantz)
        k_heev_jacobi<N, true><<<grid, threads, 0, s>>>(c);
      else
        k_heev_jacobi<N, false><<<grid, threads, 0, s>>>(c);
      if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
    }
    return 0;
  }
}

static_assert(tuning::kHeevJacobiMaxN >= 0 && tuning::kHeevJacobiMaxN <= 8, "heev_jacobi builds orders 1-8");

}  // namespace

bool serves(int n) { return n >= 1 && n <= tuning::kHeevJacobiMaxN; }

int launch(bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w, int64_t strideW, int* info,
           int64_t batch, cudaStream_t s) {
  if (batch == 0) return 0;
  const Args g{lower, static_cast<double*>(A), lda, strideA, w, strideW, info, batch};
  switch (n) {
    case 1: return launch_n<1>(wantz, g, s);
    case 2: return launch_n<2>(wantz, g, s);
    case 3: return launch_n<3>(wantz, g, s);
    case 4: return launch_n<4>(wantz, g, s);
    case 5: return launch_n<5>(wantz, g, s);
    case 6: return launch_n<6>(wantz, g, s);
    case 7: return launch_n<7>(wantz, g, s);
    case 8: return launch_n<8>(wantz, g, s);
    default: return SGPU_ERR_DEVICE;
  }
}

}  // namespace heev_jacobi
}  // namespace gpu
}  // namespace sgpu
