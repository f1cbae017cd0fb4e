// zheev's block-per-matrix GPU path (heev_block.cu): the drivers' view of it.
#pragma once
#include <stdint.h>

struct sgpu_context;

namespace sgpu {
namespace gpu {
namespace heev_block {

// Orders it serves; below kMinN the warp path (eig_warp.cu) is used. Chosen by measurement:
// docs/performance.md, "zheev on the GPU".
constexpr int kMinN = 33;
// jobz V from n = 32: the team path's n = 32 V takes 7.25-7.67 ms for 3906 matrices against 5.82-5.84
// on the block path (n = 28: team 5.62, block 6.99; H100, docs/performance.md).
constexpr int kMinNVectors = 32;
constexpr int kMaxN = 1024;  // its shared vectors (about 23 n doubles) fit the 227 KB of an H100 block
bool serves(int n, bool wantz);

// Enqueues the whole batch on the context's stream (asynchronous; per-matrix info written on the
// device). 0 or SGPU_ERR_*.
int launch(sgpu_context* ctx, bool wantz, bool lower, int n, void* A, int lda, int64_t strideA, double* w,
           int64_t strideW, int* info, int64_t batch);

// Frees the device workspace a context caches.
void release(sgpu_context* ctx);

}  // namespace heev_block
}  // namespace gpu
}  // namespace sgpu
