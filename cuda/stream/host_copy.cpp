// Host-side copies of the streaming engine (engine.cpp): pageable user memory to and from
// pinned staging buffers, split over the host cores (one core copies about 10 GB/s, less than a
// PCIe 5 link moves; seed 000 §2's overlap needs the staging to keep up with the link).
#include <omp.h>

#include <cstring>

#include "stream/host_copy.hpp"

namespace sgpu {
namespace gpu {
namespace hostcopy {

int share_threads(int threads, int shares) {
  if (shares <= 1) return threads;
  const int total = threads > 0 ? threads : omp_get_max_threads();
  return total / shares > 1 ? total / shares : 1;
}

void copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, int64_t rows, int threads) {
  if (rows <= 0 || width == 0) return;
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const size_t total = width * (size_t)rows;
  const int nt = total < (size_t(1) << 20) ? 1 : (threads > 0 ? threads : omp_get_max_threads());
  const bool packed = dpitch == width && spitch == width;
  // Equal static shares: dynamic chunks of 256 KB and 1 MB measured within the noise of them
  // (docs/tuning.md, "Host copies").
  if (packed) {  // contiguous: cut into equal parts
    const size_t part = (total + (size_t)nt - 1) / (size_t)nt;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int k = 0; k < nt; ++k) {
      const size_t lo = part * (size_t)k, hi = lo + part < total ? lo + part : total;
      if (lo < hi) std::memcpy(d + lo, s + lo, hi - lo);
    }
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t r = 0; r < rows; ++r) std::memcpy(d + (size_t)r * dpitch, s + (size_t)r * spitch, width);
}

}  // namespace hostcopy
}  // namespace gpu
}  // namespace sgpu
