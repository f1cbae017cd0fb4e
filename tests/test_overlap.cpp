// The argument check's overlap test (lib/check.cpp, first_overlap) against brute force: random
// batches of matrices laid out in one small byte range (items, columns, gaps, element sizes 1-16,
// interleaved and not), each pair's bytes marked one by one. The check must say "overlap" exactly
// when some byte is marked by both (a false alarm would reject a legal call, a miss would let one
// output overwrite another), and the scan's in-place form (same address and layout) must pass.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "check.hpp"

using sgpu::check::Operand;

namespace {

// Bytes of o relative to a base address of 0.
void mark(const Operand& o, uintptr_t base, std::vector<char>& bytes) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(o.p) - base;
  for (int64_t b = 0; b < o.count; ++b)
    for (int64_t c = 0; c < o.cols; ++c)
      for (int64_t r = 0; r < o.rows; ++r)
        for (int e = 0; e < o.elem; ++e) bytes[at + (size_t)((b * o.stride + c * o.ld + r) * o.elem + e)] = 1;
}

int64_t span(const Operand& o) { return ((o.count - 1) * o.stride + (o.cols - 1) * o.ld + o.rows) * o.elem; }

}  // namespace

int main(int argc, char** argv) {
  const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::random_device{}();
  std::printf("test_overlap: seed %llu\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) { return (int64_t)std::uniform_int_distribution<int>(lo, hi)(rng); };
  const size_t room = 1 << 16;
  std::vector<char> buf(room);
  const uintptr_t base = reinterpret_cast<uintptr_t>(buf.data());
  int failures = 0, overlapping = 0, cases = 0;
  for (int it = 0; it < 200000; ++it) {
    Operand o[2];
    for (Operand& x : o) {
      static const int elems[] = {1, 4, 8, 16};
      x.elem = elems[pick(0, 3)];
      x.rows = pick(1, 6);
      x.cols = pick(1, 4);
      x.ld = x.rows + pick(0, 3);
      x.count = pick(1, 5);
      const int64_t extent = x.ld * x.cols;
      // Strides of the whole range: packed, with gaps, and multiples that invite interleaving.
      x.stride = x.count > 1 ? (pick(0, 2) == 0 ? extent : extent + pick(0, 2 * extent)) : 0;
      x.out = true;
    }
    if (pick(0, 3) == 0) o[1].stride = o[0].stride, o[1].count = o[0].count;  // equal steps: the periodic path
    const bool weave = pick(0, 2) == 0;  // o[1] in o[0]'s gaps between columns (usually disjoint)
    if (weave) {
      o[0].ld = o[0].rows + pick(1, 4);
      o[0].stride = o[0].count > 1 ? o[0].ld * o[0].cols + pick(0, 3) : 0;
      o[1] = o[0];
      o[1].rows = pick(1, (int)(o[0].ld - o[0].rows) + 1);  // one row too many now and then
    }
    const int64_t s0 = span(o[0]), s1 = span(o[1]);
    if (s0 + s1 + 64 > (int64_t)room) continue;
    // Second operand near the first: inside its span, just before, just after.
    const int64_t at0 = pick(0, 32) * 16;
    const int64_t at1 = weave ? at0 + (o[0].rows + pick(0, 1)) * o[0].elem
                              : std::max<int64_t>(0, at0 + pick(-(int)s1, (int)s0 + 16));
    o[0].p = buf.data() + at0;
    o[1].p = buf.data() + at1;
    o[0].arg = 3;
    o[1].arg = 7;
    std::vector<char> m0(room + 64, 0), m1(room + 64, 0);
    mark(o[0], base, m0);
    mark(o[1], base, m1);
    bool truth = false;
    for (size_t k = 0; k < m0.size() && !truth; ++k) truth = m0[k] && m1[k];
    const int got = sgpu::check::first_overlap(o, 2, false);
    ++cases;
    overlapping += truth;
    if ((got == -7) != truth || (got != 0 && got != -7)) {
      if (++failures <= 10)
        std::printf("FAIL: elem %d/%d rows %lld/%lld cols %lld/%lld ld %lld/%lld count %lld/%lld stride %lld/%lld at %lld/%lld: "
                    "check %d, bytes %s\n",
                    o[0].elem, o[1].elem, (long long)o[0].rows, (long long)o[1].rows, (long long)o[0].cols,
                    (long long)o[1].cols, (long long)o[0].ld, (long long)o[1].ld, (long long)o[0].count,
                    (long long)o[1].count, (long long)o[0].stride, (long long)o[1].stride, (long long)at0,
                    (long long)at1, got, truth ? "shared" : "disjoint");
    }
    // The same operand twice is the scan's in-place form: allowed only where the caller says so.
    Operand same[2] = {o[0], o[0]};
    same[1].arg = 7;
    if (sgpu::check::first_overlap(same, 2, true) != 0 || sgpu::check::first_overlap(same, 2, false) != -7) {
      if (++failures <= 10) std::printf("FAIL: the in-place form\n");
    }
  }
  std::printf("test_overlap: %d cases (%d sharing a byte), %d failures (seed %llu)\n", cases, overlapping, failures,
              (unsigned long long)seed);
  return failures ? 1 : 0;
}
