// sgpu_scan_cols on the GPU: the entry point of the backend interface. Where the operands are
// (classified once by lib/, args::ScanCols::kind) decides how the call runs:
//  - both in device (or managed) memory: one launch on the context's stream, asynchronous
//    (stream-ordered, as cuBLAS);
//  - either in host memory: streamed in pieces by the engine (stream/engine.hpp), cut as
//    drivers/scan_plan.hpp says; small matrices with gaps between them, which no piece describes,
//    are staged whole through device buffers (drivers/seam.hpp), then as device data. These
//    return when B is written.
#include <algorithm>
#include <cstdint>

#include "backend.hpp"
#include "drivers/scan_plan.hpp"
#include "drivers/seam.hpp"
#include "kernels/scan.hpp"
#include "largest_count.hpp"
#include "stream/engine.hpp"

namespace sgpu {
namespace gpu {

namespace {

// The scan kernels' look-back state as a lane's state (stream/cache.hpp).
struct ScanLaneState : stream::LaneState {
  scan::State st;
  void trim(size_t max_bytes) override {
    if (st.bytes() > max_bytes) st.free_all();
  }
};

// a on device memory, on the context's stream with lane 0's look-back state.
int run_device(sgpu_context* ctx, const args::ScanCols& a) {
  return stream::with_cache(ctx, [&](stream::Cache& c) {
    stream::DeviceCache* dc = c.get(0, ctx->device);
    ScanLaneState* ls = dc ? dc->lanes[0].state<ScanLaneState>() : nullptr;
    if (!ls) return SGPU_ERR_HOST_ALLOC;
    return scan::enqueue(ls->st, static_cast<cudaStream_t>(ctx->stream), a);
  });
}

// The streamed call as the engine sees it: operand 0 is A (B too when in place: one buffer per
// lane), operand 1 is B; piece i is plan.piece(i) of both, packed on the device with ld = ne.
class ScanWork : public stream::Work {
 public:
  ScanWork(const args::ScanCols& a, const scanstream::StreamPlan& plan) : a_(a), plan_(plan) {
    shared_ = a.A == a.B;
    pieces = plan.pieces;
    nops = 2;
    // Device and managed memory are copied directly too (the engine's DMA takes any address).
    stream::Operand& in = ops[0];
    in.used = in.in = true;
    in.out = shared_;
    in.pinned = a.kind[args::ScanCols::kA] != MemKind::kHost;
    in.host = static_cast<char*>(const_cast<void*>(a.A));
    in.span = span_bytes(a.batch, a.sA, a.lda, a.len(), a.lines(), a.ein);
    in.piece_bytes = (size_t)(shared_ ? std::max(plan.max_in, plan.max_out) : plan.max_in);
    if (!shared_) {
      stream::Operand& out = ops[1];
      out.used = out.out = true;
      out.pinned = a.kind[args::ScanCols::kB] != MemKind::kHost;
      out.host = static_cast<char*>(a.B);
      out.span = span_bytes(a.batch, a.sB, a.ldb, a.len(), a.lines(), a.eout);
      out.piece_bytes = (size_t)plan.max_out;
    }
  }
  stream::Region region(int f, int64_t i) const override {
    const scanstream::Piece p = plan_.piece(i, a_.batch);
    const bool b = f == 1;  // (in place: operand 0 alone, A's layout is B's)
    const size_t e = b ? a_.eout : a_.ein;
    const int64_t ld = b ? a_.ldb : a_.lda, stride = b ? a_.sB : a_.sA;
    char* base = b ? static_cast<char*>(a_.B) : static_cast<char*>(const_cast<void*>(a_.A));
    // nb matrices of nl lines each (packed pieces) or nl lines of one matrix, ne elements each.
    const int64_t off = p.b0 * stride + p.line0 * ld + p.e0;
    return stream::Region{base + off * (int64_t)e, (size_t)ld * e, (size_t)p.ne * e, p.nb * p.nl};
  }
  int compute(stream::Lane& l, int64_t i, void* const* dev, bool) override {
    const scanstream::Piece p = plan_.piece(i, a_.batch);
    ScanLaneState* ls = l.state<ScanLaneState>();
    if (!ls) return SGPU_ERR_HOST_ALLOC;
    args::ScanCols d = a_;  // the piece on the device: packed, ld = ne, nb matrices of nl lines
    d.m = a_.row_major ? (int)p.nl : a_.m;
    d.n = a_.row_major ? (int)p.ne : (int)p.nl;
    d.A = dev[0];
    d.lda = (int)p.ne;
    d.sA = p.ne * p.nl;
    d.B = shared_ ? dev[0] : dev[1];
    d.ldb = (int)p.ne;
    d.sB = p.ne * p.nl;
    d.batch = p.nb;
    return scan::enqueue(ls->st, l.s, d);
  }

 private:
  const args::ScanCols& a_;
  const scanstream::StreamPlan& plan_;
  bool shared_ = false;
};

// Host operands (either of them): streamed, or staged where the plan cannot cut the call.
int run_host(sgpu_context* ctx, const args::ScanCols& a) {
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  const size_t sin = a.ein, sout = a.eout;
  const bool shared = a.A == a.B;
  int64_t piece = 0;
  if (limit > 0 && (piece = scanstream::piece_within(limit, sin, sout, shared)) <= 0) return SGPU_ERR_DEVICE_ALLOC;
  const scanstream::StreamPlan plan(a.row_major, a.m, a.n, a.lda, a.sA, a.ldb, a.sB, a.batch, sin, sout, piece);
  if (plan.ok) {
    // (A piece is at least one column, or 16 columns of a row-major matrix.)
    const int64_t lane_most = piece * (int64_t)(shared ? std::max(sin, sout) : sin + sout) / (int64_t)sin;
    if (limit > 0 && plan.lane_bytes(shared) > lane_most) return SGPU_ERR_DEVICE_ALLOC;
    ScanWork w(a, plan);
    const size_t state_bytes =
        limit > 0 ? (size_t)std::max<int64_t>(0, limit / scanstream::kStreams - plan.lane_bytes(shared)) : 0;
    return stream::with_cache(ctx, [&](stream::Cache& cache) { return stream::run(ctx, cache, w, limit > 0, state_bytes); });
  }
  // Small matrices with gaps between them: staged whole, then the device path; under a
  // device-memory limit in sub-batches whose spans fit.
  const int64_t lines = a.lines(), len = a.len();
  auto spans = [&](int64_t k) {
    return span_bytes(k, a.sA, a.lda, len, lines, sin) + span_bytes(k, a.sB, a.ldb, len, lines, sout);
  };
  const int64_t per =
      limit > 0
          ? largest_count(a.batch, [&](int64_t k) { return (int64_t)spans(k) + scanstream::kStateReserve <= limit; })
          : a.batch;
  if (per == 0 && a.batch > 0) return SGPU_ERR_DEVICE_ALLOC;
  for (int64_t b0 = 0; b0 < a.batch; b0 += per) {
    args::ScanCols d = a;
    d.batch = std::min(per, a.batch - b0);
    d.A = static_cast<const char*>(a.A) + b0 * a.sA * (int64_t)sin;
    d.B = static_cast<char*>(a.B) + b0 * a.sB * (int64_t)sout;
    Operand ops[] = {{const_cast<void*>(d.A), span_bytes(d.batch, a.sA, a.lda, len, lines, sin), false},
                     {d.B, span_bytes(d.batch, a.sB, a.ldb, len, lines, sout), true}};
    const bool staged[] = {host_memory(a.kind[args::ScanCols::kA]), host_memory(a.kind[args::ScanCols::kB])};
    const int st = with_device_operands(ctx, ops, staged, 2, [&] {
      d.A = ops[0].p;
      d.B = ops[1].p;
      return run_device(ctx, d);
    });
    if (st) return st;
  }
  return 0;
}

}  // namespace

int scan_cols(sgpu_context* ctx, const args::ScanCols& a) {
  using A = args::ScanCols;
  return on_device(ctx, [&] {
    if (host_memory(a.kind[A::kA]) || host_memory(a.kind[A::kB])) return run_host(ctx, a);
    return run_device(ctx, a);
  });
}

}  // namespace gpu
}  // namespace sgpu
