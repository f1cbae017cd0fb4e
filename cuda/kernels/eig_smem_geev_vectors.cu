// The shared-memory kernels of one mode (kGeevVectors), for every team size: eig_smem_kernel.cuh.
#define SGPU_EIG_SMEM_INSTANTIATE
#include "kernels/eig_smem_kernel.cuh"

namespace sgpu {
namespace gpu {
namespace eig_smem {
template Kernel kernel_for_lanes<kGeevVectors>(int);
}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
