#include "zone/rdata_list.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace cutover::zone {

RdataList::RdataList(const std::vector<dns::Rdata>& rdatas) {
  std::vector<std::uint8_t> block;
  for (const auto& rdata : rdatas) append_item(block, rdata);
  own_copy(block.data(), block.size(), static_cast<std::uint16_t>(rdatas.size()));
}

RdataList::RdataList(const RdataList& other) {
  if (other.owned_) {
    own_copy(other.block_, other.block_size(), other.count_);
  } else {
    block_ = other.block_;
    count_ = other.count_;
  }
}

RdataList::RdataList(RdataList&& other) noexcept : block_(other.block_), count_(other.count_), owned_(other.owned_) {
  other.block_ = nullptr;
  other.count_ = 0;
  other.owned_ = false;
}

RdataList& RdataList::operator=(const RdataList& other) {
  if (this != &other) *this = RdataList(other);
  return *this;
}

RdataList& RdataList::operator=(RdataList&& other) noexcept {
  if (this != &other) {
    release();
    block_ = other.block_;
    count_ = other.count_;
    owned_ = other.owned_;
    other.block_ = nullptr;
    other.count_ = 0;
    other.owned_ = false;
  }
  return *this;
}

RdataList RdataList::borrowed(const std::uint8_t* block, std::uint16_t count) {
  RdataList list;
  list.block_ = block;
  list.count_ = count;
  return list;
}

void RdataList::append_item(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> rdata) {
  assert(rdata.size() <= std::numeric_limits<std::uint16_t>::max());
  auto length = static_cast<std::uint16_t>(rdata.size());
  std::uint8_t prefix[2];
  std::memcpy(prefix, &length, sizeof length);
  out.insert(out.end(), prefix, prefix + 2);
  out.insert(out.end(), rdata.begin(), rdata.end());
}

std::size_t RdataList::block_size() const {
  std::size_t size = 0;
  for (Item item : *this) size += 2 + item.size();
  return size;
}

void RdataList::push_back(std::span<const std::uint8_t> rdata) {
  std::vector<std::uint8_t> block(block_, block_ + block_size());
  append_item(block, rdata);
  auto count = static_cast<std::uint16_t>(count_ + 1);
  release();
  own_copy(block.data(), block.size(), count);
}

std::vector<dns::Rdata> RdataList::to_vector() const {
  std::vector<dns::Rdata> out;
  out.reserve(count_);
  for (Item item : *this) out.emplace_back(item.begin(), item.end());
  return out;
}

bool RdataList::operator==(const RdataList& other) const {
  return count_ == other.count_ && std::equal(block_, block_ + block_size(), other.block_);
}

bool RdataList::operator==(const std::vector<dns::Rdata>& other) const {
  if (count_ != other.size()) return false;
  auto theirs = other.begin();
  for (Item item : *this) {
    if (!std::equal(item.begin(), item.end(), theirs->begin(), theirs->end())) return false;
    ++theirs;
  }
  return true;
}

void RdataList::release() {
  if (owned_) delete[] block_;
  block_ = nullptr;
  count_ = 0;
  owned_ = false;
}

void RdataList::own_copy(const std::uint8_t* block, std::size_t size, std::uint16_t count) {
  if (count == 0) return;
  auto* copy = new std::uint8_t[size];
  std::memcpy(copy, block, size);
  block_ = copy;
  count_ = count;
  owned_ = true;
}

}  // namespace cutover::zone
