// Tile chains of the column scans (seed 000 §3.3, decoupled look-back, made deterministic): the
// tiles of one scan line (a strip of columns of a row-major matrix, or one column of a
// column-major one) are numbered k = 0, 1, ... down the line. Every tile publishes its local sums
// LS(k) as soon as it has them. Tiles are grouped in windows of 32 (window J: tiles 32J..32J+31).
//
// Determinism. The prefix of tile k = 32J + r is defined with a fixed association:
//   WS(j)     = LS(32j) + LS(32j+1) + ... + LS(32j+31)          (left to right)
//   GW(J-1)   = ((WS(0) + WS(1)) + ...) + WS(J-1)               (left to right)
//   prefix(k) = GW(J-1) + [LS(32J) + ... + LS(k-1)]             (the bracket left to right)
// Each tile also publishes its in-window prefix PW(k) = LS(32J) + ... + LS(k) (so WS(J) is
// PW(32J+31)), and the last tile of each window GW(J) = GW(J-1) + WS(J). A tile looks back to the
// nearest window J' < J whose GW is published and sums GW(J') + WS(J'+1) + ... + WS(J-1) in that
// order, which is GW(J-1) by induction whatever J' the timing offered; likewise the bracket from
// the nearest published PW in its window. So results are bitwise reproducible, and in the common
// case (predecessors done) a look-back is one hop. Seed 000 and CUB instead add whatever predecessor sums they find, an association
// that depends on timing. The window sums of one look-back are independent, so the block forms
// them in parallel: a look-back costs a few memory round trips however far behind the published
// frontier is (with one long strip and ~1000 resident tiles it trails by hundreds of tiles).
//
// Tickets. Tiles are handed out by an atomic counter in increasing id = k * strips + s, so a tile
// only ever waits (for LS) on tiles already taken by running blocks, which publish their LS
// without waiting on anything: no deadlock, whatever the grid. Window sums are never waited for:
// an unpublished one is formed from its tiles' LS. The counter and the flags are never reset: a
// call takes tickets from `base` on, and flags carry the call's epoch, so stale flags of earlier
// calls read as "not yet" (no memset, no extra launch per call).
#pragma once
#include <stdint.h>

#include "../compat/core/scan.hpp"

namespace sgpu {
namespace cuda {
namespace scan {

enum : unsigned { kLS = 1, kPW = 2, kGW = 3 };
constexpr int kWindow = 32;

__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// An optional left operand: the sum of nothing is not added (so 0 + x never turns -0.0 into +0.0
// and a first element is copied exactly, as on the CPU backend).
template <class T>
struct Carry {
  T v;
  bool on;
  __device__ T apply(T x) const { return on ? core::Wrap<T>::add(v, x) : x; }
  __device__ Carry then(T x) const { return Carry{apply(x), true}; }  // (this) + x, in that order
};

// The state of one call's tiles. `width` values per tile (columns of a strip; 1 for a column).
template <class T>
struct Chain {
  unsigned* flag;   // per tile: epoch << 2 | kLS or kPW
  unsigned* wflag;  // per window: epoch << 2 | kGW
  T* ls;            // per tile, width values
  T* pw;            // per tile, width values
  T* gw;            // per window, width values
  unsigned epoch;   // 1 .. 2^30 - 1
  int width;
  int64_t strips;   // tile id = k * strips + s; window id = J * strips + s
  unsigned long long* counter;
  unsigned long long base;  // this call's first ticket

  __device__ T* ls_of(int64_t id) const { return ls + id * width; }
  __device__ T* pw_of(int64_t id) const { return pw + id * width; }
  __device__ T* gw_of(int64_t wid) const { return gw + wid * width; }

  // The block's next ticket (thread 0 draws it; every thread gets it). Ends the previous tile.
  __device__ int64_t next_ticket(int64_t* slot) const {
    __syncthreads();
    if (threadIdx.x == 0) *slot = (int64_t)(atomicAdd(counter, 1ull) - base);
    __syncthreads();
    return *slot;
  }

  // Block-wide, after the block's writers stored values (with __stcg) and fenced: marks tile id
  // with `state` (0: leave it) and window wid (< 0: none) as published.
  __device__ void mark(int64_t id, unsigned state, int64_t wid) const {
    __syncthreads();
    if (threadIdx.x == 0) {
      if (state) st_release(flag + id, epoch << 2 | state);
      if (wid >= 0) st_release(wflag + wid, epoch << 2 | kGW);
    }
  }

  // Waits until tiles lo..hi-1 of strip s have published LS, then returns acc + LS(lo) + ... +
  // LS(hi-1) at value c, left to right. Flags are polled eight at a time with relaxed loads, then
  // one fence.
  __device__ Carry<T> sum_tiles(int64_t lo, int64_t hi, int64_t s, int c, Carry<T> acc) const {
    for (int64_t q = lo; q < hi; q += 8) {
      const int cnt = hi - q < 8 ? (int)(hi - q) : 8;
      bool ready;
      do {
        ready = true;
#pragma unroll
        for (int u = 0; u < 8; ++u)
          if (u < cnt) ready &= (ld_relaxed(flag + (q + u) * strips + s) >> 2) == epoch;
      } while (!ready);
      __threadfence();
      T v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) v[u] = u < cnt ? __ldcg(ls_of((q + u) * strips + s) + c) : T(0);
#pragma unroll
      for (int u = 0; u < 8; ++u)
        if (u < cnt) acc = acc.then(v[u]);
    }
    return acc;
  }

  // What a tile k >= 1 of strip s learns by looking back, per value c = threadIdx.x < width:
  // gw = GW(J-1) (off for J = 0) and part = LS(32J) + ... + LS(k-1) (off when k = 32J).
  struct Look {
    Carry<T> gw, part;
  };

  // Look-back, phase 1 (block-wide, k >= 1; no waiting, so the tile's own loads issued before it
  // are still in flight meanwhile): by warp 0, the nearest published window J' < J (or -1, 32
  // windows per step) and the nearest tile k' in [32J, k) with its PW published (or -1), into
  // slot[0..1]. Returns whether they complete the prefix (J' = J - 1 or J = 0, and k' = k - 1 or
  // k = 32J): the common case, when the predecessors are done.
  __device__ bool find(int64_t k, int64_t s, int64_t* slot) const {
    const int64_t J = k / kWindow, first_tile = J * kWindow;
    const int tid = threadIdx.x, lane = tid & 31;
    if (tid < 32) {
      int64_t found = -1;
      for (int64_t top = J - 1; top >= 0; top -= 32) {
        const int64_t j = top - lane;
        const bool pub = j >= 0 && (ld_relaxed(wflag + j * strips + s) >> 2) == epoch;
        const unsigned b = __ballot_sync(0xffffffffu, pub);
        if (b) {
          found = top - (__ffs(b) - 1);
          break;
        }
      }
      const int64_t q = k - 1 - lane;
      const bool pub = q >= first_tile && ld_relaxed(flag + q * strips + s) == (epoch << 2 | kPW);
      const unsigned b = __ballot_sync(0xffffffffu, pub);
      if (tid == 0) {
        slot[0] = found;
        slot[1] = b ? k - 1 - (__ffs(b) - 1) : -1;
      }
    }
    __syncthreads();
    __threadfence();
    return slot[0] == J - 1 && (k == first_tile || slot[1] == k - 1);
  }

  // Phase 2 (per value thread): the published sums phase 1 found.
  __device__ Look start(int64_t k, int64_t s, const int64_t* slot) const {
    Look me{{T(0), false}, {T(0), false}};
    const int c = threadIdx.x;
    if (c < width) {
      if (slot[0] >= 0) me.gw = Carry<T>{__ldcg(gw_of(slot[0] * strips + s) + c), true};
      if (slot[1] >= 0) me.part = Carry<T>{__ldcg(pw_of(slot[1] * strips + s) + c), true};
    }
    return me;
  }

  // Phase 3 (block-wide; only when phase 1 was not complete, and after this tile published its
  // LS): the rest, waiting for LS where needed. `buf`: shared memory for `cap` >= width values.
  __device__ Look finish(int64_t k, int64_t s, const int64_t* slot, Look me, T* buf, int cap) const {
    const int64_t J = k / kWindow, first_tile = J * kWindow, jp = slot[0], kp = slot[1];
    const int tid = threadIdx.x, c = tid;
    // Window sums WS(jp+1 .. J-1), a chunk of windows at a time: (window, value) pairs spread
    // over the threads, then each value's thread adds them in window order.
    const int per = cap / width;
    for (int64_t j0 = jp + 1; j0 < J; j0 += per) {
      const int nw = J - j0 < per ? (int)(J - j0) : per;
      for (int p = tid; p < nw * width; p += blockDim.x) {
        const int64_t j = j0 + p / width, last = (j * kWindow + kWindow - 1) * strips + s;
        // WS(j) is the window's last PW when published, else the sum of its 32 LS.
        if (ld_relaxed(flag + last) == (epoch << 2 | kPW)) {
          __threadfence();
          buf[p] = __ldcg(pw_of(last) + p % width);
        } else {
          buf[p] = sum_tiles(j * kWindow, j * kWindow + kWindow, s, p % width, Carry<T>{T(0), false}).v;
        }
      }
      __syncthreads();
      if (c < width)
        for (int q = 0; q < nw; ++q) me.gw = me.gw.then(buf[q * width + c]);
      __syncthreads();
    }
    if (c < width && k > first_tile)
      me.part = kp >= 0 ? sum_tiles(kp + 1, k, s, c, me.part) : sum_tiles(first_tile, k, s, c, Carry<T>{T(0), false});
    return me;
  }
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
