// How sgpu_scan_cols's host operands are cut into pieces for the streaming engine
// (stream/engine.hpp; drivers/scan.cpp). The pieces are independent; each is rows of a 2-D copy,
// so only matrix entries are touched (the gaps between columns and between matrices are never
// written). Pieces:
//  - packed batches (stride == ld * lines for A and B): runs of whole matrices, one 2-D copy each;
//  - otherwise matrices of at least a piece: column-major, runs of columns; row-major, runs of
//    columns too (all rows of a column range: the scan runs down the rows, the range across).
//    Smaller unpacked matrices are staged whole (StreamPlan::ok false).
// Each lane has its own look-back state (tickets are counted per stream).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "device/dev_setting.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace scanstream {

constexpr int kStreams = tuning::kStreams;
// Input bytes per piece: tuning::kScanPieceBytes; the developer setting SGPU_SCAN_PIECE_BYTES
// overrides it (the GPU test sets it small, so that its shapes are cut).
inline int64_t piece_bytes() {
  static const int64_t v = [] {
    const char* e = dev::setting("SGPU_SCAN_PIECE_BYTES");
    const long long x = e ? std::atoll(e) : 0;
    return x >= 64 ? (int64_t)x : tuning::kScanPieceBytes;
  }();
  return v;
}

// Under a device-memory limit (bytes per call and device; sgpu_context_set_device_memory_limit):
// each of the kStreams lanes gets a third, of which kStateReserve and 40% of the rest are left for
// its look-back state (flags and tile sums: at most about a third of a piece's output), the rest
// for the piece's buffers. Returns the input bytes a piece may take (0: the limit leaves none).
constexpr int64_t kStateReserve = int64_t(128) << 10;
inline int64_t piece_within(int64_t limit, size_t sin, size_t sout, bool shared) {
  const int64_t lane = limit / kStreams - kStateReserve;
  if (lane <= 0) return 0;
  const int64_t buffers = lane * 6 / 10;
  const int64_t ratio_num = shared ? (int64_t)std::max(sin, sout) : (int64_t)(sin + sout);
  return buffers * (int64_t)sin / ratio_num;
}

struct Piece {
  int64_t b0, nb;      // matrices
  int64_t line0, nl;   // lines (storage columns) of each matrix
  int64_t e0, ne;      // elements along each line
};

// The cut of one call. `rows`/`lines`: storage shape of a matrix (contiguous extent, count).
struct StreamPlan {
  bool ok = false;
  bool packed = false;
  int64_t per = 0;       // matrices per piece (packed) or lines/elements per piece
  int64_t pieces = 0;
  int64_t rows = 0, lines = 0;
  bool row_major = false;
  int64_t max_in = 0, max_out = 0;  // device buffer bytes

  // piece: input bytes a piece aims at (0: piece_bytes()).
  StreamPlan(bool rm, int m, int n, int lda, int64_t sA, int ldb, int64_t sB, int64_t batch, size_t sin, size_t sout,
             int64_t piece = 0)
      : rows(rm ? n : m), lines(rm ? m : n), row_major(rm) {
    const int64_t mat = rows * lines * (int64_t)sin;
    const int64_t pb = piece > 0 ? piece : piece_bytes();
    packed = batch == 1 || (sA == (int64_t)lda * lines && sB == (int64_t)ldb * lines);
    if (packed && mat < pb) {
      per = std::max<int64_t>(1, pb / std::max<int64_t>(mat, 1));
      pieces = (batch + per - 1) / per;
      max_in = std::min(per, batch) * mat;
      max_out = max_in / (int64_t)sin * (int64_t)sout;
      ok = true;
      return;
    }
    packed = false;
    if (mat < pb) return;  // small unpacked matrices: staged whole instead
    if (!rm) {  // runs of columns
      per = std::max<int64_t>(1, pb / (rows * (int64_t)sin));
      pieces = batch * ((lines + per - 1) / per);
      max_in = std::min(per, lines) * rows * (int64_t)sin;
      max_out = std::min(per, lines) * rows * (int64_t)sout;
    } else {  // runs of columns of a row-major matrix: all rows, `per` elements of each (x16)
      per = std::max<int64_t>(16, pb / (lines * (int64_t)sin) / 16 * 16);
      pieces = batch * ((rows + per - 1) / per);
      max_in = std::min(per, rows) * lines * (int64_t)sin;
      max_out = std::min(per, rows) * lines * (int64_t)sout;
    }
    ok = true;
  }

  // Device bytes of one lane: its piece buffers (one when in place).
  int64_t lane_bytes(bool shared) const { return shared ? std::max(max_in, max_out) : max_in + max_out; }

  Piece piece(int64_t i, int64_t batch) const {
    if (packed) return Piece{i * per, std::min(per, batch - i * per), 0, lines, 0, rows};
    const int64_t along = row_major ? rows : lines, per_mat = (along + per - 1) / per;
    const int64_t b = i / per_mat, k = i % per_mat, lo = k * per, cnt = std::min(per, along - lo);
    if (!row_major) return Piece{b, 1, lo, cnt, 0, rows};
    return Piece{b, 1, 0, lines, lo, cnt};
  }
};

}  // namespace scanstream
}  // namespace gpu
}  // namespace sgpu
