// DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766 §8): every message is preceded by its
// length as a two-byte big-endian number. Pure byte handling, no sockets; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cutover::net {

constexpr std::size_t kMaxTcpMessage = 65535;

class MessageFramer {
 public:
  enum class Next { kMessage, kNeedMore, kInvalid };

  void append(std::span<const std::uint8_t> bytes);
  // kMessage sets `message` to the next complete message, valid until the next call.
  // kInvalid: a zero length prefix, which no DNS message can have.
  Next next(std::span<const std::uint8_t>& message);
  // Bytes received but not yet returned as a message.
  std::size_t buffered() const { return buffer_.size() - consumed_; }

 private:
  std::vector<std::uint8_t> buffer_;
  std::size_t consumed_ = 0;
};

// Appends the two-byte length and `message`; false (nothing appended) if it is too long.
bool append_framed(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> message);

}  // namespace cutover::net
