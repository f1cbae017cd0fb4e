// Device teams for the numerical core: P consecutive lanes of a warp share one matrix
// (P a power of two <= 32; seed 000's SWB assignment with p threads per matrix). Same interface
// as core::TeamOne.
#pragma once
#include "../compat/core/defs.hpp"

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
  __device__ void sync() const { __syncwarp(mask); }
  __device__ double sum(double x) const {
    for (int o = P / 2; o > 0; o /= 2) x += __shfl_xor_sync(mask, x, o, P);
    return x;
  }
  __device__ double max(double x) const {
    for (int o = P / 2; o > 0; o /= 2) x = fmax(x, __shfl_xor_sync(mask, x, o, P));
    return x;
  }
};

}  // namespace cuda
}  // namespace sgpu
