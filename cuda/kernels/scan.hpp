// The column scan's kernels (scan.cu): the drivers' view of them.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "backend.hpp"

namespace sgpu {
namespace gpu {
namespace scan {

// The look-back state of the chained kernels (kernels/scan_chain.cuh) on one stream: flags and
// tile sums grow with the largest call; the ticket counter and the epoch run on across calls, so
// a call needs no reset. Kept between calls by the driver (one per lane).
struct State {
  int device = -1;
  unsigned* flags = nullptr;
  size_t flag_cap = 0;
  void* vals = nullptr;
  size_t val_cap = 0;
  unsigned long long* counter = nullptr;
  unsigned long long next = 0;
  unsigned epoch = 0;
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() { free_all(); }
  // Room for `tiles` flags and `vbytes` of tile sums on device dev (current), then a fresh
  // epoch; 0 or SGPU_ERR_*.
  int prepare(int dev, size_t tiles, size_t vbytes, cudaStream_t s);
  void free_all();
  size_t bytes() const;  // device bytes held

 private:
  int fail_alloc();
};

// Enqueues the scan of a (device pointers; kind[] not read) on stream s of the current device,
// with state st used on s only. 0 or SGPU_ERR_*.
int enqueue(State& st, cudaStream_t s, const args::ScanCols& a);

}  // namespace scan
}  // namespace gpu
}  // namespace sgpu
