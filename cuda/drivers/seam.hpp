// The GPU backend's own helpers for its drivers (seam.cpp): the device a call runs on, and host
// operands staged whole through device memory where the streaming engine cannot describe them.
#pragma once
#include <cstddef>
#include <functional>

#include "backend.hpp"
#include "stage_plan.hpp"

namespace sgpu {
namespace gpu {

// Runs call() with ctx's first device current (the caller's device restored after).
// SGPU_ERR_DEVICE when it cannot be made current.
int on_device(sgpu_context* ctx, const std::function<int()>& call);

// Runs call() with every operand ops[k] for which staged[k] holds replaced (ops[k].p) by a device
// copy of its whole span (outputs too: the gaps between matrices go back as they were), outputs
// copied back after a call that ran; ops[k].p restored before it returns. Operands whose spans
// overlap share one device buffer (lib/stage_plan.hpp). Copies are ordered on the context's
// stream; a call that staged anything waits for it.
int with_device_operands(sgpu_context* ctx, Operand* ops, const bool* staged, size_t count,
                         const std::function<int()>& call);

}  // namespace gpu
}  // namespace sgpu
