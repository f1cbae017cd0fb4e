// The register kernels of one mode (dgeev), for every order: eig_reg_kernel.cuh.
#define SGPU_EIG_REG_INSTANTIATE
#include "kernels/eig_reg_kernel.cuh"

namespace sgpu {
namespace gpu {
namespace eig_reg {
template Kernel kernel_for<true>(int);
}  // namespace eig_reg
}  // namespace gpu
}  // namespace sgpu
