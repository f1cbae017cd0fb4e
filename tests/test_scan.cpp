// sgpu_scan_cols: every type pair, both layouts, in place and out of place, batches with gaps.
// Integers must be exact (with wraparound modulo 2^w); floats within the sequential-summation bound
// |B_ij - S_ij| <= (i+1) u sum_{k<=i} |a_kj| (u: unit roundoff of the output type), against an
// extended-precision reference (the bound holds for any association order that sums each element
// once); repeated runs must agree bitwise (the GPU's look-back must not depend on timing: 20 runs
// of the shapes whose columns span several tiles). Leading dimensions both padded (ld = rows + 2:
// element-wise access on the GPU) and aligned (ld = rows rounded up to 16: 16-byte vectors; the
// matrices then follow one another without gaps, a packed batch). Host data on the GPU backend is
// streamed in pieces: CTest sets SGPU_SCAN_PIECE_BYTES small for the GPU run so that these shapes
// are cut into many pieces (runs of columns, of row ranges, of whole matrices).
#include "common.hpp"

#include <cstdint>
#include <type_traits>

using namespace st;

namespace {

template <class T>
T random_value(Harness& h) {
  if constexpr (std::is_floating_point<T>::value) return (T)h.uniform(-1.0, 1.0);
  else if constexpr (std::is_same<T, uint8_t>::value) return (T)h.randint(0, 255);
  else return (T)h.rng();  // full range: sums wrap
}

template <class Tin, class Tout>
void run_case(Harness& h, int tin, int tout, int layout, int m, int n, int64_t nb, bool in_place, bool aligned,
              int repeats) {
  const bool rm = layout == SGPU_ROW_MAJOR;
  const int rows = rm ? n : m, cols = rm ? m : n;  // storage shape: "rows" is the contiguous extent
  const int ld = aligned ? (rows + 15) / 16 * 16 : rows + 2;
  const int64_t stride = (int64_t)ld * cols + (aligned ? 0 : 5);  // aligned: packed batch
  const size_t len = (size_t)((nb - 1) * stride + (int64_t)ld * cols);
  std::vector<Tin> a(len);
  for (auto& x : a) x = random_value<Tin>(h);
  const Tout sentinel = (Tout)77;
  std::vector<Tout> b(len, sentinel);
  auto idx = [&](int64_t bb, int i, int j) -> size_t {  // logical (i, j) of matrix bb
    return (size_t)(bb * stride + (rm ? (int64_t)i * ld + j : i + (int64_t)j * ld));
  };
  std::vector<Tin> a_in = a;
  void* out = in_place ? (void*)a.data() : (void*)b.data();
  int st = sgpu_scan_cols(h.ctx, layout, (sgpu_type_t)tin, (sgpu_type_t)tout, m, n, a.data(), ld, stride, out, ld,
                          stride, nb);
  h.fail_if_refused(st, "scan_cols");
  char c[160];
  std::snprintf(c, sizeof c, "types %d->%d %s m=%d n=%d ld=%d batch=%lld%s", tin, tout, rm ? "row-major" : "col-major",
                m, n, ld, (long long)nb, in_place ? " in place" : "");
  if (!h.expect(st == 0, "%s: status %d", c, st)) return;
  const Tout* res = in_place ? reinterpret_cast<const Tout*>(a.data()) : b.data();
  const double u = std::is_same<Tout, float>::value ? 0x1p-24 : 0x1p-53;
  int bad = 0;
  for (int64_t bb = 0; bb < nb; ++bb)
    for (int j = 0; j < n; ++j) {
      long double s = 0, sabs = 0;
      uint64_t si = 0;
      for (int i = 0; i < m; ++i) {
        const Tin x = a_in[idx(bb, i, j)];
        const Tout got = res[idx(bb, i, j)];
        if constexpr (std::is_floating_point<Tout>::value) {
          s += (long double)x;
          sabs += std::fabs((long double)x);
          if (std::fabs((long double)got - s) > (i + 1) * u * sabs) ++bad;
        } else {
          si += (uint64_t)(std::make_unsigned_t<Tout>)(Tout)x;
          if (got != (Tout)(std::make_unsigned_t<Tout>)si) ++bad;
        }
      }
    }
  h.expect(bad == 0, "%s: %d elements wrong", c, bad);
  if (in_place) {  // the gaps between A's columns and matrices untouched
    int gap = 0;
    for (size_t k = 0; k < len; ++k) {
      int64_t bb = (int64_t)(k / stride), off = (int64_t)(k % stride);
      bool region = bb < nb && off < (int64_t)ld * cols && off % ld < rows;
      if (!region && std::memcmp(&a[k], &a_in[k], sizeof(Tin)) != 0) ++gap;
    }
    h.expect(gap == 0, "%s: %d gap elements of A written in place", c, gap);
  }
  if (!in_place) {  // gaps of B untouched, A untouched
    int gap = 0;
    for (size_t k = 0; k < len; ++k) {
      int64_t bb = (int64_t)(k / stride), off = (int64_t)(k % stride);
      bool region = bb < nb && off < (int64_t)ld * cols && off % ld < rows;
      if (!region && !(b[k] == sentinel)) ++gap;
    }
    h.expect(gap == 0 && a == a_in, "%s: gaps of B written (%d) or A modified", c, gap);
    // Determinism: further runs give bitwise the same output.
    int differ = 0;
    for (int r = 0; r < repeats; ++r) {
      std::vector<Tout> b2(len, sentinel);
      sgpu_scan_cols(h.ctx, layout, (sgpu_type_t)tin, (sgpu_type_t)tout, m, n, a.data(), ld, stride, b2.data(), ld,
                     stride, nb);
      differ += std::memcmp(b.data(), b2.data(), len * sizeof(Tout)) != 0;
    }
    h.expect(differ == 0, "%s: %d of %d repeated runs differ", c, differ, repeats);
  }
}

template <class Tin, class Tout>
void run_pair(Harness& h, int tin, int tout) {
  // Small shapes, then shapes for the GPU's kernel choices: column-major columns short (one lane
  // group), just past that (tiles of one column), and long (a chain of tiles); row-major strips of
  // one tile, many tiles down (chained), narrow and wide.
  const int shapes[][2] = {{1, 1},     {5, 3},      {17, 33},   {100, 7},   {1, 100},  {3, 1000},
                           {1000, 3},  {64, 64},    {333, 129}, {32, 200},  {1025, 9}, {4097, 5},
                           {70001, 3}, {2500, 130}, {9000, 2},  {600, 700}, {5, 5000}};
  for (int layout : {SGPU_COL_MAJOR, SGPU_ROW_MAJOR})
    for (auto& s : shapes)
      for (int64_t nb : {1, 3}) {
        const int64_t size = (int64_t)s[0] * s[1];
        if (h.quick && size > 500) continue;
        const int repeats = size > 100000 ? 20 : 1;
        for (bool aligned : {false, true}) {
          if (aligned && size < 1000) continue;
          run_case<Tin, Tout>(h, tin, tout, layout, s[0], s[1], nb, false, aligned, repeats);
          if (sizeof(Tin) == sizeof(Tout)) run_case<Tin, Tout>(h, tin, tout, layout, s[0], s[1], nb, true, aligned, 0);
        }
      }
}

}  // namespace

int main(int argc, char** argv) {
  Harness h("test_scan", argc, argv);
  run_pair<float, float>(h, SGPU_R_32F, SGPU_R_32F);
  run_pair<double, double>(h, SGPU_R_64F, SGPU_R_64F);
  run_pair<int32_t, int32_t>(h, SGPU_R_32I, SGPU_R_32I);
  run_pair<int64_t, int64_t>(h, SGPU_R_64I, SGPU_R_64I);
  run_pair<uint8_t, uint32_t>(h, SGPU_R_8U, SGPU_R_32U);
  run_pair<float, double>(h, SGPU_R_32F, SGPU_R_64F);
  return h.finish();
}
