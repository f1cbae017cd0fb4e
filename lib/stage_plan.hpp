// Which operands of a call share a staging buffer. A backend that stages operands whole (the CPU
// backend's device operands through host memory, the GPU backend's host operands through device
// memory) copies each span in and its outputs' spans back, gaps included. Operands whose spans
// overlap (in place; interleaved batches, which the argument check allows where no byte is
// shared) must share one buffer over the union of their spans, copied back once: separate
// buffers would each copy a stale image of the other's bytes back over it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sgpu {

// A data operand as staging sees it: where it is, how many bytes the call may touch from it, and
// whether the call writes it.
struct Operand {
  void* p;
  size_t bytes;
  bool out;
};

struct StagePlan {
  struct Group {
    uintptr_t base;
    size_t bytes;
    bool out;  // some operand of the group is written
  };
  std::vector<Group> groups;
  std::vector<int> group;       // per operand: its group, or -1 when not staged
  std::vector<size_t> offset;   // per operand: its byte offset in the group's buffer
};

// Groups the operands k for which staged(k) holds (non-NULL, non-empty ones only).
template <class Staged>
StagePlan plan_stage(const Operand* ops, size_t count, Staged staged) {
  StagePlan p;
  p.group.assign(count, -1);
  p.offset.assign(count, 0);
  std::vector<size_t> order;
  for (size_t k = 0; k < count; ++k)
    if (ops[k].p && ops[k].bytes && staged(k)) order.push_back(k);
  auto at = [&](size_t k) { return reinterpret_cast<uintptr_t>(ops[k].p); };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return at(a) < at(b); });
  for (size_t k : order) {
    const uintptr_t lo = at(k), hi = lo + ops[k].bytes;
    if (p.groups.empty() || lo >= p.groups.back().base + p.groups.back().bytes) {
      p.groups.push_back({lo, ops[k].bytes, ops[k].out});
    } else {
      StagePlan::Group& g = p.groups.back();
      g.bytes = std::max(g.bytes, (size_t)(hi - g.base));
      g.out = g.out || ops[k].out;
    }
    p.group[k] = (int)p.groups.size() - 1;
    p.offset[k] = (size_t)(lo - p.groups.back().base);
  }
  return p;
}

}  // namespace sgpu
