// Tests of the byte writers: SpanWriter writes what ByteWriter appends, and never past its span.
#include "base/bytes.h"

#include <array>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace cutover::base {
namespace {

TEST(SpanWriter, WritesTheBytesByteWriterAppends) {
  const std::vector<std::uint8_t> payload = {0xDE, 0xAD, 0xBE};
  std::vector<std::uint8_t> appended;
  ByteWriter grown(appended);
  grown.write_u8(0x01);
  grown.write_u16(0x0203);
  grown.write_u32(0x04050607);
  grown.write_bytes(payload);
  grown.write_bytes({});

  std::array<std::uint8_t, 10> fixed{};
  SpanWriter out(fixed);
  out.write_u8(0x01);
  out.write_u16(0x0203);
  out.write_u32(0x04050607);
  out.write_bytes(payload);
  out.write_bytes({});
  EXPECT_EQ(out.remaining(), 0u);
  EXPECT_EQ(std::vector<std::uint8_t>(fixed.begin(), fixed.end()), appended);
  EXPECT_EQ(appended, (std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 0xDE, 0xAD, 0xBE}));
}

TEST(SpanWriter, ThrowsInsteadOfWritingPastItsEnd) {
  std::array<std::uint8_t, 5> buffer{};
  buffer.fill(0xAA);
  // Only the first three bytes belong to the writer; the rest must stay untouched.
  SpanWriter out(std::span<std::uint8_t>(buffer).first(3));
  out.write_u16(0x0102);
  EXPECT_THROW(out.write_u16(0x0304), std::length_error);
  EXPECT_THROW(out.write_u32(0x05060708), std::length_error);
  const std::uint8_t two[] = {9, 9};
  EXPECT_THROW(out.write_bytes(two), std::length_error);
  EXPECT_EQ(out.remaining(), 1u);
  out.write_u8(0x03);
  EXPECT_THROW(out.write_u8(0x04), std::length_error);
  EXPECT_EQ(buffer, (std::array<std::uint8_t, 5>{1, 2, 3, 0xAA, 0xAA}));
}

}  // namespace
}  // namespace cutover::base
