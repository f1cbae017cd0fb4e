// dhseqr, dgeev and zheev on the GPU: the entry points of the backend interface. Each decodes its
// arguments into a job (kernels/eig_job.hpp) once, and where the operands are (classified once by
// lib/, args::*::kind) decides how the call runs:
//  - every operand in device (or managed) memory: in place, ordered on the context's stream
//    (zheev's block path in pieces on the lanes' streams, forked from it and joined back);
//  - every operand in host memory, matrices packed with a leading dimension (stride == ld * n):
//    streamed in pieces by the engine (stream/engine.hpp), copies overlapped with the kernels;
//  - otherwise: staged whole through device buffers (drivers/seam.hpp), then as device data.
// Each returns the number of matrices with info != 0, or SGPU_ERR_*.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

#include "backend.hpp"
#include "core/hseqr.hpp"
#include "device/dev_setting.hpp"
#include "device/fault.hpp"
#include "drivers/eig_kernels.hpp"
#include "drivers/seam.hpp"
#include "kernels/info_count.hpp"
#include "largest_count.hpp"
#include "stream/engine.hpp"
#include "stream/piece_plan.hpp"
#include "tuning.hpp"

namespace sgpu {
namespace gpu {

namespace {

using stream::kLanes;

// The operands of a job, by name; an operand's index is its slot on a lane.
enum Field { kA, kWr, kWi, kZ, kVl, kInfo, kFields };
static_assert(kFields <= stream::kMaxOperands, "a lane holds every operand");

void* get(const EigJob& j, int f) {
  switch (f) {
    case kA: return j.A;
    case kWr: return j.wr;
    case kWi: return j.wi;
    case kZ: return j.Z;
    case kVl: return j.VL;
    default: return j.info;
  }
}
void set(EigJob& j, int f, void* p) {
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
  MemKind kind = MemKind::kHost;
  size_t elem = sizeof(double);
  int64_t width = 0, pitch = 0, rows_per = 0;
  char* host = nullptr;
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

// A job's operands; kind[f]: where operand f is.
void describe(const EigJob& j, const MemKind* kind, Part* p) {
  const int64_t n = j.n;
  auto vector = [&](int f) {  // wr, wi, w: n per matrix, sW apart
    Part& q = p[f];
    q.used = q.out = true;
    q.width = n;
    q.pitch = j.sW;
    q.rows_per = 1;
    q.set_span(j.batch, j.sW, n, n, 1);
  };
  // (An output not requested has an unchecked stride: its span is not computed.)
  auto matrix = [&](int f, int ld, int64_t stride, bool in, bool out) {
    Part& q = p[f];
    q.used = get(j, f) != nullptr;
    if (!q.used) return;
    q.in = in;
    q.out = out;
    q.width = n;
    q.pitch = ld;
    q.rows_per = n;
    q.packable = stride == (int64_t)ld * n || j.batch == 1;
    q.set_span(j.batch, stride, ld, n, n);
  };
  if (j.heev) {  // A complex (written back with vectors), w, info
    p[kA].elem = 2 * sizeof(double);
    matrix(kA, j.lda, j.sA, true, j.wantz);
    vector(kWr);
  } else {
    // dgeev's A is not written back (its contents on exit are unspecified, as LAPACK's).
    matrix(kA, j.lda, j.sA, true, !j.geev);
    matrix(kZ, j.ldz, j.sZ, !j.geev && j.compz == core::kCompzV, true);
    matrix(kVl, j.ldvl, j.sVL, false, true);
    vector(kWr);
    vector(kWi);
  }
  Part& q = p[kInfo];
  q.used = q.out = true;
  q.elem = sizeof(int);
  q.width = q.pitch = q.rows_per = 1;
  q.set_span(j.batch, 1, 1, 1, 1);
  for (int f = 0; f < kFields; ++f) {
    p[f].host = static_cast<char*>(get(j, f));
    p[f].kind = kind[f];
  }
}

int count_failures(const int* info, int64_t batch) {
  int64_t failed = 0;
  for (int64_t b = 0; b < batch; ++b) failed += info[b] != 0;
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

// Matrices [b0, b0 + nb) of j (pointers offset by their strides).
EigJob slice(const EigJob& j, int64_t b0, int64_t nb) {
  EigJob pj = j;
  pj.batch = nb;
  pj.A = j.A + (j.heev ? 2 : 1) * b0 * j.sA;  // zheev's A: complex elements as pairs of doubles
  pj.wr = j.wr + b0 * j.sW;
  pj.wi = j.wi ? j.wi + b0 * j.sW : nullptr;
  pj.Z = j.Z ? j.Z + b0 * j.sZ : nullptr;
  pj.VL = j.VL ? j.VL + b0 * j.sVL : nullptr;
  pj.info = j.info + b0;
  return pj;
}

// ---- device data -------------------------------------------------------------------------------

// Pieces of zheev's block path on device data: kLanes for jobz V from kHeevSplitMinBatch matrices
// (tuning.hpp), else one launch (the developer setting SGPU_HEEV_SPLIT=1..3 forces it).
int64_t heev_pieces(const EigJob& j) {
  static const int forced = [] {
    const char* e = dev::setting("SGPU_HEEV_SPLIT");
    const int x = e ? std::atoi(e) : 0;
    return x >= 1 && x <= kLanes ? x : 0;
  }();
  if (!j.heev || !heev_block_path(j.n)) return 1;
  const int64_t p = forced ? forced : j.wantz && j.batch >= tuning::kHeevSplitMinBatch ? kLanes : 1;
  return std::min<int64_t>(p, j.batch);
}

// Pinned host memory for the partial counts of info_count (no device memory: a call under a
// device-memory limit may give its whole budget to the kernels' workspaces).
struct InfoCountState : stream::LaneState {
  int64_t* partials = nullptr;
  int ready() {  // 0, or SGPU_ERR_HOST_ALLOC (retried on the next call)
    if (!partials && fault::host_malloc((void**)&partials, sizeof(int64_t) * info_count::kMaxBlocks) != cudaSuccess) {
      partials = nullptr;
      (void)cudaGetLastError();
      return SGPU_ERR_HOST_ALLOC;
    }
    return 0;
  }
  ~InfoCountState() override {
    if (partials) cudaFreeHost(partials);
  }
  void trim(size_t) override {}
};

// In place on the context's stream in one launch (lane 0's kernel state), or (zheev's block
// path: heev_pieces()) in pieces forked onto the lanes' streams and joined back; waits for info
// for the failure count. ws_budget (0: none): device bytes the kernels' workspaces may take, all
// pieces.
int run_device(sgpu_context* ctx, const EigJob& j, stream::DeviceCache& cache, int64_t ws_budget) {
  cudaStream_t s = static_cast<cudaStream_t>(ctx->stream);
  const int64_t pieces = heev_pieces(j);
  const int64_t per = (j.batch + pieces - 1) / pieces;
  const int64_t ws_limit = ws_budget > 0 ? std::max<int64_t>(1, ws_budget / pieces) : 0;
  if (ws_budget > 0) {
    static const size_t none[kLanes][stream::kMaxOperands] = {};
    cache.trim(none, (size_t)ws_limit);
  }
  int err = 0;
  cudaEvent_t fork = nullptr, join[kLanes] = {};
  if (pieces > 1 &&
      (cudaEventCreateWithFlags(&fork, cudaEventDisableTiming) != cudaSuccess || cudaEventRecord(fork, s) != cudaSuccess))
    err = SGPU_ERR_DEVICE;
  for (int64_t k = 0; k < pieces && !err; ++k) {
    stream::Lane& l = cache.lanes[k];
    if (pieces == 1) {  // one launch: straight on the context's stream
      EigJob pj = j;
      pj.block_per_group = true;
      pj.ws_limit = ws_limit;
      err = enqueue_eig(pj, s, l);
      break;
    }
    if ((err = l.stream())) break;
    if (cudaStreamWaitEvent(l.s, fork, 0) != cudaSuccess) {
      err = SGPU_ERR_DEVICE;
      break;
    }
    const int64_t b0 = k * per;
    EigJob pj = slice(j, b0, std::min(per, j.batch - b0));
    pj.block_per_group = true;  // one launch for the piece: let the block scheduler balance it
    pj.ws_limit = ws_limit;
    err = enqueue_eig(pj, l.s, l);
    // Joined even after a failed launch: the wait below must cover what the lane has queued.
    if (cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming) != cudaSuccess ||
        cudaEventRecord(join[k], l.s) != cudaSuccess || cudaStreamWaitEvent(s, join[k], 0) != cudaSuccess) {
      if (!err) err = SGPU_ERR_DEVICE;
      for (int64_t q = 0; q <= k; ++q) cudaStreamSynchronize(cache.lanes[q].s);
    }
  }
  // The failures, counted on the device into lane 0's pinned partial counts.
  InfoCountState* ic = err ? nullptr : cache.lanes[0].state<InfoCountState>();
  int blocks = 0;
  if (!err && (!ic || ic->ready() != 0)) err = SGPU_ERR_HOST_ALLOC;
  if (!err) err = info_count::launch(j.info, j.batch, ic->partials, blocks, s);
  if (cudaStreamSynchronize(s) != cudaSuccess && !err) err = SGPU_ERR_DEVICE;
  if (fork) cudaEventDestroy(fork);
  for (cudaEvent_t e : join)
    if (e) cudaEventDestroy(e);
  (void)cudaGetLastError();
  if (err) return err;
  const int64_t failed = info_count::total(ic->partials, blocks);
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

// ---- host data, streamed -----------------------------------------------------------------------

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
// rounds of kLanes equal pieces (each piece's copies overlap the other pieces' kernels), as few
// rounds as keep a piece within kBlockPieceMaxBytes of input and within max(fill, kPieceMaxBytes
// of) matrices (tuning.hpp; fill: 0 off the block path). (devices: the device slots sharing the
// pieces; the block path's rounds are of kLanes pieces on each.)
int64_t piece_matrices(int64_t batch, int64_t mat_bytes, int64_t fill, int devices) {
  mat_bytes = std::max<int64_t>(mat_bytes, 1);
  int64_t per;
  if (const int64_t forced = piece_bytes_forced()) {
    per = forced / mat_bytes;
  } else {
    using namespace tuning;
    per = std::max(kPieceBytes / mat_bytes, std::min(kPieceMinMatrices, kPieceMaxBytes / mat_bytes));
    if (fill > 0) {
      int64_t most = std::max<int64_t>(1, kBlockPieceMaxBytes / mat_bytes);
      most = std::min(most, std::max(fill, kPieceMaxBytes / mat_bytes));
      const int64_t lanes = (int64_t)kLanes * std::max(devices, 1);
      const int64_t rounds = (batch + lanes * most - 1) / (lanes * most);
      per = (batch + lanes * rounds - 1) / (lanes * rounds);
    }
  }
  return std::max<int64_t>(1, std::min(batch, per));
}

// How a streamed call is cut: `per` matrices a piece, and the workspace each lane's kernels may
// take (0: their own caps).
struct Cut {
  int64_t per = 0, pieces = 0, ws_limit = 0;
  int err = 0;
};

// Under a device-memory limit each of the kLanes lanes gets a third of it: its piece buffers
// (every operand of `per` matrices, packed) plus the kernels' workspace for them. A lane that
// cannot hold one matrix is SGPU_ERR_DEVICE_ALLOC, found before anything is copied.
Cut cut(const EigJob& j, const Part* parts, int64_t limit, int devices) {
  Cut c;
  const int64_t mat_bytes = (int64_t)j.n * j.n * (int64_t)sizeof(double) * (j.heev ? 2 : 1);
  const int64_t fill = !j.heev || !heev_block_path(j.n) ? 0
                       : heev_values_path(j.n, j.call_batch) ? tuning::kValuesFillMatrices
                                                          : tuning::kBlockFillMatrices;
  c.per = piece_matrices(j.batch, mat_bytes, fill, devices);
  int64_t io = 0;  // device bytes of one matrix's operands
  for (int f = 0; f < kFields; ++f)
    if (parts[f].used) io += parts[f].device_bytes_per_matrix();
  if (limit > 0) {
    const WorkspaceNeed ws = workspace_need(j);
    const int64_t lane = limit / kLanes;
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
  if (limit > 0) c.ws_limit = limit / kLanes - c.per * io;
  c.pieces = (j.batch + c.per - 1) / c.per;
  return c;
}

// The streamed job as the engine sees it: piece i is matrices piece_span(i) of every operand,
// packed on the device (ld n, strides n * n and n).
class EigWork : public stream::Work {
 public:
  EigWork(const EigJob& j, const Part* parts, const Cut& c) : j_(j), parts_(parts), c_(c) {
    pieces = c.pieces;
    nops = kFields;
    for (int f = 0; f < kFields; ++f) {
      const Part& p = parts[f];
      stream::Operand& q = ops[f];
      q.used = p.used;
      q.in = p.in;
      q.out = p.out;
      q.pinned = p.kind == MemKind::kPinned;
      q.host = p.host;
      q.span = p.span;
      q.piece_bytes = p.used ? (size_t)(c.per * p.device_bytes_per_matrix()) : 0;
    }
  }
  stream::Region region(int f, int64_t i) const override {
    const Part& p = parts_[f];
    const Span s = piece_span(i, c_.per, j_.batch);
    return stream::Region{p.host + (size_t)(s.b0 * p.rows_per * p.pitch) * p.elem, (size_t)p.pitch * p.elem,
                          (size_t)p.width * p.elem, s.nb * p.rows_per};
  }
  int compute(stream::Lane& l, int64_t i, void* const* dev, bool staged) override {
    const Span s = piece_span(i, c_.per, j_.batch);
    EigJob pj = j_;
    pj.batch = s.nb;
    pj.lda = pj.ldz = pj.ldvl = j_.n;
    pj.sA = pj.sZ = pj.sVL = (int64_t)j_.n * j_.n;
    pj.sW = j_.n;
    pj.block_per_group = !staged;  // see kernels/eig_smem.cu, launch(): staged pieces overlap better resident
    pj.ws_limit = c_.ws_limit;
    for (int f = 0; f < kFields; ++f) set(pj, f, parts_[f].used ? dev[f] : nullptr);
    return enqueue_eig(pj, l.s, l);
  }

 private:
  const EigJob& j_;
  const Part* parts_;
  const Cut& c_;
};

int run_streamed(sgpu_context* ctx, const EigJob& j, const Part* parts) {
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  const Cut c = cut(j, parts, limit, ctx->ndevices);
  if (c.err) return c.err;
  EigWork w(j, parts, c);
  const int err = stream::with_cache(ctx, [&](stream::Cache& cache) {
    return stream::run(ctx, cache, w, limit > 0, (size_t)std::max<int64_t>(c.ws_limit, 0));
  });
  return err ? err : count_failures(j.info, j.batch);
}

// ---- anything else: staged -----------------------------------------------------------------------

// Operands that a piece cannot describe (mixed memory, gaps between matrices): every host operand
// staged whole through device buffers, then the device path. Under a device-memory limit, in
// sub-batches whose staged spans and workspace fit (the largest such count, found by bisection).
int run_staged(sgpu_context* ctx, const EigJob& j, const Part* parts) {
  const int64_t limit = (int64_t)ctx->device_mem_limit.load();
  const WorkspaceNeed ws = workspace_need(j);
  auto staged_bytes = [&](int64_t k) {
    int64_t b = 0;
    for (int f = 0; f < kFields; ++f)
      if (parts[f].used && host_memory(parts[f].kind)) b += (int64_t)parts[f].span_of(k);
    return b;
  };
  auto need = [&](int64_t k) { return staged_bytes(k) + ws.fixed + k * ws.per_matrix; };
  const int64_t per = limit > 0 ? largest_count(j.batch, [&](int64_t k) { return need(k) <= limit; }) : j.batch;
  if (per == 0 && j.batch > 0) return SGPU_ERR_DEVICE_ALLOC;
  int64_t failed = 0;
  for (int64_t b0 = 0; b0 < j.batch; b0 += per) {
    const int64_t nb = std::min(per, j.batch - b0);
    EigJob d = slice(j, b0, nb);
    Operand ops[kFields];
    bool host[kFields];
    for (int f = 0; f < kFields; ++f) {
      ops[f] = Operand{parts[f].used ? get(d, f) : nullptr, parts[f].used ? parts[f].span_of(nb) : 0, parts[f].out};
      host[f] = parts[f].used && host_memory(parts[f].kind);
    }
    const int64_t ws_budget = limit > 0 ? limit - staged_bytes(nb) : 0;
    const int st = with_device_operands(ctx, ops, host, kFields, [&] {
      for (int f = 0; f < kFields; ++f)
        if (parts[f].used) set(d, f, ops[f].p);
      return stream::with_cache(ctx, [&](stream::Cache& c) {
        stream::DeviceCache* cache = c.get(0, ctx->device);
        return cache ? run_device(ctx, d, *cache, ws_budget) : SGPU_ERR_HOST_ALLOC;
      });
    });
    if (st < 0) return st;
    failed += st;
  }
  return failed > INT_MAX ? INT_MAX : (int)failed;
}

// j on ctx's first device; kind[f]: where operand f is.
int run(sgpu_context* ctx, const EigJob& j, const MemKind* kind) {
  return on_device(ctx, [&] {
    Part parts[kFields];
    describe(j, kind, parts);
    bool any_host = false, all_host = true, packable = true;
    for (int f = 0; f < kFields; ++f) {
      const Part& p = parts[f];
      if (!p.used) continue;
      const bool host = host_memory(p.kind);
      any_host = any_host || host;
      all_host = all_host && host;
      packable = packable && p.packable;
    }
    if (!any_host)
      return stream::with_cache(ctx, [&](stream::Cache& c) {
        stream::DeviceCache* cache = c.get(0, ctx->device);
        return cache ? run_device(ctx, j, *cache, (int64_t)ctx->device_mem_limit.load()) : SGPU_ERR_HOST_ALLOC;
      });
    if (all_host && packable) return run_streamed(ctx, j, parts);
    return run_staged(ctx, j, parts);
  });
}

}  // namespace

// ---- the backend interface ---------------------------------------------------------------------

int dhseqr(sgpu_context* ctx, const args::Dhseqr& a) {
  using A = args::Dhseqr;
  EigJob j;
  j.wantt = a.wantt;
  j.compz = a.compz;
  j.n = a.n;
  j.ilo = a.ilo;
  j.ihi = a.ihi;
  j.A = a.H;
  j.lda = a.ldh;
  j.sA = a.sH;
  j.wr = a.wr;
  j.wi = a.wi;
  j.sW = a.sW;
  j.Z = a.Z;
  j.ldz = a.ldz;
  j.sZ = a.sZ;
  j.info = a.info;
  j.batch = a.batch;
  const MemKind kind[kFields] = {a.kind[A::kH], a.kind[A::kWr], a.kind[A::kWi], a.kind[A::kZ], MemKind::kHost,
                                 a.kind[A::kInfo]};
  return run(ctx, j, kind);
}

int dgeev(sgpu_context* ctx, const args::Dgeev& a) {
  using A = args::Dgeev;
  EigJob j;
  j.geev = true;
  j.wantvl = a.wantvl;
  j.wantvr = a.wantvr;
  j.n = a.n;
  j.A = a.A;
  j.lda = a.lda;
  j.sA = a.sA;
  j.wr = a.wr;
  j.wi = a.wi;
  j.sW = a.sW;
  j.Z = a.VR;
  j.ldz = a.ldvr;
  j.sZ = a.sVR;
  j.VL = a.VL;
  j.ldvl = a.ldvl;
  j.sVL = a.sVL;
  j.info = a.info;
  j.batch = a.batch;
  const MemKind kind[kFields] = {a.kind[A::kA], a.kind[A::kWr], a.kind[A::kWi], a.kind[A::kVR], a.kind[A::kVL],
                                 a.kind[A::kInfo]};
  return run(ctx, j, kind);
}

int zheev(sgpu_context* ctx, const args::Zheev& a) {
  using A = args::Zheev;
  EigJob j;
  j.heev = true;
  j.wantz = a.wantz;
  j.lower = a.lower;
  j.n = a.n;
  j.A = static_cast<double*>(a.A);
  j.lda = a.lda;
  j.sA = a.sA;
  j.wr = a.w;
  j.sW = a.sW;
  j.info = a.info;
  j.batch = a.batch;
  j.call_batch = a.batch;
  const MemKind kind[kFields] = {a.kind[A::kA], a.kind[A::kW], MemKind::kHost, MemKind::kHost, MemKind::kHost,
                                 a.kind[A::kInfo]};
  return run(ctx, j, kind);
}

}  // namespace gpu
}  // namespace sgpu
