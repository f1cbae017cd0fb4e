// cuda/piece_plan.hpp: every share's pieces cover it exactly, in order, none empty, all `per` long
// but the last. Edges: empty shares, per = 1..3, per larger than the share.
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "piece_plan.hpp"

using sgpu::gpu::plan_share;
using sgpu::gpu::Span;

int main() {
  int failures = 0, checks = 0;
  auto fail = [&](const char* what, int64_t m0, int64_t m1, int64_t per) {
    ++failures;
    if (failures <= 20)
      std::printf("FAIL %s: m0 %lld m1 %lld per %lld\n", what, (long long)m0, (long long)m1, (long long)per);
  };
  for (int64_t m0 : {0, 7, 1000003}) {
    for (int64_t m : {0, 1, 2, 3, 5, 15, 16, 17, 63, 64, 65, 100, 1000, 244140}) {
      for (int64_t per : {1, 2, 3, 4, 5, 16, 17, 1000, 8192, 1 << 20}) {
        const int64_t m1 = m0 + m;
        const std::vector<Span> p = plan_share(m0, m1, per);
        ++checks;
        int64_t at = m0;
        bool ok = true;
        for (const Span& s : p) {
          ok = ok && s.b0 == at && s.nb >= 1 && s.nb <= per;
          at += s.nb;
        }
        if (!ok || at != m1) {
          fail("cover", m0, m1, per);
          continue;
        }
        ++checks;
        bool uniform = (int64_t)p.size() == (m + per - 1) / per;
        for (size_t i = 0; uniform && i + 1 < p.size(); ++i) uniform = p[i].nb == per;
        if (!uniform) fail("uniform", m0, m1, per);
      }
    }
  }
  std::printf("test_piece_plan: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
