// Built instead of cuda/gpu_seam.cpp when sgpu is configured without CUDA: no device, and every
// pointer is host memory.
#include "internal.hpp"

namespace sgpu {
namespace gpu {

int device_count() { return 0; }
bool has_routine(Routine) { return false; }
bool auto_ready(Routine, bool) { return false; }
void release_context(sgpu_context*) {}
bool streams_host(Routine) { return false; }
int on_device(sgpu_context*, const std::function<int()>&) { return SGPU_ERR_NO_BACKEND; }
MemKind classify(const void*) { return MemKind::kHost; }
int copy(void*, const void*, size_t) { return SGPU_ERR_NO_BACKEND; }  // never called: nothing is device memory
int fill_bytes(void*, int, size_t) { return SGPU_ERR_NO_BACKEND; }   // likewise
int with_device_operands(sgpu_context*, const Operand*, size_t, const std::function<int()>&) {
  return SGPU_ERR_NO_BACKEND;
}
int dhseqr(sgpu_context*, char, char, int, int, int, double*, int, int64_t, double*, double*, int64_t, double*, int,
           int64_t, int*, int64_t) {
  return SGPU_ERR_NO_BACKEND;
}
int dgeev(sgpu_context*, char, char, int, double*, int, int64_t, double*, double*, int64_t, double*, int, int64_t,
          double*, int, int64_t, int*, int64_t) {
  return SGPU_ERR_NO_BACKEND;
}
int zheev(sgpu_context*, char, char, int, void*, int, int64_t, double*, int64_t, int*, int64_t) {
  return SGPU_ERR_NO_BACKEND;
}
int scan_cols(sgpu_context*, int, sgpu_type_t, sgpu_type_t, int, int, const void*, int, int64_t, void*, int, int64_t,
              int64_t) {
  return SGPU_ERR_NO_BACKEND;
}

}  // namespace gpu
}  // namespace sgpu
