// lib/largest_count.hpp against a linear scan, over budgets and batches including the edges
// (nothing fits, everything fits, one fits), and spans with a fixed part and a stride.
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "largest_count.hpp"

int main() {
  int failures = 0, checks = 0;
  for (int64_t batch : {1, 2, 3, 7, 64, 1000}) {
    for (int64_t fixed : {0, 5, 100}) {
      for (int64_t per : {1, 3, 17}) {
        for (int64_t budget = 0; budget <= fixed + per * (batch + 2); budget += per > 1 ? per - 1 : 1) {
          auto fits = [&](int64_t k) { return fixed + per * k <= budget; };
          int64_t want = 0;
          for (int64_t k = 1; k <= batch; ++k)
            if (fits(k)) want = k;
          const int64_t got = sgpu::largest_count(batch, fits);
          ++checks;
          if (got != want) {
            ++failures;
            if (failures <= 10)
              std::printf("FAIL batch %lld fixed %lld per %lld budget %lld: %lld, want %lld\n", (long long)batch,
                          (long long)fixed, (long long)per, (long long)budget, (long long)got, (long long)want);
          }
        }
      }
    }
  }
  ++checks;
  if (sgpu::largest_count(0, [](int64_t) { return true; }) != 0) ++failures;
  std::printf("test_largest_count: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
