// The streaming engine (engine.hpp) and the lanes it runs on (cache.hpp).
#include "stream/engine.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "device/dev_setting.hpp"
#include "device/fault.hpp"
#include "stream/host_copy.hpp"
#include "stream/on_devices.hpp"
#include "stream/piece_plan.hpp"
#include "stream/pipe_trace.hpp"

namespace sgpu {
namespace gpu {
namespace stream {

// ---- lanes and the cache -----------------------------------------------------------------------

int Lane::stream() {
  if (s) return 0;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess) return 0;
  s = nullptr;
  (void)cudaGetLastError();
  return SGPU_ERR_DEVICE;
}

void Lane::free_device(int f) {
  fault::dev_free(dev[f]);
  dev[f] = nullptr;
  dev_bytes[f] = 0;
}

int Lane::grow_device(int f, size_t bytes) {
  if (dev_bytes[f] >= bytes) return 0;
  free_device(f);
  if (fault::dev_malloc(&dev[f], bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    dev[f] = nullptr;
    return SGPU_ERR_DEVICE_ALLOC;
  }
  dev_bytes[f] = bytes;
  return 0;
}

int Lane::grow_stage(int f, size_t bytes) {
  if (stage_bytes[f] >= bytes) return 0;
  if (stage[f]) cudaFreeHost(stage[f]);
  stage[f] = nullptr;
  stage_bytes[f] = 0;
  if (fault::host_malloc(&stage[f], bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    stage[f] = nullptr;
    return SGPU_ERR_HOST_ALLOC;
  }
  stage_bytes[f] = bytes;
  return 0;
}

Lane::~Lane() {
  if (s) cudaStreamSynchronize(s);
  for (int f = 0; f < kMaxOperands; ++f) {
    fault::dev_free(dev[f]);
    if (stage[f]) cudaFreeHost(stage[f]);
  }
  for (auto& st : states) st.reset();
  for (cudaEvent_t e : copied) cudaEventDestroy(e);
  if (s) cudaStreamDestroy(s);
  (void)cudaGetLastError();
}

void DeviceCache::trim(const size_t (*need)[kMaxOperands], size_t state_bytes) {
  for (int k = 0; k < kLanes; ++k) {
    Lane& l = lanes[k];
    for (int f = 0; f < kMaxOperands; ++f)
      if (l.dev_bytes[f] != need[k][f]) l.free_device(f);
    for (auto& st : l.states)
      if (st) st->trim(state_bytes);
  }
}

namespace {
// Deletes c with its device current (its streams and buffers belong there).
void delete_cache(DeviceCache* c) {
  if (!c) return;
  int prev = -1;
  const bool switched = c->device >= 0 && cudaGetDevice(&prev) == cudaSuccess && prev != c->device &&
                        cudaSetDevice(c->device) == cudaSuccess;
  delete c;
  if (switched) cudaSetDevice(prev);
  (void)cudaGetLastError();
}
}  // namespace

Cache::~Cache() {
  for (DeviceCache* c : slot) delete_cache(c);
}

DeviceCache* Cache::get(int k, int device) {
  if (slot[k] && slot[k]->device != device) {
    delete_cache(slot[k]);
    slot[k] = nullptr;
  }
  if (!slot[k]) {
    slot[k] = new (std::nothrow) DeviceCache;
    if (slot[k]) slot[k]->device = device;
  }
  return slot[k];
}

// ---- the engine --------------------------------------------------------------------------------

namespace {

// Staged operands move between the caller's arrays and a lane's staging buffers in sub-pieces of
// about kStageChunkBytes (tuning.hpp): a sub-piece's DMA is queued as soon as the host has packed
// it, and the host unpacks an output sub-piece as soon as its DMA is done, so a share's first
// input and last output are not taken in turn. The developer setting SGPU_STAGE_CHUNK_BYTES sets
// the bytes (the tests' small pieces are cut too).
int64_t stage_chunk_bytes() {
  static const int64_t v = [] {
    const char* e = dev::setting("SGPU_STAGE_CHUNK_BYTES");
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

// The developer setting SGPU_PAGEABLE=register pins the caller's pageable arrays for the call
// instead of staging them (the comparison in docs/tuning.md).
bool register_pageable() {
  static const bool v = [] {
    const char* e = dev::setting("SGPU_PAGEABLE");
    return e && !std::strcmp(e, "register");
  }();
  return v;
}

// Rows of a piece between host memory (pitched) and a packed device buffer.
cudaError_t copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, int64_t rows,
                      cudaStream_t s) {
  if (dpitch == width && spitch == width) return fault::copy_async(dst, src, width * (size_t)rows, s);
  return fault::copy2d_async(dst, dpitch, src, spitch, width, (size_t)rows, s);
}

// Copies a lane's staged outputs from its staging buffers to the caller's pageable arrays, each
// sub-piece as soon as its DMA is done; 0 or SGPU_ERR_DEVICE.
int drain(const Lane& l, const Work& w, int threads) {
  for (size_t k = 0; k < l.out.size(); ++k) {
    if (cudaEventSynchronize(l.copied[k]) != cudaSuccess) return SGPU_ERR_DEVICE;
    const OutChunk& c = l.out[k];
    const Region r = w.region(c.f, l.piece);
    hostcopy::copy_rows(r.host + (size_t)c.row0 * r.pitch, r.pitch,
                        static_cast<const char*>(l.stage[c.f]) + (size_t)c.row0 * r.width, r.width, r.width, c.rows,
                        threads);
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

// One device's part of a streamed call, pieces [p0, p1) on cache's lanes: step() takes the next
// piece onto the next lane: its input copies, kernels and output copies on the lane's stream.
// Pinned operands are copied straight between the caller's arrays and the lane's device buffers,
// so stream order alone protects a lane's buffers from its next piece: step() never waits and
// every piece can be enqueued at once, with no host in the loop (a host that waits for a lane
// before reusing it leaves that lane idle from the moment its piece is done until the host has
// noticed and enqueued the next). Staged operands go through the lane's pinned staging buffers,
// which the host fills and drains: there step() first waits for the lane's previous piece and
// hands its outputs to the caller (drain). Every call is made with the pipe's device current.
// After an error a pipe enqueues nothing more; finish() waits for every lane and returns 0 or
// the first SGPU_ERR_*.
class DevicePipe {
 public:
  // Behind `after` (a stream of this device: the context's stream on its first device, else
  // nullptr). limited, state_bytes: as run().
  DevicePipe(cudaStream_t after, int threads, Work& w, DeviceCache& cache, int64_t p0, int64_t p1, bool limited,
             size_t state_bytes)
      : w_(w), cache_(cache), threads_(threads), next_(p0), end_(p1), trace_(after) {
    const int lanes = (int)std::min<int64_t>(kLanes, p1 - p0);
    if (limited) {
      size_t need[kLanes][kMaxOperands] = {};
      for (int k = 0; k < lanes; ++k)
        for (int f = 0; f < w.nops; ++f)
          if (w.ops[f].used) need[k][f] = w.ops[f].piece_bytes;
      cache.trim(need, state_bytes);
    }
    for (int f = 0; f < w.nops; ++f) staged_ = staged_ || (w.ops[f].used && !w.ops[f].pinned);
    if (cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming) != cudaSuccess) {
      ready_ = nullptr;
      err_ = SGPU_ERR_DEVICE;
    } else if (cudaEventRecord(ready_, after) != cudaSuccess) {
      err_ = SGPU_ERR_DEVICE;
    }
    for (int k = 0; k < lanes && !err_; ++k) {
      Lane& l = cache.lanes[k];
      l.busy = false;
      if ((err_ = l.stream())) break;
      if (cudaStreamWaitEvent(l.s, ready_, 0) != cudaSuccess) err_ = SGPU_ERR_DEVICE;
      for (int f = 0; f < w.nops && !err_; ++f) {
        const Operand& q = w.ops[f];
        if (!q.used) continue;
        err_ = l.grow_device(f, q.piece_bytes);
        if (!err_ && !q.pinned) err_ = l.grow_stage(f, q.piece_bytes);
      }
    }
  }
  ~DevicePipe() {
    if (ready_) cudaEventDestroy(ready_);
  }
  DevicePipe(const DevicePipe&) = delete;
  DevicePipe& operator=(const DevicePipe&) = delete;

  // The next piece; false when every piece is taken.
  bool more() const { return next_ < end_; }
  void step() {
    const int64_t i = next_++;
    if (err_) return;
    const int lane = (int)(taken_++ % kLanes);
    Lane& l = cache_.lanes[lane];
    if (l.busy && staged_) {  // the lane's previous piece: hand its outputs to the caller as they come
      trace_.wait_begin();
      l.busy = false;
      int e = drain(l, w_, threads_);
      // (Waited for even after a failed drain: nothing of the lane may still run once the call returns.)
      if (cudaStreamSynchronize(l.s) != cudaSuccess && !e) e = SGPU_ERR_DEVICE;
      if (e) {
        err_ = e;
        return;
      }
      trace_.wait_end();
    }
    trace_.piece(i, lane);
    l.busy = true;  // from here on finish() waits for the lane, whatever fails
    l.piece = i;
    int err = 0;
    for (int f = 0; f < w_.nops && !err; ++f) {
      const Operand& q = w_.ops[f];
      if (!q.used || !q.in) continue;
      const Region r = w_.region(f, i);
      if (q.pinned) {
        if (copy_rows(l.dev[f], r.width, r.host, r.pitch, r.width, r.rows, l.s) != cudaSuccess) err = SGPU_ERR_DEVICE;
        continue;
      }
      // Packed into the staging buffer on the host cores a sub-piece at a time, each one's DMA
      // queued before the next is packed.
      const int64_t per = stage_chunk_rows(r.width, r.rows);
      for (int64_t r0 = 0; r0 < r.rows && !err; r0 += per) {
        const int64_t nr = std::min(per, r.rows - r0);
        char* st = static_cast<char*>(l.stage[f]) + (size_t)r0 * r.width;
        hostcopy::copy_rows(st, r.width, r.host + (size_t)r0 * r.pitch, r.pitch, r.width, nr, threads_);
        if (copy_rows(static_cast<char*>(l.dev[f]) + (size_t)r0 * r.width, r.width, st, r.width, r.width, nr, l.s) !=
            cudaSuccess)
          err = SGPU_ERR_DEVICE;
      }
    }
    trace_.mark(trace_.kCopiedIn, l.s);
    if (err || (err = w_.compute(l, i, l.dev, staged_))) {
      err_ = err;
      return;
    }
    trace_.mark(trace_.kComputed, l.s);
    l.out.clear();
    for (int f = 0; f < w_.nops && !err; ++f) {
      const Operand& q = w_.ops[f];
      if (!q.used || !q.out) continue;
      const Region r = w_.region(f, i);
      if (q.pinned) {
        if (copy_rows(r.host, r.pitch, l.dev[f], r.width, r.width, r.rows, l.s) != cudaSuccess) err = SGPU_ERR_DEVICE;
        continue;
      }
      const int64_t per = stage_chunk_rows(r.width, r.rows);  // a sub-piece at a time, for drain()
      for (int64_t r0 = 0; r0 < r.rows && !err; r0 += per) {
        const int64_t nr = std::min(per, r.rows - r0);
        char* st = static_cast<char*>(l.stage[f]) + (size_t)r0 * r.width;
        if (copy_rows(st, r.width, static_cast<const char*>(l.dev[f]) + (size_t)r0 * r.width, r.width, r.width, nr,
                      l.s) != cudaSuccess ||
            !note_out(l, OutChunk{f, r0, nr}))
          err = SGPU_ERR_DEVICE;
      }
    }
    trace_.mark(trace_.kCopiedOut, l.s);
    err_ = err;
  }

  // Waits for every lane (outputs drained unless an error came first); 0 or SGPU_ERR_*.
  int finish() {
    for (int k = 0; k < kLanes; ++k) {
      Lane& l = cache_.lanes[k];
      if (!l.busy) continue;
      l.busy = false;
      int e = err_ ? 0 : drain(l, w_, threads_);
      if (cudaStreamSynchronize(l.s) != cudaSuccess && !e) e = SGPU_ERR_DEVICE;
      if (e && !err_) err_ = e;
    }
    (void)cudaGetLastError();
    return err_;
  }

 private:
  Work& w_;
  DeviceCache& cache_;
  int threads_;
  int64_t next_, end_, taken_ = 0;
  bool staged_ = false;  // some operand goes through the staging buffers
  cudaEvent_t ready_ = nullptr;
  int err_ = 0;
  pipe_trace::Share trace_;
};

}  // namespace

// The pieces in contiguous runs, one per device slot, with its slot's lanes (the first behind
// the context's stream). Pinned operands only: the calling thread enqueues every device's pieces,
// one device's piece after another's, none waiting (DevicePipe), then waits for them all. It is
// already running, where a thread started per device began up to 4 ms late while the caller's
// OpenMP threads still spun on every core. Staged operands: a host thread per device
// (on_devices), each staging its own pieces with its share of the host threads; one thread
// staging for both devices lost (dgeev n = 10 pageable 29.7 ms against 25.7). Measured on
// 2 x H200 (docs/performance.md, "Several GPUs"; the reasons: docs/design.md, "Several devices").
int run(sgpu_context* ctx, Cache& cache, Work& w, bool limited, size_t state_bytes) {
  pipe_trace::call_begin();
  std::vector<void*> registered;
  for (int f = 0; f < w.nops; ++f) {
    Operand& q = w.ops[f];
    if (!q.used || q.pinned || !register_pageable() || q.span < (size_t(1) << 20)) continue;
    if (cudaHostRegister(q.host, q.span, cudaHostRegisterPortable) == cudaSuccess) {
      registered.push_back(q.host);
      q.pinned = true;
    } else {
      (void)cudaGetLastError();
    }
  }
  const int devices = (int)std::min<int64_t>(ctx->ndevices, w.pieces);
  auto first = [&](int k) { return share_first(w.pieces, k, devices); };  // slot k: [first(k), first(k + 1))
  bool staged = false;
  for (int f = 0; f < w.nops; ++f) staged = staged || (w.ops[f].used && !w.ops[f].pinned);
  int err = 0;
  if (staged && devices > 1) {
    const int threads = hostcopy::share_threads(ctx->nthreads, devices);
    err = on_devices(ctx->devices, devices, [&](int k) {
      DeviceCache* dc = cache.get(k, ctx->devices[k]);
      if (!dc) return SGPU_ERR_HOST_ALLOC;
      cudaStream_t after = k == 0 ? static_cast<cudaStream_t>(ctx->stream) : nullptr;
      DevicePipe pipe(after, threads, w, *dc, first(k), first(k + 1), limited, state_bytes);
      while (pipe.more()) pipe.step();
      return pipe.finish();
    });
  } else {
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
      DeviceCache* dc = cache.get(k, ctx->devices[k]);
      if (!dc) {
        st[k] = SGPU_ERR_HOST_ALLOC;
        continue;
      }
      cudaStream_t after = k == 0 ? static_cast<cudaStream_t>(ctx->stream) : nullptr;
      pipe[k].emplace(after, ctx->nthreads, w, *dc, first(k), first(k + 1), limited, state_bytes);
    }
    // Every piece enqueued, one device's after another's, then every pipe waited for. On pinned
    // memory no step waits; staged operands come here on one device only, and each step waits
    // for its lane.
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
    for (int k = 0; k < devices && !err; ++k) err = st[k];
  }
  for (void* p : registered) cudaHostUnregister(p);
  (void)cudaGetLastError();
  return err;
}

}  // namespace stream
}  // namespace gpu
}  // namespace sgpu
