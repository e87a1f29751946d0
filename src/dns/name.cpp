// Domain name parsing (text and wire), printing, comparison and label surgery.
#include "dns/name.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace cutover::dns {

using base::ErrorCode;
using base::make_error;
using base::Result;

namespace {

constexpr std::uint8_t kRootLabel[] = {0};

[[gnu::cold]] base::Error label_error(std::size_t length, std::string_view text) {
  if (length == 0) return make_error(ErrorCode::kMalformed, fmt::format("empty label in '{}'", text));
  return make_error(ErrorCode::kMalformed, fmt::format("label longer than 63 octets in '{}'", text));
}

}  // namespace

Name::Name() : wire_{0} {}

Result<Name> Name::from_text(std::string_view text, const Name* origin) {
  if (text.empty()) return make_error(ErrorCode::kMalformed, "empty name");
  if (text == ".") return Name();
  // Built in a buffer on the stack and copied into the name once: every record of a zone file
  // has an owner and most have a name in their rdata, and a vector grown byte by byte cost
  // more than the scan. A text whose wire form outgrows the buffer is still scanned to the
  // end, counting bytes without storing them, so its label errors come first and the length
  // error names the whole text.
  std::uint8_t wire[kMaxWireLength + 1];
  std::size_t size = 1;  // bytes of wire form so far (the first length byte); the first sizeof(wire) are stored
  std::size_t label_start = 0;
  bool absolute = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    std::uint8_t byte;
    if (c == '.') {
      std::size_t length = size - label_start - 1;
      if (length == 0 || length > kMaxLabelLength) return label_error(length, text);
      if (label_start < sizeof(wire)) wire[label_start] = static_cast<std::uint8_t>(length);
      if (i + 1 == text.size()) {
        absolute = true;
        break;
      }
      label_start = size++;
      continue;
    }
    if (c == '\\') {
      if (i + 1 >= text.size()) return make_error(ErrorCode::kMalformed, fmt::format("dangling '\\' in '{}'", text));
      char next = text[i + 1];
      if (next >= '0' && next <= '9') {
        if (i + 3 >= text.size() || !(text[i + 2] >= '0' && text[i + 2] <= '9') ||
            !(text[i + 3] >= '0' && text[i + 3] <= '9')) {
          return make_error(ErrorCode::kMalformed, fmt::format("bad \\DDD escape in '{}'", text));
        }
        int value = (next - '0') * 100 + (text[i + 2] - '0') * 10 + (text[i + 3] - '0');
        if (value > 255) return make_error(ErrorCode::kMalformed, fmt::format("\\DDD escape above 255 in '{}'", text));
        byte = static_cast<std::uint8_t>(value);
        i += 3;
      } else {
        byte = static_cast<std::uint8_t>(next);
        i += 1;
      }
    } else {
      byte = static_cast<std::uint8_t>(c);
    }
    if (size < sizeof(wire)) wire[size] = byte;
    ++size;
  }
  std::span<const std::uint8_t> suffix = kRootLabel;
  if (!absolute) {
    std::size_t length = size - label_start - 1;
    if (length == 0 || length > kMaxLabelLength) return label_error(length, text);
    if (label_start < sizeof(wire)) wire[label_start] = static_cast<std::uint8_t>(length);
    if (origin == nullptr) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("relative name '{}' without an origin", text));
    }
    suffix = origin->wire_;
  }
  if (size + suffix.size() > kMaxWireLength) {
    return make_error(ErrorCode::kMalformed, fmt::format("name longer than 255 octets: '{}'", text));
  }
  std::memcpy(wire + size, suffix.data(), suffix.size());
  return Name(std::vector<std::uint8_t>(wire, wire + size + suffix.size()));
}

Result<Name> Name::from_wire(base::ByteReader& reader) {
  auto data = reader.data();
  std::size_t pos = reader.pos();
  std::size_t resume = 0;  // where the reader continues after the first pointer
  bool jumped = false;
  std::size_t lowest_target = pos;  // each pointer must go strictly below this
  std::vector<std::uint8_t> wire;
  wire.reserve(32);
  while (true) {
    if (pos >= data.size()) return make_error(ErrorCode::kMalformed, "name runs past the end of the message", pos);
    std::uint8_t length = data[pos];
    if ((length & 0xC0) == 0xC0) {
      if (pos + 1 >= data.size()) return make_error(ErrorCode::kMalformed, "truncated compression pointer", pos);
      std::size_t target = (static_cast<std::size_t>(length & 0x3F) << 8) | data[pos + 1];
      if (target >= lowest_target) {
        return make_error(ErrorCode::kMalformed, "compression pointer does not point backwards", pos);
      }
      if (!jumped) {
        resume = pos + 2;
        jumped = true;
      }
      lowest_target = target;
      pos = target;
      continue;
    }
    if ((length & 0xC0) != 0) return make_error(ErrorCode::kMalformed, "unsupported label type", pos);
    if (pos + 1 + length > data.size()) return make_error(ErrorCode::kMalformed, "label runs past the end", pos);
    if (wire.size() + 1 + length > kMaxWireLength) {
      return make_error(ErrorCode::kMalformed, "name longer than 255 octets", pos);
    }
    wire.insert(wire.end(), data.begin() + static_cast<std::ptrdiff_t>(pos),
                data.begin() + static_cast<std::ptrdiff_t>(pos + 1 + length));
    pos += 1 + length;
    if (length == 0) break;
  }
  (void)reader.seek(jumped ? resume : pos);
  return Name(std::move(wire));
}

Result<Name> Name::from_uncompressed(std::span<const std::uint8_t> wire) {
  if (wire.size() > kMaxWireLength) return make_error(ErrorCode::kMalformed, "name longer than 255 octets");
  std::size_t pos = 0;
  while (pos < wire.size()) {
    std::uint8_t length = wire[pos];
    if (length > kMaxLabelLength) return make_error(ErrorCode::kMalformed, "bad label length", pos);
    if (length == 0) {
      if (pos + 1 != wire.size()) return make_error(ErrorCode::kMalformed, "bytes after the root label", pos);
      return Name(std::vector<std::uint8_t>(wire.begin(), wire.end()));
    }
    pos += 1 + length;
  }
  return make_error(ErrorCode::kMalformed, "name without a root label");
}

std::string Name::to_text() const {
  if (is_root()) return ".";
  std::string text;
  text.reserve(wire_.size() + 4);
  std::size_t pos = 0;
  while (wire_[pos] != 0) {
    std::size_t length = wire_[pos];
    for (std::size_t i = pos + 1; i <= pos + length; ++i) {
      std::uint8_t c = wire_[i];
      switch (c) {
        case '.': case ';': case '\\': case '(': case ')': case '"': case '@': case '$': case ' ':
          text.push_back('\\');
          text.push_back(static_cast<char>(c));
          break;
        default:
          if (c < 0x21 || c > 0x7E) {
            text.append(fmt::format("\\{:03}", c));
          } else {
            text.push_back(static_cast<char>(c));
          }
      }
    }
    text.push_back('.');
    pos += length + 1;
  }
  return text;
}

std::size_t Name::label_offsets(std::uint8_t (&offsets)[128]) const { return wire_label_offsets(wire_, offsets); }

std::size_t Name::label_count() const {
  std::uint8_t offsets[128];
  return label_offsets(offsets);
}

std::string_view Name::label(std::size_t index) const {
  std::uint8_t offsets[128];
  std::size_t count = label_offsets(offsets);
  if (index >= count) return {};
  return {reinterpret_cast<const char*>(wire_.data()) + offsets[index] + 1, wire_[offsets[index]]};
}

Name Name::parent(std::size_t count) const {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < count && wire_[pos] != 0; ++i) pos += wire_[pos] + 1;
  return Name(std::vector<std::uint8_t>(wire_.begin() + static_cast<std::ptrdiff_t>(pos), wire_.end()));
}

Name Name::suffix(std::size_t count) const {
  std::size_t total = label_count();
  return count >= total ? *this : parent(total - count);
}

Result<Name> Name::prepend(std::string_view label) const {
  if (label.empty() || label.size() > kMaxLabelLength) {
    return make_error(ErrorCode::kInvalidArgument, "label must be 1 to 63 octets");
  }
  if (wire_.size() + 1 + label.size() > kMaxWireLength) {
    return make_error(ErrorCode::kLimit, "name longer than 255 octets");
  }
  std::vector<std::uint8_t> wire;
  wire.reserve(wire_.size() + 1 + label.size());
  wire.push_back(static_cast<std::uint8_t>(label.size()));
  wire.insert(wire.end(), label.begin(), label.end());
  wire.insert(wire.end(), wire_.begin(), wire_.end());
  return Name(std::move(wire));
}

Result<Name> Name::replace_suffix(const Name& old_suffix, const Name& new_suffix) const {
  if (!is_subdomain_of(old_suffix)) return make_error(ErrorCode::kInvalidArgument, "not below the suffix");
  std::size_t keep = wire_.size() - old_suffix.wire_.size();
  if (keep + new_suffix.wire_.size() > kMaxWireLength) {
    return make_error(ErrorCode::kLimit, "substituted name longer than 255 octets");
  }
  std::vector<std::uint8_t> wire(wire_.begin(), wire_.begin() + static_cast<std::ptrdiff_t>(keep));
  wire.insert(wire.end(), new_suffix.wire_.begin(), new_suffix.wire_.end());
  return Name(std::move(wire));
}

bool Name::is_subdomain_of(const Name& ancestor) const {
  if (ancestor.wire_.size() > wire_.size()) return false;
  std::size_t start = wire_.size() - ancestor.wire_.size();
  // The suffix must begin on a label boundary.
  std::size_t pos = 0;
  while (pos < start) pos += wire_[pos] + 1;
  if (pos != start) return false;
  for (std::size_t i = 0; i < ancestor.wire_.size(); ++i) {
    if (ascii_lower(wire_[start + i]) != ascii_lower(ancestor.wire_[i])) return false;
  }
  return true;
}

Name Name::lowercased() const {
  std::vector<std::uint8_t> wire(wire_);
  std::size_t pos = 0;
  while (wire[pos] != 0) {
    std::size_t length = wire[pos];
    for (std::size_t i = pos + 1; i <= pos + length; ++i) wire[i] = ascii_lower(wire[i]);
    pos += length + 1;
  }
  return Name(std::move(wire));
}

bool Name::operator==(const Name& other) const {
  if (wire_.size() != other.wire_.size()) return false;
  // Length bytes are < 64 and unaffected by lowering, so a bytewise lowered compare is exact.
  for (std::size_t i = 0; i < wire_.size(); ++i) {
    if (ascii_lower(wire_[i]) != ascii_lower(other.wire_[i])) return false;
  }
  return true;
}

std::strong_ordering Name::canonical_compare(const Name& other) const {
  std::uint8_t mine[128];
  std::uint8_t theirs[128];
  std::size_t my_count = label_offsets(mine);
  std::size_t their_count = other.label_offsets(theirs);
  std::size_t i = my_count;
  std::size_t j = their_count;
  while (i > 0 && j > 0) {
    --i;
    --j;
    const std::uint8_t* a = wire_.data() + mine[i];
    const std::uint8_t* b = other.wire_.data() + theirs[j];
    std::size_t common = std::min<std::size_t>(a[0], b[0]);
    for (std::size_t k = 1; k <= common; ++k) {
      std::uint8_t x = ascii_lower(a[k]);
      std::uint8_t y = ascii_lower(b[k]);
      if (x != y) return x <=> y;
    }
    if (a[0] != b[0]) return a[0] <=> b[0];
  }
  return my_count <=> their_count;
}

std::size_t Name::hash() const {
  std::size_t h = 1469598103934665603ULL;
  for (std::uint8_t byte : wire_) {
    h ^= ascii_lower(byte);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace cutover::dns
