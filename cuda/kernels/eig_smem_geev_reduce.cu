// dgeev with vectors, the phase kReduce (core::geev_reduce), for every team size: eig_smem_kernel.cuh.
#define SGPU_EIG_SMEM_INSTANTIATE
#include "kernels/eig_smem_kernel.cuh"

namespace sgpu {
namespace gpu {
namespace eig_smem {
template PhaseKernel phase_kernel_for_lanes<kReduce>(int);
}  // namespace eig_smem
}  // namespace gpu
}  // namespace sgpu
