// The GPU-only tests' checks (test_gpu_seam, test_eig_stream): count every check, print each
// failure, carry on; main returns failures ? 1 : 0.
#pragma once
#include <cstdio>

static int failures = 0, checks = 0;
#define EXPECT(c, ...)                   \
  do {                                   \
    ++checks;                            \
    if (!(c)) {                          \
      ++failures;                        \
      std::printf("FAIL: " __VA_ARGS__); \
      std::printf("\n");                 \
    }                                    \
  } while (0)
#define CUDA_OK(x) EXPECT((x) == cudaSuccess, "%s", #x)
