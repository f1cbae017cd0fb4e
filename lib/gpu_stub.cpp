// Built instead of cuda/ when sgpu is configured without CUDA: no device, and every pointer is
// host memory.
#include "backend.hpp"

namespace sgpu {
namespace gpu {

int device_count() { return 0; }
bool has_routine(Routine) { return false; }
bool auto_ready(Routine, bool) { return false; }
void release_context(sgpu_context*) {}
MemKind classify(const void*) { return MemKind::kHost; }
int copy(void*, const void*, size_t) { return SGPU_ERR_NO_BACKEND; }  // never called: nothing is device memory
int fill_bytes(void*, int, size_t) { return SGPU_ERR_NO_BACKEND; }   // likewise
int dhseqr(sgpu_context*, const args::Dhseqr&) { return SGPU_ERR_NO_BACKEND; }
int dgeev(sgpu_context*, const args::Dgeev&) { return SGPU_ERR_NO_BACKEND; }
int zheev(sgpu_context*, const args::Zheev&) { return SGPU_ERR_NO_BACKEND; }
int scan_cols(sgpu_context*, const args::ScanCols&) { return SGPU_ERR_NO_BACKEND; }

}  // namespace gpu
}  // namespace sgpu
