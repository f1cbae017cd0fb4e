// How a streamed call is cut (stream/engine.cpp and its clients). Pure host code, tested on the
// CPU (tests/test_piece_plan.cpp).
#pragma once
#include <cstdint>

namespace sgpu {
namespace gpu {

// Matrices [b0, b0 + nb) of the batch.
struct Span {
  int64_t b0 = 0, nb = 0;
};

// Piece i of a batch of `batch` matrices cut `per` (>= 1) at a time, in order, the last one short.
// (Tapered cuts, a quarter and a half piece at each end to shorten the pipeline's fill and drain,
// measured no faster: docs/tuning.md, "Pieces".)
inline Span piece_span(int64_t i, int64_t per, int64_t batch) {
  const int64_t b0 = i * per;
  return Span{b0, batch - b0 < per ? batch - b0 : per};
}

// The first piece of device slot k of `devices` (k = devices: the end): contiguous runs of
// pieces, as equal as whole pieces allow.
inline int64_t share_first(int64_t pieces, int k, int devices) { return pieces * k / devices; }

}  // namespace gpu
}  // namespace sgpu
