// SGPU_BACKEND in the environment (any case) sets the backend of the default context and of new
// contexts, and SGPU_VERBOSE logs each call's choice and names an illegal argument. Usage: test_env EXPECTED (auto|cpu|gpu); CTest runs it
// under each setting. A forced GPU on a machine without one answers SGPU_ERR_NO_BACKEND. Two calls
// on host data: one 2 x 2 matrix (the CPU under AUTO), then 65 536 of 8 x 8 (the GPU under AUTO
// where there is one: lib/auto_model.hpp; the log says which).
#include <strings.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "sgpu.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const sgpu_backend_t want = !strcasecmp(argv[1], "cpu")   ? SGPU_BACKEND_CPU
                              : !strcasecmp(argv[1], "gpu") ? SGPU_BACKEND_GPU
                                                            : SGPU_BACKEND_AUTO;
  int bad = 0;
  sgpu_backend_t got;
  sgpu_context_t mine;
  if (sgpu_context_get_backend(nullptr, &got) != 0 || got != want) ++bad, std::printf("FAIL: default context %d\n", got);
  sgpu_context_create(&mine);
  if (sgpu_context_get_backend(mine, &got) != 0 || got != want) ++bad, std::printf("FAIL: new context %d\n", got);
  sgpu_context_destroy(mine);
  double a[4] = {2, 0, 0, 3}, wr[2], wi[2];
  int info = -1;
  int st = sgpu_dgeev_batched(nullptr, 'N', 'N', 2, a, 2, 4, wr, wi, 2, nullptr, 1, 0, nullptr, 1, 0, &info, 1);
  const bool gpu_forced_without_gpu = want == SGPU_BACKEND_GPU && sgpu_gpu_count() == 0;
  if (gpu_forced_without_gpu ? st != SGPU_ERR_NO_BACKEND : st != 0)
    ++bad, std::printf("FAIL: dgeev on the default context returned %d\n", st);
  else if (st == 0 && (wr[0] != 2 || wr[1] != 3 || wi[0] != 0 || wi[1] != 0 || info != 0))
    ++bad, std::printf("FAIL: dgeev of diag(2, 3) gave %g %g\n", wr[0], wr[1]);
  const int n = 8;
  const int64_t batch = 65536;
  std::vector<double> big((size_t)batch * n * n, 0.0), br((size_t)batch * n), bi(br.size());
  std::vector<int> binfo(batch, -7);
  for (int64_t b = 0; b < batch; ++b)
    for (int k = 0; k < n; ++k) big[(size_t)b * n * n + k + (size_t)k * n] = (double)(k + 1);  // diag(1..8)
  st = sgpu_dgeev_batched(nullptr, 'N', 'N', n, big.data(), n, (int64_t)n * n, br.data(), bi.data(), n, nullptr, 1, 0,
                          nullptr, 1, 0, binfo.data(), batch);
  if (gpu_forced_without_gpu ? st != SGPU_ERR_NO_BACKEND : st != 0) {
    ++bad, std::printf("FAIL: dgeev of %lld matrices returned %d\n", (long long)batch, st);
  } else if (st == 0) {
    int64_t wrong = 0;
    for (int64_t b = 0; b < batch; ++b) {
      double sum = 0;  // the eigenvalues of diag(1..8), in any order
      for (int k = 0; k < n; ++k) sum += br[(size_t)b * n + k] + 100 * std::abs(bi[(size_t)b * n + k]);
      wrong += binfo[b] != 0 || sum != 36;
    }
    if (wrong) ++bad, std::printf("FAIL: %lld of %lld diagonal matrices wrong\n", (long long)wrong, (long long)batch);
  }
  // An illegal argument: -4, and under SGPU_VERBOSE a line naming it (CTest's regex checks it).
  st = sgpu_dgeev_batched(nullptr, 'N', 'N', -1, big.data(), 1, 0, br.data(), bi.data(), 0, nullptr, 1, 0, nullptr, 1,
                          0, binfo.data(), 1);
  if (st != -4) ++bad, std::printf("FAIL: n = -1 returned %d\n", st);
  std::printf("test_env (%s): %s\n", argv[1], bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
