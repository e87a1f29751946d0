// Published<T>: an immutable value that a writer replaces whole and hot-path readers use
// without locking. std::atomic<std::shared_ptr> in libstdc++ 12 takes a spinlock and bumps
// a shared reference count on every load, so each query would write a cache line that all
// threads share; instead every reader thread keeps its own shared_ptr copy and revalidates
// it with one load of a version number. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace cutover::base {

template <typename T>
class Published {
 public:
  Published() : id_(next_id()) {}
  Published(const Published&) = delete;
  Published& operator=(const Published&) = delete;

  void publish(std::shared_ptr<const T> value) {
    current_.store(std::move(value));
    version_.fetch_add(1, std::memory_order_release);
  }
  // A counted reference, for callers off the hot path.
  std::shared_ptr<const T> load() const { return current_.load(); }

  // The current value as this thread last saw it, refreshed when a newer one was published.
  // Valid until the calling thread's next read() or forget() of a Published<T>. A thread that
  // stops reading keeps its last value alive until it reads again, forgets it or exits.
  const T* read() const {
    Cache& cache = this_thread_cache();
    std::uint64_t version = version_.load(std::memory_order_acquire);
    if (cache.owner != id_ || cache.version != version) [[unlikely]] {
      cache.value = current_.load();
      cache.owner = id_;
      cache.version = version;
    }
    return cache.value.get();
  }
  // Drops the calling thread's copy when it came from this Published, so a thread about to
  // idle does not keep a replaced value (a whole zone set) alive; its next read() loads again.
  void forget() const {
    Cache& cache = this_thread_cache();
    if (cache.owner == id_) cache = Cache{};
  }

 private:
  struct Cache {
    std::uint64_t owner = 0;  // id_ of the Published this copy came from (ids start at 1)
    std::uint64_t version = 0;
    std::shared_ptr<const T> value;
  };
  static Cache& this_thread_cache() {
    thread_local Cache cache;
    return cache;
  }
  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> ids{1};
    return ids.fetch_add(1, std::memory_order_relaxed);
  }

  std::atomic<std::shared_ptr<const T>> current_;
  std::atomic<std::uint64_t> version_{0};
  const std::uint64_t id_;
};

}  // namespace cutover::base
