// Tests for two-byte length framing of DNS over TCP.
#include "net/tcp_framing.h"

#include <gtest/gtest.h>

namespace cutover::net {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes framed(const Bytes& message) {
  Bytes out;
  EXPECT_TRUE(append_framed(out, message));
  return out;
}

TEST(MessageFramer, SplitsPipelinedMessages) {
  Bytes stream = framed({1, 2, 3});
  Bytes second = framed({4});
  stream.insert(stream.end(), second.begin(), second.end());
  MessageFramer framer;
  framer.append(stream);
  std::span<const std::uint8_t> message;
  ASSERT_EQ(framer.next(message), MessageFramer::Next::kMessage);
  EXPECT_EQ(Bytes(message.begin(), message.end()), (Bytes{1, 2, 3}));
  ASSERT_EQ(framer.next(message), MessageFramer::Next::kMessage);
  EXPECT_EQ(Bytes(message.begin(), message.end()), (Bytes{4}));
  EXPECT_EQ(framer.next(message), MessageFramer::Next::kNeedMore);
  EXPECT_EQ(framer.buffered(), 0u);
}

TEST(MessageFramer, WaitsForMessageArrivingByteByByte) {
  Bytes stream = framed({9, 8, 7, 6});
  MessageFramer framer;
  std::span<const std::uint8_t> message;
  for (std::size_t i = 0; i + 1 < stream.size(); ++i) {
    framer.append(std::span<const std::uint8_t>(&stream[i], 1));
    EXPECT_EQ(framer.next(message), MessageFramer::Next::kNeedMore);
  }
  framer.append(std::span<const std::uint8_t>(&stream.back(), 1));
  ASSERT_EQ(framer.next(message), MessageFramer::Next::kMessage);
  EXPECT_EQ(Bytes(message.begin(), message.end()), (Bytes{9, 8, 7, 6}));
}

TEST(MessageFramer, ZeroLengthIsInvalid) {
  MessageFramer framer;
  framer.append(Bytes{0, 0, 1});
  std::span<const std::uint8_t> message;
  EXPECT_EQ(framer.next(message), MessageFramer::Next::kInvalid);
}

TEST(MessageFramer, KeepsPartialTailAcrossCompaction) {
  MessageFramer framer;
  std::span<const std::uint8_t> message;
  for (std::uint8_t round = 0; round < 50; ++round) {
    Bytes stream = framed(Bytes(100, round));
    framer.append(std::span<const std::uint8_t>(stream.data(), 60));
    ASSERT_EQ(framer.next(message), MessageFramer::Next::kNeedMore);
    framer.append(std::span<const std::uint8_t>(stream.data() + 60, stream.size() - 60));
    ASSERT_EQ(framer.next(message), MessageFramer::Next::kMessage);
    EXPECT_EQ(Bytes(message.begin(), message.end()), Bytes(100, round));
  }
}

TEST(AppendFramed, RejectsMessagesOverTheTcpLimit) {
  Bytes out;
  EXPECT_TRUE(append_framed(out, Bytes(kMaxTcpMessage, 1)));
  EXPECT_EQ(out.size(), kMaxTcpMessage + 2);
  EXPECT_EQ(out[0], 0xff);
  EXPECT_EQ(out[1], 0xff);
  out.clear();
  EXPECT_FALSE(append_framed(out, Bytes(kMaxTcpMessage + 1, 1)));
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace cutover::net
