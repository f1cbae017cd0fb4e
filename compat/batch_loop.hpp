// The CPU backend's batch loop: OpenMP over matrices, each thread with its own slice of the
// context's cached workspace, info[b] per matrix, the count of matrices with info != 0 returned.
#pragma once
#include <omp.h>

#include <climits>
#include <new>
#include <vector>

#include "../lib/internal.hpp"

namespace sgpu {
namespace cpu {

inline int thread_count(const sgpu_context* ctx, int64_t tasks) {
  int nt = ctx->nthreads > 0 ? ctx->nthreads : omp_get_max_threads();
  if ((int64_t)nt > tasks) nt = (int)tasks;
  return nt < 1 ? 1 : nt;
}

// f(b, work) computes matrix b with `work_per` doubles of workspace and returns its info.
template <class F>
int for_each_matrix(sgpu_context* ctx, int64_t batch, int64_t work_per, int* info, F f) {
  const int nt = thread_count(ctx, batch);
  const size_t need = (size_t)nt * (size_t)(work_per > 0 ? work_per : 1);
  std::unique_lock<std::mutex> lock(ctx->ws_mutex, std::try_to_lock);
  std::vector<double> priv;
  double* ws;
  try {
    if (lock.owns_lock()) {
      if (ctx->ws.size() < need) ctx->ws.resize(need);
      ws = ctx->ws.data();
    } else {
      priv.resize(need);  // another call holds the cached buffer
      ws = priv.data();
    }
  } catch (const std::bad_alloc&) {
    return SGPU_ERR_HOST_ALLOC;
  }
  int64_t failed = 0;
#pragma omp parallel num_threads(nt) reduction(+ : failed)
  {
    double* w = ws + (size_t)omp_get_thread_num() * (size_t)(work_per > 0 ? work_per : 1);
#pragma omp for schedule(dynamic, 8)
    for (int64_t b = 0; b < batch; ++b) {
      int r = f(b, w);
      info[b] = r;
      if (r != 0) ++failed;
    }
  }
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

}  // namespace cpu
}  // namespace sgpu
