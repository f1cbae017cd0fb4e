// The element types of sgpu_scan_cols's supported pairs, once for every backend: calls
// f(Tin{}, Tout{}) for the pair (tin, tout). The argument check (check::scan_pair_supported)
// admits no other pair; the last line is unreachable through the API.
#pragma once
#include <stdint.h>

#include "sgpu.h"

namespace sgpu {

template <class F>
int with_scan_types(sgpu_type_t tin, sgpu_type_t tout, F f) {
  if (tin == SGPU_R_32F && tout == SGPU_R_32F) return f(float{}, float{});
  if (tin == SGPU_R_64F && tout == SGPU_R_64F) return f(double{}, double{});
  if (tin == SGPU_R_32I && tout == SGPU_R_32I) return f(int32_t{}, int32_t{});
  if (tin == SGPU_R_64I && tout == SGPU_R_64I) return f(int64_t{}, int64_t{});
  if (tin == SGPU_R_8U && tout == SGPU_R_32U) return f(uint8_t{}, uint32_t{});
  if (tin == SGPU_R_32F && tout == SGPU_R_64F) return f(float{}, double{});
  return SGPU_ERR_NOT_SUPPORTED;
}

}  // namespace sgpu
