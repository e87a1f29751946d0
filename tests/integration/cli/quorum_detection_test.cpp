// The detection term with a quorum of remote checkers (docs/cluster.md, "Detection with a
// quorum"), through the real binary: `cutover calc --quorum` and `cutover explain` on a
// config whose pool has `checkers:` add the publish-and-watch latency L to D's upper bound
// only, state the rule, and say when L is the default; a pool without `checkers:`
// and calc without the flags are unchanged.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string> kCalc = {CUTOVER_BINARY, "calc", "--interval", "10", "--fall", "3",
                                        "--timeout",    "2",    "--ttl",      "60", "--json"};

std::vector<std::string> with(std::vector<std::string> base, std::initializer_list<std::string> more) {
  base.insert(base.end(), more);
  return base;
}

TEST(QuorumDetection, CalcAddsThePublishLatencyToTheUpperBound) {
  CommandResult plain = run_command(kCalc, 10s);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  auto single = nlohmann::json::parse(plain.out)["detection"];
  EXPECT_DOUBLE_EQ(single["max"].get<double>(), 32);

  CommandResult assumed = run_command(with(kCalc, {"--quorum", "2"}), 10s);
  ASSERT_EQ(assumed.exit_code, 0) << assumed.err;
  auto document = nlohmann::json::parse(assumed.out);
  EXPECT_DOUBLE_EQ(document["detection"]["min"].get<double>(), 22);
  EXPECT_DOUBLE_EQ(document["detection"]["max"].get<double>(), 32.05);
  EXPECT_EQ(document["inputs"]["publish_latency_assumed"], true);

  CommandResult given = run_command(with(kCalc, {"--quorum", "2", "--publish-latency", "0.25"}), 10s);
  ASSERT_EQ(given.exit_code, 0) << given.err;
  document = nlohmann::json::parse(given.out);
  EXPECT_DOUBLE_EQ(document["detection"]["max"].get<double>(), 32.25);
  EXPECT_EQ(document["inputs"]["publish_latency_assumed"], false);

  CommandResult text = run_command({CUTOVER_BINARY, "calc", "-I", "10", "-F", "3", "-T", "2", "--ttl", "60", "--quorum", "3"}, 10s);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("3rd fastest"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("22 to 32.05 s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("is the default, a margin above the loopback measurement"), std::string::npos) << text.out;

  EXPECT_EQ(run_command(with(kCalc, {"--quorum", "0"}), 10s).exit_code, 2);
  EXPECT_EQ(run_command(with(kCalc, {"--publish-latency", "-1"}), 10s).exit_code, 2);
}

TEST(QuorumDetection, ExplainUsesItForPoolsWithCheckersOnly) {
  std::string dir = make_temp_dir("quorum-detection");
  write_file(dir + "/z.zone",
             "$ORIGIN example.test.\n$TTL 60\n@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n@ IN NS ns1\n"
             "ns1 IN A 127.0.0.1\n");
  const std::string pool =
      "    shape: failover\n    ttl: 20\n"
      "    check: {type: tcp, interval: 5s, timeout: 1s, fall: 3, rise: 2}\n"
      "    endpoints:\n      - {address: 192.0.2.10, port: 80, priority: 1}\n";
  write_file(dir + "/cutover.yaml", "zones:\n  - {origin: example.test., file: z.zone}\npools:\n"
                                    "  remote:\n    name: remote.example.test\n    checkers: {quorum: 2}\n" + pool +
                                    "  above:\n    name: above.example.test\n    checkers: {healthy-above: 18%}\n" + pool +
                                    "  local:\n    name: local.example.test\n" + pool);
  CommandResult json = run_command({CUTOVER_BINARY, "explain", "--config", dir + "/cutover.yaml", "--json"}, 10s);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::map<std::string, nlohmann::json> pools;
  const auto document = nlohmann::json::parse(json.out);
  for (const auto& one : document["pools"]) pools[one["pool"].get<std::string>()] = one;
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools["remote"]["d_min_ms"], 11000);
  EXPECT_EQ(pools["remote"]["d_max_ms"], 16050);
  EXPECT_EQ(pools["remote"]["worst_d_plus_k_ms"], 36050);
  EXPECT_EQ(pools["remote"]["quorum"]["publish_latency_ms"], 50);
  EXPECT_EQ(pools["remote"]["quorum"]["publish_latency_assumed"], true);
  EXPECT_NE(pools["remote"]["quorum"]["rule"].get<std::string>().find("2nd fastest"), std::string::npos);
  EXPECT_NE(pools["above"]["quorum"]["rule"].get<std::string>().find("healthy-above 18%"), std::string::npos);
  EXPECT_EQ(pools["local"]["d_max_ms"], 16000);
  EXPECT_TRUE(pools["local"]["quorum"].is_null());

  CommandResult text =
      run_command({CUTOVER_BINARY, "explain", "--config", dir + "/cutover.yaml", "remote", "--publish-latency", "0.2"}, 10s);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("D_max = F·I + T + L = 16.2 s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("L = 0.2 s, checker publish to etcd + this server's watch (given)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("D_min stays (F-1)·I + T"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("D_max + TTL = 36.2 s"), std::string::npos) << text.out;
  CommandResult local = run_command({CUTOVER_BINARY, "explain", "--config", dir + "/cutover.yaml", "local"}, 10s);
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_EQ(local.out.find("quorum"), std::string::npos) << local.out;
  EXPECT_NE(local.out.find("D_max = F·I + T = 16 s"), std::string::npos) << local.out;
}

}  // namespace
}  // namespace cutover::testing
