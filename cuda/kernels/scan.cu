// The column scan's kernels (scan_kernels.cuh) on device memory: picks a kernel and its shape,
// keeps the look-back state, and launches. The drivers' view is scan.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <mutex>

#include "device/dev_setting.hpp"
#include "device/fault.hpp"
#include "kernels/scan.hpp"
#include "kernels/scan_kernels.cuh"
#include "scan_types.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
namespace scan {
namespace {

using namespace cuda::scan;

// k_rows: threads across the columns of a tile (TX, so a tile row is TX 16-byte words) and rows
// per thread (d); TY = 256 / TX thread rows. tuning.hpp's values; the developer setting
// SGPU_SCAN_TUNE="tx,d" overrides them (for the sweep).
constexpr int kRowsTX = tuning::kScanRowsTX;
constexpr int kRowsD = tuning::kScanRowsD;
constexpr int kRowsMinTX = 2;  // narrowest chained tile: 2 words (32 bytes, one sector) per row

struct Tune {
  int rows_tx = kRowsTX, rows_d = kRowsD;
  Tune() {
    if (const char* e = dev::setting("SGPU_SCAN_TUNE")) {
      int a = 0, b = 0;
      if (std::sscanf(e, "%d,%d", &a, &b) == 2 && a >= 1 && a <= 256 && (a & (a - 1)) == 0 && b >= 1 && b <= 8) {
        rows_tx = a;
        rows_d = b;
      }
    }
  }
};
const Tune& tune() {
  static const Tune t;
  return t;
}

int log2i(int v) {
  int l = 0;
  while ((1 << l) < v) ++l;
  return l;
}
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Device {
  int id = 0, sms = 1;
};
int current_device(Device& d) {
  if (cudaGetDevice(&d.id) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, d.id) != cudaSuccess) {
    (void)cudaGetLastError();
    return SGPU_ERR_DEVICE;
  }
  return 0;
}

// Resident blocks of a kernel on the device (a persistent grid: each block loops over tickets).
template <class K>
int resident_blocks(K kernel, const Device& d) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0) != cudaSuccess || per_sm < 1) {
    (void)cudaGetLastError();
    per_sm = 1;
  }
  return per_sm * d.sms;
}

// 16-byte words line up for every matrix: bases, leading dimensions and strides.
bool aligned16(const void* p, int64_t ld, int64_t stride, int64_t batch, size_t elem) {
  return ((uintptr_t)p % 16) == 0 && ((ld * (int64_t)elem) % 16) == 0 && (batch <= 1 || (stride * (int64_t)elem) % 16 == 0);
}

template <class Tin, class Tout, int V>
int launch(State& st, const Device& dev, cudaStream_t s, bool row_major, Args<Tin, Tout> p) {
  constexpr int DMAX = V >= 8 ? 2 : 8;
  // k_long: two 16-byte words per lane for 4-byte types (halves the shuffle scans per byte:
  // column-major f32 32K went from 1.16x to 1.04x the copy, 8K from 1.16x to 1.08x).
  constexpr int VL = (V > 1 && sizeof(Tin) == 4 && sizeof(Tout) == 4) ? 2 * V : V;
  if (!row_major && p.m <= 32 * V * kSegRows) {
    const int words = (int)cdiv(p.m, V);
    p.g_log = log2i(words < 32 ? words : 32);
    p.u = (int)cdiv(p.m, (int64_t)V << p.g_log);
    const int64_t warps = cdiv(p.batch * p.n, 32 >> p.g_log);
    const int64_t need = cdiv(warps, kThreads / 32);
    static int cap = resident_blocks(k_segments<Tin, Tout, V>, dev) * 4;
    k_segments<Tin, Tout, V><<<(unsigned)(need < cap ? need : cap), kThreads, 0, s>>>(p);
    return fault::launch_status() == cudaSuccess ? 0 : SGPU_ERR_DEVICE;
  }
  Chain<Tout> c{};
  int width = 1, groups = 1;
  if (row_major) {
    // Rows per thread d and the thread rows a matrix needs; short matrices get wider tiles, and
    // matrices shorter than the block's thread rows get several tiles per block.
    const Tune& tn = tune();
    const int words = (int)cdiv(p.n, V);
    const int d = std::min({DMAX, tn.rows_d, 1 << log2i(p.m < 8 ? p.m : 8)});
    const int64_t ty_need = int64_t(1) << log2i((int)std::min<int64_t>(cdiv(p.m, d), kThreads));
    // (A chained tile's width tx * V stays <= kThreads / 2: its look-back gives each value a
    // thread and uses the rest of the shared buffer for tile sums.)
    const int tx_chain = std::min(tn.rows_tx, kThreads / 2 / V > 0 ? kThreads / 2 / V : 1);
    int tx = (int)std::min<int64_t>(1 << log2i(words < kThreads ? words : kThreads),
                                    std::max<int64_t>(tx_chain, kThreads / ty_need));
    // Chained: narrower tiles until the strips outnumber the resident blocks, so that a tile's
    // predecessor (handed out `strips` tickets earlier) is done and the fast path applies.
    static const int rows_resident = resident_blocks(k_rows<Tin, Tout, V, DMAX>, dev);
    while (tx > kRowsMinTX && (int64_t)kThreads / tx < ty_need &&
           p.batch * cdiv(p.n, (int64_t)tx * V) < rows_resident)
      tx /= 2;
    const int ty = (int)std::min<int64_t>(kThreads / tx, ty_need);
    groups = kThreads / tx / ty;
    p.tx_log = log2i(tx);
    p.ty_log = log2i(ty);
    p.d = d;
    width = tx * V;
    p.strips_per_matrix = cdiv(p.n, width);
    p.ktiles = cdiv(p.m, (int64_t)ty * p.d);  // 1 whenever groups > 1
    c.strips = p.batch * p.strips_per_matrix;
  } else {
    p.ktiles = cdiv(p.m, (int64_t)kLongWarps * kLongRows * 32 * VL);
    c.strips = p.batch * p.n;
  }
  p.tiles = p.ktiles * c.strips;
  c.width = width;
  const bool chained = p.ktiles > 1;
  const size_t half = chained ? (size_t)p.tiles * width * sizeof(Tout) : 0;
  if (int e = st.prepare(dev.id, chained ? (size_t)p.tiles : 1, 2 * half + 16, s)) return e;
  c.flag = st.flags;
  c.ls = static_cast<Tout*>(st.vals);
  c.gs = reinterpret_cast<Tout*>(static_cast<char*>(st.vals) + half);
  c.epoch = st.epoch;
  c.counter = st.counter;
  c.base = st.next;
  int grid = 0;
  const int64_t tickets = cdiv(p.tiles, groups);
  // Deep look-back when a strip's consecutive tiles are handed out closer together than the
  // tiles in flight (about a thousand: 132 SMs x 8 blocks): measured, the shallow one is faster
  // when predecessors are done, the block-wide one when they trail far (one long strip).
  p.deep = c.strips < 1024;
  if (row_major) {
    static int cap = resident_blocks(k_rows<Tin, Tout, V, DMAX>, dev);
    grid = (int)(tickets < cap ? tickets : cap);
    k_rows<Tin, Tout, V, DMAX><<<grid, kThreads, 0, s>>>(p, c);
  } else {
    static int cap = resident_blocks(k_long<Tin, Tout, VL>, dev);
    grid = (int)(p.tiles < cap ? p.tiles : cap);
    k_long<Tin, Tout, VL><<<grid, kThreads, 0, s>>>(p, c);
  }
  // Every block draws tickets until one lands past the end, and one more (it draws ahead).
  st.next += (unsigned long long)tickets + 2ull * (unsigned long long)grid;
  if (fault::launch_status() != cudaSuccess) {
    st.free_all();  // the counter's position is unknown now: start over next time
    return SGPU_ERR_DEVICE;
  }
  return 0;
}

template <class Tin, class Tout>
int scan_typed(State& st, const Device& dev, cudaStream_t s, bool row_major, int m, int n, const void* A, int lda,
               int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch) {
  Args<Tin, Tout> p{};
  p.A = static_cast<const Tin*>(A);
  p.B = static_cast<Tout*>(B);
  p.m = m;
  p.n = n;
  p.lda = lda;
  p.ldb = ldb;
  p.sA = strideA;
  p.sB = strideB;
  p.batch = batch;
  constexpr int V = 16 / sizeof(Tin);
  if (aligned16(A, lda, strideA, batch, sizeof(Tin)) && aligned16(B, ldb, strideB, batch, sizeof(Tout)))
    return launch<Tin, Tout, V>(st, dev, s, row_major, p);
  return launch<Tin, Tout, 1>(st, dev, s, row_major, p);
}

}  // namespace

// ---- the look-back state -------------------------------------------------------------------------

void State::free_all() {
  fault::dev_free(flags);
  fault::dev_free(vals);
  fault::dev_free(counter);
  flags = nullptr;
  vals = nullptr;
  counter = nullptr;
  flag_cap = val_cap = 0;
  next = 0;
  epoch = 0;
}

int State::fail_alloc() {
  (void)cudaGetLastError();
  free_all();
  return SGPU_ERR_DEVICE_ALLOC;
}

int State::prepare(int dev, size_t tiles, size_t vbytes, cudaStream_t s) {
  if (device != dev) {
    free_all();
    device = dev;
  }
  if (!counter) {
    if (fault::dev_malloc(reinterpret_cast<void**>(&counter), sizeof *counter) != cudaSuccess) return fail_alloc();
    if (fault::memset_async(counter, 0, sizeof *counter, s) != cudaSuccess) return SGPU_ERR_DEVICE;
    next = 0;
  }
  if (flag_cap < tiles) {
    fault::dev_free(flags);
    flags = nullptr;
    flag_cap = 0;
    size_t cap = tiles < 4096 ? 4096 : tiles + tiles / 4;
    if (fault::dev_malloc(reinterpret_cast<void**>(&flags), cap * sizeof(unsigned)) != cudaSuccess) return fail_alloc();
    if (fault::memset_async(flags, 0, cap * sizeof(unsigned), s) != cudaSuccess) return SGPU_ERR_DEVICE;
    flag_cap = cap;
  }
  if (val_cap < vbytes) {
    fault::dev_free(vals);
    vals = nullptr;
    val_cap = 0;
    size_t cap = vbytes < (1u << 16) ? (1u << 16) : vbytes + vbytes / 4;
    if (fault::dev_malloc(&vals, cap) != cudaSuccess) return fail_alloc();
    val_cap = cap;
  }
  if (++epoch >= (1u << 30)) {  // epochs wrap: clear the flags once every 2^30 calls
    if (fault::memset_async(flags, 0, flag_cap * sizeof(unsigned), s) != cudaSuccess) return SGPU_ERR_DEVICE;
    epoch = 1;
  }
  return 0;
}

size_t State::bytes() const { return flag_cap * sizeof(unsigned) + val_cap + (counter ? sizeof *counter : 0); }

int enqueue(State& st, cudaStream_t s, const args::ScanCols& a) {
  Device dev;
  if (int e = current_device(dev)) return e;
  return with_scan_types(a.tin, a.tout, [&](auto in, auto out) {
    return scan_typed<decltype(in), decltype(out)>(st, dev, s, a.row_major, a.m, a.n, a.A, a.lda, a.sA, a.B, a.ldb,
                                                   a.sB, a.batch);
  });
}

}  // namespace scan
}  // namespace gpu
}  // namespace sgpu
