// cuda/stream/piece_plan.hpp: the pieces of every device slot's share, taken in slot order, cover
// the batch exactly, in order, none empty, all `per` long but the last; no slot's share is empty
// while another holds two pieces more. Edges: per = 1..3, per larger than the batch, one to four
// devices.
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "stream/piece_plan.hpp"

using sgpu::gpu::piece_span;
using sgpu::gpu::share_first;
using sgpu::gpu::Span;

int main() {
  int failures = 0, checks = 0;
  auto fail = [&](const char* what, int64_t batch, int64_t per, int devices) {
    ++failures;
    if (failures <= 20)
      std::printf("FAIL %s: batch %lld per %lld devices %d\n", what, (long long)batch, (long long)per, devices);
  };
  for (int64_t batch : {1, 2, 3, 5, 15, 16, 17, 63, 64, 65, 100, 1000, 244140, 1000003}) {
    for (int64_t per : {1, 2, 3, 4, 5, 16, 17, 1000, 8192, 1 << 20}) {
      const int64_t pieces = (batch + per - 1) / per;
      for (int devices : {1, 2, 3, 4}) {
        if (devices > pieces) continue;  // the engine uses at most one slot a piece
        int64_t at = 0, next = 0, least = pieces, most = 0;
        bool ok = share_first(pieces, 0, devices) == 0 && share_first(pieces, devices, devices) == pieces;
        for (int k = 0; k < devices && ok; ++k) {
          const int64_t p0 = share_first(pieces, k, devices), p1 = share_first(pieces, k + 1, devices);
          ok = p0 == next && p1 >= p0;
          next = p1;
          least = p1 - p0 < least ? p1 - p0 : least;
          most = p1 - p0 > most ? p1 - p0 : most;
          for (int64_t i = p0; i < p1 && ok; ++i) {
            const Span s = piece_span(i, per, batch);
            ok = s.b0 == at && s.nb >= 1 && (s.nb == per || s.b0 + s.nb == batch);
            at += s.nb;
          }
        }
        ++checks;
        if (!ok || at != batch) fail("cover", batch, per, devices);
        ++checks;
        if (least < 1 || most - least > 1) fail("balance", batch, per, devices);
      }
    }
  }
  std::printf("test_piece_plan: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
