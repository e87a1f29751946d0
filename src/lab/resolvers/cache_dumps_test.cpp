// Unit tests: the cache-dump parsers on dumps captured from the Debian 12 packages on this
// machine (src/lab/resolvers/testdata/, each file named after the version that wrote it; the
// resolvers ran against an NSD serving cutover-lab. with e1-ttl20.fx A 192.0.2.2 TTL 20,
// e1-cname.fx CNAME to it, SOA MINIMUM 8, and an other-lab. zone NSD refused).
#include "lab/resolvers/cache_dumps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

std::string fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(CUTOVER_SOURCE_DIR) / "src/lab/resolvers/testdata" / name);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

const std::vector<std::string> kNames = {"e1-ttl20.fx.cutover-lab.", "e1-cname.fx.cutover-lab.",
                                         "nope.fx.cutover-lab.", "www.other-lab."};

const Json* find(const Json& list, const std::string& name, const std::string& type) {
  for (const auto& item : list) {
    if (item["name"] == name && item["type"] == type) return &item;
  }
  return nullptr;
}

TEST(CacheDumps, NamesAreMatchedByLabels) {
  EXPECT_TRUE(name_is_under("A.b.lab.", {"b.lab."}));
  EXPECT_TRUE(name_is_under("b.lab", {"b.lab."}));
  EXPECT_FALSE(name_is_under("xb.lab.", {"b.lab."}));
  EXPECT_FALSE(name_is_under("lab.", {"b.lab."}));
}

TEST(CacheDumps, BindDumpdbGivesRanksNegativesServfailsAndTheAddressDatabase) {
  Json state = parse_bind_cache_dump(fixture("bind-9.18.49-dumpdb-cache.txt"), kNames);
  EXPECT_EQ(state["stale_ttl"], 30);
  const Json* cname = find(state["rrsets"], "e1-cname.fx.cutover-lab.", "CNAME");
  ASSERT_NE(cname, nullptr) << state.dump();
  EXPECT_EQ((*cname)["ttl"], 19);
  EXPECT_EQ((*cname)["trust_name"], "authanswer");
  // The A record is printed without its owner (the line continues the name above it).
  const Json* a = find(state["rrsets"], "e1-ttl20.fx.cutover-lab.", "A");
  ASSERT_NE(a, nullptr) << state.dump();
  EXPECT_EQ((*a)["data"], Json::array({"192.0.2.2"}));
  EXPECT_EQ((*a)["ttl"], 19);
  EXPECT_FALSE((*a)["stale"].get<bool>());
  const Json* nodata = find(state["messages"], "e1-ttl20.fx.cutover-lab.", "AAAA");
  ASSERT_NE(nodata, nullptr) << state.dump();
  EXPECT_EQ((*nodata)["rcode"], "NOERROR");
  EXPECT_EQ((*nodata)["ttl"], 7);
  const Json* nxdomain = find(state["messages"], "nope.fx.cutover-lab.", "ANY");
  ASSERT_NE(nxdomain, nullptr);
  EXPECT_EQ((*nxdomain)["rcode"], "NXDOMAIN");
  EXPECT_EQ((*nxdomain)["trust_name"], "answer");
  const Json* servfail = find(state["messages"], "www.other-lab.", "A");
  ASSERT_NE(servfail, nullptr) << state.dump();
  EXPECT_EQ((*servfail)["rcode"], "SERVFAIL");
  EXPECT_EQ((*servfail)["ttl_ms"], 900);
  EXPECT_DOUBLE_EQ((*servfail)["ttl"].get<double>(), 0.9);
  ASSERT_EQ(state["infra"].size(), 2u);
  EXPECT_EQ(state["infra"][1]["zone"], "cutover-lab.");
  EXPECT_EQ(state["infra"][1]["address"], "127.0.0.1");
  EXPECT_EQ(state["infra"][1]["edns"], "12/0");
  EXPECT_EQ(state["infra"][1]["ttl"], 1728);
  // Names the case did not ask for stay out.
  EXPECT_TRUE(parse_bind_cache_dump(fixture("bind-9.18.49-dumpdb-cache.txt"), {"other.lab."})["rrsets"].empty());
}

TEST(CacheDumps, PdnsRecursorDumpCacheGivesRecordNegativeAndPacketCaches) {
  Json state = parse_pdns_cache_dump(fixture("pdns-recursor-4.8.8-dump-cache.txt"), kNames);
  ASSERT_EQ(state["rrsets"].size(), 2u) << state.dump();  // the root hints are not the case's
  const Json* a = find(state["rrsets"], "e1-ttl20.fx.cutover-lab.", "A");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ((*a)["ttl"], 19);
  EXPECT_EQ((*a)["orig_ttl"], 20);
  EXPECT_EQ((*a)["trust_name"], "auth");
  EXPECT_EQ((*a)["from"], "127.0.0.1");
  EXPECT_EQ((*a)["data"], Json::array({"192.0.2.2"}));
  const Json* nxdomain = find(state["messages"], "nope.fx.cutover-lab.", "ANY");
  ASSERT_NE(nxdomain, nullptr) << state.dump();
  EXPECT_EQ((*nxdomain)["rcode"], "NXDOMAIN");
  EXPECT_EQ((*nxdomain)["ttl"], 7);
  EXPECT_EQ((*nxdomain)["orig_ttl"], 8);
  const Json* nodata = find(state["messages"], "e1-ttl20.fx.cutover-lab.", "AAAA");
  ASSERT_NE(nodata, nullptr);
  EXPECT_EQ((*nodata)["rcode"], "NOERROR");
  // The refused lookup is remembered only as a whole reply in the packet cache, for 59 s.
  const Json* packet = find(state["packet_cache"], "www.other-lab.", "A");
  ASSERT_NE(packet, nullptr) << state.dump();
  EXPECT_EQ((*packet)["ttl"], 59);
  EXPECT_EQ(state["packet_cache"].size(), 4u);

  Json speeds = parse_pdns_nsspeeds(fixture("pdns-recursor-4.8.8-dump-nsspeeds.txt"));
  ASSERT_EQ(speeds.size(), 2u) << speeds.dump();
  EXPECT_EQ(speeds[0]["address"], "127.0.0.1:26201");
  EXPECT_DOUBLE_EQ(speeds[0]["rtt"].get<double>(), 0.224);
  EXPECT_DOUBLE_EQ(speeds[0]["last_rtt"].get<double>(), 0.138);
}

TEST(CacheDumps, DnsmasqSigusr1TableGivesTheLastDumpWithRemainingTtls) {
  std::vector<std::string> names = kNames;
  names.push_back("e1-ttl20-default.dnsmasq-e1.fx.cutover-lab.");
  Json state = parse_dnsmasq_cache_dump(fixture("dnsmasq-2.90-sigusr1.log"), names);
  ASSERT_TRUE(state["found"].get<bool>());
  // The log holds two dumps; the second (14:46:36) is read.
  const Json* a = find(state["rrsets"], "e1-ttl20.fx.cutover-lab.", "A");
  ASSERT_NE(a, nullptr) << state.dump();
  EXPECT_EQ((*a)["ttl"], 3);  // expires 14:46:39
  EXPECT_EQ((*a)["data"], Json::array({"192.0.2.2"}));
  EXPECT_EQ((*a)["trust_name"], "forwarded");
  const Json* cname = find(state["rrsets"], "e1-cname.fx.cutover-lab.", "CNAME");
  ASSERT_NE(cname, nullptr);
  EXPECT_EQ((*cname)["data"], Json::array({"e1-ttl20.fx.cutover-lab"}));
  // A name longer than the 30-character column is matched by its prefix and says so.
  const Json* longer = find(state["rrsets"], "e1-ttl20-default.dnsmasq-e1.fx.", "A");
  ASSERT_NE(longer, nullptr) << state.dump();
  EXPECT_TRUE((*longer)["name_truncated"].get<bool>());
  EXPECT_EQ((*longer)["ttl"], 20);
  // dnsmasq keeps an expired negative entry: its remaining time is below zero.
  const Json* nxdomain = find(state["messages"], "nope.fx.cutover-lab.", "ANY");
  ASSERT_NE(nxdomain, nullptr);
  EXPECT_EQ((*nxdomain)["rcode"], "NXDOMAIN");
  EXPECT_EQ((*nxdomain)["ttl"], -9);
  const Json* nodata = find(state["messages"], "e1-ttl20.fx.cutover-lab.", "AAAA");
  ASSERT_NE(nodata, nullptr);
  EXPECT_EQ((*nodata)["rcode"], "NOERROR");
  ASSERT_EQ(state["infra"].size(), 1u);
  EXPECT_EQ(state["infra"][0]["address"], "127.0.0.1#26201");
  EXPECT_EQ(state["infra"][0]["queries_sent"], 5);
  EXPECT_EQ(parse_dnsmasq_cache_dump("no table here\n", names)["found"], false);
}

}  // namespace
}  // namespace cutover::lab
