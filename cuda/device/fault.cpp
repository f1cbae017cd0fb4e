// Fault injection counters (see fault.hpp); built with -DSGPU_DEV_HOOKS=ON only.
#include "device/fault.hpp"

#ifdef SGPU_DEV_HOOKS
#include <atomic>
#include <mutex>
#include <unordered_map>

namespace sgpu {
namespace fault {
namespace {
std::atomic<int64_t> g_count[kKinds];
std::atomic<int64_t> g_armed[kKinds];
std::mutex g_meter_mutex;
std::unordered_map<void*, size_t> g_blocks;
int64_t g_held = 0, g_peak = 0;
}  // namespace

void meter_alloc(void* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(g_meter_mutex);
  g_blocks[p] = bytes;
  g_held += (int64_t)bytes;
  g_peak = g_held > g_peak ? g_held : g_peak;
}
void meter_free(void* p) {
  std::lock_guard<std::mutex> lock(g_meter_mutex);
  auto it = g_blocks.find(p);
  if (it == g_blocks.end()) return;
  g_held -= (int64_t)it->second;
  g_blocks.erase(it);
}

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

#ifdef SGPU_DEV_HOOKS
extern "C" void sgpu_fault_device_bytes(int64_t* held, int64_t* peak) {
  using namespace sgpu::fault;
  std::lock_guard<std::mutex> lock(g_meter_mutex);
  if (held) *held = g_held;
  if (peak) *peak = g_peak;
  g_peak = g_held;
}
#endif
