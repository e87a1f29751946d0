// Length-prefixed message splitting with one growing buffer compacted lazily.
#include "net/tcp_framing.h"

namespace cutover::net {

void MessageFramer::append(std::span<const std::uint8_t> bytes) {
  // Drop consumed bytes only when they dominate, so pipelined input is not moved per message.
  if (consumed_ > 0 && consumed_ >= buffer_.size() / 2) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(consumed_));
    consumed_ = 0;
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
}

MessageFramer::Next MessageFramer::next(std::span<const std::uint8_t>& message) {
  if (buffered() < 2) return Next::kNeedMore;
  std::size_t length = (std::size_t{buffer_[consumed_]} << 8) | buffer_[consumed_ + 1];
  if (length == 0) return Next::kInvalid;
  if (buffered() < 2 + length) return Next::kNeedMore;
  message = std::span<const std::uint8_t>(buffer_.data() + consumed_ + 2, length);
  consumed_ += 2 + length;
  return Next::kMessage;
}

bool append_framed(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> message) {
  if (message.size() > kMaxTcpMessage) return false;
  out.push_back(static_cast<std::uint8_t>(message.size() >> 8));
  out.push_back(static_cast<std::uint8_t>(message.size() & 0xff));
  out.insert(out.end(), message.begin(), message.end());
  return true;
}

}  // namespace cutover::net
