// The shared TCP budget: connections counted per client (an IPv4 address, an IPv6 /64) and
// in all, as the listeners take and give back slots.
#include "net/tcp_budget.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <gtest/gtest.h>

namespace cutover::net {
namespace {

sockaddr_storage ipv4(const char* text) {
  sockaddr_storage storage{};
  auto& v4 = reinterpret_cast<sockaddr_in&>(storage);
  v4.sin_family = AF_INET;
  ::inet_pton(AF_INET, text, &v4.sin_addr);
  return storage;
}

sockaddr_storage ipv6(const char* text) {
  sockaddr_storage storage{};
  auto& v6 = reinterpret_cast<sockaddr_in6&>(storage);
  v6.sin6_family = AF_INET6;
  ::inet_pton(AF_INET6, text, &v6.sin6_addr);
  return storage;
}

TEST(ClientKey, IsTheIpv4AddressOrTheIpv6Slash64) {
  EXPECT_EQ(client_key(ipv4("127.0.0.9")), client_key(ipv4("127.0.0.9")));
  EXPECT_FALSE(client_key(ipv4("127.0.0.9")) == client_key(ipv4("127.0.0.1")));
  EXPECT_EQ(client_key(ipv6("2001:db8:1:2::1")), client_key(ipv6("2001:db8:1:2:ffff::7")));
  EXPECT_FALSE(client_key(ipv6("2001:db8:1:2::1")) == client_key(ipv6("2001:db8:1:3::1")));
  // An IPv4 client on a dual-stack socket counts as that IPv4 address.
  EXPECT_EQ(client_key(ipv6("::ffff:192.0.2.7")), client_key(ipv4("192.0.2.7")));
}

TEST(TcpBudget, CapsEachClientAndTheServer) {
  TcpBudget budget(4, 2);
  auto attacker = client_key(ipv4("127.0.0.9"));
  auto other = client_key(ipv4("127.0.0.10"));
  auto third = client_key(ipv4("127.0.0.11"));
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kClientFull);
  EXPECT_EQ(budget.open(), 2u);
  EXPECT_EQ(budget.take(other), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(other), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(third), TcpBudget::Take::kServerFull);
  budget.give_back(attacker);
  EXPECT_EQ(budget.open(), 3u);
  EXPECT_EQ(budget.take(third), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kServerFull);  // under its share, but no slot
  budget.give_back(third);
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(attacker), TcpBudget::Take::kClientFull);
}

TEST(TcpBudget, ZeroMeansNoLimitPerClient) {
  TcpBudget budget(3, 0);
  auto client = client_key(ipv4("127.0.0.9"));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(budget.take(client), TcpBudget::Take::kTaken);
  EXPECT_EQ(budget.take(client), TcpBudget::Take::kServerFull);
}

}  // namespace
}  // namespace cutover::net
