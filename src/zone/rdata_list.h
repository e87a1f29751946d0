// RdataList: the rdatas of one RRset in one block of bytes, each as a 2-byte length (host
// order) followed by its bytes. A zone's RRsets borrow their blocks from one arena the zone
// owns (docs/architecture.md, "Zone layout"), so a record costs its bytes plus two rather
// than a heap block of its own; an RRset built outside a zone (a pool's answer) owns its
// block. Items are read as std::span<const std::uint8_t>, which every rdata codec takes.
// Not thread-safe to modify; a built list is only read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <vector>

#include "dns/rdata.h"

namespace cutover::zone {

class RdataList {
 public:
  using Item = std::span<const std::uint8_t>;

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Item;

    Iterator() = default;
    Iterator(const std::uint8_t* at, std::uint16_t left) : at_(at), left_(left) {}
    Item operator*() const { return {at_ + 2, length()}; }
    Iterator& operator++() {
      at_ += 2 + length();
      --left_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const { return left_ == other.left_; }

   private:
    std::uint16_t length() const {
      std::uint16_t length;
      std::memcpy(&length, at_, sizeof length);
      return length;
    }
    const std::uint8_t* at_ = nullptr;
    std::uint16_t left_ = 0;
  };

  RdataList() = default;
  // Owns a copy of `rdatas` (each at most 65535 bytes, as on the wire).
  // Explicit: a silent conversion would copy a vector on every use (a ternary of the two).
  explicit RdataList(const std::vector<dns::Rdata>& rdatas);
  RdataList(std::initializer_list<dns::Rdata> rdatas) : RdataList(std::vector<dns::Rdata>(rdatas)) {}
  RdataList(const RdataList& other);
  RdataList(RdataList&& other) noexcept;
  RdataList& operator=(const RdataList& other);
  RdataList& operator=(RdataList&& other) noexcept;
  ~RdataList() { release(); }

  // A list reading `count` items from `block`, which the caller keeps alive and unchanged.
  static RdataList borrowed(const std::uint8_t* block, std::uint16_t count);
  // The block layout of `rdata`, appended to `out`; what borrowed() reads.
  static void append_item(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> rdata);

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  Iterator begin() const { return {block_, count_}; }
  Iterator end() const { return {nullptr, 0}; }
  Item front() const { return *begin(); }
  // Walks from the front: lists are short (one record is the common case).
  Item operator[](std::size_t index) const { return *std::next(begin(), static_cast<std::ptrdiff_t>(index)); }
  // The bytes of the block (items with their length prefixes).
  std::size_t block_size() const;
  const std::uint8_t* block() const { return block_; }
  bool owned() const { return owned_; }

  // Appends a copy (the list then owns its block).
  void push_back(std::span<const std::uint8_t> rdata);
  void clear() { release(); }
  std::vector<dns::Rdata> to_vector() const;

  bool operator==(const RdataList& other) const;
  bool operator==(const std::vector<dns::Rdata>& other) const;

 private:
  void release();
  void own_copy(const std::uint8_t* block, std::size_t size, std::uint16_t count);

  const std::uint8_t* block_ = nullptr;
  std::uint16_t count_ = 0;
  bool owned_ = false;
};

}  // namespace cutover::zone
