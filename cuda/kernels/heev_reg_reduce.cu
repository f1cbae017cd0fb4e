// zheev's phase 1 at the block path's smallest orders: the launch of heev_reg_reduce.cuh's kernel
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
template <int TR, int TC, int MB, int N>
constexpr Kernel kernel() {
  return k_reg_reduce<TR, TC, (N + TR - 1) / TR, (N + TC - 1) / TC, MB>;
}
constexpr int kRows = sizeof tuning::kHeevRegReduce / sizeof tuning::kHeevRegReduce[0];
static_assert(kRows == 3, "one kernel a row of tuning::kHeevRegReduce");
constexpr const tuning::HeevRegReduceRow& row(int i) { return tuning::kHeevRegReduce[i]; }
constexpr Kernel kKernels[kRows] = {
    kernel<row(0).tr, row(0).tc, row(0).blocks_per_sm, row(0).n>(),
    kernel<row(1).tr, row(1).tc, row(1).blocks_per_sm, row(1).n>(),
    kernel<row(2).tr, row(2).tc, row(2).blocks_per_sm, row(2).n>(),
};

}  // namespace

bool serves(int n) { return n >= 2 && n <= row(kRows - 1).n; }

int launch(bool lower, int n, const void* A, int lda, int64_t strideA, double* rec, void* V, int64_t batch,
           cudaStream_t s) {
  if (!serves(n)) return SGPU_ERR_DEVICE;
  int i = 0;
  while (n > row(i).n) ++i;
  const Args g{lower, n, static_cast<const zc*>(A), lda, strideA, rec, static_cast<zc*>(V)};
  for (int64_t b0 = 0; b0 < batch; b0 += INT_MAX) {
    const int64_t nb = batch - b0 < INT_MAX ? batch - b0 : INT_MAX;
    Args gb = g;
    gb.A += b0 * strideA;
    gb.rec += b0 * record_doubles(n);
    if (gb.V) gb.V += b0 * (int64_t)n * n;
    kKernels[i]<<<(unsigned)nb, row(i).tr * row(i).tc, 0, s>>>(gb);
    if (fault::launch_status() != cudaSuccess) return SGPU_ERR_DEVICE;
  }
  return 0;
}

}  // namespace heev_reg_reduce
}  // namespace gpu
}  // namespace sgpu
