// The column-scan kernels. B(i, j) = A(0, j) + ... + A(i, j) in Tout arithmetic (integers wrap).
//
//  k_rows      row-major (columns strided): seed 000's LCP. A tile is TM = TY*d rows by TN = TX*V
//              columns; thread (y, x) loads d rows of V contiguous columns (16-byte words, so a warp
//              reads whole rows of the tile), sums them serially in registers, the TY per-thread
//              sums of each column are scanned across threads in shared memory, and the tiles of a
//              strip of columns are chained by look-back (scan_chain.cuh).
//  k_segments  column-major, short columns (m <= 32*V*kSegRows): G lanes of a warp per column, 32/G
//              columns per warp; each lane takes V contiguous elements per row of G*V, lane sums
//              scanned by shuffles, rows chained in registers. No inter-block dependence.
//  k_long      column-major, long columns: a tile is NW warps x U rows x 32 lanes x V elements of
//              one column; warps scan as above, warp sums are chained in shared memory, and the
//              tiles of a column by look-back.
// Every association order is fixed (left operand: the earlier rows), so results are bitwise
// reproducible; see docs/design.md for the order and its error bound.
#pragma once
#include <stdint.h>

#include "kernels/scan_chain.cuh"

namespace sgpu {
namespace cuda {
namespace scan {

constexpr int kThreads = 256;  // threads per block of every scan kernel
constexpr int kSegRows = 8;    // k_segments: rows of G*V elements a lane group holds at most
constexpr int kLongRows = 4;   // k_long: rows (U) per warp per tile
constexpr int kLongWarps = kThreads / 32;

template <class T>
__device__ __forceinline__ T add(T a, T b) { return core::Wrap<T>::add(a, b); }

template <class Tin, class Tout>
struct Args {
  const Tin* A;
  Tout* B;
  int m, n, lda, ldb;
  int64_t sA, sB;
  int64_t batch;
  // k_rows: threads across columns 1 << tx_log, thread rows per tile 1 << ty_log (fewer than the
  // block's when the matrices are short: the block then takes several tiles side by side, never
  // chained), rows per thread d, column strips per matrix.
  // k_segments: lanes per column 1 << g_log, rows u. k_long: tiles per column `ktiles`.
  int tx_log, ty_log, d, g_log, u;
  bool deep;  // few strips: the look-back may reach far (block-wide), else the shallow one
  int64_t strips_per_matrix, ktiles, tiles;
};

// ---- row-major: LCP ----------------------------------------------------------------------------
template <class Tin, class Tout, int V, int DMAX>
__global__ void __launch_bounds__(kThreads, 3) k_rows(Args<Tin, Tout> p, Chain<Tout> c) {
  __shared__ Tout sm[2][kThreads * V];  // the scan across thread rows; then [cur ^ 1] holds the prefixes
  __shared__ int64_t s_ticket, s_kprime;
  __shared__ int s_slot[kThreads / 32];
  const int tid = threadIdx.x;
  const int TX = 1 << p.tx_log, TY = 1 << p.ty_log;
  const int groups = (kThreads >> p.tx_log) >> p.ty_log;  // tiles per block at once (1 when chained)
  const int x = tid & (TX - 1), yb = tid >> p.tx_log;      // yb: thread row in the block
  const int g = yb >> p.ty_log, y = yb & (TY - 1);          // y: thread row in its tile
  const int TN = TX * V, TM = TY * p.d;
  unsigned long long pending = c.first_ticket();
  for (;;) {
    const int64_t ticket = c.next_tile(&s_ticket, pending);
    if (ticket * groups >= p.tiles) return;
    const int64_t t0 = ticket * groups + g;
    const bool live = t0 < p.tiles;
    const int64_t t = live ? t0 : 0;
    const int64_t k = t / c.strips, s = t - k * c.strips;
    const int64_t b = s / p.strips_per_matrix, js = s - b * p.strips_per_matrix;
    const int col = (int)(js * TN) + x * V;
    const int avail = live ? p.n - col : 0;
    const Tin* a = p.A + b * p.sA + col;
    Tout* o = p.B + b * p.sB + col;
    const int64_t irow = k * TM + (int64_t)y * p.d;  // this thread's first row

    Tout v[DMAX][V];
#pragma unroll
    for (int r = 0; r < DMAX; ++r)
      if (r < p.d) {
        const int64_t i = irow + r;
        if (i < p.m && avail > 0) load_row<Tin, Tout, V>(a + i * p.lda, avail, v[r]);
        else
#pragma unroll
          for (int e = 0; e < V; ++e) v[r][e] = (Tout)0;
      }
    // Speculative look-back while those loads are in flight: the value threads (y == 0) take the
    // predecessor's GS if it is published. (Its GS is GS(k-1) = prefix(k) by definition.)
    Tout pre[V];
    bool got = true;
    if (k > 0 && y == 0) {
      got = c.predecessor_done(k, s);
      if (got)
#pragma unroll
        for (int e = 0; e < V; ++e) pre[e] = __ldcg(c.gs_of((k - 1) * c.strips + s) + x * V + e);
    }
    // (The thread's sum is carried along rather than read as v[d - 1]: a runtime index would put
    // v in local memory.)
    Tout tot[V];
#pragma unroll
    for (int e = 0; e < V; ++e) tot[e] = v[0][e];
#pragma unroll
    for (int r = 1; r < DMAX; ++r)
      if (r < p.d)
#pragma unroll
        for (int e = 0; e < V; ++e) tot[e] = v[r][e] = add(v[r - 1][e], v[r][e]);

    // Scan of the per-thread sums across the TY thread rows (Kogge-Stone, ping-pong buffers).
    const int idx = yb * TN + x * V;
#pragma unroll
    for (int e = 0; e < V; ++e) sm[0][idx + e] = tot[e];
    int cur = 0;
    for (int off = 1; off < TY; off <<= 1) {
      __syncthreads();
#pragma unroll
      for (int e = 0; e < V; ++e) {
        Tout val = sm[cur][idx + e];
        if (y >= off) val = add(sm[cur][idx - off * TN + e], val);
        sm[cur ^ 1][idx + e] = val;
      }
      cur ^= 1;
    }
    const bool fast = __syncthreads_and(got);  // uniform: every value thread has its prefix

    // Chain the tiles of this strip (only where a later tile needs it or this one has a
    // predecessor). Fast path: publish GS at once, one barrier. Otherwise publish LS, look back.
    const bool has_next = k + 1 < p.ktiles;
    const Tout* ls = &sm[cur][(TY - 1) * TN + x * V];  // the tile's column sums (chained: one tile)
    Tout* sp = sm[cur ^ 1];                            // the strip's prefix above the tile, per column
    if (k == 0 || fast) {
      if (y == 0)
#pragma unroll
        for (int e = 0; e < V; ++e) {
          if (k > 0) sp[x * V + e] = pre[e];
          if (has_next) __stcg(c.gs_of(t) + x * V + e, k > 0 ? add(pre[e], ls[e]) : ls[e]);
        }
      if (has_next) {
        if (y == 0) __threadfence();
        c.mark(t, kGS);
      } else if (k > 0) {
        __syncthreads();
      }
    } else {
      if (has_next) {
        if (y == 0)
#pragma unroll
          for (int e = 0; e < V; ++e) __stcg(c.ls_of(t) + x * V + e, ls[e]);
        __threadfence();
        c.mark(t, kLS);
      }
      if (p.deep) {
        c.look_back(k, s, sp, sp + TN, kThreads * V - TN, s_slot);  // sp[0..TN): the prefix
      } else {
        if (tid < 32) {
          const int64_t kp = c.nearest_gs(k, s);
          if (tid == 0) s_kprime = kp;
        }
        __syncthreads();
        if (y == 0)
#pragma unroll
          for (int e = 0; e < V; ++e) sp[x * V + e] = c.prefix(s_kprime, k, s, x * V + e);
      }
      if (has_next && y == 0)  // (each thread reads the prefix values it wrote, or after a barrier)
#pragma unroll
        for (int e = 0; e < V; ++e) __stcg(c.gs_of(t) + x * V + e, add(sp[x * V + e], ls[e]));
      if (has_next) {
        __threadfence();
        c.mark(t, kGS);
      } else {
        __syncthreads();
      }
    }

    // carry = (prefix of the strip above the tile) + (sums of the thread rows above in the tile)
#pragma unroll
    for (int e = 0; e < V; ++e) {
      Carry<Tout> cr{(Tout)0, false};
      if (k > 0) cr = Carry<Tout>{sp[x * V + e], true};
      if (y > 0) cr = cr.then(sm[cur][idx - TN + e]);
#pragma unroll
      for (int r = 0; r < DMAX; ++r) v[r][e] = cr.apply(v[r][e]);
    }
#pragma unroll
    for (int r = 0; r < DMAX; ++r)
      if (r < p.d) {
        const int64_t i = irow + r;
        if (i < p.m && avail > 0) store_row<Tout, V>(o + i * p.ldb, avail, v[r]);
      }
  }
}

// ---- a row of G lanes x V elements: lane-serial sums, then a shuffle scan over the G lanes ----
template <class Tout, int V>
struct LaneRow {
  Tout x[V];        // lane-local inclusive prefix
  Carry<Tout> ex;   // sum of the lanes before this one in the row
  Tout total;       // the row's sum
  __device__ void scan(int lane_in_group, int G) {
#pragma unroll
    for (int e = 1; e < V; ++e) x[e] = add(x[e - 1], x[e]);
    Tout inc = x[V - 1];
    for (int off = 1; off < G; off <<= 1) {
      const Tout up = __shfl_up_sync(0xffffffffu, inc, off, G);
      if (lane_in_group >= off) inc = add(up, inc);
    }
    const Tout before = __shfl_up_sync(0xffffffffu, inc, 1, G);
    ex = Carry<Tout>{before, lane_in_group > 0};
    total = __shfl_sync(0xffffffffu, inc, G - 1, G);
  }
};

// ---- column-major, short columns ---------------------------------------------------------------
template <class Tin, class Tout, int V>
__global__ void __launch_bounds__(kThreads) k_segments(Args<Tin, Tout> p) {
  const int lane = threadIdx.x & 31, G = 1 << p.g_log, l = lane & (G - 1), q = lane >> p.g_log;
  const int per_warp = 32 >> p.g_log;
  const int64_t segments = p.batch * p.n;
  const int64_t warp = (blockIdx.x * (int64_t)kThreads + threadIdx.x) >> 5;
  const int64_t warps = (gridDim.x * (int64_t)kThreads) >> 5;
  for (int64_t first = warp * per_warp; first < segments; first += warps * per_warp) {  // warp-uniform
    const int64_t seg = first + q;
    const bool live = seg < segments;
    // Matrix and column of the segment: a 64-bit division costs more than a short column's
    // whole scan, so one matrix needs none and fewer than 2^32 segments a 32-bit one.
    int64_t b = 0, j = live ? seg : 0;
    if (p.batch > 1 && live) {
      if (segments <= 0xffffffffll) b = (unsigned)seg / (unsigned)p.n;
      else b = seg / p.n;
      j = seg - b * p.n;
    }
    const Tin* a = p.A + b * p.sA + j * p.lda;
    Tout* o = p.B + b * p.sB + j * p.ldb;
    Carry<Tout> run{(Tout)0, false};
#pragma unroll
    for (int r = 0; r < kSegRows; ++r)
      if (r < p.u) {
        const int off = (r * G + l) * V;
        const int avail = live ? p.m - off : 0;
        LaneRow<Tout, V> row;
        if (avail > 0) load_row<Tin, Tout, V>(a + off, avail, row.x);
        else
#pragma unroll
          for (int e = 0; e < V; ++e) row.x[e] = (Tout)0;
        row.scan(l, G);
#pragma unroll
        for (int e = 0; e < V; ++e) row.x[e] = run.apply(row.ex.apply(row.x[e]));
        if (avail > 0) store_row<Tout, V>(o + off, avail, row.x);
        run = run.then(row.total);
      }
  }
}

// ---- column-major, long columns: tiles chained by look-back ------------------------------------
template <class Tin, class Tout, int V>
__global__ void __launch_bounds__(kThreads, 4) k_long(Args<Tin, Tout> p, Chain<Tout> c) {
  constexpr int U = kLongRows;
  constexpr int L = kLongWarps * U * 32 * V;  // elements per tile
  __shared__ Tout s_warp[kLongWarps];
  __shared__ Tout s_prefix;
  __shared__ Tout s_buf[kThreads];  // look-back scratch
  __shared__ int s_slot[kThreads / 32];
  __shared__ int64_t s_ticket;
  __shared__ int s_got;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned long long pending = c.first_ticket();
  for (;;) {
    const int64_t t = c.next_tile(&s_ticket, pending);
    if (t >= p.tiles) return;
    const int64_t k = t / c.strips, s = t - k * c.strips;
    const int64_t b = s / p.n, j = s - b * p.n;
    const Tin* a = p.A + b * p.sA + j * p.lda;
    Tout* o = p.B + b * p.sB + j * p.ldb;
    const int64_t wstart = k * L + (int64_t)w * (U * 32 * V);
    LaneRow<Tout, V> row[U];
#pragma unroll
    for (int r = 0; r < U; ++r) {
      const int64_t off = wstart + (r * 32 + lane) * V;
      const int64_t avail = p.m - off;
      if (avail > 0) load_row<Tin, Tout, V>(a + off, avail > V ? V : (int)avail, row[r].x);
      else
#pragma unroll
        for (int e = 0; e < V; ++e) row[r].x[e] = (Tout)0;
    }
    // Speculative look-back while those loads are in flight (thread 0): the predecessor's GS.
    if (threadIdx.x == 0) {
      s_got = k > 0 && c.predecessor_done(k, s);
      if (s_got) s_prefix = __ldcg(c.gs_of((k - 1) * c.strips + s));
    }
#pragma unroll
    for (int r = 0; r < U; ++r) row[r].scan(lane, 32);
    Tout wsum = row[0].total;
#pragma unroll
    for (int r = 1; r < U; ++r) wsum = add(wsum, row[r].total);
    if (lane == 0) s_warp[w] = wsum;
    __syncthreads();

    // Chain: thread 0 stores and releases its own values (no barrier). Fast path (predecessor
    // done, or k = 0): GS at once. Otherwise LS, the look-back, then GS.
    const bool has_next = k + 1 < p.ktiles;
    if (k > 0 || has_next) {
      Tout tile_sum = s_warp[0];
      for (int q = 1; q < kLongWarps; ++q) tile_sum = add(tile_sum, s_warp[q]);
      if (k > 0 && !s_got) {  // (uniform: s_got was written before the barrier above)
        if (has_next && threadIdx.x == 0) {
          __stcg(c.ls_of(t), tile_sum);
          c.mark_own(t, kLS);
        }
        if (p.deep) {
          c.look_back(k, s, &s_prefix, s_buf, kThreads, s_slot);
        } else {
          if (w == 0) {
            const int64_t kp = c.nearest_gs(k, s);
            const Tout P = c.prefix_warp(kp, k, s);
            if (lane == 0) s_prefix = P;
          }
          __syncthreads();
        }
      }
      if (has_next && threadIdx.x == 0) {
        __stcg(c.gs_of(t), k > 0 ? add(s_prefix, tile_sum) : tile_sum);
        c.mark_own(t, kGS);
      }
    }
    Carry<Tout> run{(Tout)0, false};
    if (k > 0) run = Carry<Tout>{s_prefix, true};
    for (int q = 0; q < w; ++q) run = run.then(s_warp[q]);
#pragma unroll
    for (int r = 0; r < U; ++r) {
      const int64_t off = wstart + (r * 32 + lane) * V;
      const int64_t avail = p.m - off;
#pragma unroll
      for (int e = 0; e < V; ++e) row[r].x[e] = run.apply(row[r].ex.apply(row[r].x[e]));
      if (avail > 0) store_row<Tout, V>(o + off, avail > V ? V : (int)avail, row[r].x);
      run = run.then(row[r].total);
    }
  }
}

}  // namespace scan
}  // namespace cuda
}  // namespace sgpu
