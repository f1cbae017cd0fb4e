// The CPU backend's batch loop: OpenMP over matrices, each thread with its own slice of the
// workspace the context caches (lib/cache.hpp), info[b] per matrix, the count of matrices with
// info != 0 returned.
#pragma once
#include <omp.h>

#include <climits>
#include <new>
#include <vector>

#include "backend.hpp"

namespace sgpu {
namespace cpu {

inline int thread_count(const sgpu_context* ctx, int64_t tasks) {
  int nt = ctx->nthreads > 0 ? ctx->nthreads : omp_get_max_threads();
  if ((int64_t)nt > tasks) nt = (int)tasks;
  return nt < 1 ? 1 : nt;
}

// Matrices a thread takes at a time: kMaxChunk to keep the scheduling cost of large batches of
// tiny matrices low, fewer where that would leave threads without work (a batch of 4 on 4 threads
// went to one thread whole: 4x one matrix's time), at least 4 chunks a thread otherwise, so that
// uneven iteration counts even out.
constexpr int64_t kMaxChunk = 8;
inline int64_t chunk_for(int64_t batch, int nt) {
  const int64_t c = batch / (4 * (int64_t)nt);
  return c < 1 ? 1 : c > kMaxChunk ? kMaxChunk : c;
}

// The loop itself: matrix b on thread t with workspace ws + t * work_per.
template <class F>
int run_batch(int nt, int64_t batch, double* ws, int64_t work_per, int* info, F& f) {
  int64_t failed = 0;
  const int64_t chunk = chunk_for(batch, nt);
#pragma omp parallel num_threads(nt) reduction(+ : failed)
  {
    double* w = ws + (size_t)omp_get_thread_num() * (size_t)(work_per > 0 ? work_per : 1);
#pragma omp for schedule(dynamic, chunk)
    for (int64_t b = 0; b < batch; ++b) {
      int r = f(b, w);
      info[b] = r;
      if (r != 0) ++failed;
    }
  }
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

// f(b, work) computes matrix b with `work_per` doubles of workspace and returns its info.
template <class F>
int for_each_matrix(sgpu_context* ctx, int64_t batch, int64_t work_per, int* info, F f) {
  const int nt = thread_count(ctx, batch);
  const size_t need = (size_t)nt * (size_t)(work_per > 0 ? work_per : 1);
  return ctx->cpu_cache.borrow<std::vector<double>>([&](std::vector<double>& cache) {
    try {
      if (cache.size() < need) cache.resize(need);
    } catch (const std::bad_alloc&) {
      return SGPU_ERR_HOST_ALLOC;
    }
    return run_batch(nt, batch, cache.data(), work_per, info, f);
  });
}

}  // namespace cpu
}  // namespace sgpu
