// Fault injection counters (see fault.hpp); built with -DSGPU_FAULT_INJECTION=ON only.
#include "fault.hpp"

#ifdef SGPU_FAULT_INJECTION
#include <atomic>

namespace sgpu {
namespace fault {
namespace {
std::atomic<int64_t> g_count[kKinds];
std::atomic<int64_t> g_armed[kKinds];
}  // namespace

bool hit(Kind k) {
  const int64_t c = ++g_count[k];
  return g_armed[k].load() == c;
}

}  // namespace fault
}  // namespace sgpu

extern "C" int64_t sgpu_fault_arm(int kind, int64_t k) {
  using namespace sgpu::fault;
  if (kind < 0 || kind >= kKinds) return -1;
  g_armed[kind].store(0);
  const int64_t seen = g_count[kind].exchange(0);
  g_armed[kind].store(k);
  return seen;
}
#endif
