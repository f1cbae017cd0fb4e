// lib/'s own internals: context handles, the backend choice and the switches of the front door.
// Not installed; backends see only backend.hpp.
#pragma once

#include <cstdint>

#include "backend.hpp"

namespace sgpu {

const char* routine_name(Routine r);

// NULL -> the default context; otherwise the live context of that handle, else nullptr.
sgpu_context* resolve_context(sgpu_context_t ctx);

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
// (device_data: no operand in host memory) by gpu::auto_ready, host data by the size model
// (auto_model.hpp) on the context's host threads. Logs the choice when SGPU_VERBOSE is set.
sgpu_backend_t choose_backend(const sgpu_context* ctx, Routine r, bool device_data, const CallSize& size);

}  // namespace sgpu
