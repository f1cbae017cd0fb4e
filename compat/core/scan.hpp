// Inclusive column-wise prefix sums, B(i, j) = sum_{k<=i} A(k, j), summed sequentially down each
// column (so every backend that keeps this order gives bitwise the same result). Integer sums
// wrap modulo 2^w (done in unsigned arithmetic: no undefined signed overflow).
#pragma once
#include <stdint.h>

#include "defs.hpp"

namespace sgpu {
namespace core {

template <class T>
struct Wrap {
  SGPU_HD static T add(T a, T b) { return a + b; }
};
template <>
struct Wrap<int32_t> {
  SGPU_HD static int32_t add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
};
template <>
struct Wrap<int64_t> {
  SGPU_HD static int64_t add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
};

// Columns [j0, j1) of an m-row matrix, walked row by row: B(i, :) = B(i-1, :) + A(i, :).
// Reads A(i, j) before writing B(i, j), so A and B may be the same storage.
template <class Team, class Tin, class Tout>
SGPU_HD void scan_cols(const Team& t, int m, int j0, int j1, Mat<const Tin> a, Mat<Tout> b) {
  for (int j = t.first(j0); j < j1; j += t.step()) b(0, j) = (Tout)a(0, j);
  for (int i = 1; i < m; ++i)
    for (int j = t.first(j0); j < j1; j += t.step()) b(i, j) = Wrap<Tout>::add(b(i - 1, j), (Tout)a(i, j));
}

}  // namespace core
}  // namespace sgpu
