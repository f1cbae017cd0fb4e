// The backend interface: what lib/ hands a backend (compat/ for the CPU, cuda/ for the GPU) and
// what it asks of one. A backend sees this header, the context and the numerical core; never
// lib/'s checks, dispatch or entry points. Not installed.
//
// A call reaches a backend as one typed struct per routine (args::Dhseqr, Dgeev, Zheev, ScanCols):
// its arguments after the check, flags decoded once, and where each data operand lives
// (kind[]), classified once per call by lib/dispatch.hpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cache.hpp"
#include "sgpu.h"

// A context. Callers hold a handle (lib/context.cpp's registry), never its address.
struct sgpu_context {
  sgpu_backend_t backend = SGPU_BACKEND_AUTO;
  int device = 0;                       // devices[0]
  int devices[SGPU_MAX_DEVICES] = {0};  // where host data is shared out (sgpu_context_set_devices)
  int ndevices = 1;
  std::atomic<size_t> device_mem_limit{0};  // bytes per call and device; 0: none
  void* stream = nullptr;
  int nthreads = 0;
  // What each backend keeps between calls (lib/cache.hpp): the CPU backend's workspace, the GPU
  // backend's streams, buffers and kernel state (cuda/stream/cache.hpp).
  sgpu::CacheSlot cpu_cache, gpu_cache;
};

namespace sgpu {

enum class Routine { kDhseqr, kDgeev, kZheev, kScanCols };

// SGPU_VERBOSE is set (and not "0"): lib/ and the backends say on stderr what they chose.
bool verbose();

// Where a pointer points: pageable host memory, page-locked (pinned) host memory, device memory
// or managed memory. Without CUDA every pointer is kHost.
enum class MemKind { kHost, kPinned, kDevice, kManaged };
inline bool host_memory(MemKind k) { return k == MemKind::kHost || k == MemKind::kPinned; }

// Bytes spanned by `count` items of `rows` x `cols` elements (leading dimension ld, items `stride`
// apart) of `elem` bytes each; 0 when there is nothing.
inline size_t span_bytes(int64_t count, int64_t stride, int64_t ld, int64_t rows, int64_t cols, size_t elem) {
  if (count <= 0 || rows <= 0 || cols <= 0) return 0;
  return (size_t)((count - 1) * stride + (cols - 1) * ld + rows) * elem;
}

namespace args {

// Each struct lists its data operands once, in argument order, through operands(f): f(field,
// bytes, written) with field a reference to the pointer member (so that staging can point it at
// a copy), bytes the span the call may touch from it (0: not used), written whether the call
// writes it. An output not requested is NULL and spans nothing (its stride is not checked).

struct Dhseqr {
  bool wantt = false;  // job S
  int compz = 0;       // core::Compz: N, I or V
  int n = 0, ilo = 1, ihi = 0;
  double* H = nullptr;
  int ldh = 0;
  int64_t sH = 0;
  double *wr = nullptr, *wi = nullptr;
  int64_t sW = 0;
  double* Z = nullptr;  // NULL for compz N
  int ldz = 0;
  int64_t sZ = 0;
  int* info = nullptr;
  int64_t batch = 0;
  enum { kH, kWr, kWi, kZ, kInfo, kOperands };
  MemKind kind[kOperands] = {};
  template <class F>
  void operands(F f) {
    const size_t D = sizeof(double);
    f(H, span_bytes(batch, sH, ldh, n, n, D), true);
    f(wr, span_bytes(batch, sW, n, n, 1, D), true);
    f(wi, span_bytes(batch, sW, n, n, 1, D), true);
    f(Z, Z ? span_bytes(batch, sZ, ldz, n, n, D) : 0, true);
    f(info, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true);
  }
};

struct Dgeev {
  bool wantvl = false, wantvr = false;
  int n = 0;
  double* A = nullptr;
  int lda = 0;
  int64_t sA = 0;
  double *wr = nullptr, *wi = nullptr;
  int64_t sW = 0;
  double* VL = nullptr;  // NULL unless wantvl
  int ldvl = 0;
  int64_t sVL = 0;
  double* VR = nullptr;  // NULL unless wantvr
  int ldvr = 0;
  int64_t sVR = 0;
  int* info = nullptr;
  int64_t batch = 0;
  enum { kA, kWr, kWi, kVL, kVR, kInfo, kOperands };
  MemKind kind[kOperands] = {};
  template <class F>
  void operands(F f) {
    const size_t D = sizeof(double);
    f(A, span_bytes(batch, sA, lda, n, n, D), true);
    f(wr, span_bytes(batch, sW, n, n, 1, D), true);
    f(wi, span_bytes(batch, sW, n, n, 1, D), true);
    f(VL, VL ? span_bytes(batch, sVL, ldvl, n, n, D) : 0, true);
    f(VR, VR ? span_bytes(batch, sVR, ldvr, n, n, D) : 0, true);
    f(info, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true);
  }
};

struct Zheev {
  bool wantz = false, lower = false;  // jobz V, uplo L
  int n = 0;
  void* A = nullptr;  // complex double (pairs of doubles); lda and sA in complex elements
  int lda = 0;
  int64_t sA = 0;
  double* w = nullptr;
  int64_t sW = 0;
  int* info = nullptr;
  int64_t batch = 0;
  enum { kA, kW, kInfo, kOperands };
  MemKind kind[kOperands] = {};
  template <class F>
  void operands(F f) {
    f(A, span_bytes(batch, sA, lda, n, n, 2 * sizeof(double)), true);
    f(w, span_bytes(batch, sW, n, n, 1, sizeof(double)), true);
    f(info, span_bytes(batch, 1, 1, 1, 1, sizeof(int)), true);
  }
};

struct ScanCols {
  bool row_major = false;
  sgpu_type_t tin = SGPU_R_32F, tout = SGPU_R_32F;
  size_t ein = 0, eout = 0;  // bytes of an element of A and of B
  int m = 0, n = 0;
  const void* A = nullptr;
  int lda = 0;
  int64_t sA = 0;
  void* B = nullptr;  // may be A itself (in place, same layout)
  int ldb = 0;
  int64_t sB = 0;
  int64_t batch = 0;
  enum { kA, kB, kOperands };
  MemKind kind[kOperands] = {};
  // Storage shape of a matrix: `lines` of `len` contiguous elements (columns col-major, rows
  // row-major).
  int64_t lines() const { return row_major ? m : n; }
  int64_t len() const { return row_major ? n : m; }
  template <class F>
  void operands(F f) {
    f(A, span_bytes(batch, sA, lda, len(), lines(), ein), false);
    f(B, span_bytes(batch, sB, ldb, len(), lines(), eout), true);
  }
};

}  // namespace args

// The portable CPU backend (compat/). Each returns the number of matrices with info != 0, or
// SGPU_ERR_*; operands in host memory.
namespace cpu {
int dhseqr(sgpu_context* ctx, const args::Dhseqr& a);
int dgeev(sgpu_context* ctx, const args::Dgeev& a);
int zheev(sgpu_context* ctx, const args::Zheev& a);
int scan_cols(sgpu_context* ctx, const args::ScanCols& a);
}  // namespace cpu

// The CUDA backend (cuda/), or its stub (lib/gpu_stub.cpp) in a build without CUDA.
namespace gpu {
int device_count();                            // 0 without CUDA or without a device
bool has_routine(Routine r);                   // a GPU implementation exists for r (a forced GPU backend runs it)
bool auto_ready(Routine r, bool device_data);  // AUTO may choose it: measured faster than the CPU backend
void release_context(sgpu_context* ctx);       // frees the GPU state a context holds
MemKind classify(const void* p);               // kHost for NULL and without CUDA
int copy(void* dst, const void* src, size_t bytes);  // any direction (unified addressing); 0 or SGPU_ERR_DEVICE
int fill_bytes(void* dst, int byte, size_t bytes);   // device memory, synchronously; 0 or SGPU_ERR_DEVICE
// The routines, on ctx's first device, operands wherever kind[] says: device data in place and
// ordered on the context's stream, host data streamed or staged by the backend itself.
int dhseqr(sgpu_context* ctx, const args::Dhseqr& a);
int dgeev(sgpu_context* ctx, const args::Dgeev& a);
int zheev(sgpu_context* ctx, const args::Zheev& a);
int scan_cols(sgpu_context* ctx, const args::ScanCols& a);
}  // namespace gpu

}  // namespace sgpu
