// How one device's share of a streamed call (cuda/eig_pipeline.cu) is cut into pieces. Pure host
// code, tested on the CPU (tests/test_piece_plan.cpp).
#pragma once
#include <cstdint>
#include <vector>

namespace sgpu {
namespace gpu {

// Matrices [b0, b0 + nb) of the batch.
struct Span {
  int64_t b0 = 0, nb = 0;
};

// Matrices [m0, m1) in pieces of `per` (>= 1) from m0, in order, the last one short: covering the
// range exactly. (Tapered shares, a quarter and a half piece at each end to shorten the pipeline's
// fill and drain, measured no faster: docs/tuning.md, "Pieces".)
inline std::vector<Span> plan_share(int64_t m0, int64_t m1, int64_t per) {
  std::vector<Span> out;
  if (m1 <= m0 || per <= 0) return out;
  for (int64_t at = m0; at < m1; at += per) out.push_back(Span{at, m1 - at < per ? m1 - at : per});
  return out;
}

}  // namespace gpu
}  // namespace sgpu
