// resolv.conf(5) reading: nameservers with and without ports, search/domain, options with
// glibc's limits, and errors naming file:line:column.
#include <gtest/gtest.h>

#include "client/resolv_conf.h"

namespace cutover::client {
namespace {

using namespace std::chrono_literals;

TEST(ResolvConf, ReadsNameserversSearchAndOptions) {
  auto config = parse_resolv_conf(
      "# lab resolver\n"
      "nameserver 127.0.0.1:5353\n"
      "nameserver ::1\n"
      "nameserver [::1]:5300 ; trailing comment\n"
      "nameserver 192.0.2.9\n"
      "search lab.test. corp.example svc.cluster.local\n"
      "options ndots:5 timeout:2 attempts:3 rotate edns0\n",
      "resolv.conf");
  ASSERT_TRUE(config) << config.error().message;
  ASSERT_EQ(config->nameservers.size(), 3u) << "glibc reads at most three";
  EXPECT_EQ(net::format_address(config->nameservers[0].storage), "127.0.0.1:5353");
  EXPECT_EQ(net::format_address(config->nameservers[1].storage), "[::1]:53");
  EXPECT_EQ(net::format_address(config->nameservers[2].storage), "[::1]:5300");
  ASSERT_EQ(config->search.size(), 3u);
  EXPECT_EQ(config->search[0].to_text(), "lab.test.");
  EXPECT_EQ(config->search[1].to_text(), "corp.example.");
  EXPECT_EQ(config->ndots, 5);
  EXPECT_EQ(config->timeout, 2000ms);
  EXPECT_EQ(config->attempts, 3);
}

TEST(ResolvConf, DefaultsWhenTheFileSaysNothing) {
  auto config = parse_resolv_conf("\n# nothing\n", "empty");
  ASSERT_TRUE(config);
  ASSERT_EQ(config->nameservers.size(), 1u);
  EXPECT_EQ(net::format_address(config->nameservers[0].storage), "127.0.0.1:53");
  EXPECT_TRUE(config->search.empty());
  EXPECT_EQ(config->ndots, 1);
  EXPECT_EQ(config->timeout, 5000ms);
  EXPECT_EQ(config->attempts, 2);
}

TEST(ResolvConf, TheLastSearchOrDomainLineWins) {
  auto config = parse_resolv_conf("search a.test b.test\ndomain c.test\n", "f");
  ASSERT_TRUE(config);
  ASSERT_EQ(config->search.size(), 1u);
  EXPECT_EQ(config->search[0].to_text(), "c.test.");
}

TEST(ResolvConf, OptionsAreClampedToGlibcLimits) {
  auto config = parse_resolv_conf("options ndots:40 timeout:0 attempts:9\n", "f");
  ASSERT_TRUE(config);
  EXPECT_EQ(config->ndots, 15);
  EXPECT_EQ(config->timeout, 1000ms);
  EXPECT_EQ(config->attempts, 5);
}

TEST(ResolvConf, BadLinesAreErrorsWithFileLineAndColumn) {
  struct Case {
    const char* text;
    const char* where;
  };
  const Case cases[] = {
      {"nameserver 127.0.0.1\nnameserver not-an-address\n", "/etc/r.conf:2:12:"},
      {"options ndots:x\n", "/etc/r.conf:1:9:"},
      {"\n\n  nameserver\n", "/etc/r.conf:3:3:"},
      {"search ok.test bad..name\n", "/etc/r.conf:1:16:"},
  };
  for (const auto& c : cases) {
    auto config = parse_resolv_conf(c.text, "/etc/r.conf");
    ASSERT_FALSE(config) << c.text;
    EXPECT_EQ(config.error().message.rfind(c.where, 0), 0u) << config.error().message;
  }
}

TEST(ResolvConf, AMissingFileIsAnIoErrorNamingIt) {
  auto config = read_resolv_conf("/nonexistent/resolv.conf");
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().code, base::ErrorCode::kIo);
  EXPECT_NE(config.error().message.find("/nonexistent/resolv.conf"), std::string::npos);
}

}  // namespace
}  // namespace cutover::client
