// One DNS exchange as raw bytes with a server on 127.0.0.1: the query goes out exactly as
// given, the reply comes back unparsed. UDP uses a fresh socket per exchange (replies with
// another ID are ignored); TcpExchanger keeps one connection and reconnects once when the
// server closed it. Every wait is bounded by the timeout. Not thread-safe per object.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace cutover::testing {

// The reply to `query` over UDP, or nullopt when none came within `timeout`.
std::optional<std::vector<std::uint8_t>> udp_exchange(std::uint16_t port, std::span<const std::uint8_t> query,
                                                      std::chrono::milliseconds timeout);

class TcpExchanger {
 public:
  TcpExchanger(std::uint16_t port, std::chrono::milliseconds timeout);
  ~TcpExchanger();
  TcpExchanger(const TcpExchanger&) = delete;
  TcpExchanger& operator=(const TcpExchanger&) = delete;

  // Writes `query` with its two-byte length (RFC 1035 §4.2.2) and reads one framed reply;
  // nullopt when the server did not answer within the timeout (twice, if the first
  // connection was found closed).
  std::optional<std::vector<std::uint8_t>> exchange(std::span<const std::uint8_t> query);

 private:
  bool connect_once();
  void close_connection();
  std::optional<std::vector<std::uint8_t>> try_exchange(std::span<const std::uint8_t> query);

  std::uint16_t port_;
  std::chrono::milliseconds timeout_;
  int fd_ = -1;
};

}  // namespace cutover::testing
