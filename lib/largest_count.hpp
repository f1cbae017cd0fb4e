// The largest sub-batch that fits a budget, shared by the pipelines that split a call under a
// device-memory limit (cuda/drivers/eig.cpp run_staged, cuda/drivers/scan.cpp's staged matrices).
#pragma once
#include <cstdint>

namespace sgpu {

// The largest k in [1, batch] with fits(k), for fits true up to some count and false above it
// (bytes grow with the count): batch when fits(batch), 0 when not even fits(1). Bisection, so a
// span that is not linear in the count (gaps, strides) is measured, not estimated.
template <class Fits>
int64_t largest_count(int64_t batch, Fits fits) {
  if (batch <= 0 || fits(batch)) return batch > 0 ? batch : 0;
  if (!fits(int64_t(1))) return 0;
  int64_t lo = 1, hi = batch;  // fits(lo), !fits(hi)
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace sgpu
