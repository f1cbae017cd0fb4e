// GPU backend of sgpu_scan_cols: picks a kernel and its shape (cuda/scan_kernels.cuh), keeps the
// look-back state of the context between calls, and launches on the context's stream. With
// device operands the call is asynchronous (stream-ordered, as cuBLAS); host operands are staged
// by the seam, which waits.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <mutex>

#include "../lib/check.hpp"
#include "../lib/dispatch.hpp"
#include "../lib/largest_count.hpp"
#include "../lib/internal.hpp"
#include "fault.hpp"
#include "eig_pipeline.hpp"
#include "on_devices.hpp"
#include "../lib/scan_types.hpp"
#include "scan_kernels.cuh"
#include "scan_stream.cuh"
#include "dev_setting.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {
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

// ---- the context's look-back state -------------------------------------------------------------
// Flags and tile sums grow with the largest call; the ticket counter and the epoch run on across
// calls (scan_chain.cuh), so a call needs no reset.
struct ScanState {
  int device = -1;
  unsigned* flags = nullptr;
  size_t flag_cap = 0;
  void* vals = nullptr;
  size_t val_cap = 0;
  unsigned long long* counter = nullptr;
  unsigned long long next = 0;
  unsigned epoch = 0;
  void free_all() {
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
  ~ScanState() { free_all(); }

  // Room for `tiles` flags and `vbytes` of tile sums on the current device, then a fresh epoch.
  int prepare(int dev, size_t tiles, size_t vbytes, cudaStream_t s) {
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
  int fail_alloc() {
    (void)cudaGetLastError();
    free_all();
    return SGPU_ERR_DEVICE_ALLOC;
  }
};

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
int launch(ScanState& st, const Device& dev, cudaStream_t s, bool row_major, Args<Tin, Tout> p) {
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
int scan_typed(ScanState& st, const Device& dev, cudaStream_t s, bool row_major, int m, int n, const void* A, int lda,
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

// Host operands: streamed in pieces over three streams (scan_stream.cuh), after the context's
// stream (an event orders the pipeline behind work already queued there); returns when B is written.
template <class Tin, class Tout>
int scan_streamed(const scanstream::StreamPlan& plan, int64_t p0, int64_t p1, const Device& dev, cudaStream_t ctx_stream,
                  bool rm, int m, int n, const void* A, int lda, int64_t strideA, void* B, int ldb, int64_t strideB,
                  int64_t batch) {
  using namespace scanstream;
  const size_t sin = sizeof(Tin), sout = sizeof(Tout);
  const bool shared = A == B;  // in place: one device buffer per stream (same element size)
  struct Lane {
    cudaStream_t s = nullptr;
    void* dA = nullptr;
    void* dB = nullptr;
    ScanState st;
  } lanes[kStreams];
  int err = 0;
  cudaEvent_t ready = nullptr;
  if (cudaEventCreateWithFlags(&ready, cudaEventDisableTiming) != cudaSuccess ||
      cudaEventRecord(ready, ctx_stream) != cudaSuccess)
    err = SGPU_ERR_DEVICE;
  const int64_t used = std::min<int64_t>(kStreams, p1 - p0);
  for (int64_t k = 0; k < used && !err; ++k) {
    Lane& l = lanes[k];
    if (cudaStreamCreateWithFlags(&l.s, cudaStreamNonBlocking) != cudaSuccess || cudaStreamWaitEvent(l.s, ready, 0) != cudaSuccess) {
      err = SGPU_ERR_DEVICE;
      break;
    }
    if (fault::dev_malloc(&l.dA, (size_t)plan.max_in) != cudaSuccess ||
        (!shared && fault::dev_malloc(&l.dB, (size_t)plan.max_out) != cudaSuccess)) {
      err = SGPU_ERR_DEVICE_ALLOC;
      break;
    }
    if (shared) l.dB = l.dA;
  }
  const char* a0 = static_cast<const char*>(A);
  char* b0 = static_cast<char*>(B);
  for (int64_t i = p0; i < p1 && !err; ++i) {
    Lane& l = lanes[(i - p0) % kStreams];
    const Piece p = plan.piece(i, batch);
    const int64_t height = p.nb * p.nl;  // copied lines: nb matrices of nl lines each (packed) or nl
    const int64_t offA = p.b0 * strideA + p.line0 * lda + p.e0, offB = p.b0 * strideB + p.line0 * ldb + p.e0;
    // The piece on the device: packed, ld = ne, nb matrices of nl lines.
    const int dm = rm ? (int)p.nl : m, dn = rm ? (int)p.ne : (int)p.nl;
    if (fault::copy2d_async(l.dA, p.ne * sin, a0 + offA * (int64_t)sin, (size_t)lda * sin, p.ne * sin, height,
                            l.s) != cudaSuccess) {
      err = SGPU_ERR_DEVICE;
      break;
    }
    if ((err = scan_typed<Tin, Tout>(l.st, dev, l.s, rm, dm, dn, l.dA, (int)p.ne, p.ne * p.nl, l.dB, (int)p.ne,
                                      p.ne * p.nl, p.nb)))
      break;
    if (fault::copy2d_async(b0 + offB * (int64_t)sout, (size_t)ldb * sout, l.dB, p.ne * sout, p.ne * sout, height,
                            l.s) != cudaSuccess)
      err = SGPU_ERR_DEVICE;
  }
  for (Lane& l : lanes) {
    if (l.s && cudaStreamSynchronize(l.s) != cudaSuccess && !err) err = SGPU_ERR_DEVICE;
    fault::dev_free(l.dA);
    if (!shared) fault::dev_free(l.dB);
    if (l.s) cudaStreamDestroy(l.s);
  }
  if (ready) cudaEventDestroy(ready);
  (void)cudaGetLastError();
  return err;
}

}  // namespace

void release_context(sgpu_context* ctx) {
  eig_pipeline::release(ctx);
  delete static_cast<ScanState*>(ctx->gpu_scan);
  ctx->gpu_scan = nullptr;
}

int scan_cols(sgpu_context* ctx, int layout, sgpu_type_t tin, sgpu_type_t tout, int m, int n, const void* A, int lda,
              int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch) {
  Device dev;
  if (int e = current_device(dev)) return e;
  cudaStream_t s = static_cast<cudaStream_t>(ctx->stream);
  const bool rm = layout == SGPU_ROW_MAJOR;
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  if (classify(A) == MemKind::kHost || classify(B) == MemKind::kHost) {
    const size_t sin = check::type_size(tin), sout = check::type_size(tout);
    const bool shared = A == B;
    int64_t piece = 0;
    if (limit > 0 && (piece = scanstream::piece_within(limit, sin, sout, shared)) <= 0) return SGPU_ERR_DEVICE_ALLOC;
    const scanstream::StreamPlan plan(rm, m, n, lda, strideA, ldb, strideB, batch, sin, sout, piece);
    if (plan.ok) {
      // (A piece is at least one column, or 16 columns of a row-major matrix.)
      if (limit > 0 && plan.lane_bytes(shared) > piece * (int64_t)(shared ? std::max(sin, sout) : sin + sout) / (int64_t)sin)
        return SGPU_ERR_DEVICE_ALLOC;
      const int devices = (int)std::min<int64_t>(ctx->ndevices, plan.pieces);
      return with_scan_types(tin, tout, [&](auto in, auto out) {
        return on_devices(ctx->devices, devices, [&](int k) {
          Device dk;
          if (int e = k == 0 ? (dk = dev, 0) : current_device(dk)) return e;
          const int64_t p0 = plan.pieces * k / devices, p1 = plan.pieces * (k + 1) / devices;
          return scan_streamed<decltype(in), decltype(out)>(plan, p0, p1, dk, k == 0 ? s : nullptr, rm, m, n, A, lda,
                                                            strideA, B, ldb, strideB, batch);
        });
      });
    }
    // Small matrices with gaps between them: staged whole, then the device path below; under a
    // device-memory limit in sub-batches whose spans fit.
    const int64_t lines = rm ? m : n, len = rm ? n : m;
    auto spans = [&](int64_t k) {
      return span_bytes(k, strideA, lda, len, lines, sin) + span_bytes(k, strideB, ldb, len, lines, sout);
    };
    const int64_t per =
        limit > 0 ? largest_count(batch, [&](int64_t k) { return (int64_t)spans(k) + scanstream::kStateReserve <= limit; })
                  : batch;
    if (per == 0 && batch > 0) return SGPU_ERR_DEVICE_ALLOC;
    for (int64_t b0 = 0; b0 < batch; b0 += per) {
      const int64_t nb = std::min(per, batch - b0);
      void* a = const_cast<char*>(static_cast<const char*>(A)) + b0 * strideA * (int64_t)sin;
      void* b = static_cast<char*>(B) + b0 * strideB * (int64_t)sout;
      const Operand ops[] = {{&a, span_bytes(nb, strideA, lda, len, lines, sin), false},
                             {&b, span_bytes(nb, strideB, ldb, len, lines, sout), true}};
      const int st = with_device_operands(ctx, ops, 2, [&] {
        return scan_cols(ctx, layout, tin, tout, m, n, a, lda, strideA, b, ldb, strideB, nb);
      });
      if (st) return st;
    }
    return 0;
  }
  // The context's state serves one call at a time; a concurrent call on the same context gets a
  // private one (freed when it returns: cudaFree waits for its kernel).
  std::unique_lock<std::mutex> lock(ctx->gpu_mutex, std::try_to_lock);
  ScanState private_state;
  ScanState* st = &private_state;
  if (lock.owns_lock()) {
    if (!ctx->gpu_scan) ctx->gpu_scan = new (std::nothrow) ScanState;
    if (!ctx->gpu_scan) return SGPU_ERR_HOST_ALLOC;
    st = static_cast<ScanState*>(ctx->gpu_scan);
  }
  return with_scan_types(tin, tout, [&](auto in, auto out) {
    return scan_typed<decltype(in), decltype(out)>(*st, dev, s, rm, m, n, A, lda, strideA, B, ldb, strideB, batch);
  });
}

}  // namespace gpu
}  // namespace sgpu
