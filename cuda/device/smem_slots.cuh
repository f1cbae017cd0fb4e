// Pieces shared by the kernels that hold each matrix in a shared-memory slot of its team
// (eig_smem.cu for dhseqr/dgeev, heev_team.cu for small zheev): the warp's coalesced copy between
// the caller's matrices and its slots, and the choice of warps per block.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace sgpu {
namespace gpu {
namespace smem_slots {

// Copies cnt matrices of rows x cols doubles between global memory (element (r, c) of matrix b at
// g[b*sg + r + c*ldg]) and the warp's slots (s[b*slot + r + c*lds]): consecutive lanes on
// consecutive elements, so packed data is read and written coalesced.
template <bool kToShared>
__device__ __forceinline__ void warp_copy(int lane, int cnt, int rows, int cols, double* g, int64_t ldg, int64_t sg,
                                          double* s, int lds, int64_t slot) {
  const int per = rows * cols, total = cnt * per;
  for (int k = lane; k < total; k += 32) {
    const int b = k / per, e = k - b * per, c = e / rows, r = e - c * rows;
    double* gp = g + b * sg + r + (int64_t)c * ldg;
    double* sp = s + b * slot + r + (int64_t)c * lds;
    if (kToShared) *sp = *gp;
    else *gp = *sp;
  }
}

// Raises kernel k's dynamic shared memory limit to the current device's opt-in maximum. The limit
// is a property of the kernel, shared by every host thread: set per call to the call's need, a
// call that lowered it between another call's set and launch made that launch fail (found by
// test_concurrency on the H100). Always the same value, so concurrent calls agree. 0 or -1.
template <class Kernel>
int allow_max_smem(Kernel k) {
  int dev = 0, optin = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return 0;
}

// Warps per block for a kernel whose warps each need warp_bytes of shared memory, min_warps to
// max_warps (fewer only where no block of min_warps fits): the most warps resident per SM. Shared
// memory bounds the residents and is handed out in whole blocks, so smaller blocks can waste less
// of it (dgeev n = 15 on the H100: blocks of 4 warps leave 60 of 228 KB unused, blocks of 2 warps
// fit 10 warps instead of 8). Raises the kernel's dynamic shared memory limit (allow_max_smem).
// 0 or -1 (a CUDA call failed, or no block fits).
struct Shape {
  int warps = 0;           // per block
  int blocks_per_sm = 0;   // resident
  size_t smem = 0;         // bytes per block
};
template <class Kernel>
int block_shape(Kernel k, size_t warp_bytes, int max_warps, Shape& out, int min_warps = 1) {
  if (allow_max_smem(k) != 0) return -1;
  int best_w = 0, best_occ = 0;
  auto search = [&](int lo, int hi) {
    for (int w = lo; w <= hi; ++w) {
      int occ = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, 32 * w, warp_bytes * w) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
      }
      if (occ * w >= best_occ * best_w) {
        best_w = w;
        best_occ = occ;
      }
    }
    return 0;
  };
  min_warps = min_warps < max_warps ? min_warps : max_warps;
  if (search(min_warps, max_warps) != 0) return -1;
  if (best_occ < 1 && search(1, min_warps - 1) != 0) return -1;
  if (best_occ < 1) return -1;
  out.warps = best_w;
  out.blocks_per_sm = best_occ;
  out.smem = warp_bytes * best_w;
  return 0;
}

}  // namespace smem_slots
}  // namespace gpu
}  // namespace sgpu
