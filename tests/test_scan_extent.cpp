// sgpu_scan_cols at the largest legal extents: one row of n = INT_MAX - 10 columns (column-major,
// ld = 1) and one of n = INT_MAX - 10 elements (row-major), R_8U -> R_32U, so that every output
// element is its own input and must be written (the poison 0xFFFFFFFF is no uint8 sum). A is 2 GB
// of untouched anonymous memory (zeros that take no physical pages), B 8.6 GB: its own CTest
// entry, run alone.
#include <sys/mman.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "sgpu.h"

int main(int argc, char** argv) {
  const bool gpu = argc > 2 && !std::strcmp(argv[1], "--backend") && !std::strcmp(argv[2], "gpu");
  std::printf("test_scan_extent: backend %s\n", gpu ? "gpu" : "cpu");
  if (gpu && sgpu_gpu_count() == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  sgpu_context_t ctx;
  if (sgpu_context_create(&ctx) || sgpu_context_set_backend(ctx, gpu ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU)) return 1;
  const int n = INT_MAX - 10;
  void* am = mmap(nullptr, (size_t)n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  const uint8_t* a = static_cast<const uint8_t*>(am);
  uint32_t* b = static_cast<uint32_t*>(std::malloc(sizeof(uint32_t) * (size_t)n));
  if (am == MAP_FAILED || !b) {
    std::printf("FAIL: cannot allocate %.1f GB of host memory\n", 4.0 * n / 1e9);
    return 1;
  }
  int failures = 0;
  for (int layout : {SGPU_COL_MAJOR, SGPU_ROW_MAJOR}) {
    std::memset(b, 0xFF, sizeof(uint32_t) * (size_t)n);
    const bool rm = layout == SGPU_ROW_MAJOR;
    const int ld = rm ? n : 1;
    const int st = sgpu_scan_cols(ctx, layout, SGPU_R_8U, SGPU_R_32U, 1, n, a, ld, 0, b, ld, 0, 1);
    size_t bad = 0, first = 0;
    for (size_t j = 0; j < (size_t)n; ++j)
      if (b[j] != 0 && bad++ == 0) first = j;
    std::printf("%s: 1 x %d: status %d, %zu of %d elements wrong%s", rm ? "row-major" : "column-major", n, st, bad, n,
                bad ? "" : "\n");
    if (bad) std::printf(" (first at %zu: %u)\n", first, b[first]);
    failures += st != 0 || bad != 0;
  }
  munmap(am, (size_t)n);
  std::free(b);
  sgpu_context_destroy(ctx);
  std::printf("test_scan_extent: %d failures\n", failures);
  return failures ? 1 : 0;
}
