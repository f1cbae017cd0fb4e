// Contexts: creation, setters, the lazily created default context and the backend choice.
#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include <omp.h>

#include "auto_model.hpp"
#include "internal.hpp"

namespace sgpu {
namespace {

// SGPU_BACKEND=cpu|gpu|auto, any case (read at context creation); anything else is ignored with a
// warning.
sgpu_backend_t backend_from_env() {
  const char* v = std::getenv("SGPU_BACKEND");
  if (!v || !*v || !strcasecmp(v, "auto")) return SGPU_BACKEND_AUTO;
  if (!strcasecmp(v, "cpu")) return SGPU_BACKEND_CPU;
  if (!strcasecmp(v, "gpu")) return SGPU_BACKEND_GPU;
  std::fprintf(stderr, "sgpu: ignoring SGPU_BACKEND=%s (expected cpu, gpu or auto)\n", v);
  return SGPU_BACKEND_AUTO;
}

// Live contexts by handle. A handle is a number, never an address: it is issued once, so a
// destroyed handle stays invalid for the life of the process (an address could come back from
// the allocator), and checking one reads nothing through it. Odd numbers, so no handle is the
// address of an object.
struct Registry {
  std::mutex m;
  std::unordered_map<uintptr_t, sgpu_context*> live;
  uintptr_t issued = 0;
};
Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: handles stay checkable during exit
  return *r;
}

}  // namespace

bool verbose() {
  const char* v = std::getenv("SGPU_VERBOSE");
  return v && *v && std::strcmp(v, "0") != 0;
}

int max_threads() {
  const int procs = omp_get_num_procs(), limit = omp_get_thread_limit();
  const int cap = procs > kMaxThreadsFloor / kThreadsPerProc ? kThreadsPerProc * procs : kMaxThreadsFloor;
  return cap < limit ? cap : limit;
}

const char* routine_name(Routine r) {
  switch (r) {
    case Routine::kDhseqr: return "dhseqr";
    case Routine::kDgeev: return "dgeev";
    case Routine::kZheev: return "zheev";
    case Routine::kScanCols: return "scan_cols";
  }
  return "?";
}

sgpu_context* resolve_context(sgpu_context_t ctx) {
  if (!ctx) {
    // Function-local static: initialized once, thread-safe (C++11); lives until exit.
    static sgpu_context* dflt = [] {
      auto* c = new sgpu_context;
      c->backend = backend_from_env();
      return c;
    }();
    return dflt;
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.m);
  const auto it = r.live.find(reinterpret_cast<uintptr_t>(ctx));
  return it == r.live.end() ? nullptr : it->second;
}

namespace {
// Host data under AUTO: the size model, on the threads the CPU backend would use.
bool host_data_pays(const sgpu_context* ctx, Routine r, const CallSize& size) {
  using auto_model::Kind;
  const Kind k = r == Routine::kDgeev    ? Kind::kDgeev
                 : r == Routine::kDhseqr ? Kind::kDhseqr
                 : r == Routine::kZheev  ? (size.vectors ? Kind::kZheevV : Kind::kZheevN)
                                         : Kind::kScan;
  const int threads = ctx->nthreads > 0 ? ctx->nthreads : omp_get_max_threads();
  return auto_model::gpu_pays(k, size.n, size.batch, threads);
}
}  // namespace

sgpu_backend_t choose_backend(const sgpu_context* ctx, Routine r, bool device_data, const CallSize& size) {
  sgpu_backend_t b = ctx->backend;
  if (b == SGPU_BACKEND_AUTO) {
    const bool pays = device_data ? gpu::auto_ready(r, true) : host_data_pays(ctx, r, size);
    b = gpu::device_count() > 0 && gpu::has_routine(r) && pays ? SGPU_BACKEND_GPU : SGPU_BACKEND_CPU;
  }
  if (verbose())
    std::fprintf(stderr, "sgpu: %s on the %s backend%s\n", routine_name(r), b == SGPU_BACKEND_GPU ? "gpu" : "cpu",
                 ctx->backend == SGPU_BACKEND_AUTO ? (device_data ? " (auto, device data)" : " (auto, host data)")
                                                   : " (forced)");
  return b;
}

}  // namespace sgpu

using sgpu::resolve_context;

extern "C" {

int sgpu_context_create(sgpu_context_t* ctx) {
  if (!ctx) return SGPU_ERR_INVALID_CONTEXT;
  auto* c = new (std::nothrow) sgpu_context;
  if (!c) return SGPU_ERR_HOST_ALLOC;
  c->backend = sgpu::backend_from_env();
  sgpu::Registry& r = sgpu::registry();
  try {
    std::lock_guard<std::mutex> lock(r.m);
    const uintptr_t h = 2 * ++r.issued + 1;
    r.live.emplace(h, c);
    *ctx = reinterpret_cast<sgpu_context_t>(h);
  } catch (const std::bad_alloc&) {
    delete c;
    return SGPU_ERR_HOST_ALLOC;
  }
  return SGPU_SUCCESS;
}

int sgpu_context_destroy(sgpu_context_t ctx) {
  if (!ctx) return SGPU_SUCCESS;  // the default context is never destroyed
  sgpu_context* c = nullptr;
  {
    sgpu::Registry& r = sgpu::registry();
    std::lock_guard<std::mutex> lock(r.m);
    const auto it = r.live.find(reinterpret_cast<uintptr_t>(ctx));
    if (it == r.live.end()) return SGPU_ERR_INVALID_CONTEXT;
    c = it->second;
    r.live.erase(it);
  }
  sgpu::gpu::release_context(c);
  delete c;
  return SGPU_SUCCESS;
}

// GPU: only where a device is present (a call would otherwise fail with the same code).
int sgpu_context_set_backend(sgpu_context_t ctx, sgpu_backend_t backend) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || (backend != SGPU_BACKEND_AUTO && backend != SGPU_BACKEND_CPU && backend != SGPU_BACKEND_GPU))
    return SGPU_ERR_INVALID_CONTEXT;
  if (backend == SGPU_BACKEND_GPU && sgpu::gpu::device_count() == 0) return SGPU_ERR_NO_BACKEND;
  c->backend = backend;
  return SGPU_SUCCESS;
}

int sgpu_context_get_backend(sgpu_context_t ctx, sgpu_backend_t* backend) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || !backend) return SGPU_ERR_INVALID_CONTEXT;
  *backend = c->backend;
  return SGPU_SUCCESS;
}

int sgpu_context_set_device(sgpu_context_t ctx, int device) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || device < 0) return SGPU_ERR_INVALID_CONTEXT;
  c->device = device;
  c->devices[0] = device;
  c->ndevices = 1;
  return SGPU_SUCCESS;
}

int sgpu_context_set_devices(sgpu_context_t ctx, const int* devices, int count) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || !devices || count < 1 || count > SGPU_MAX_DEVICES) return SGPU_ERR_INVALID_CONTEXT;
  for (int k = 0; k < count; ++k)
    if (devices[k] < 0) return SGPU_ERR_INVALID_CONTEXT;  // checked whole before anything changes
  for (int k = 0; k < count; ++k) c->devices[k] = devices[k];
  c->ndevices = count;
  c->device = devices[0];
  return SGPU_SUCCESS;
}

int sgpu_context_get_devices(sgpu_context_t ctx, int* devices, int capacity, int* count) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || !count || capacity < 0 || (capacity > 0 && !devices)) return SGPU_ERR_INVALID_CONTEXT;
  for (int k = 0; k < c->ndevices && k < capacity; ++k) devices[k] = c->devices[k];
  *count = c->ndevices;
  return SGPU_SUCCESS;
}

int sgpu_context_set_device_memory_limit(sgpu_context_t ctx, size_t bytes) {
  sgpu_context* c = resolve_context(ctx);
  if (!c) return SGPU_ERR_INVALID_CONTEXT;
  c->device_mem_limit.store(bytes);
  return SGPU_SUCCESS;
}

int sgpu_context_set_stream(sgpu_context_t ctx, void* stream) {
  sgpu_context* c = resolve_context(ctx);
  if (!c) return SGPU_ERR_INVALID_CONTEXT;
  c->stream = stream;
  return SGPU_SUCCESS;
}

int sgpu_context_set_num_threads(sgpu_context_t ctx, int nthreads) {
  sgpu_context* c = resolve_context(ctx);
  if (!c || nthreads < 0 || nthreads > sgpu::max_threads()) return SGPU_ERR_INVALID_CONTEXT;
  c->nthreads = nthreads;
  return SGPU_SUCCESS;
}

int sgpu_gpu_count(void) { return sgpu::gpu::device_count(); }

}  // extern "C"
