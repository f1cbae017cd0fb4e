// cuBLAS loaded with dlopen (see cublas_dl.hpp for why).
#include "blas/cublas_dl.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backend.hpp"
#include "device/dev_setting.hpp"

namespace sgpu {
namespace gpu {
namespace cublas {

namespace {

template <class F>
bool bind(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

const Api* load() {
  static Api a;
  const char* off = dev::setting("SGPU_CUBLAS");
  if (off && !std::strcmp(off, "off")) {
    if (verbose()) std::fprintf(stderr, "sgpu: cuBLAS disabled (SGPU_CUBLAS=off)\n");
    return nullptr;
  }
  // The major version of the toolkit libsgpu was built with (cuBLAS's ABI is stable within it).
  char name[32];
  std::snprintf(name, sizeof name, "libcublas.so.%d", CUDART_VERSION / 1000);
  void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
#ifdef SGPU_CUDA_LIBDIR
  if (!lib) {  // the toolkit that built libsgpu, where the loader's paths do not name it
    char path[4096];
    std::snprintf(path, sizeof path, "%s/%s", SGPU_CUDA_LIBDIR, name);
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
#endif
  if (!lib) {
    if (verbose()) std::fprintf(stderr, "sgpu: cuBLAS not loaded (%s); own kernels only\n", dlerror());
    return nullptr;
  }
  if (!bind(lib, "cublasCreate_v2", a.create) || !bind(lib, "cublasDestroy_v2", a.destroy) ||
      !bind(lib, "cublasSetStream_v2", a.set_stream) ||
      !bind(lib, "cublasZgemmStridedBatched", a.zgemm_strided_batched)) {
    if (verbose()) std::fprintf(stderr, "sgpu: cuBLAS lacks an entry point; own kernels only\n");
    dlclose(lib);
    return nullptr;
  }
  if (verbose()) std::fprintf(stderr, "sgpu: cuBLAS loaded\n");
  return &a;  // the library stays loaded for the process's lifetime
}

}  // namespace

const Api* api() {
  static const Api* a = load();
  return a;
}

}  // namespace cublas
}  // namespace gpu
}  // namespace sgpu
