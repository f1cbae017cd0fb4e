// The streaming engine: host data through the GPU in pieces (seed 000 §2, Table 4.2), for every
// routine. The client (cuda/drivers/eig.cpp, scan.cpp) cuts its call into pieces and says, for
// each operand, which host rows a piece covers; the engine gives piece i lane i % kLanes of its
// device and runs there, on the lane's stream: H2D copies -> the client's kernels -> D2H copies.
// One piece's copies overlap the other pieces' kernels and copies (H2D and D2H run on separate
// copy engines), and device memory stays bounded by kLanes pieces whatever the call's size.
// Pinned host memory is copied by DMA straight from and to the caller's arrays; pageable memory
// goes through the lane's pinned staging buffers, which the host cores fill and drain while the
// GPU works on the other pieces. Only the rows a piece names are written: the gaps between them
// are never touched. Several devices: contiguous runs of pieces, one per slot of the context's
// device list.
#pragma once
#include <cstdint>

#include "stream/cache.hpp"

namespace sgpu {
namespace gpu {
namespace stream {

// One operand of a streamed call.
struct Operand {
  bool used = false, in = false, out = false;
  bool pinned = false;     // page-locked (MemKind::kPinned): DMA straight from and to `host`
  char* host = nullptr;    // its first byte, and the bytes the call spans from there
  size_t span = 0;
  size_t piece_bytes = 0;  // device bytes of the largest piece (a lane's buffer for it)
};

// Piece i of an operand in host memory: `rows` rows of `width` bytes, `pitch` bytes apart, from
// `host`; on the device the rows are packed.
struct Region {
  char* host = nullptr;
  size_t pitch = 0, width = 0;
  int64_t rows = 0;
};

// A client's call.
class Work {
 public:
  int64_t pieces = 0;
  Operand ops[kMaxOperands];
  int nops = 0;
  virtual ~Work() = default;
  // Piece i of operand f.
  virtual Region region(int f, int64_t i) const = 0;
  // Enqueues piece i's kernels on lane l's stream; dev[f] holds operand f's rows of the piece.
  // staged: some operand goes through staging buffers (the host waits for each lane before
  // reusing it). 0 or SGPU_ERR_*.
  virtual int compute(Lane& l, int64_t i, void* const* dev, bool staged) = 0;
};

// Runs every piece of w with the lanes of cache, behind the work already on the context's
// stream; returns when every output is in place: 0 or SGPU_ERR_*. limited (a device-memory limit
// holds): each lane keeps exactly this call's buffers and lane states of at most state_bytes
// (DeviceCache::trim).
int run(sgpu_context* ctx, Cache& cache, Work& w, bool limited, size_t state_bytes);

}  // namespace stream
}  // namespace gpu
}  // namespace sgpu
