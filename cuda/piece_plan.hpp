// How one device's share of a streamed call (cuda/eig_pipeline.cu) is cut into pieces. Pure host
// code, tested on the CPU (tests/test_piece_plan.cpp).
//
// A pipeline of pieces (copy in -> kernels -> copy out) keeps the GPU's kernels busy only between
// its fill (the first piece's input copy, with no kernel to overlap it) and its drain (the last
// piece's output copy). Both last one piece's copy time, so a tapered share begins and ends with
// pieces of a quarter and a half of the nominal size: the kernels start after a quarter of the
// copy and the last copy out is a quarter as long. On 2 x H200 a full piece of zheev V n = 16
// (8192 matrices) takes 0.62 ms in and 0.65-0.7 ms out against 12-13 ms of kernels a device, so
// fill and drain looked like a tenth of the two-device time. Measured, tapering did not shorten
// that call and cost dgeev n = 10 2-4%, so it is off by default (kTaper in eig_pipeline.cu;
// docs/performance.md, "Several GPUs: enqueue without waiting").
#pragma once
#include <cstdint>
#include <vector>

namespace sgpu {
namespace gpu {

// Matrices [b0, b0 + nb) of the batch.
struct Span {
  int64_t b0 = 0, nb = 0;
};

// Shares of at least this many nominal pieces are tapered; a shorter one would only gain pieces.
constexpr int64_t kTaperMinPieces = 4;

// Matrices [m0, m1) in pieces of at most `per` (>= 1), in order, covering the range exactly.
// Untapered: pieces of `per` from m0, the last one short. Tapered (when the share spans at least
// kTaperMinPieces pieces and per >= 4): per/4, per/2, then pieces of equal size within one matrix
// (at most per each), then per/2, per/4.
inline std::vector<Span> plan_share(int64_t m0, int64_t m1, int64_t per, bool taper) {
  std::vector<Span> out;
  const int64_t m = m1 - m0;
  if (m <= 0 || per <= 0) return out;
  int64_t at = m0;
  auto push = [&](int64_t nb) {
    out.push_back(Span{at, nb});
    at += nb;
  };
  if (!taper || per < 4 || m < kTaperMinPieces * per) {
    while (at < m1) push(m1 - at < per ? m1 - at : per);
    return out;
  }
  const int64_t q = per / 4, h = per / 2;
  const int64_t middle = m - 2 * (q + h);  // >= 2.5 per
  const int64_t count = (middle + per - 1) / per;
  push(q);
  push(h);
  for (int64_t i = 0; i < count; ++i) push(middle * (i + 1) / count - middle * i / count);
  push(h);
  push(q);
  return out;
}

}  // namespace gpu
}  // namespace sgpu
