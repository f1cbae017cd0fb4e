// Parallel host copies for the streaming engine (host_copy.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace sgpu {
namespace gpu {
namespace hostcopy {

// `rows` rows of `width` bytes from src (rows spitch bytes apart) to dst (dpitch apart), over
// `threads` host threads (0: OpenMP's default; copies under 1 MB on one thread).
void copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, int64_t rows, int threads);

// Host threads for each of `shares` pipelines copying at once (several devices): the context's
// count (0: OpenMP's default) divided among them, at least one each; `threads` itself for one.
int share_threads(int threads, int shares);

}  // namespace hostcopy
}  // namespace gpu
}  // namespace sgpu
