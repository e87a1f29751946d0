// Pools made through the API on the real server: create one with `cutover pool set`, see
// dig answer from it at once, drain an endpoint and see the answer move, kill -9 the server
// and see pool and drain come back from the journal, a stale expected_version get 409 with
// the current version, bad settings get 400 naming the field, a reload keep the pool, undo.
#include <signal.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include "pools/pool_fixture.h"

namespace cutover::testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kFirst = "127.0.0.61";
constexpr const char* kSecond = "127.0.0.62";

CommandResult pool_cli(std::vector<std::string> args, std::uint16_t control_port) {
  args.insert(args.begin(), {CUTOVER_BINARY, "pool"});
  args.push_back("--control");
  args.push_back(fmt::format("127.0.0.1:{}", control_port));
  return run_command(args, std::chrono::seconds(10));
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string web_settings(const HttpEndpoint& first, const HttpEndpoint& second) {
  nlohmann::json check = {{"type", "http"}, {"path", "/health"}, {"interval", "200ms"}, {"timeout", "150ms"},
                          {"fall", 2},      {"rise", 1}};
  nlohmann::json settings = {
      {"name", "web.pool.test."},
      {"ttl", 30},
      {"check", check},
      {"endpoints", nlohmann::json::array({{{"address", first.address()}, {"port", first.port()}, {"priority", 1}},
                                           {{"address", second.address()}, {"port", second.port()}, {"priority", 2}}})}};
  return settings.dump();
}

TEST(PoolApi, CreateDrainKillAndRestartKeepPoolAndDrain) {
  HttpEndpoint first(kFirst);
  HttpEndpoint second(kSecond);
  PoolDir dir;
  dir.write_config("", "writes: {journal: journal.db}\n");
  auto server = std::make_unique<PoolServer>(dir);
  EXPECT_TRUE(server->addresses("web.pool.test.").empty());

  auto created_at = Clock::now();
  auto created = pool_cli({"set", "web", web_settings(first, second), "--expected-version", "0"}, server->control_port());
  auto acked_at = Clock::now();
  ASSERT_EQ(created.exit_code, 0) << created.out << created.err;
  EXPECT_NE(created.out.find("\"status\": \"applied\""), std::string::npos) << created.out;
  // Applied before the acknowledgement: the first query after it already gets the pool.
  EXPECT_EQ(server->addresses("web.pool.test."), std::vector<std::string>{kFirst});
  std::printf("pool set: CLI round trip (process start to ack) %.1f ms, ack to dig answering from the new pool "
              "%.1f ms (one dig, first try)\n",
              std::chrono::duration<double, std::milli>(acked_at - created_at).count(), ms_since(acked_at));
  ASSERT_TRUE(server->wait_for_status("\"address\": \"127.0.0.61\""));

  auto drained = pool_cli({"drain", "web", kFirst}, server->control_port());
  ASSERT_EQ(drained.exit_code, 0) << drained.out << drained.err;
  EXPECT_EQ(server->addresses("web.pool.test."), std::vector<std::string>{kSecond});

  // The health checker probes the API pool's endpoints: a failing backup goes down.
  second.set_reply(500, "down");
  EXPECT_TRUE(server->wait_for_status("\"health\": \"down\""));
  second.set_reply(200, "ok");

  server->server().signal(SIGKILL);
  ASSERT_TRUE(server->server().wait_for_exit(std::chrono::seconds(5)).has_value());
  server = std::make_unique<PoolServer>(dir);
  EXPECT_EQ(server->addresses("web.pool.test."), std::vector<std::string>{kSecond});
  auto shown = pool_cli({"get", "web"}, server->control_port());
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  auto view = nlohmann::json::parse(shown.out);
  EXPECT_EQ(view["version"], 2);
  EXPECT_EQ(view["source"], "api");
  EXPECT_EQ(view["overrides"][kFirst], "drain");

  // The CLI prints the reply body and exits 1 on a refusal (409 conflict, 400 bad input).
  auto stale = pool_cli({"set", "web", web_settings(first, second), "--expected-version", "1"}, server->control_port());
  EXPECT_EQ(stale.exit_code, 1);
  auto refusal = nlohmann::json::parse(stale.out);
  EXPECT_EQ(refusal["status"], "conflict");
  EXPECT_EQ(refusal["version"], 2);
  EXPECT_EQ(refusal["message"], "pool web: version conflict: expected 1, current version is 2");

  auto bad = pool_cli({"patch", "web", R"({"ttl": "soon"})"}, server->control_port());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("pools.web.ttl: expected whole seconds"), std::string::npos) << bad.out << bad.err;

  auto floor = server->post("/pools/web/endpoints/127.0.0.62/drain");
  EXPECT_EQ(floor.status, 422);
  EXPECT_NE(floor.body.find("pool web would have no endpoint left"), std::string::npos) << floor.body;

  // A reload re-reads the config file, which has no pools: the API pool stays.
  server->server().reload();
  ASSERT_TRUE(server->server().wait_for_log("reload.ok"));
  EXPECT_EQ(count_occurrences(server->server().log(), "reload.service_failed"), 0u) << server->server().log();
  EXPECT_EQ(server->addresses("web.pool.test."), std::vector<std::string>{kSecond});

  auto undone = pool_cli({"undo", "web", "--to", "1"}, server->control_port());
  ASSERT_EQ(undone.exit_code, 0) << undone.out << undone.err;
  EXPECT_EQ(server->addresses("web.pool.test."), std::vector<std::string>{kFirst});
  auto history = pool_cli({"history", "web"}, server->control_port());
  EXPECT_NE(history.out.find("version 2"), std::string::npos) << history.out;
  EXPECT_NE(history.out.find("what=drain 127.0.0.61"), std::string::npos) << history.out;
  EXPECT_NE(history.out.find("what=undo to version 1"), std::string::npos) << history.out;

  auto removed = pool_cli({"delete", "web", "--allow-empty"}, server->control_port());
  ASSERT_EQ(removed.exit_code, 0) << removed.out << removed.err;
  EXPECT_TRUE(server->addresses("web.pool.test.").empty());
}

}  // namespace
}  // namespace cutover::testing
