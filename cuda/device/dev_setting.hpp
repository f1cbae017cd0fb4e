// Developer settings: environment overrides of the GPU backend's tuning constants and paths, read
// only in builds configured with -DSGPU_DEV_HOOKS=ON (tools/gpu_test.sh cuts its batches into
// small pieces and runs zheev without cuBLAS through them; bench/ scripts compare settings on one
// build). In every other build setting() is a constant null, each tuned constant stands, and the
// library reads no environment variable but those the README lists.
#pragma once
#include <cstdlib>

namespace sgpu {
namespace dev {

#ifdef SGPU_DEV_HOOKS
inline const char* setting(const char* name) { return std::getenv(name); }
#else
constexpr const char* setting(const char*) { return nullptr; }
#endif

}  // namespace dev
}  // namespace sgpu
