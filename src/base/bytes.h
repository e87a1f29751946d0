// Bounds-checked big-endian reader, appending writer and fixed-span writer over byte buffers.
// None owns the data it reads or writes; a ByteReader and a SpanWriter must not outlive their
// spans. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace cutover::base {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> data, std::size_t pos = 0) : data_(data), pos_(pos) {}

  // Each read returns false, leaving the position unchanged, when too few bytes remain.
  bool read_u8(std::uint8_t& out) {
    if (remaining() < 1) return false;
    out = data_[pos_++];
    return true;
  }
  bool read_u16(std::uint16_t& out) {
    if (remaining() < 2) return false;
    out = static_cast<std::uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return true;
  }
  bool read_u32(std::uint32_t& out) {
    if (remaining() < 4) return false;
    out = (std::uint32_t{data_[pos_]} << 24) | (std::uint32_t{data_[pos_ + 1]} << 16) |
          (std::uint32_t{data_[pos_ + 2]} << 8) | std::uint32_t{data_[pos_ + 3]};
    pos_ += 4;
    return true;
  }
  bool read_bytes(std::size_t count, std::span<const std::uint8_t>& out) {
    if (remaining() < count) return false;
    out = data_.subspan(pos_, count);
    pos_ += count;
    return true;
  }
  bool skip(std::size_t count) {
    if (remaining() < count) return false;
    pos_ += count;
    return true;
  }

  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  // Moves to an absolute offset; false if it lies past the end.
  bool seek(std::size_t pos) {
    if (pos > data_.size()) return false;
    pos_ = pos;
    return true;
  }
  std::span<const std::uint8_t> data() const { return data_; }

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_;
};

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::uint8_t>& out) : out_(out) {}

  void write_u8(std::uint8_t v) { out_.push_back(v); }
  void write_u16(std::uint16_t v) {
    out_.push_back(static_cast<std::uint8_t>(v >> 8));
    out_.push_back(static_cast<std::uint8_t>(v));
  }
  void write_u32(std::uint32_t v) {
    write_u16(static_cast<std::uint16_t>(v >> 16));
    write_u16(static_cast<std::uint16_t>(v));
  }
  void write_bytes(std::span<const std::uint8_t> bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }
  void patch_u16(std::size_t pos, std::uint16_t v) {
    out_[pos] = static_cast<std::uint8_t>(v >> 8);
    out_[pos + 1] = static_cast<std::uint8_t>(v);
  }
  std::size_t size() const { return out_.size(); }
  void truncate(std::size_t size) { out_.resize(size); }
  std::vector<std::uint8_t>& buffer() { return out_; }

 private:
  std::vector<std::uint8_t>& out_;
};

// The writes of ByteWriter into a span sized beforehand: a store per value instead of a
// vector's capacity check per byte. Writing past the span's end throws std::length_error
// (a size computed wrongly is a bug; nothing is written outside the span).
class SpanWriter {
 public:
  explicit SpanWriter(std::span<std::uint8_t> out) : at_(out.data()), end_(out.data() + out.size()) {}

  void write_u8(std::uint8_t v) {
    room(1);
    *at_++ = v;
  }
  void write_u16(std::uint16_t v) {
    room(2);
    at_[0] = static_cast<std::uint8_t>(v >> 8);
    at_[1] = static_cast<std::uint8_t>(v);
    at_ += 2;
  }
  void write_u32(std::uint32_t v) {
    room(4);
    at_[0] = static_cast<std::uint8_t>(v >> 24);
    at_[1] = static_cast<std::uint8_t>(v >> 16);
    at_[2] = static_cast<std::uint8_t>(v >> 8);
    at_[3] = static_cast<std::uint8_t>(v);
    at_ += 4;
  }
  void write_bytes(std::span<const std::uint8_t> bytes) {
    room(bytes.size());
    if (!bytes.empty()) std::memcpy(at_, bytes.data(), bytes.size());
    at_ += bytes.size();
  }
  // Bytes still free.
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - at_); }

 private:
  void room(std::size_t count) const {
    if (count > remaining()) [[unlikely]] overflow();
  }
  [[noreturn]] static void overflow() { throw std::length_error("SpanWriter: write past the end of its span"); }

  std::uint8_t* at_;
  std::uint8_t* end_;
};

}  // namespace cutover::base
