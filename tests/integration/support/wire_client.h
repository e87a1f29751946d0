// A minimal raw DNS client for tests that need control dig does not give: several queries
// written back to back on one TCP connection, half messages, idle connections.
// Every blocking read gives up after 10 s so a broken server cannot hang a test.
// Not thread-safe per object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dns/message.h"

namespace cutover::testing {

// A standard query (RD clear, EDNS with a 1232-byte payload) as wire bytes.
std::vector<std::uint8_t> make_query(std::uint16_t id, const std::string& name, dns::RRType type);

class TcpClient {
 public:
  // Connects to 127.0.0.1:port; connected() says whether that worked. With `source` (an
  // IPv4 address of 127.0.0.0/8, all of which is loopback) it connects from there, so one
  // test can play several clients.
  explicit TcpClient(std::uint16_t port, const std::string& source = "");
  ~TcpClient();
  TcpClient(const TcpClient&) = delete;
  TcpClient& operator=(const TcpClient&) = delete;

  bool connected() const { return connected_; }
  // Writes raw bytes as they are (no framing added); false if the write failed.
  bool send_raw(const std::vector<std::uint8_t>& bytes);
  // Writes each message with its two-byte length prefix, all in one write.
  bool send_framed(const std::vector<std::vector<std::uint8_t>>& messages);
  // Reads one length-prefixed response and parses it; nullopt on close, timeout or junk.
  std::optional<dns::Message> receive();
  // Blocks until the server closes the connection (true) or 10 s pass / data arrives (false).
  bool closed_by_peer();

 private:
  bool receive_exactly(std::uint8_t* out, std::size_t count);

  int fd_ = -1;
  bool connected_ = false;
};

}  // namespace cutover::testing
