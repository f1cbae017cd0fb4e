// The generic team path on global memory (eig_warp.cu): the drivers' view of it.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

#include "kernels/eig_job.hpp"

namespace sgpu {
namespace gpu {
namespace eig_warp {

// dhseqr and dgeev (j.geev), one block per matrix, or for dgeev (warp) one warp per matrix:
// enqueues j (device pointers) on s, with a stream-ordered workspace (freed behind the kernel)
// within j.ws_limit. 0 or SGPU_ERR_*.
int eig(const EigJob& j, bool warp, cudaStream_t s);
// Device workspace bytes eig() takes at least (one block's), whatever the batch.
int64_t eig_workspace(const EigJob& j, bool warp);

// zheev (j.heev, n <= 32) on teams of P lanes, 32 / P matrices per warp; as eig().
int zheev(const EigJob& j, cudaStream_t s);
int64_t zheev_workspace(int n, bool wantz);

}  // namespace eig_warp
}  // namespace gpu
}  // namespace sgpu
