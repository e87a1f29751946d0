// Unit tests: the parsers of unbound-control's dump_cache and dump_infra text.
#include "lab/resolvers/unbound_control.h"

#include <gtest/gtest.h>

namespace cutover::lab {
namespace {

// The shape Unbound 1.17 prints: rrset heads, record lines, message lines with their rrset refs.
const char* kDump =
    "START_RRSET_CACHE\n"
    ";rrset 3 1 0 5 0\n"
    "e1-ttl20-cap8.unbound.cutover-lab.\t3\tIN\tA\t192.0.2.2\n"
    ";rrset 57 1 0 8 0\n"
    "other.unbound.cutover-lab.\t57\tIN\tA\t192.0.2.9\n"
    ";rrset 4 1 0 7 0\n"
    "e2-soa8.unbound.cutover-lab.\t4\tIN\tSOA\tns. host. 1 3600 600 86400 8\n"
    "END_RRSET_CACHE\n"
    "START_MSG_CACHE\n"
    "msg e1-ttl20-cap8.unbound.cutover-lab. IN A 33152 1 3 0 1 0 0 -1\n"
    "e1-ttl20-cap8.unbound.cutover-lab. IN A 0\n"
    "msg new.e2-soa8.unbound.cutover-lab. IN A 33155 1 4 0 0 1 0 -1\n"
    "e2-soa8.unbound.cutover-lab. IN SOA 0\n"
    "msg e9-servfail.unbound.cutover-lab. IN A 33154 1 5 0 0 0 0 -1\n"
    "END_MSG_CACHE\n"
    "EOF\n";

TEST(UnboundControl, CacheDumpKeepsTheCaseNamesWithTtlAndTrust) {
  auto state = parse_unbound_cache_dump(
      kDump, {"e1-ttl20-cap8.unbound.cutover-lab.", "e2-soa8.unbound.cutover-lab.", "e9-servfail.unbound.cutover-lab."});
  ASSERT_EQ(state["rrsets"].size(), 2u) << state.dump();  // other.* is not the case's
  EXPECT_EQ(state["rrsets"][0]["name"], "e1-ttl20-cap8.unbound.cutover-lab.");
  EXPECT_EQ(state["rrsets"][0]["type"], "A");
  EXPECT_EQ(state["rrsets"][0]["ttl"], 3);
  EXPECT_EQ(state["rrsets"][0]["trust_name"], "ans_noAA");
  EXPECT_EQ(state["rrsets"][0]["data"][0], "192.0.2.2");
  EXPECT_EQ(state["rrsets"][1]["type"], "SOA");
  EXPECT_EQ(state["rrsets"][1]["trust_name"], "auth_AA");
  ASSERT_EQ(state["messages"].size(), 3u);
  EXPECT_EQ(state["messages"][0]["rcode"], "NOERROR");
  EXPECT_EQ(state["messages"][1]["name"], "new.e2-soa8.unbound.cutover-lab.");  // below a case name
  EXPECT_EQ(state["messages"][1]["rcode"], "NXDOMAIN");
  EXPECT_EQ(state["messages"][1]["ttl"], 4);
  EXPECT_EQ(state["messages"][2]["rcode"], "SERVFAIL");
  EXPECT_EQ(state["messages"][2]["ttl"], 5);
  // A name that merely ends with the same letters is not below it.
  EXPECT_TRUE(parse_unbound_cache_dump(kDump, {"soa8.unbound.cutover-lab."})["rrsets"].empty());
}

TEST(UnboundControl, InfraLinesBecomeFields) {
  auto servers = parse_unbound_infra(
      "127.0.0.1 cutover-lab. ttl 812 ping 0 var 94 rtt 376 rto 376 tA 0 tAAAA 0 tother 0 ednsknown 1 edns 0 delay 0 "
      "lame dnssec 0 rec 0 A 0 other 0\nnot a server line\n");
  ASSERT_EQ(servers.size(), 1u);
  EXPECT_EQ(servers[0]["address"], "127.0.0.1");
  EXPECT_EQ(servers[0]["zone"], "cutover-lab.");
  EXPECT_EQ(servers[0]["rtt"], 376);
  EXPECT_EQ(servers[0]["lame_dnssec"], 0);
  EXPECT_EQ(servers[0]["lame_rec"], 0);
  EXPECT_EQ(servers[0]["lame_A"], 0);
  EXPECT_FALSE(servers[0].contains("lame"));
  EXPECT_EQ(unbound_trust_name(8), "ans_AA");
  EXPECT_EQ(unbound_trust_name(42), "unknown");
}

}  // namespace
}  // namespace cutover::lab
