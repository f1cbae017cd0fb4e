// How many matrices of a call on device data failed (info != 0), counted on the device, so that
// only the count crosses to the host (info_count.cu).
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace info_count {

constexpr int kMaxBlocks = 64;  // partial counts a launch writes at most

// Enqueues on s the count of info[0..batch) != 0: `blocks` partial counts into partials[], which
// lies in pinned host memory (kMaxBlocks entries) that the kernel writes directly; once s is
// synchronized, total() adds them. 0 or SGPU_ERR_DEVICE.
int launch(const int* info, int64_t batch, int64_t* partials, int& blocks, cudaStream_t s);
int64_t total(const int64_t* partials, int blocks);

}  // namespace info_count
}  // namespace gpu
}  // namespace sgpu
