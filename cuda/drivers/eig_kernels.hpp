// Which kernel family serves an eigensolver job on device memory (eig_kernels.cpp), and what it
// needs.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

#include "kernels/eig_job.hpp"
#include "kernels/heev_block.hpp"
#include "stream/cache.hpp"

namespace sgpu {
namespace gpu {

// zheev's device workspace as a lane's state (stream/cache.hpp): the block path's, and the team
// path's records between its stages (mapping fresh memory for those each call cost 32 V 1.7 ms).
struct HeevState : stream::LaneState {
  heev_block::Workspace* ws = heev_block::workspace_new();  // nullptr when out of host memory
  ~HeevState() override { heev_block::workspace_delete(ws); }
  void trim(size_t max_bytes) override { heev_block::workspace_trim(ws, max_bytes); }
};

// zheev at order n takes the block path (one thread block per matrix).
bool heev_block_path(int n);
// ... and its eigenvalues come from kernels/heev_values (in a call of call_batch matrices).
bool heev_values_path(int n, int64_t call_batch);

// Enqueues j (device pointers) on lane l's stream s (l's kernel state: zheev's
// workspace): dgeev/dhseqr on the shared-memory teams, or one warp per matrix where a slot does
// not fit; zheev on its shared-memory teams, the global-memory teams or the block path by order.
// 0 or SGPU_ERR_*.
int enqueue_eig(const EigJob& j, cudaStream_t s, stream::Lane& l);

// Device workspace the kernels take for a job: `fixed` bytes whatever the batch (the warp paths:
// at least one block's), plus `per_matrix` for each matrix of a launch (zheev's block path). The
// drivers size their pieces with it under a device-memory limit.
struct WorkspaceNeed {
  int64_t fixed = 0, per_matrix = 0;
};
WorkspaceNeed workspace_need(const EigJob& j);

}  // namespace gpu
}  // namespace sgpu
