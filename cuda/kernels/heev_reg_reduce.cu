// zheev's phase 1 at the block path's orders up to 128: the launch of heev_reg_reduce.cuh's kernel
// in the geometry tuning::kHeevRegReduce gives each order.
#include <cuda_runtime.h>

#include <climits>

#include "backend.hpp"
#include "device/fault.hpp"
#include "kernels/heev_reg_reduce.cuh"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace heev_reg_reduce {

namespace {

using Kernel = void (*)(const Args);

// The geometry by order (tuning.hpp's kHeevRegReduce rows).
constexpr int kRows = sizeof tuning::kHeevRegReduce / sizeof tuning::kHeevRegReduce[0];
static_assert(kRows == 5, "one kernel a row of tuning::kHeevRegReduce");
constexpr const tuning::HeevRegReduceRow& row(int i) { return tuning::kHeevRegReduce[i]; }
constexpr int rows_of(int i) { return (row(i).n + row(i).tr - 1) / row(i).tr; }
constexpr int cols_of(int i) { return (row(i).n + row(i).tc - 1) / row(i).tc; }
template <int I>
constexpr Kernel kernel() {
  return k_reg_reduce<row(I).tr, row(I).tc, rows_of(I), cols_of(I), row(I).blocks_per_sm, row(I).shared_cols>;
}
template <int I>
constexpr size_t smem_bytes() {
  return Part<row(I).tr * row(I).tc, rows_of(I), cols_of(I), row(I).shared_cols>::smem_bytes();
}
constexpr Kernel kKernels[kRows] = {kernel<0>(), kernel<1>(), kernel<2>(), kernel<3>(), kernel<4>()};
constexpr size_t kSmem[kRows] = {smem_bytes<0>(), smem_bytes<1>(), smem_bytes<2>(), smem_bytes<3>(), smem_bytes<4>()};

}  // namespace

bool serves(int n) { return n >= 2 && n <= row(kRows - 1).n; }

int launch(bool lower, int n, const void* A, int lda, int64_t strideA, double* rec, void* V, int64_t batch,
           cudaStream_t s) {
  if (!serves(n)) return SGPU_ERR_DEVICE;
  int i = 0;
  while (n > row(i).n) ++i;
  // The kernel allows its dynamic shared memory: with its static vectors it may pass the default
  // 48 KB even where the dynamic part alone does not (64's 48 KB). Not smem_slots::allow_max_smem's
  // whole opt-in, which would leave no room for the static part.
  if (kSmem[i] > 0 &&
      cudaFuncSetAttribute(kKernels[i], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmem[i]) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  const Args g{lower, n, static_cast<const zc*>(A), lda, strideA, rec, static_cast<zc*>(V)};
  for (int64_t b0 = 0; b0 < batch; b0 += INT_MAX) {
    const int64_t nb = batch - b0 < INT_MAX ? batch - b0 : INT_MAX;
    Args gb = g;
    gb.A += b0 * strideA;
    gb.rec += b0 * record_doubles(n);
    if (gb.V) gb.V += b0 * (int64_t)n * n;
    kKernels[i]<<<(unsigned)nb, row(i).tr * row(i).tc, kSmem[i], s>>>(gb);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  return 0;
}

}  // namespace heev_reg_reduce
}  // namespace gpu
}  // namespace sgpu
