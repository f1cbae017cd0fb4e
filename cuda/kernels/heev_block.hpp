// zheev's block-per-matrix GPU path (heev_block.cu): the drivers' view of it.
#pragma once
#include <stdint.h>

#include <cuda_runtime.h>

namespace sgpu {
namespace gpu {
namespace heev_block {

// Orders it serves; below kMinN the warp path (eig_warp.cu) is used. Chosen by measurement:
// docs/performance.md, "zheev on the GPU".
// At n = 32 the block path wins only small batches (jobz V, 3906 matrices: 5.0 against 7.3-7.7 ms,
// the team path's 1953 warps underfill 132 SMs), the team path large ones (61035: 73.3 against
// 86.7 ms); the benchmark's large batches decide (H100, docs/performance.md).
constexpr int kMinN = 33;
constexpr int kMaxN = 1024;  // its shared vectors (about 23 n doubles) fit the 227 KB of an H100 block
bool serves(int n);
// Whether its eigenvalues come from heev_values (a thread or a block a matrix after the register
// reduction) for order n in a call of call_batch matrices: that launch takes the dsterf chain's or
// the bisection's latency however few its matrices, so streamed pieces want many.
bool values_kernel(int n, int64_t call_batch);

// Device workspace (and the cuBLAS handle of phase 3) kept between launches on one stream: the
// context's own for device data, one per pipeline lane for streamed host data.
struct Workspace;
Workspace* workspace_new();  // nullptr when out of host memory
void workspace_delete(Workspace* ws);

// Device workspace bytes one matrix of order n takes (on the current device) in a call of
// call_batch matrices (as enqueue); 0 on a CUDA error.
int64_t workspace_per_matrix(bool wantz, int n, int64_t call_batch);
// Frees ws's device buffer when it holds more than max_bytes (its stream must be idle).
void workspace_trim(Workspace* ws, size_t max_bytes);
// ws's device buffer grown to at least `bytes`, in *p (for zheev's other kernels that keep their
// workspace between calls): a buffer too small is freed and made anew only after stream s, which
// may still use it, has finished. 0 or SGPU_ERR_DEVICE(_ALLOC).
int workspace_reserve(Workspace* ws, size_t bytes, cudaStream_t s, void** p);

// Enqueues the whole batch (device pointers) on stream st with workspace ws, grown as needed
// (asynchronous; per-matrix info written on the device). ws stays in use until st passes this
// point; a launch that must grow it waits for st first. max_ws (0: none) bounds the workspace:
// the batch goes in chunks that fit, SGPU_ERR_DEVICE_ALLOC when one matrix does not. call_batch:
// the whole call's matrices, of which this batch may be a piece (the reduction's
// form depends on it, and must not depend on the piece: eigenvalues bitwise the same with and
// without vectors, whose calls are cut differently). 0 or SGPU_ERR_*.
int enqueue(Workspace* ws, cudaStream_t st, bool wantz, bool lower, int n, void* A, int lda, int64_t strideA,
            double* w, int64_t strideW, int* info, int64_t batch, int64_t call_batch, size_t max_ws);

}  // namespace heev_block
}  // namespace gpu
}  // namespace sgpu
