// Device teams for the numerical core: P consecutive lanes of a warp share one matrix
// (P a power of two <= 32; seed 000's SWB assignment with p threads per matrix). Same interface
// as core::TeamOne.
#pragma once
#include "core/defs.hpp"

namespace sgpu {
namespace cuda {

template <int P>
struct WarpTeam {
  static_assert(P >= 1 && P <= 32 && (P & (P - 1)) == 0, "P must be a power of two <= 32");
  unsigned mask;  // the lanes of this team
  int rank;       // 0..P-1
  __device__ static WarpTeam make() {
    const int lane = threadIdx.x & 31;
    const unsigned group = (P == 32) ? 0xffffffffu : (((1u << P) - 1u) << (lane & ~(P - 1)));
    return WarpTeam{group, lane & (P - 1)};
  }
  __device__ int first(int lo) const { return lo + rank; }
  __device__ int step() const { return P; }
  __device__ bool owns(int lo, int i) const { return i >= lo && ((i - lo) & (P - 1)) == rank; }
  __device__ bool leader() const { return rank == 0; }
  // A team of one lane has nothing to wait for; a one-lane __syncwarp would still split the warp
  // (each lane its own convergence barrier), which the P = 1 kernels measured (docs/performance.md).
  __device__ void sync() const {
    if (P > 1) __syncwarp(mask);
  }
  __device__ double sum(double x) const {
    for (int o = P / 2; o > 0; o /= 2) x += __shfl_xor_sync(mask, x, o, P);
    return x;
  }
  __device__ double max(double x) const {
    for (int o = P / 2; o > 0; o /= 2) x = fmax(x, __shfl_xor_sync(mask, x, o, P));
    return x;
  }
};

// Sum over a full warp; the same bits in every lane (the butterfly adds the same pairs in each).
__device__ __forceinline__ double warp_sum(double x) {
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

// The whole block as a core team: scalar work redundant in every thread, reductions in a fixed
// order (lanes by butterfly, then warps 0, 1, ...), so every thread gets the same bits.
struct BlockTeam {
  double* red;  // one double per warp (two for sum2), shared
  __device__ int first(int lo) const { return lo + (int)threadIdx.x; }
  __device__ int step() const { return (int)blockDim.x; }
  __device__ bool owns(int lo, int i) const { return i >= lo && (i - lo) % (int)blockDim.x == (int)threadIdx.x; }
  __device__ bool leader() const { return threadIdx.x == 0; }
  __device__ void sync() const { __syncthreads(); }
  __device__ double sum(double x) const {
    x = warp_sum(x);
    return combine(x, false);
  }
  __device__ double max(double x) const {
    for (int o = 16; o > 0; o /= 2) x = fmax(x, __shfl_xor_sync(0xffffffffu, x, o));
    return combine(x, true);
  }
  // Two sums in one exchange (a complex value's parts), each the bits sum() gives it; red holds
  // two doubles a warp here.
  __device__ void sum2(double& a, double& b) const {
    const int nw = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32;
    a = warp_sum(a);
    b = warp_sum(b);
    __syncthreads();  // red is free: every thread has read the previous reduction
    if ((threadIdx.x & 31) == 0) {
      red[2 * warp] = a;
      red[2 * warp + 1] = b;
    }
    __syncthreads();
    double sa = red[0], sb = red[1];
    for (int w = 1; w < nw; ++w) {
      sa += red[2 * w];
      sb += red[2 * w + 1];
    }
    a = sa;
    b = sb;
  }
  __device__ double combine(double x, bool is_max) const {
    const int nw = (int)blockDim.x / 32;
    __syncthreads();  // red is free: every thread has read the previous reduction
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = x;
    __syncthreads();
    double s = red[0];
    for (int w = 1; w < nw; ++w) s = is_max ? fmax(s, red[w]) : s + red[w];
    return s;
  }
};

// Warps [base/32, (base + size)/32) of a block as a core team, synchronized by the named barrier
// `bar` (1..15; 0 is __syncthreads): a block split into groups that run independent pieces side
// by side (zheev's divide and conquer). No reductions: the pieces it runs need none.
struct WarpGroupTeam {
  int base, size, bar;
  __device__ int first(int lo) const { return lo + (int)threadIdx.x - base; }
  __device__ int step() const { return size; }
  __device__ bool owns(int lo, int i) const { return i >= lo && (i - lo) % size == (int)threadIdx.x - base; }
  __device__ bool leader() const { return (int)threadIdx.x == base; }
  __device__ void sync() const { asm volatile("barrier.sync %0, %1;" ::"r"(bar), "r"(size) : "memory"); }
};

}  // namespace cuda
}  // namespace sgpu
