// The dhseqr, dgeev and zheev GPU driver (eig_pipeline.cu): where the operands are decides how a call runs.
#pragma once
#include "eig_smem.hpp"
#include "heev_block.hpp"

struct sgpu_context;

namespace sgpu {
namespace gpu {
namespace eig_pipeline {

// Runs job j (its pointers as the caller gave them) on ctx's device:
//  - every operand in device (or managed) memory: in place, ordered on the context's stream (zheev's
//    block path in pieces on the pipeline's streams, forked from it and joined back);
//  - every operand in host memory, matrices packed with a leading dimension (stride == ld * n):
//    streamed in pieces over several streams, copies overlapped with the kernels;
//  - otherwise: staged whole through device buffers (the seam's with_device_operands).
// Returns the number of matrices with info != 0, or SGPU_ERR_*.
int run(sgpu_context* ctx, const eig_smem::Job& j);

// Frees the streams and buffers a context caches for the pipeline.
void release(sgpu_context* ctx);

}  // namespace eig_pipeline

// The generic warp path (eig_warp.cu) for orders whose slots do not fit in shared memory:
// enqueues j on s (device pointers). 0 or SGPU_ERR_*.
int generic_eig(const eig_smem::Job& j, cudaStream_t s);

// Device workspace the kernels take for a job (eig_warp.cu): `fixed` bytes whatever the batch
// (the warp paths: at least one block's), plus `per_matrix` for each matrix of a launch (zheev's
// block path). The pipeline sizes its pieces with it under a device-memory limit.
struct WorkspaceNeed {
  int64_t fixed = 0, per_matrix = 0;
};
WorkspaceNeed workspace_need(const eig_smem::Job& j);

// zheev's kernels (eig_warp.cu): enqueues j (j.heev, device pointers) on s: the team kernels for
// n <= 32, the block path (heev_block.cu) above, with workspace blk (kept by the caller, used on s
// only). 0 or SGPU_ERR_*.
int heev_enqueue(const eig_smem::Job& j, cudaStream_t s, heev_block::Workspace* blk);

}  // namespace gpu
}  // namespace sgpu
