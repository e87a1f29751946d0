// Counting TCP connections in all and per client.
#include "net/tcp_budget.h"

#include <netinet/in.h>

#include <cstring>

namespace cutover::net {
namespace {

std::uint64_t big_endian_64(const std::uint8_t* bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | bytes[i];
  return value;
}

}  // namespace

ClientKey client_key(const sockaddr_storage& peer) {
  ClientKey key;
  if (peer.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(peer);
    key.family = AF_INET;
    key.prefix = ntohl(v4.sin_addr.s_addr);
  } else if (peer.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(peer);
    const std::uint8_t* bytes = v6.sin6_addr.s6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr)) {
      key.family = AF_INET;
      std::uint32_t address = 0;
      std::memcpy(&address, bytes + 12, 4);
      key.prefix = ntohl(address);
    } else {
      key.family = AF_INET6;
      key.prefix = big_endian_64(bytes);
    }
  }
  return key;
}

TcpBudget::Take TcpBudget::take(const ClientKey& client) {
  std::lock_guard lock(mutex_);
  std::size_t& held = per_client_[client];
  if (max_per_client_ != 0 && held >= max_per_client_) return Take::kClientFull;
  if (open_.load(std::memory_order_relaxed) >= max_connections_) {
    if (held == 0) per_client_.erase(client);
    return Take::kServerFull;
  }
  ++held;
  open_.fetch_add(1, std::memory_order_relaxed);
  return Take::kTaken;
}

void TcpBudget::give_back(const ClientKey& client) {
  std::lock_guard lock(mutex_);
  auto found = per_client_.find(client);
  if (found == per_client_.end()) return;
  if (--found->second == 0) per_client_.erase(found);
  open_.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace cutover::net
