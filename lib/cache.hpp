// What a backend keeps in a context between calls (workspace, streams, device buffers), and how a
// call borrows it: the one call that takes the slot's lock uses the cached object (made on first
// use); a call that finds it held (several host threads on one context) works with a private one
// of the same type, freed when it returns, rather than waiting.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

namespace sgpu {

class CacheSlot {
 public:
  CacheSlot() = default;
  CacheSlot(const CacheSlot&) = delete;
  CacheSlot& operator=(const CacheSlot&) = delete;

  // Returns f(T&) with the cached T, or with a private T when another call holds the slot or the
  // cached one cannot be made. A slot holds one type for its whole life.
  template <class T, class F>
  auto borrow(F f) -> decltype(f(std::declval<T&>())) {
    std::unique_lock<std::mutex> lock(m_, std::try_to_lock);
    if (lock.owns_lock()) {
      if (!p_) p_ = Ptr(new (std::nothrow) T, [](void* p) { delete static_cast<T*>(p); });
      if (p_) return f(*static_cast<T*>(p_.get()));
    }
    T priv;
    return f(priv);
  }

  // Frees the cached object (no call may be using the context).
  void clear() { p_.reset(); }

 private:
  using Ptr = std::unique_ptr<void, void (*)(void*)>;
  std::mutex m_;
  Ptr p_{nullptr, [](void*) {}};
};

}  // namespace sgpu
