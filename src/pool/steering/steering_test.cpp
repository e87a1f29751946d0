// The networks file of steered pools: what a line means, and that every mistake names its file,
// line and column without loading half a table.
#include "pool/steering/steering.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace cutover::pool {
namespace {

std::vector<std::uint8_t> v4(const char* text) {
  std::vector<std::uint8_t> bytes(4);
  EXPECT_EQ(::inet_pton(AF_INET, text, bytes.data()), 1) << text;
  return bytes;
}

std::vector<std::uint8_t> v6(const char* text) {
  std::vector<std::uint8_t> bytes(16);
  EXPECT_EQ(::inet_pton(AF_INET6, text, bytes.data()), 1) << text;
  return bytes;
}

const std::vector<RegionSpec> kRegions = default_region_orders({"eu", "us", "ap"});

TEST(Steering, DefaultOrdersPutEachRegionFirstThenTheOthersAsListed) {
  ASSERT_EQ(kRegions.size(), 3u);
  EXPECT_EQ(kRegions[0].order, (std::vector<std::string>{"eu", "us", "ap"}));
  EXPECT_EQ(kRegions[1].order, (std::vector<std::string>{"us", "eu", "ap"}));
  EXPECT_EQ(kRegions[2].order, (std::vector<std::string>{"ap", "eu", "us"}));
  SteeringSpec spec;
  spec.regions = kRegions;
  EXPECT_EQ(spec.find("us"), 1u);
  EXPECT_EQ(spec.find("mars"), 3u);
  EXPECT_FALSE(spec.enabled());
}

TEST(Steering, ParsesPrefixesBareAddressesAndComments) {
  auto table = parse_networks(
      "# client networks\n"
      "\n"
      "192.0.2.0/24   eu   # Frankfurt\n"
      "192.0.2.128/25 us\n"
      "\t198.51.100.7 ap\r\n"
      "2001:db8::/32 us\n",
      "nets.txt", kRegions);
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(table->size(), 4u);
  auto eu = table->lookup(v4("192.0.2.1"));
  EXPECT_TRUE(eu.found);
  EXPECT_EQ(eu.value, 0u);
  EXPECT_EQ(eu.scope, 25);  // the /25 inside decides the other half
  EXPECT_EQ(table->lookup(v4("192.0.2.200")).value, 1u);
  auto ap = table->lookup(v4("198.51.100.7"));
  EXPECT_EQ(ap.value, 2u);
  EXPECT_EQ(ap.scope, 32);
  EXPECT_EQ(table->lookup(v6("2001:db8:1::5")).value, 1u);
  EXPECT_FALSE(table->lookup(v4("203.0.113.1")).found);
}

TEST(Steering, EveryMistakeNamesFileLineAndColumn) {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"192.0.2.0/24\n", "nets.txt:1:13: expected PREFIX REGION"},
      {"192.0.2.0/24 eu\n192.0.3.0/24 eu extra\n", "nets.txt:2:17: expected PREFIX REGION"},
      {"\n  10.0.0/8 eu\n", "nets.txt:2:3: '10.0.0/8' is not an address or address/prefix"},
      {"10.1.0.0/8 eu\n", "nets.txt:1:1: 10.1.0.0/8 has bits set past /8 (did you mean 10.0.0.0/8?)"},
      {"10.0.0.0/8 mars\n", "nets.txt:1:12: unknown region 'mars' (the pool's regions: eu, us, ap)"},
      {"10.0.0.0/8 eu\n10.0.0.0/8 us\n", "nets.txt:2:1:"},
  };
  for (const auto& one : cases) {
    auto table = parse_networks(one.text, "nets.txt", kRegions);
    ASSERT_FALSE(table) << one.text;
    EXPECT_NE(table.error().message.find(one.error), std::string::npos) << table.error().message;
  }
}

TEST(Steering, LoadsAFileAndNamesAMissingOne) {
  auto dir = std::filesystem::temp_directory_path() / ("steering_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = (dir / "networks.txt").string();
  std::ofstream(path) << "127.0.0.2 eu\n127.0.0.3 us\n";
  auto table = load_networks_file(path, kRegions);
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(table->lookup(v4("127.0.0.3")).value, 1u);
  auto missing = load_networks_file((dir / "absent.txt").string(), kRegions);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("absent.txt: cannot read the networks file"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cutover::pool
