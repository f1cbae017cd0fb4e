// Inclusive column-wise prefix sums, B(i, j) = sum_{k<=i} A(k, j), summed sequentially down each
// column (so every backend that keeps this order gives bitwise the same result). Integer sums
// wrap modulo 2^w (done in unsigned arithmetic: no undefined signed overflow).
#pragma once
#include <stdint.h>

#include "defs.hpp"

namespace sgpu {
namespace core {
inline namespace SGPU_CORE_ISA {

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

// The same sums walked down the columns, four at a time (four independent add chains, each a
// contiguous stream when columns are contiguous). The summation order per column is unchanged,
// so the result is bitwise that of scan_cols(). Team members own groups of four columns.
template <class Team, class Tin, class Tout>
SGPU_HD void scan_cols_down(const Team& t, int m, int j0, int j1, Mat<const Tin> a, Mat<Tout> b) {
  const int groups = (j1 - j0 + 3) / 4;
  for (int g = t.first(0); g < groups; g += t.step()) {
    const int j = j0 + 4 * g;
    if ((int64_t)j + 4 <= j1) {  // (j + 4 overflows int when n is near INT_MAX)
      const Tin *a0 = &a(0, j), *a1 = &a(0, j + 1), *a2 = &a(0, j + 2), *a3 = &a(0, j + 3);
      Tout *b0 = &b(0, j), *b1 = &b(0, j + 1), *b2 = &b(0, j + 2), *b3 = &b(0, j + 3);
      Tout s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int i = 0; i < m; ++i) {
        const int64_t o = (int64_t)i * a.rs, q = (int64_t)i * b.rs;
        s0 = i ? Wrap<Tout>::add(s0, (Tout)a0[o]) : (Tout)a0[o];
        s1 = i ? Wrap<Tout>::add(s1, (Tout)a1[o]) : (Tout)a1[o];
        s2 = i ? Wrap<Tout>::add(s2, (Tout)a2[o]) : (Tout)a2[o];
        s3 = i ? Wrap<Tout>::add(s3, (Tout)a3[o]) : (Tout)a3[o];
        b0[q] = s0;
        b1[q] = s1;
        b2[q] = s2;
        b3[q] = s3;
      }
    } else {
      for (int jj = j; jj < j1; ++jj) {
        Tout s = 0;
        for (int i = 0; i < m; ++i) {
          s = i ? Wrap<Tout>::add(s, (Tout)a(i, jj)) : (Tout)a(i, jj);
          b(i, jj) = s;
        }
      }
    }
  }
}

}  // namespace SGPU_CORE_ISA
}  // namespace core
}  // namespace sgpu
