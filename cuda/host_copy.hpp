// Parallel host copies for the streamed pipelines (host_copy.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace sgpu {
namespace gpu {
namespace hostcopy {

// `rows` rows of `width` bytes from src (rows spitch bytes apart) to dst (dpitch apart), over
// `threads` host threads (0: OpenMP's default; copies under 1 MB on one thread).
void copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, int64_t rows, int threads);

}  // namespace hostcopy
}  // namespace gpu
}  // namespace sgpu
