// dhseqr, dgeev and zheev on the GPU: the driver between the entry points and the kernels.
//
// Host data is streamed (seed 000 §2, Table 4.2): the batch is cut into pieces of whole matrices;
// piece i of a device's share goes H2D copy -> kernel -> D2H copy on stream i % kStreams, so one
// piece's copies overlap the others' kernels and copies (H2D and D2H run on separate copy
// engines). Device memory stays bounded by kStreams pieces, whatever the batch. Pinned host
// memory is copied by DMA straight from and to the caller's arrays; pageable memory goes through
// pinned staging buffers that the host cores fill and drain while the GPU works on the other
// pieces (SGPU_EIG_PAGEABLE=register pins the caller's arrays instead, for the comparison in
// docs/performance.md). Only matrix entries are written: the gaps between columns and between
// matrices are never touched.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include "../lib/dispatch.hpp"
#include "../lib/largest_count.hpp"
#include "../lib/internal.hpp"
#include "eig_pipeline.hpp"
#include "fault.hpp"
#include "host_copy.hpp"
#include "on_devices.hpp"
#include "piece_plan.hpp"
#include "pipe_trace.hpp"
#include "dev_setting.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace eig_pipeline {

namespace {

using eig_smem::Job;

using tuning::kStreams;

// Matrices per piece (tuning.hpp): kPieceBytes of input, at least kPieceMinMatrices within
// kPieceMaxBytes; the developer setting SGPU_EIG_PIECE_BYTES sets the bytes exactly (the GPU tests
// set it small so that their batches are cut).
int64_t piece_bytes_forced() {
  static const int64_t v = [] {
    const char* e = dev::setting("SGPU_EIG_PIECE_BYTES");
    const long long x = e ? std::atoll(e) : 0;
    return x >= 64 ? (int64_t)x : int64_t(0);
  }();
  return v;
}

// zheev's block path (one thread block per matrix, n >= 33) is compute-bound and needs many
// matrices per launch to fill the GPU (two or four blocks per SM): there the batch is cut into
// rounds of kStreams equal pieces (each piece's copies overlap the other pieces' kernels), as few
// rounds as keep a piece within kBlockPieceMaxBytes of input and within max(kBlockFillMatrices,
// kPieceMaxBytes of) matrices (tuning.hpp).
// (devices: the device slots sharing the pieces; the block path's rounds are of kStreams pieces
// on each.)
int64_t piece_matrices(int64_t batch, int64_t mat_bytes, bool block_path, int devices) {
  mat_bytes = std::max<int64_t>(mat_bytes, 1);
  int64_t per;
  if (const int64_t forced = piece_bytes_forced()) {
    per = forced / mat_bytes;
  } else {
    using namespace tuning;
    per = std::max(kPieceBytes / mat_bytes, std::min(kPieceMinMatrices, kPieceMaxBytes / mat_bytes));
    if (block_path) {
      int64_t most = std::max<int64_t>(1, kBlockPieceMaxBytes / mat_bytes);
      most = std::min(most, std::max(kBlockFillMatrices, kPieceMaxBytes / mat_bytes));
      const int64_t lanes = (int64_t)kStreams * std::max(devices, 1);
      const int64_t rounds = (batch + lanes * most - 1) / (lanes * most);
      per = (batch + lanes * rounds - 1) / (lanes * rounds);
    }
  }
  return std::max<int64_t>(1, std::min(batch, per));
}

// Staged operands (pageable memory) move between the caller's arrays and a lane's staging buffers
// in sub-pieces of about kStageChunkBytes (tuning.hpp): a sub-piece's DMA is queued as soon as the
// host has packed it, and the host unpacks an output sub-piece as soon as its DMA is done, so a
// share's first input and last output are not taken in turn. The developer setting
// SGPU_EIG_STAGE_CHUNK_BYTES sets the bytes (the tests' small pieces are cut too).
int64_t stage_chunk_bytes() {
  static const int64_t v = [] {
    const char* e = dev::setting("SGPU_EIG_STAGE_CHUNK_BYTES");
    const long long x = e ? std::atoll(e) : 0;
    return x >= 1 ? (int64_t)x : tuning::kStageChunkBytes;
  }();
  return v;
}

// Rows of `width` bytes a staged sub-piece holds, of a piece's `rows` (at least one row).
int64_t stage_chunk_rows(size_t width, int64_t rows) {
  const int64_t bytes = stage_chunk_bytes();
  if (bytes <= 0 || width == 0) return std::max<int64_t>(rows, 1);
  return std::max<int64_t>(1, bytes / (int64_t)width);
}

bool register_pageable() {
  static const bool v = [] {
    const char* e = dev::setting("SGPU_EIG_PAGEABLE");
    return e && !std::strcmp(e, "register");
  }();
  return v;
}

// The operands of a job, by name.
enum Field { kA, kWr, kWi, kZ, kVl, kInfo, kFields };

void* get(const Job& j, int f) {
  switch (f) {
    case kA: return j.A;
    case kWr: return j.wr;
    case kWi: return j.wi;
    case kZ: return j.Z;
    case kVl: return j.VL;
    default: return j.info;
  }
}
void set(Job& j, int f, void* p) {
  switch (f) {
    case kA: j.A = static_cast<double*>(p); break;
    case kWr: j.wr = static_cast<double*>(p); break;
    case kWi: j.wi = static_cast<double*>(p); break;
    case kZ: j.Z = static_cast<double*>(p); break;
    case kVl: j.VL = static_cast<double*>(p); break;
    default: j.info = static_cast<int*>(p); break;
  }
}

// One operand as rows of `width` elements, `pitch` apart, `rows_per` rows a matrix.
struct Part {
  bool used = false, in = false, out = false, packable = true;
  size_t elem = sizeof(double);
  int64_t width = 0, pitch = 0, rows_per = 0;
  char* host = nullptr;
  bool pinned = false;
  size_t span = 0;  // bytes the whole batch spans
  int64_t stride = 0, ld = 0, srows = 0, scols = 0;  // its span's shape (span_bytes)
  size_t span_of(int64_t k) const { return span_bytes(k, stride, ld, srows, scols, elem); }
  void set_span(int64_t batch, int64_t stride_, int64_t ld_, int64_t rows, int64_t cols) {
    stride = stride_;
    ld = ld_;
    srows = rows;
    scols = cols;
    span = span_of(batch);
  }
  int64_t device_bytes_per_matrix() const { return rows_per * width * (int64_t)elem; }
};

void describe(const Job& j, Part* p) {
  const int64_t n = j.n;
  if (j.heev) {  // A complex (written back with vectors), w, info
    Part& a = p[kA];
    a.used = a.in = true;
    a.out = j.wantz;
    a.elem = 2 * sizeof(double);
    a.width = n;
    a.pitch = j.lda;
    a.rows_per = n;
    a.packable = j.sA == (int64_t)j.lda * n || j.batch == 1;
    a.set_span(j.batch, j.sA, j.lda, n, n);
    Part& w = p[kWr];
    w.used = w.out = true;
    w.width = n;
    w.pitch = j.sW;
    w.rows_per = 1;
    w.set_span(j.batch, j.sW, n, n, 1);
    Part& q = p[kInfo];
    q.used = q.out = true;
    q.elem = sizeof(int);
    q.width = q.pitch = q.rows_per = 1;
    q.set_span(j.batch, 1, 1, 1, 1);
    for (int f = 0; f < kFields; ++f) p[f].host = static_cast<char*>(get(j, f));
    return;
  }
  // (An output not requested has an unchecked stride: its span is not computed.)
  auto matrix = [&](int f, int ld, int64_t stride, bool in, bool out, bool wanted) {
    Part& q = p[f];
    q.used = wanted && get(j, f) != nullptr;
    if (!q.used) return;
    q.in = in;
    q.out = out;
    q.width = n;
    q.pitch = ld;
    q.rows_per = n;
    q.packable = stride == (int64_t)ld * n || j.batch == 1;
    q.set_span(j.batch, stride, ld, n, n);
  };
  const bool has_z = j.geev ? j.wantvr : j.compz != 0;
  // dgeev's A is not written back (its contents on exit are unspecified, as LAPACK's).
  matrix(kA, j.lda, j.sA, true, !j.geev, true);
  matrix(kZ, j.ldz, j.sZ, !j.geev && j.compz == 2, true, has_z);
  matrix(kVl, j.ldvl, j.sVL, false, true, j.geev && j.wantvl);
  for (int f : {kWr, kWi}) {
    Part& q = p[f];
    q.used = true;
    q.in = false;
    q.out = true;
    q.width = n;
    q.pitch = j.sW;
    q.rows_per = 1;
    q.set_span(j.batch, j.sW, n, n, 1);
  }
  Part& q = p[kInfo];
  q.used = true;
  q.out = true;
  q.elem = sizeof(int);
  q.width = q.pitch = q.rows_per = 1;
  q.set_span(j.batch, 1, 1, 1, 1);
  for (int f = 0; f < kFields; ++f) p[f].host = static_cast<char*>(get(j, f));
}

// A staged output sub-piece: rows [row0, row0 + rows) of operand f in the lane's piece.
struct OutChunk {
  int f = 0;
  int64_t row0 = 0, rows = 0;
};

// Streams, device buffers and pinned staging buffers, kept by a context between calls (they are
// slow to create: cudaMallocHost pins page by page).
struct Lane {
  cudaStream_t s = nullptr;
  void* dev[kFields] = {};
  size_t dev_bytes[kFields] = {};
  void* stage[kFields] = {};
  size_t stage_bytes[kFields] = {};
  heev_block::Workspace* blk = nullptr;  // zheev's block path, used on s only
  int64_t b0 = 0, nb = 0;
  bool busy = false;
  std::vector<OutChunk> out;        // the piece's staged outputs, in the order of their DMAs
  std::vector<cudaEvent_t> copied;  // copied[k]: out[k]'s DMA is done (made as needed, reused)
};
// One device slot's lanes; made and freed on its device.
struct Cache {
  int device = -1;
  Lane lanes[kStreams];
  ~Cache() {
    for (Lane& l : lanes) {
      if (l.s) cudaStreamSynchronize(l.s);
      for (int f = 0; f < kFields; ++f) {
        fault::dev_free(l.dev[f]);
        if (l.stage[f]) cudaFreeHost(l.stage[f]);
      }
      heev_block::workspace_delete(l.blk);
      for (cudaEvent_t e : l.copied) cudaEventDestroy(e);
      if (l.s) cudaStreamDestroy(l.s);
    }
    (void)cudaGetLastError();
  }
};

// Deletes c with its device current (its streams and buffers belong there).
void delete_cache(Cache* c) {
  if (!c) return;
  int prev = -1;
  const bool switched = c->device >= 0 && cudaGetDevice(&prev) == cudaSuccess && prev != c->device &&
                        cudaSetDevice(c->device) == cudaSuccess;
  delete c;
  if (switched) cudaSetDevice(prev);
  (void)cudaGetLastError();
}

// A context's caches, one per slot of its device list (slot k serves devices[k]).
struct Caches {
  Cache* slot[SGPU_MAX_DEVICES] = {};
  ~Caches() {
    for (Cache* c : slot) delete_cache(c);
  }
  // Slot k's cache for `device` (replaced when the slot's device changed); nullptr: out of memory.
  Cache* get(int k, int device) {
    if (slot[k] && slot[k]->device != device) {
      delete_cache(slot[k]);
      slot[k] = nullptr;
    }
    if (!slot[k]) {
      slot[k] = new (std::nothrow) Cache;
      if (slot[k]) slot[k]->device = device;
    }
    return slot[k];
  }
};

// Runs f(caches) with the context's caches when they are free, private ones when another call
// holds them.
template <class F>
int with_cache(sgpu_context* ctx, F f) {
  std::unique_lock<std::mutex> lock(ctx->gpu_mutex, std::try_to_lock);
  Caches priv;
  Caches* caches = &priv;
  if (lock.owns_lock()) {
    if (!ctx->gpu_pipe) ctx->gpu_pipe = new (std::nothrow) Caches;
    if (ctx->gpu_pipe) caches = static_cast<Caches*>(ctx->gpu_pipe);
  }
  return f(*caches);
}

void free_device(Lane& l, int f) {
  fault::dev_free(l.dev[f]);
  l.dev[f] = nullptr;
  l.dev_bytes[f] = 0;
}

int grow_device(Lane& l, int f, size_t bytes) {
  if (l.dev_bytes[f] >= bytes) return 0;
  free_device(l, f);
  if (fault::dev_malloc(&l.dev[f], bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    l.dev[f] = nullptr;
    return SGPU_ERR_DEVICE_ALLOC;
  }
  l.dev_bytes[f] = bytes;
  return 0;
}
int grow_stage(Lane& l, int f, size_t bytes) {
  if (l.stage_bytes[f] >= bytes) return 0;
  if (l.stage[f]) cudaFreeHost(l.stage[f]);
  l.stage[f] = nullptr;
  l.stage_bytes[f] = 0;
  if (fault::host_malloc(&l.stage[f], bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    l.stage[f] = nullptr;
    return SGPU_ERR_HOST_ALLOC;
  }
  l.stage_bytes[f] = bytes;
  return 0;
}

bool is_pinned(const void* p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

// Lane l's workspace for zheev's block path (made on first use); 0 or SGPU_ERR_HOST_ALLOC.
int lane_workspace(Lane& l) {
  if (!l.blk) l.blk = heev_block::workspace_new();
  return l.blk ? 0 : SGPU_ERR_HOST_ALLOC;
}

// Under a device-memory limit, a cache keeps only what this call needs: every buffer whose size
// differs from need[k][f] (0: not used) is freed before anything is allocated, and block-path
// workspaces over ws_most are freed, so that the call's peak stays within the limit whatever an
// earlier call left. (The lanes are idle: every call waits for its lanes before returning.)
void trim(Cache& c, const size_t (*need)[kFields], size_t ws_most) {
  for (int k = 0; k < kStreams; ++k) {
    Lane& l = c.lanes[k];
    for (int f = 0; f < kFields; ++f)
      if (l.dev_bytes[f] != need[k][f]) free_device(l, f);
    heev_block::workspace_trim(l.blk, ws_most);
  }
}

// The kernels for one job on device memory; blk: zheev's block-path workspace for s.
int device_job(Job j, cudaStream_t s, heev_block::Workspace* blk) {
  if (j.heev) return heev_enqueue(j, s, blk);
  if (eig_smem::plan(j)) return eig_smem::launch(j, s);
  return generic_eig(j, s);
}

int count_failures(const int* info, int64_t batch) {
  int64_t failed = 0;
  for (int64_t b = 0; b < batch; ++b) failed += info[b] != 0;
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

// Matrices [b0, b0 + nb) of j (pointers offset by their strides).
Job slice(const Job& j, int64_t b0, int64_t nb) {
  Job pj = j;
  pj.batch = nb;
  pj.A = j.A + (j.heev ? 2 : 1) * b0 * j.sA;  // zheev's A: complex elements as pairs of doubles
  pj.wr = j.wr + b0 * j.sW;
  pj.wi = j.wi ? j.wi + b0 * j.sW : nullptr;
  pj.Z = j.Z ? j.Z + b0 * j.sZ : nullptr;
  pj.VL = j.VL ? j.VL + b0 * j.sVL : nullptr;
  pj.info = j.info + b0;
  return pj;
}

// Pieces of zheev's block path on device data: kStreams for jobz V from kHeevSplitMinBatch
// matrices (tuning.hpp), else one launch (the developer setting SGPU_HEEV_SPLIT=1..3 forces it).
int64_t heev_pieces(const Job& j) {
  static const int forced = [] {
    const char* e = dev::setting("SGPU_HEEV_SPLIT");
    const int x = e ? std::atoi(e) : 0;
    return x >= 1 && x <= kStreams ? x : 0;
  }();
  if (!j.heev || !heev_block::serves(j.n)) return 1;
  const int64_t p = forced ? forced : j.wantz && j.batch >= tuning::kHeevSplitMinBatch ? kStreams : 1;
  return std::min<int64_t>(p, j.batch);
}

// Device data: in place on the context's stream in one launch, or (zheev's block path:
// heev_pieces()) in pieces forked onto the lanes' streams and joined back; waits for info to count
// the failures. ws_budget (0: none): device bytes the kernels' workspaces may take, all pieces.
int run_device(sgpu_context* ctx, const Job& j, Cache& cache, int64_t ws_budget) {
  cudaStream_t s = static_cast<cudaStream_t>(ctx->stream);
  const bool block = j.heev && heev_block::serves(j.n);
  const int64_t pieces = heev_pieces(j);
  const int64_t per = (j.batch + pieces - 1) / pieces;
  const int64_t ws_limit = ws_budget > 0 ? std::max<int64_t>(1, ws_budget / pieces) : 0;
  if (ws_budget > 0) {
    static const size_t none[kStreams][kFields] = {};
    trim(cache, none, (size_t)ws_limit);
  }
  int err = 0;
  cudaEvent_t fork = nullptr, join[kStreams] = {};
  if (pieces > 1 &&
      (cudaEventCreateWithFlags(&fork, cudaEventDisableTiming) != cudaSuccess || cudaEventRecord(fork, s) != cudaSuccess))
    err = SGPU_ERR_DEVICE;
  for (int64_t k = 0; k < pieces && !err; ++k) {
    Lane& l = cache.lanes[k];
    if (block && (err = lane_workspace(l))) break;
    if (pieces == 1) {  // one launch: straight on the context's stream (lane 0's workspace)
      Job pj = j;
      pj.block_per_group = true;
      pj.ws_limit = ws_limit;
      err = device_job(pj, s, l.blk);
      break;
    }
    if (!l.s && cudaStreamCreateWithFlags(&l.s, cudaStreamNonBlocking) != cudaSuccess) {
      l.s = nullptr;
      err = SGPU_ERR_DEVICE;
      break;
    }
    if (cudaStreamWaitEvent(l.s, fork, 0) != cudaSuccess) {
      err = SGPU_ERR_DEVICE;
      break;
    }
    const int64_t b0 = k * per;
    Job pj = slice(j, b0, std::min(per, j.batch - b0));
    pj.block_per_group = true;  // one launch for the piece: let the block scheduler balance it
    pj.ws_limit = ws_limit;
    err = device_job(pj, l.s, l.blk);
    // Joined even after a failed launch: the wait below must cover what the lane has queued.
    if (cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming) != cudaSuccess ||
        cudaEventRecord(join[k], l.s) != cudaSuccess || cudaStreamWaitEvent(s, join[k], 0) != cudaSuccess) {
      if (!err) err = SGPU_ERR_DEVICE;
      for (int64_t q = 0; q <= k; ++q) cudaStreamSynchronize(cache.lanes[q].s);
    }
  }
  std::vector<int> h;
  if (!err) {
    h.resize(j.batch);
    if (fault::copy_async(h.data(), j.info, sizeof(int) * j.batch, s) != cudaSuccess)
      err = SGPU_ERR_DEVICE;
  }
  if (cudaStreamSynchronize(s) != cudaSuccess && !err) err = SGPU_ERR_DEVICE;
  if (fork) cudaEventDestroy(fork);
  for (cudaEvent_t e : join)
    if (e) cudaEventDestroy(e);
  (void)cudaGetLastError();
  return err ? err : count_failures(h.data(), j.batch);
}

// Copies a lane's staged outputs from its staging buffers to the caller's pageable arrays, each
// sub-piece as soon as its DMA is done; 0 or SGPU_ERR_DEVICE.
int drain(const Lane& l, const Part* parts, int threads) {
  for (size_t k = 0; k < l.out.size(); ++k) {
    if (cudaEventSynchronize(l.copied[k]) != cudaSuccess) return SGPU_ERR_DEVICE;
    const OutChunk& c = l.out[k];
    const Part& p = parts[c.f];
    const size_t w = p.width * p.elem;
    hostcopy::copy_rows(p.host + (size_t)((l.b0 * p.rows_per + c.row0) * p.pitch) * p.elem, p.pitch * p.elem,
                        static_cast<const char*>(l.stage[c.f]) + (size_t)c.row0 * w, w, w, c.rows, threads);
  }
  return 0;
}

// Records that sub-piece c's DMA, just queued on l.s, is to be drained; false on a CUDA error.
bool note_out(Lane& l, const OutChunk& c) {
  const size_t k = l.out.size();
  if (k == l.copied.size()) {
    cudaEvent_t e = nullptr;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return false;
    l.copied.push_back(e);
  }
  if (cudaEventRecord(l.copied[k], l.s) != cudaSuccess) return false;
  l.out.push_back(c);
  return true;
}

// Rows of a piece between host memory (pitched) and a packed device buffer.
cudaError_t copy_piece(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, int64_t rows,
                       cudaStream_t s) {
  if (dpitch == width && spitch == width)
    return fault::copy_async(dst, src, width * (size_t)rows, s);
  return fault::copy2d_async(dst, dpitch, src, spitch, width, (size_t)rows, s);
}

// How a streamed call is cut: `per` matrices a piece, and the workspace each lane's kernels may
// take (0: their own caps).
struct Cut {
  int64_t per = 0, pieces = 0, ws_limit = 0;
  int err = 0;
};

// Under a device-memory limit each of the kStreams lanes gets a third of it: its piece buffers
// (every operand of `per` matrices, packed) plus the kernels' workspace for them. A lane that
// cannot hold one matrix is SGPU_ERR_DEVICE_ALLOC, found before anything is copied.
Cut cut(const Job& j, const Part* parts, int64_t limit, int devices) {
  Cut c;
  const int64_t mat_bytes = (int64_t)j.n * j.n * (int64_t)sizeof(double) * (j.heev ? 2 : 1);
  c.per = piece_matrices(j.batch, mat_bytes, j.heev && heev_block::serves(j.n), devices);
  int64_t io = 0;  // device bytes of one matrix's operands
  for (int f = 0; f < kFields; ++f)
    if (parts[f].used) io += parts[f].device_bytes_per_matrix();
  if (limit > 0) {
    const WorkspaceNeed ws = workspace_need(j);
    const int64_t lane = limit / kStreams;
    const int64_t fit = lane > ws.fixed ? (lane - ws.fixed) / (io + ws.per_matrix) : 0;
    if (fit < 1) {
      c.err = SGPU_ERR_DEVICE_ALLOC;
      return c;
    }
    c.per = std::min(c.per, fit);
  }
  if (devices > 1) {  // a whole number of pieces for each device, so that their shares are equal
    const int64_t pieces = (j.batch + c.per - 1) / c.per;
    const int64_t even = (pieces + devices - 1) / devices * devices;
    c.per = std::max<int64_t>(1, (j.batch + even - 1) / even);
  }
  if (limit > 0) c.ws_limit = limit / kStreams - c.per * io;
  c.pieces = (j.batch + c.per - 1) / c.per;
  return c;
}

// One device's part of a streamed call (its pieces, from plan_share(), on cache's lanes): step()
// takes the next piece onto the next lane: its input copies, kernels and output copies on the
// lane's stream. Pinned operands are copied straight between the caller's arrays and the lane's
// device buffers, so stream order alone protects a lane's buffers from its next piece: step()
// never waits and every piece can be enqueued at once, with no host in the loop (a host that
// waits for a lane before reusing it leaves that lane idle from the moment its piece is done
// until the host has noticed and enqueued the next). Staged operands go through the lane's
// pinned staging buffers, which the host fills and drains: there step() first waits for the
// lane's previous piece and hands its outputs to the caller (drain). Every call is made with the
// pipe's device current. After an error a pipe enqueues nothing more; finish() waits for every
// lane and returns 0 or the first SGPU_ERR_*.
class DevicePipe {
 public:
  // Behind `after` (a stream of this device: the context's stream on its first device, else
  // nullptr). limited: exactly this call's buffers (trim()). index0: the first piece's number in
  // the call (for the trace).
  DevicePipe(cudaStream_t after, int threads, const Job& j, Part* parts, Cache& cache, const Cut& c,
             std::vector<Span> pieces, int64_t index0, bool limited)
      : j_(j), parts_(parts), cache_(cache), c_(c), threads_(threads), pieces_(std::move(pieces)), index0_(index0),
        trace_(after) {
    const int64_t per = c.per;
    const int lanes = (int)std::min<int64_t>(kStreams, (int64_t)pieces_.size());
    if (limited) {
      size_t need[kStreams][kFields] = {};
      for (int k = 0; k < lanes; ++k)
        for (int f = 0; f < kFields; ++f)
          if (parts[f].used) need[k][f] = (size_t)(per * parts[f].device_bytes_per_matrix());
      trim(cache, need, (size_t)c.ws_limit);
    }
    for (int f = 0; f < kFields; ++f) staged_ = staged_ || (parts[f].used && !parts[f].pinned);
    if (cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming) != cudaSuccess) {
      ready_ = nullptr;
      err_ = SGPU_ERR_DEVICE;
    } else if (cudaEventRecord(ready_, after) != cudaSuccess) {
      err_ = SGPU_ERR_DEVICE;
    }
    for (int k = 0; k < lanes && !err_; ++k) {
      Lane& l = cache.lanes[k];
      l.busy = false;
      if (!l.s && cudaStreamCreateWithFlags(&l.s, cudaStreamNonBlocking) != cudaSuccess) {
        l.s = nullptr;
        err_ = SGPU_ERR_DEVICE;
        break;
      }
      if (cudaStreamWaitEvent(l.s, ready_, 0) != cudaSuccess) err_ = SGPU_ERR_DEVICE;
      for (int f = 0; f < kFields && !err_; ++f) {
        const Part& q = parts[f];
        if (!q.used) continue;
        const size_t bytes = (size_t)(per * q.device_bytes_per_matrix());
        err_ = grow_device(l, f, bytes);
        if (!err_ && !q.pinned) err_ = grow_stage(l, f, bytes);
      }
    }
  }
  ~DevicePipe() {
    if (ready_) cudaEventDestroy(ready_);
  }
  DevicePipe(const DevicePipe&) = delete;
  DevicePipe& operator=(const DevicePipe&) = delete;

  // The next piece; false when every piece is taken.
  bool more() const { return next_ < pieces_.size(); }
  void step() {
    const size_t i = next_++;
    if (err_) return;
    Lane& l = cache_.lanes[i % kStreams];
    if (l.busy && staged_) {  // the lane's previous piece: hand its outputs to the caller as they come
      trace_.wait_begin();
      l.busy = false;
      int e = drain(l, parts_, threads_);
      // (Waited for even after a failed drain: nothing of the lane may still run once the call returns.)
      if (cudaStreamSynchronize(l.s) != cudaSuccess && !e) e = SGPU_ERR_DEVICE;
      if (e) {
        err_ = e;
        return;
      }
      trace_.wait_end();
    }
    trace_.piece(index0_ + (int64_t)i, (int)(i % kStreams));
    l.busy = true;  // from here on finish() waits for the lane, whatever fails
    const Job& j = j_;
    l.b0 = pieces_[i].b0;
    l.nb = pieces_[i].nb;
    Job pj = j;
    pj.batch = l.nb;
    pj.lda = pj.ldz = pj.ldvl = j.n;
    pj.sA = pj.sZ = pj.sVL = (int64_t)j.n * j.n;
    pj.sW = j.n;
    pj.block_per_group = !staged_;  // see eig_smem.cu, launch(): staged pieces overlap better resident
    pj.ws_limit = c_.ws_limit;
    int err = 0;
    for (int f = 0; f < kFields && !err; ++f) {
      const Part& p = parts_[f];
      set(pj, f, p.used ? l.dev[f] : nullptr);
      if (!p.used || !p.in) continue;
      const size_t w = p.width * p.elem;
      const char* src = p.host + (size_t)(l.b0 * p.rows_per * p.pitch) * p.elem;
      const int64_t rows = l.nb * p.rows_per;
      if (p.pinned) {
        if (copy_piece(l.dev[f], w, src, p.pitch * p.elem, w, rows, l.s) != cudaSuccess) err = SGPU_ERR_DEVICE;
        continue;
      }
      // Packed into the staging buffer on the host cores a sub-piece at a time, each one's DMA
      // queued before the next is packed.
      const int64_t per = stage_chunk_rows(w, rows);
      for (int64_t r0 = 0; r0 < rows && !err; r0 += per) {
        const int64_t nr = std::min(per, rows - r0);
        char* st = static_cast<char*>(l.stage[f]) + (size_t)r0 * w;
        hostcopy::copy_rows(st, w, src + (size_t)r0 * p.pitch * p.elem, p.pitch * p.elem, w, nr, threads_);
        if (copy_piece(static_cast<char*>(l.dev[f]) + (size_t)r0 * w, w, st, w, w, nr, l.s) != cudaSuccess)
          err = SGPU_ERR_DEVICE;
      }
    }
    trace_.mark(trace_.kCopiedIn, l.s);
    if (!err && j.heev && heev_block::serves(j.n)) err = lane_workspace(l);
    if (err || (err = device_job(pj, l.s, l.blk))) {
      err_ = err;
      return;
    }
    trace_.mark(trace_.kComputed, l.s);
    l.out.clear();
    for (int f = 0; f < kFields && !err; ++f) {
      const Part& p = parts_[f];
      if (!p.used || !p.out) continue;
      const size_t w = p.width * p.elem;
      const int64_t rows = l.nb * p.rows_per;
      if (p.pinned) {
        char* dst = p.host + (size_t)(l.b0 * p.rows_per * p.pitch) * p.elem;
        if (copy_piece(dst, p.pitch * p.elem, l.dev[f], w, w, rows, l.s) != cudaSuccess) err = SGPU_ERR_DEVICE;
        continue;
      }
      const int64_t per = stage_chunk_rows(w, rows);  // a sub-piece at a time, for drain()
      for (int64_t r0 = 0; r0 < rows && !err; r0 += per) {
        const int64_t nr = std::min(per, rows - r0);
        char* st = static_cast<char*>(l.stage[f]) + (size_t)r0 * w;
        if (copy_piece(st, w, static_cast<const char*>(l.dev[f]) + (size_t)r0 * w, w, w, nr, l.s) != cudaSuccess ||
            !note_out(l, OutChunk{f, r0, nr}))
          err = SGPU_ERR_DEVICE;
      }
    }
    trace_.mark(trace_.kCopiedOut, l.s);
    err_ = err;
  }

  // Waits for every lane (outputs drained unless an error came first); 0 or SGPU_ERR_*.
  int finish() {
    for (int k = 0; k < kStreams; ++k) {
      Lane& l = cache_.lanes[k];
      if (!l.busy) continue;
      l.busy = false;
      int e = err_ ? 0 : drain(l, parts_, threads_);
      if (cudaStreamSynchronize(l.s) != cudaSuccess && !e) e = SGPU_ERR_DEVICE;
      if (e && !err_) err_ = e;
    }
    (void)cudaGetLastError();
    return err_;
  }

 private:
  const Job& j_;
  Part* parts_;
  Cache& cache_;
  const Cut& c_;
  int threads_;
  std::vector<Span> pieces_;
  int64_t index0_;
  size_t next_ = 0;
  bool staged_ = false;  // some operand goes through the staging buffers
  cudaEvent_t ready_ = nullptr;
  int err_ = 0;
  pipe_trace::Share trace_;
};

// Host data over the context's devices: the pieces in contiguous runs, one per device slot, with
// its slot's cache (the first behind the context's stream). Pageable operands are pinned
// (SGPU_EIG_PAGEABLE=register) or staged. Pinned operands only: the calling thread enqueues every
// device's pieces, one device's piece after another's, none waiting (DevicePipe), then waits for
// them all. It is already running, where a thread started per device began up to 4 ms late while
// the caller's OpenMP threads still spun on every core. Staged operands: a host thread per device
// (on_devices), each staging its own pieces with its share of the host threads; one thread
// staging for both devices lost (dgeev n = 10 pageable 29.7 ms against 25.7). Measured on
// 2 x H200, docs/performance.md "Several GPUs: one driving thread".
int run_streamed_all(sgpu_context* ctx, const Job& j, Part* parts, Caches& caches) {
  pipe_trace::call_begin();
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  const Cut c = cut(j, parts, limit, ctx->ndevices);
  if (c.err) return c.err;
  std::vector<void*> registered;
  for (int f = 0; f < kFields; ++f) {
    Part& p = parts[f];
    if (!p.used) continue;
    p.pinned = is_pinned(p.host);
    if (!p.pinned && register_pageable() && p.span >= (size_t(1) << 20)) {
      if (cudaHostRegister(p.host, p.span, cudaHostRegisterPortable) == cudaSuccess) {
        registered.push_back(p.host);
        p.pinned = true;
      } else {
        (void)cudaGetLastError();
      }
    }
  }
  const int devices = (int)std::min<int64_t>(ctx->ndevices, c.pieces);
  auto first = [&](int k) { return c.pieces * k / devices; };  // slot k: pieces [first(k), first(k + 1))
  // Slot k's pieces: its share's matrices.
  auto share = [&](int k) {
    return plan_share(std::min(j.batch, first(k) * c.per), std::min(j.batch, first(k + 1) * c.per), c.per);
  };
  bool staged = false;
  for (int f = 0; f < kFields; ++f) staged = staged || (parts[f].used && !parts[f].pinned);
  if (staged && devices > 1) {
    const int threads = hostcopy::share_threads(ctx->nthreads, devices);
    const int err = on_devices(ctx->devices, devices, [&](int k) {
      Cache* cache = caches.get(k, ctx->devices[k]);
      if (!cache) return SGPU_ERR_HOST_ALLOC;
      cudaStream_t after = k == 0 ? static_cast<cudaStream_t>(ctx->stream) : nullptr;
      DevicePipe pipe(after, threads, j, parts, *cache, c, share(k), first(k), limit > 0);
      while (pipe.more()) pipe.step();
      return pipe.finish();
    });
    for (void* p : registered) cudaHostUnregister(p);
    (void)cudaGetLastError();
    return err ? err : count_failures(j.info, j.batch);
  }
  // Makes slot k's device current; false (and its status set) if it cannot be.
  int st[SGPU_MAX_DEVICES] = {};
  auto on = [&](int k) {
    if (devices == 1) return true;
    if (cudaSetDevice(ctx->devices[k]) == cudaSuccess) return true;
    (void)cudaGetLastError();
    st[k] = SGPU_ERR_DEVICE;
    return false;
  };
  std::optional<DevicePipe> pipe[SGPU_MAX_DEVICES];
  for (int k = 0; k < devices; ++k) {
    if (!on(k)) continue;
    Cache* cache = caches.get(k, ctx->devices[k]);
    if (!cache) {
      st[k] = SGPU_ERR_HOST_ALLOC;
      continue;
    }
    cudaStream_t after = k == 0 ? static_cast<cudaStream_t>(ctx->stream) : nullptr;
    pipe[k].emplace(after, ctx->nthreads, j, parts, *cache, c, share(k), first(k), limit > 0);
  }
  // Every piece enqueued, one device's after another's, then every pipe waited for. On pinned
  // memory no step waits; staged operands come here on one device only, and each step waits for
  // its lane.
  for (bool more = true; more;) {
    more = false;
    for (int k = 0; k < devices; ++k)
      if (pipe[k] && pipe[k]->more() && on(k)) {
        pipe[k]->step();
        more = true;
      }
  }
  for (int k = 0; k < devices; ++k)
    if (pipe[k]) {
      on(k);
      const int e = pipe[k]->finish();
      if (!st[k]) st[k] = e;
      pipe[k].reset();
    }
  if (devices > 1) on(0);  // the caller's thread leaves with the first device current, as it came
  for (void* p : registered) cudaHostUnregister(p);
  (void)cudaGetLastError();
  for (int k = 0; k < devices; ++k)
    if (st[k]) return st[k];
  return count_failures(j.info, j.batch);
}

// Operands that a piece cannot describe (mixed memory, gaps between matrices): every host operand
// staged whole through device buffers, then the device path. Under a device-memory limit, in
// sub-batches whose staged spans and workspace fit (the largest such count, found by bisection).
int run_staged(sgpu_context* ctx, const Job& j, const Part* parts) {
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  bool host[kFields];
  for (int f = 0; f < kFields; ++f) host[f] = parts[f].used && classify(parts[f].host) == MemKind::kHost;
  const WorkspaceNeed ws = workspace_need(j);
  auto staged_bytes = [&](int64_t k) {
    int64_t b = 0;
    for (int f = 0; f < kFields; ++f)
      if (host[f]) b += (int64_t)parts[f].span_of(k);
    return b;
  };
  auto need = [&](int64_t k) { return staged_bytes(k) + ws.fixed + k * ws.per_matrix; };
  const int64_t per = limit > 0 ? largest_count(j.batch, [&](int64_t k) { return need(k) <= limit; }) : j.batch;
  if (per == 0 && j.batch > 0) return SGPU_ERR_DEVICE_ALLOC;
  int64_t failed = 0;
  for (int64_t b0 = 0; b0 < j.batch; b0 += per) {
    const int64_t nb = std::min(per, j.batch - b0);
    Job d = slice(j, b0, nb);
    void* ptr[kFields];
    std::vector<Operand> ops;
    for (int f = 0; f < kFields; ++f) {
      ptr[f] = parts[f].used ? get(d, f) : nullptr;
      if (parts[f].used) ops.push_back(Operand{&ptr[f], parts[f].span_of(nb), parts[f].out});
    }
    const int64_t ws_budget = limit > 0 ? limit - staged_bytes(nb) : 0;
    const int st = with_device_operands(ctx, ops.data(), ops.size(), [&] {
      for (int f = 0; f < kFields; ++f)
        if (parts[f].used) set(d, f, ptr[f]);
      return with_cache(ctx, [&](Caches& c) {
        Cache* cache = c.get(0, ctx->device);
        return cache ? run_device(ctx, d, *cache, ws_budget) : SGPU_ERR_HOST_ALLOC;
      });
    });
    if (st < 0) return st;
    failed += st;
  }
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

}  // namespace

int run(sgpu_context* ctx, const Job& j) {
  Part parts[kFields];
  describe(j, parts);
  bool any_host = false, all_host = true, packable = true;
  for (int f = 0; f < kFields; ++f) {
    const Part& p = parts[f];
    if (!p.used) continue;
    const bool host = classify(p.host) == MemKind::kHost;
    any_host = any_host || host;
    all_host = all_host && host;
    packable = packable && p.packable;
  }
  if (!any_host)
    return with_cache(ctx, [&](Caches& c) {
      Cache* cache = c.get(0, ctx->device);
      return cache ? run_device(ctx, j, *cache, (int64_t)ctx->device_mem_limit.load()) : SGPU_ERR_HOST_ALLOC;
    });
  if (all_host && packable) return with_cache(ctx, [&](Caches& c) { return run_streamed_all(ctx, j, parts, c); });
  return run_staged(ctx, j, parts);
}

void release(sgpu_context* ctx) {
  delete static_cast<Caches*>(ctx->gpu_pipe);
  ctx->gpu_pipe = nullptr;
}

}  // namespace eig_pipeline
}  // namespace gpu
}  // namespace sgpu
