// Tile chains of the column scans (seed 000 §3.3, decoupled look-back): the tiles of one scan line
// (a strip of columns of a row-major matrix, or one column of a column-major one) are numbered
// k = 0, 1, ... down the line; tile k publishes its local sums (LS) as soon as it has them and its
// global sums (GS, the inclusive prefix through its last row) once it knows its predecessors'.
//
// Determinism. A tile's prefix is always formed as GS(k') + LS(k'+1) + ... + LS(k-1), left to
// right, from the nearest predecessor k' whose GS is published. Every GS is formed the same way
// (GS(k) = prefix(k) + LS(k)), so by induction GS(k) = (((LS(0) + LS(1)) + LS(2)) + ... + LS(k))
// whatever k' the timing offered: the association order is the sequential one over tile sums, and
// the result is bitwise reproducible.
//
// Tickets. Tiles are handed out by an atomic counter in increasing id = k * strips + s, so a tile
// only ever waits on tiles already taken by running blocks, which publish their LS without waiting
// on anything: no deadlock, whatever the grid. A block draws its next ticket when it starts a
// tile (hiding the atomic's round trip); still, the smallest unfinished ticket is always being
// worked on (its block's current tile is smaller, hence finished), so progress is guaranteed.
// Each block draws its tiles plus two tickets past the end. The counter and the flags are never reset: a call
// takes tickets from `base` on, and flags carry the call's epoch, so stale flags of earlier calls
// read as "not yet" (no memset, no extra launch per call).
#pragma once
#include <stdint.h>

#include "core/scan.hpp"

namespace sgpu {
namespace cuda {
namespace scan {

enum : unsigned { kLS = 1, kGS = 2 };

__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// The state of one call's tiles. `width` values per tile (columns of a strip; 1 for a column).
template <class T>
struct Chain {
  unsigned* flag;  // per tile: epoch << 2 | state
  T* ls;           // per tile, width values
  T* gs;
  unsigned epoch;  // 1 .. 2^30 - 1
  int width;
  int64_t strips;  // tile id = k * strips + s
  unsigned long long* counter;
  unsigned long long base;  // this call's first ticket

  __device__ T* ls_of(int64_t id) const { return ls + id * width; }
  __device__ T* gs_of(int64_t id) const { return gs + id * width; }

  // The block's next tile id (every thread gets it); thread 0 keeps the ticket after it in
  // `pending` (start with first_ticket()). Ends the previous tile.
  __device__ unsigned long long first_ticket() const { return threadIdx.x == 0 ? atomicAdd(counter, 1ull) : 0; }
  __device__ int64_t next_tile(int64_t* slot, unsigned long long& pending) const {
    __syncthreads();
    if (threadIdx.x == 0) {
      *slot = (int64_t)(pending - base);
      pending = atomicAdd(counter, 1ull);
    }
    __syncthreads();
    return *slot;
  }

  // After the block's writers stored a tile's values (with __stcg) and fenced: marks the tile.
  __device__ void mark(int64_t id, unsigned state) const {
    __syncthreads();
    if (threadIdx.x == 0) st_release(flag + id, epoch << 2 | state);
  }
  // The state of tile j of strip s once it has published at least its LS (0 for j < 0).
  __device__ unsigned state_once_published(int64_t j, int64_t s) const {
    if (j < 0) return 0;
    const unsigned* f = flag + j * strips + s;
    unsigned v;
    do v = ld_acquire(f);
    while ((v >> 2) != epoch);
    return v & 3u;
  }

  // One thread that stored the tile's values itself (release orders its own stores).
  __device__ void mark_own(int64_t id, unsigned state) const { st_release(flag + id, epoch << 2 | state); }

  // The speculative look-back, issued while the tile's own loads are in flight: whether the
  // predecessor k - 1 has already published its GS (the common case with many strips, or once a
  // strip's frontier has caught up). One thread per caller; the caller then loads the values.
  __device__ bool predecessor_done(int64_t k, int64_t s) const {
    return ld_acquire(flag + (k - 1) * strips + s) == (epoch << 2 | kGS);
  }

  // Block-wide (deep) look-back of tile k >= 1 on strip s: out[c] (shared, c < width) = GS(k') + LS(k'+1)
  // + ... + LS(k-1), left to right, from the nearest k' whose GS is published. With one long strip
  // the published frontier trails by hundreds of tiles, so the whole block looks: 256 flags per
  // step (waiting until each of those tiles has published at least LS), then rounds of
  // cap / width tile sums loaded into `buf` (shared, cap values) and added in order by the value
  // threads. `slot`: 8 shared ints. Tile 0 of a strip always publishes GS.
  __device__ void look_back(int64_t k, int64_t s, T* out, T* buf, int cap, int* slot) const {
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
    int64_t kp = -1;
    for (int64_t top = k - 1; kp < 0; top -= blockDim.x) {
      const int64_t j = top - tid;
      const unsigned st = state_once_published(j, s);
      const unsigned has_gs = __ballot_sync(0xffffffffu, st == kGS);
      if (lane == 0) slot[w] = has_gs ? __ffs(has_gs) - 1 : 32;
      __syncthreads();
      for (int q = 0; q < nw; ++q)
        if (slot[q] < 32) {
          kp = top - (q * 32 + slot[q]);
          break;
        }
      __syncthreads();
    }
    __threadfence();
    T acc = T(0);
    if (tid < width) acc = __ldcg(gs_of(kp * strips + s) + tid);
    const int per = cap / width;
    for (int64_t q0 = kp + 1; q0 < k; q0 += per) {
      const int nt = k - q0 < per ? (int)(k - q0) : per;
      for (int i = tid; i < nt * width; i += blockDim.x) buf[i] = __ldcg(ls_of((q0 + i / width) * strips + s) + i % width);
      __syncthreads();
      if (tid < width)
        for (int q = 0; q < nt; ++q) acc = core::Wrap<T>::add(acc, buf[q * width + tid]);
      __syncthreads();
    }
    if (tid < width) out[tid] = acc;
    __syncthreads();
  }

  // The shallow variant, for many strips (a tile's predecessor was handed out `strips` tickets
  // earlier, so it is nearly always done): one warp finds k', the value threads add.
  // One full warp: the nearest k' < k on strip s whose GS is published, after waiting until every
  // tile between it and k has published at least its LS. Tile 0 of a strip always publishes GS.
  __device__ int64_t nearest_gs(int64_t k, int64_t s) const {
    const int lane = threadIdx.x & 31;
    for (int64_t top = k - 1;; top -= 32) {
      const int64_t j = top - lane;
      const unsigned st = state_once_published(j, s);
      const unsigned has_gs = __ballot_sync(0xffffffffu, st == kGS);
      if (has_gs) return top - (__ffs(has_gs) - 1);
    }
  }

  // Exclusive prefix of tile k (k >= 1) at value index c: GS(k') + LS(k'+1) + ... + LS(k-1), in
  // that order. The loads go out eight at a time (the distance k - k' is often in the hundreds
  // when one strip holds many tiles); the adds stay in order.
  __device__ T prefix(int64_t kprime, int64_t k, int64_t s, int c) const {
    T p = __ldcg(gs_of(kprime * strips + s) + c);
    int64_t q = kprime + 1;
    for (; q + 8 <= k; q += 8) {
      T v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) v[u] = __ldcg(ls_of((q + u) * strips + s) + c);
#pragma unroll
      for (int u = 0; u < 8; ++u) p = core::Wrap<T>::add(p, v[u]);
    }
    for (; q < k; ++q) p = core::Wrap<T>::add(p, __ldcg(ls_of(q * strips + s) + c));
    return p;
  }

  // The same for width 1, by a full warp: each lane loads one tile sum of a window of 32, and the
  // sums are added in tile order through shuffles. Every lane returns the prefix.
  __device__ T prefix_warp(int64_t kprime, int64_t k, int64_t s) const {
    const int lane = threadIdx.x & 31;
    T p = __ldcg(gs_of(kprime * strips + s));
    for (int64_t q0 = kprime + 1; q0 < k; q0 += 32) {
      const int64_t q = q0 + lane;
      const T v = q < k ? __ldcg(ls_of(q * strips + s)) : T(0);
      const int count = k - q0 < 32 ? (int)(k - q0) : 32;
      for (int u = 0; u < count; ++u) p = core::Wrap<T>::add(p, __shfl_sync(0xffffffffu, v, u));
    }
    return p;
  }
};

// An optional left operand: the sum of nothing is not added (so 0 + x never turns -0.0 into +0.0
// and a first element is copied exactly, as on the CPU backend).
template <class T>
struct Carry {
  T v;
  bool on;
  __device__ T apply(T x) const { return on ? core::Wrap<T>::add(v, x) : x; }
  __device__ Carry then(T x) const { return Carry{apply(x), true}; }  // (this) + x, in that order
};

// 16-byte vector access for V elements of T (V * sizeof(T) a multiple of 16), or element-wise.
// Plain loads (not the read-only path): in place, the block later writes what it read.
template <class T, int V>
__device__ __forceinline__ void load_vec(const T* p, T (&x)[V]) {
  static_assert((V * sizeof(T)) % 16 == 0, "vector of whole 16-byte words");
#pragma unroll
  for (int c = 0; c < (int)(V * sizeof(T) / 16); ++c) reinterpret_cast<uint4*>(x)[c] = reinterpret_cast<const uint4*>(p)[c];
}
template <class T, int V>
__device__ __forceinline__ void store_vec(T* p, const T (&x)[V]) {
  static_assert((V * sizeof(T)) % 16 == 0, "vector of whole 16-byte words");
#pragma unroll
  for (int c = 0; c < (int)(V * sizeof(T) / 16); ++c) reinterpret_cast<uint4*>(p)[c] = reinterpret_cast<const uint4*>(x)[c];
}

// Loads x[0..V) = (Tout)p[0..avail) (zeros past avail); vectorized when whole and `vec`.
template <class Tin, class Tout, int V>
__device__ __forceinline__ void load_row(const Tin* p, int avail, Tout (&x)[V]) {
  if (V > 1 && avail >= V) {
    if constexpr ((V * sizeof(Tin)) % 16 == 0) {
      alignas(16) Tin t[V];
      load_vec<Tin, V>(p, t);
#pragma unroll
      for (int e = 0; e < V; ++e) x[e] = (Tout)t[e];
      return;
    }
  }
#pragma unroll
  for (int e = 0; e < V; ++e) x[e] = e < avail ? (Tout)p[e] : (Tout)0;
}
template <class Tout, int V>
__device__ __forceinline__ void store_row(Tout* p, int avail, const Tout (&x)[V]) {
  if (V > 1 && avail >= V) {
    if constexpr ((V * sizeof(Tout)) % 16 == 0) {
      alignas(16) Tout t[V];
#pragma unroll
      for (int e = 0; e < V; ++e) t[e] = x[e];
      store_vec<Tout, V>(p, t);
      return;
    }
  }
#pragma unroll
  for (int e = 0; e < V; ++e)
    if (e < avail) p[e] = x[e];
}

}  // namespace scan
}  // namespace cuda
}  // namespace sgpu
