// Name: a domain name held as uncompressed wire bytes with the case it was given.
// Comparison and hashing ignore ASCII case; canonical order is RFC 4034 §6.1.
// Value type; immutable after construction, so safe to share between threads.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"

namespace cutover::dns {

// The offsets of the length bytes of an uncompressed wire name's labels, leftmost first (the
// root excluded); 0 when the bytes end before the root or hold more labels than fit. Inline:
// the answer fast path calls it per hostname-pool query.
inline std::size_t wire_label_offsets(std::span<const std::uint8_t> wire, std::span<std::uint8_t, 128> offsets) {
  std::size_t count = 0;
  std::size_t pos = 0;
  for (; pos < wire.size() && wire[pos] != 0; pos += 1u + wire[pos]) {
    if (count == offsets.size()) return 0;
    offsets[count++] = static_cast<std::uint8_t>(pos);
  }
  return pos < wire.size() ? count : 0;
}

class Name {
 public:
  static constexpr std::size_t kMaxWireLength = 255;
  static constexpr std::size_t kMaxLabelLength = 63;

  // The root name ".".
  Name();

  // Presentation form with RFC 1035 escapes (\. \\ \DDD). A name without a trailing dot is
  // relative and gets `origin` appended; with no origin it is an error. "@" is not special here.
  static base::Result<Name> from_text(std::string_view text, const Name* origin = nullptr);
  // Reads a possibly compressed name at the reader's position inside a whole message.
  // Pointers must point strictly backwards (this rules out loops); on success the reader
  // is left just after the name's first pointer or terminating zero.
  static base::Result<Name> from_wire(base::ByteReader& reader);
  // Builds from uncompressed wire bytes, validating label and total lengths.
  static base::Result<Name> from_uncompressed(std::span<const std::uint8_t> wire);

  std::string to_text() const;
  const std::vector<std::uint8_t>& wire() const { return wire_; }

  std::size_t label_count() const;  // the root has 0
  // Label i counted from the left (0 is the leftmost), without its length byte.
  std::string_view label(std::size_t index) const;
  bool is_root() const { return wire_.size() == 1; }
  bool is_wildcard() const { return wire_.size() > 2 && wire_[0] == 1 && wire_[1] == '*'; }

  // Strips the leftmost `count` labels; the root stays the root.
  Name parent(std::size_t count = 1) const;
  // Keeps the rightmost `count` labels.
  Name suffix(std::size_t count) const;
  // Prefixes one label (raw bytes, no escapes). Fails past the length limits.
  base::Result<Name> prepend(std::string_view label) const;
  // Replaces the `old_suffix` ending of this name with `new_suffix` (DNAME substitution).
  base::Result<Name> replace_suffix(const Name& old_suffix, const Name& new_suffix) const;

  bool is_subdomain_of(const Name& ancestor) const;  // true when equal too
  Name lowercased() const;

  bool operator==(const Name& other) const;
  std::strong_ordering canonical_compare(const Name& other) const;
  std::size_t hash() const;

 private:
  explicit Name(std::vector<std::uint8_t> wire) : wire_(std::move(wire)) {}
  // Offsets of each label's length byte, leftmost first (root excluded).
  std::size_t label_offsets(std::uint8_t (&offsets)[128]) const;

  std::vector<std::uint8_t> wire_;
};

struct NameHash {
  std::size_t operator()(const Name& name) const { return name.hash(); }
};

struct NameCanonicalLess {
  bool operator()(const Name& a, const Name& b) const { return a.canonical_compare(b) < 0; }
};

inline std::uint8_t ascii_lower(std::uint8_t c) { return c >= 'A' && c <= 'Z' ? static_cast<std::uint8_t>(c + 32) : c; }

}  // namespace cutover::dns
