// SGPU_BACKEND in the environment sets the backend of the default context and of new contexts,
// and SGPU_VERBOSE logs each call's choice. Usage: test_env EXPECTED (auto|cpu|gpu); CTest runs it
// under each setting. A forced GPU on a machine without one answers SGPU_ERR_NO_BACKEND.
#include <cstdio>
#include <cstring>

#include "sgpu.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const sgpu_backend_t want = !std::strcmp(argv[1], "cpu")   ? SGPU_BACKEND_CPU
                              : !std::strcmp(argv[1], "gpu") ? SGPU_BACKEND_GPU
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
  if (gpu_forced_without_gpu ? st != SGPU_ERR_NO_BACKEND : (want != SGPU_BACKEND_GPU && st != 0))
    ++bad, std::printf("FAIL: dgeev on the default context returned %d\n", st);
  std::printf("test_env (%s): %s\n", argv[1], bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
