// LazyArray: room for N objects of T on the stack, constructed only as they are used. A
// std::array<T, N> runs every member initialiser of T for all N elements, which a batch of
// one query (the common case at a low rate: one datagram per receive) pays N times over.
// Elements are constructed in order by ensure(); every constructed one is destroyed with the
// array. Not thread-safe (a stack object of one thread).
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace cutover::base {

template <typename T, std::size_t N>
class LazyArray {
 public:
  LazyArray() {}  // NOLINT: constructs no element
  ~LazyArray() { std::destroy_n(items_, constructed_); }
  LazyArray(const LazyArray&) = delete;
  LazyArray& operator=(const LazyArray&) = delete;

  // Default-initialises elements up to index count - 1, as `T t;` would (member initialisers
  // run; members without one stay indeterminate, unlike `T{}`, which zeroes the whole object
  // first when T's constructor is implicit).
  void ensure(std::size_t count) {
    for (; constructed_ < count; ++constructed_) ::new (static_cast<void*>(items_ + constructed_)) T;
  }
  std::size_t constructed() const { return constructed_; }
  T& operator[](std::size_t index) { return items_[index]; }
  const T& operator[](std::size_t index) const { return items_[index]; }
  T* data() { return items_; }
  static constexpr std::size_t capacity() { return N; }

 private:
  union {
    T items_[N];  // a union member: no element is constructed or destroyed implicitly
  };
  std::size_t constructed_ = 0;
};

}  // namespace cutover::base
