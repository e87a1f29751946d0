// The client terms of calc and explain without a lab run: they come from the paper's table and
// every output says so; a lab file that cannot be read, or a client that is not known, is exit 2
// with the reason (docs/tools.md, "Client terms from the lab"; the lab run itself is in
// tests/integration/lab_clients/).
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string> kCalc = {CUTOVER_BINARY, "calc", "--interval", "10", "--fall", "3",
                                        "--timeout",    "2",    "--ttl",      "60"};

std::vector<std::string> with(std::vector<std::string> base, std::initializer_list<std::string> more) {
  base.insert(base.end(), more);
  return base;
}

TEST(ClientTerms, WithoutALabRunCalcSaysTheTermsComeFromThePaper) {
  CommandResult text = run_command(with(kCalc, {"--client", "openjdk21-default"}), 10s);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("client terms from the paper"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("profile openjdk21-default"), std::string::npos) << text.out;

  CommandResult bare = run_command(with(kCalc, {"--json"}), 10s);
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  auto inputs = nlohmann::json::parse(bare.out)["inputs"];
  EXPECT_FALSE(inputs["client_measured"].get<bool>());
  EXPECT_NE(inputs["client_source"].get<std::string>().find("from the paper"), std::string::npos);
}

TEST(ClientTerms, ExplainAddsCAndRForANamedClient) {
  CommandResult plain = run_command({CUTOVER_BINARY, "explain"}, 10s);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("with client"), std::string::npos);
  CommandResult client = run_command({CUTOVER_BINARY, "explain", "--client", "curl-long-lived", "--json"}, 10s);
  ASSERT_EQ(client.exit_code, 0) << client.err;
  auto pools = nlohmann::json::parse(client.out)["pools"];
  ASSERT_FALSE(pools.empty());
  EXPECT_EQ(pools[0]["client"]["cache_s"], 60);
  EXPECT_GT(pools[0]["client"]["worst_with_client_ms"].get<double>(), pools[0]["worst_d_plus_k_ms"].get<double>() + 59000);
  EXPECT_NE(pools[0]["client_terms"].get<std::string>().find("from the paper"), std::string::npos);
}

TEST(ClientTerms, AnUnreadableLabFileOrAnUnknownClientIsExitTwo) {
  std::string dir = make_temp_dir("client-terms");
  write_file(dir + "/results.json", "{\"cases\": [ not json");
  CommandResult bad = run_command(with(kCalc, {"--client", "java", "--lab-results", dir + "/results.json"}), 10s);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(dir + "/results.json"), std::string::npos) << bad.err;
  CommandResult unknown = run_command(with(kCalc, {"--client", "java"}), 10s);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("neither seconds nor a known client"), std::string::npos) << unknown.err;
  CommandResult explain = run_command({CUTOVER_BINARY, "explain", "--client", "nope"}, 10s);
  EXPECT_EQ(explain.exit_code, 2);
  CommandResult behaviour =
      run_command(with(kCalc, {"--lab-results", dir + "/results.json", "--origin-behaviour", "sometimes"}), 10s);
  EXPECT_EQ(behaviour.exit_code, 2);
  EXPECT_NE(behaviour.err.find("--origin-behaviour 'sometimes'"), std::string::npos) << behaviour.err;
}

}  // namespace
}  // namespace cutover::testing
