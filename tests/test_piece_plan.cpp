// cuda/piece_plan.hpp: every share's pieces cover it exactly, in order, none empty or over `per`;
// untapered pieces are `per` long but the last; tapered ones begin with per/4, per/2 and end with
// per/2, per/4, their middle pieces within one matrix of each other, and only shares of at least
// kTaperMinPieces pieces are tapered. Edges: empty shares, per = 1..3, per larger than the share.
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "piece_plan.hpp"

using sgpu::gpu::kTaperMinPieces;
using sgpu::gpu::plan_share;
using sgpu::gpu::Span;

int main() {
  int failures = 0, checks = 0;
  auto fail = [&](const char* what, int64_t m0, int64_t m1, int64_t per, bool taper) {
    ++failures;
    if (failures <= 20)
      std::printf("FAIL %s: m0 %lld m1 %lld per %lld taper %d\n", what, (long long)m0, (long long)m1, (long long)per,
                  (int)taper);
  };
  for (int64_t m0 : {0, 7, 1000003}) {
    for (int64_t m : {0, 1, 2, 3, 5, 15, 16, 17, 63, 64, 65, 100, 1000, 244140}) {
      for (int64_t per : {1, 2, 3, 4, 5, 16, 17, 1000, 8192, 1 << 20}) {
        for (bool taper : {false, true}) {
          const int64_t m1 = m0 + m;
          const std::vector<Span> p = plan_share(m0, m1, per, taper);
          ++checks;
          int64_t at = m0;
          bool ok = true;
          for (const Span& s : p) {
            ok = ok && s.b0 == at && s.nb >= 1 && s.nb <= per;
            at += s.nb;
          }
          if (!ok || at != m1) {
            fail("cover", m0, m1, per, taper);
            continue;
          }
          const bool tapered = taper && per >= 4 && m >= kTaperMinPieces * per;
          ++checks;
          if (!tapered) {
            const int64_t want = (m + per - 1) / per;
            bool uniform = (int64_t)p.size() == want;
            for (size_t i = 0; uniform && i + 1 < p.size(); ++i) uniform = p[i].nb == per;
            if (!uniform) fail("uniform", m0, m1, per, taper);
            continue;
          }
          const size_t k = p.size();
          bool shape = k >= 7 && p[0].nb == per / 4 && p[1].nb == per / 2 && p[k - 2].nb == per / 2 &&
                       p[k - 1].nb == per / 4;
          for (size_t i = 2; shape && i + 2 < k; ++i) {
            const int64_t d = p[i].nb - p[2].nb;
            shape = d >= -1 && d <= 1;
          }
          // No more middle pieces than needed: one fewer would not fit within per.
          const int64_t middle = m - 2 * (per / 4 + per / 2);
          shape = shape && (int64_t)(k - 4) == (middle + per - 1) / per;
          if (!shape) fail("taper", m0, m1, per, taper);
        }
      }
    }
  }
  std::printf("test_piece_plan: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
