// What the GPU backend keeps in a context between calls (the context's gpu_cache slot, borrowed
// through lib/cache.hpp): for each slot of the context's device list, kLanes lanes, each a stream
// with its device buffers, pinned staging buffers and the kernels' state. They are slow to make
// (cudaMallocHost pins page by page, a cuBLAS handle takes milliseconds), so they outlive a call.
// The streaming engine (engine.hpp) moves pieces through the lanes; device-data calls use lane
// 0's kernel state on the context's stream.
#pragma once
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "backend.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace stream {

constexpr int kLanes = tuning::kStreams;
constexpr int kMaxOperands = 6;  // operand slots of a lane (dgeev's A, wr, wi, VR, VL, info)

// Kernel state kept with a lane (zheev's block-path workspace, the scan's look-back state): one
// object of each type per lane, used on the lane's stream (or lane 0's on the context's stream).
class LaneState {
 public:
  virtual ~LaneState() = default;
  // Frees the device memory it holds when that is over max_bytes (its stream idle).
  virtual void trim(size_t max_bytes) = 0;
};

namespace detail {
constexpr int kMaxStates = 4;
inline int next_state_id() {
  static std::atomic<int> next{0};
  return next++;
}
template <class T>
int state_id() {
  static const int id = next_state_id();
  return id;
}
}  // namespace detail

// A staged output sub-piece: rows [row0, row0 + rows) of operand f in the lane's piece.
struct OutChunk {
  int f = 0;
  int64_t row0 = 0, rows = 0;
};

struct Lane {
  cudaStream_t s = nullptr;
  void* dev[kMaxOperands] = {};
  size_t dev_bytes[kMaxOperands] = {};
  void* stage[kMaxOperands] = {};
  size_t stage_bytes[kMaxOperands] = {};
  std::unique_ptr<LaneState> states[detail::kMaxStates];
  int64_t piece = 0;  // the piece it holds
  bool busy = false;
  std::vector<OutChunk> out;        // the piece's staged outputs, in the order of their DMAs
  std::vector<cudaEvent_t> copied;  // copied[k]: out[k]'s DMA is done (made as needed, reused)

  // The lane's state of type T (made on first use by T's default constructor); nullptr when out
  // of host memory.
  template <class T>
  T* state() {
    const int id = detail::state_id<T>();
    if (id >= detail::kMaxStates) return nullptr;
    if (!states[id]) states[id].reset(new (std::nothrow) T);
    return static_cast<T*>(states[id].get());
  }
  // Its stream, made on first use; 0 or SGPU_ERR_DEVICE.
  int stream();
  int grow_device(int f, size_t bytes);  // 0 or SGPU_ERR_DEVICE_ALLOC
  int grow_stage(int f, size_t bytes);   // 0 or SGPU_ERR_HOST_ALLOC
  void free_device(int f);
  ~Lane();
};

// One device slot's lanes; made and freed on its device.
struct DeviceCache {
  int device = -1;
  Lane lanes[kLanes];
  // Under a device-memory limit a call keeps only what it needs: every buffer whose size differs
  // from need[k][f] (0: not used) is freed, and every lane state over state_bytes, before
  // anything is allocated, so that the call's peak stays within the limit whatever an earlier
  // call left. (The lanes are idle: every call waits for its lanes before returning.)
  void trim(const size_t (*need)[kMaxOperands], size_t state_bytes);
};

// A context's lanes, one DeviceCache per slot of its device list (slot k serves devices[k]).
struct Cache {
  DeviceCache* slot[SGPU_MAX_DEVICES] = {};
  Cache() = default;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  ~Cache();
  // Slot k's cache for `device` (replaced when the slot's device changed); nullptr: out of memory.
  DeviceCache* get(int k, int device);
};

// Runs f(Cache&) with the context's cache, or a private one while another call holds it.
template <class F>
int with_cache(sgpu_context* ctx, F f) {
  return ctx->gpu_cache.borrow<Cache>(f);
}

}  // namespace stream
}  // namespace gpu
}  // namespace sgpu
