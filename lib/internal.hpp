// Host core internals: the context, backend resolution and the backend entry points that
// lib/ dispatches to. Not installed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "sgpu.h"

// A context. Callers hold a handle (lib/context.cpp's registry), never its address.
struct sgpu_context {
  sgpu_backend_t backend = SGPU_BACKEND_AUTO;
  int device = 0;                   // devices[0]
  int devices[SGPU_MAX_DEVICES] = {0};  // where host data is shared out (sgpu_context_set_devices)
  int ndevices = 1;
  std::atomic<size_t> device_mem_limit{0};  // bytes per call and device; 0: none
  void* stream = nullptr;
  int nthreads = 0;
  // Host workspace cached between calls; a call that finds it busy uses a private buffer.
  std::mutex ws_mutex;
  std::vector<double> ws;
  // GPU state kept between calls (the scan's look-back state), owned by cuda/; one call at a time.
  std::mutex gpu_mutex;
  void* gpu_scan = nullptr;
  void* gpu_pipe = nullptr;  // the eigensolvers' streams and buffers, one set per device slot (cuda/eig_pipeline.cu)
};

namespace sgpu {

// A data argument of a call: where the entry point's pointer variable is (so that staging can
// point it elsewhere), how many bytes the call may touch from it, and whether it is written.
struct Operand {
  void** ptr;
  size_t bytes;
  bool out;
};

enum class Routine { kDhseqr, kDgeev, kZheev, kScanCols };
const char* routine_name(Routine r);

// NULL -> the default context; otherwise the live context of that handle, else nullptr.
sgpu_context* resolve_context(sgpu_context_t ctx);

// SGPU_VERBOSE is set (and not "0").
bool verbose();

// The most CPU threads a context may be given: more than OpenMP can start would end the process
// (libgomp exits when it cannot create a thread). kThreadsPerProc per processor, at least
// kMaxThreadsFloor, never above OMP_THREAD_LIMIT.
constexpr int kThreadsPerProc = 4, kMaxThreadsFloor = 256;
int max_threads();

// A call's size, for AUTO's choice: order (the scan: rows), batch, and whether vectors are wanted
// (zheev jobz V).
struct CallSize {
  int n = 0;
  int64_t batch = 0;
  bool vectors = false;
};

// The backend a call on ctx runs on. GPU only when forced or (auto) when a device is present and
// the GPU implementation of the routine is measured faster for data where it is: device data
// (device_data: all operands in device memory) by gpu::auto_ready, host data by the size model
// (auto_model.hpp) on the context's host threads. Logs the choice when SGPU_VERBOSE is set.
sgpu_backend_t choose_backend(const sgpu_context* ctx, Routine r, bool device_data, const CallSize& size);

// Backend availability, answered by the CUDA seam (cuda/) or its stub.
namespace gpu {
int device_count();                 // 0 without CUDA or without a device
bool has_routine(Routine r);        // a GPU implementation exists for r (a forced GPU backend runs it)
bool auto_ready(Routine r, bool device_data);  // AUTO may choose it: measured faster than the CPU backend
void release_context(sgpu_context* ctx);        // frees the GPU state a context holds
enum class MemKind { kHost, kDevice, kManaged };
MemKind classify(const void* p);    // kHost for pageable/pinned host memory and without CUDA
int copy(void* dst, const void* src, size_t bytes);  // any direction (unified addressing); 0 or SGPU_ERR_DEVICE
int fill_bytes(void* dst, int byte, size_t bytes);  // device memory, synchronously; 0 or SGPU_ERR_DEVICE
// Runs call() on ctx's device with every host-memory operand replaced by a device copy of its
// whole span (outputs copied back after a call that ran); device and managed memory used in place.
int with_device_operands(sgpu_context* ctx, const Operand* ops, size_t count, const std::function<int()>& call);
// Routines whose GPU driver takes host memory itself (streaming it in chunks); dispatch then only
// selects ctx's device around the call.
bool streams_host(Routine r);
int on_device(sgpu_context* ctx, const std::function<int()>& call);
int dhseqr(sgpu_context* ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh,
           int64_t strideH, double* wr, double* wi, int64_t strideW, double* Z, int ldz, int64_t strideZ,
           int* info, int64_t batch);
int dgeev(sgpu_context* ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA, double* wr,
          double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR, int ldvr,
          int64_t strideVR, int* info, int64_t batch);
int zheev(sgpu_context* ctx, char jobz, char uplo, int n, void* A, int lda, int64_t strideA, double* w,
          int64_t strideW, int* info, int64_t batch);
int scan_cols(sgpu_context* ctx, int layout, sgpu_type_t tin, sgpu_type_t tout, int m, int n, const void* A,
              int lda, int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch);
}  // namespace gpu

// The portable CPU backend (compat/).
namespace cpu {
int dhseqr(sgpu_context* ctx, char job, char compz, int n, int ilo, int ihi, double* H, int ldh,
           int64_t strideH, double* wr, double* wi, int64_t strideW, double* Z, int ldz, int64_t strideZ,
           int* info, int64_t batch);
int dgeev(sgpu_context* ctx, char jobvl, char jobvr, int n, double* A, int lda, int64_t strideA, double* wr,
          double* wi, int64_t strideW, double* VL, int ldvl, int64_t strideVL, double* VR, int ldvr,
          int64_t strideVR, int* info, int64_t batch);
int zheev(sgpu_context* ctx, char jobz, char uplo, int n, void* A, int lda, int64_t strideA, double* w,
          int64_t strideW, int* info, int64_t batch);
int scan_cols(sgpu_context* ctx, int layout, sgpu_type_t tin, sgpu_type_t tout, int m, int n, const void* A,
              int lda, int64_t strideA, void* B, int ldb, int64_t strideB, int64_t batch);
}  // namespace cpu

}  // namespace sgpu
