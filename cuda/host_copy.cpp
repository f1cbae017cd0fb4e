// Host-side copies of the streamed pipelines (eig_pipeline.cu): pageable user memory to and from
// pinned staging buffers, split over the host cores (one core copies about 10 GB/s, less than a
// PCIe 5 link moves; seed 000 §2's overlap needs the staging to keep up with the link).
#include <omp.h>

#include <cstdlib>
#include <cstring>

#include "host_copy.hpp"

namespace sgpu {
namespace gpu {
namespace hostcopy {

namespace {

// Bytes a copying thread takes at a time, handed out dynamically: a thread the OS preempts (several
// devices' pipelines copy at once, and their CUDA threads wait beside them) then delays the copy by
// one chunk, not by its whole static share. 0: equal static shares. SGPU_HOSTCOPY_CHUNK overrides.
// Measured on 2 x H200 (51e89fe, docs/performance.md "Several GPUs"): 1 MB and 256 KB chunks were
// within run-to-run noise of static shares on the pageable rows, so static stays the default.
constexpr size_t kChunkBytes = 0;

size_t chunk_bytes() {
  static const size_t v = [] {
    const char* e = std::getenv("SGPU_HOSTCOPY_CHUNK");
    return e ? (size_t)std::strtoull(e, nullptr, 10) : kChunkBytes;
  }();
  return v;
}

}  // namespace

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
  const size_t chunk = chunk_bytes();
  const bool packed = dpitch == width && spitch == width;
  if (chunk > 0 && nt > 1) {
    if (packed) {
      const int64_t parts = (int64_t)((total + chunk - 1) / chunk);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
      for (int64_t k = 0; k < parts; ++k) {
        const size_t lo = chunk * (size_t)k, hi = lo + chunk < total ? lo + chunk : total;
        std::memcpy(d + lo, s + lo, hi - lo);
      }
    } else {
      const int64_t per = chunk / width > 0 ? (int64_t)(chunk / width) : 1;  // rows a chunk
      const int64_t parts = (rows + per - 1) / per;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
      for (int64_t k = 0; k < parts; ++k)
        for (int64_t r = k * per; r < rows && r < (k + 1) * per; ++r)
          std::memcpy(d + (size_t)r * dpitch, s + (size_t)r * spitch, width);
    }
    return;
  }
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
