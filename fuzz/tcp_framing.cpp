// libFuzzer target: DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766 §8). The first byte sets
// the size of the chunks the stream arrives in; MessageFramer must split it exactly as a
// plain reading of "two-byte length, then that many bytes" does, whatever the chunking, and
// append_framed must give the consumed bytes back.
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_check.h"
#include "net/tcp_framing.h"

using cutover::fuzz::check;
using cutover::net::MessageFramer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::size_t chunk = std::size_t{data[0]} % 32 + 1;
  std::span<const std::uint8_t> stream(data + 1, size - 1);

  // The reference reading.
  std::vector<std::span<const std::uint8_t>> expected;
  std::size_t pos = 0;
  bool invalid = false;
  while (stream.size() - pos >= 2) {
    std::size_t length = (std::size_t{stream[pos]} << 8) | stream[pos + 1];
    if (length == 0) {
      invalid = true;
      break;
    }
    if (stream.size() - pos - 2 < length) break;
    expected.push_back(stream.subspan(pos + 2, length));
    pos += 2 + length;
  }

  MessageFramer framer;
  std::vector<std::uint8_t> reframed;
  std::size_t got = 0;
  bool saw_invalid = false;
  for (std::size_t fed = 0; fed < stream.size() && !saw_invalid;) {
    std::size_t n = std::min(chunk, stream.size() - fed);
    framer.append(stream.subspan(fed, n));
    fed += n;
    for (;;) {
      std::span<const std::uint8_t> message;
      auto next = framer.next(message);
      if (next == MessageFramer::Next::kNeedMore) break;
      if (next == MessageFramer::Next::kInvalid) {
        saw_invalid = true;
        break;
      }
      check(got < expected.size(), "framer returned a message the stream does not hold");
      check(std::equal(message.begin(), message.end(), expected[got].begin(), expected[got].end()),
            "framer returned different bytes");
      check(cutover::net::append_framed(reframed, message), "append_framed refused a received message");
      ++got;
    }
  }
  check(got == expected.size(), "framer lost a message");
  check(saw_invalid == invalid, "framer disagrees on a zero length prefix");
  check(std::equal(reframed.begin(), reframed.end(), stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(pos)),
        "append_framed does not give back the consumed bytes");
  if (!invalid) check(framer.buffered() == stream.size() - pos, "framer buffered count");
  return 0;
}
