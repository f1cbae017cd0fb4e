// dgeev with vectors, the phase kVectors (core::geev_vectors), for every team size: eig_smem_kernel.cuh.
#define SGPU_EIG_SMEM_INSTANTIATE
#include "kernels/eig_smem_kernel.cuh"

namespace sgpu {
namespace gpu {
namespace eig_smem {
template PhaseKernel phase_kernel_for_lanes<kVectors>(int);
}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
