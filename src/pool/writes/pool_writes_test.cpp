// PoolWrites against a fake pool runtime and a real SQLite journal: request bodies (bad
// input names the field), the fence, the floor, config pools read-only, dry run, replay
// after a restart, undo, and the pool journal's torn-tail handling.
#include "pool/writes/pool_writes.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>

#include "pool/writes/pool_requests.h"

namespace cutover::pool {
namespace {

using nlohmann::json;
using store::WriteStatus;

class FakeRuntime : public PoolRuntime {
 public:
  base::Status set_api_pools(std::vector<PoolSpec> specs) override {
    api = std::move(specs);
    ++applied;
    return {};
  }
  base::Status check_api_pools(const std::vector<PoolSpec>&) const override { return {}; }
  bool is_config_pool(const std::string& pool) const override { return pool == "static"; }
  std::optional<PoolSpec> find_pool(const std::string& pool) const override {
    if (pool == "static") {
      PoolSpec spec;
      spec.name = "static";
      spec.endpoints.resize(1);
      spec.endpoints[0].address = "192.0.2.9";
      return spec;
    }
    for (const auto& spec : api) {
      if (spec.name == pool) return spec;
    }
    return std::nullopt;
  }
  PoolPreview preview(const std::string&, const std::vector<PoolSpec>&,
                              const std::map<std::string, health::Override>&) const override {
    return {};
  }
  PoolPreview current_answer(const std::string&) const override { return {}; }
  base::Status set_override(const std::string& pool, const std::string& address, health::Override value,
                            const std::string&) override {
    overrides.push_back(pool + " " + address + " " + health::override_to_text(value));
    return {};
  }

  std::vector<PoolSpec> api;
  int applied = 0;
  std::vector<std::string> overrides;
};

const json kWeb = {{"name", "web.pool.test."},
                   {"check", {{"type", "tcp"}, {"interval", "1s"}, {"timeout", "500ms"}}},
                   {"endpoints", json::array({{{"address", "192.0.2.1"}, {"port", 80}},
                                              {{"address", "192.0.2.2"}, {"port", 80}}})}};

class PoolWritesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/pool_writes_test.XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    config_.writes.journal = std::string(dir) + "/journal.db";
    config::ZoneConfig zone;
    zone.origin = *dns::Name::from_text("pool.test.");
    config_.zones.push_back(zone);
    open();
  }
  void TearDown() override {
    writes_.reset();
    std::fclose(null_);
  }
  void open() {
    writes_.reset();
    runtime_ = FakeRuntime();
    writes_ = std::make_unique<PoolWrites>(runtime_, config_, logger_);
  }
  PoolWriteResult put(const json& body) {
    auto request = put_pool_request("web", body);
    EXPECT_TRUE(request) << request.error().message;
    return writes_->write(std::move(*request));
  }
  PoolWriteResult call(base::Result<PoolWriteRequest> request) {
    EXPECT_TRUE(request) << request.error().message;
    return writes_->write(std::move(*request));
  }

  std::FILE* null_ = std::fopen("/dev/null", "w");
  base::Logger logger_{null_};
  config::Config config_;
  FakeRuntime runtime_;
  std::unique_ptr<PoolWrites> writes_;
};

TEST_F(PoolWritesTest, CreateIsJournaledAppliedAndReplayedAfterRestart) {
  auto result = put({{"pool", kWeb}});
  ASSERT_EQ(result.status, WriteStatus::kApplied) << result.message;
  EXPECT_EQ(result.version, 1u);
  ASSERT_EQ(runtime_.api.size(), 1u);
  EXPECT_EQ(runtime_.api[0].owner.to_text(), "web.pool.test.");
  ASSERT_EQ(call(override_request("web", "192.0.2.1", "drain", json::object())).status, WriteStatus::kApplied);
  EXPECT_EQ(runtime_.overrides, std::vector<std::string>{"web 192.0.2.1 drain"});
  open();  // a restart: the journal alone brings the pool and its drain back
  ASSERT_EQ(runtime_.api.size(), 1u);
  EXPECT_EQ(runtime_.api[0].endpoints.size(), 2u);
  ASSERT_TRUE(writes_->start());
  EXPECT_EQ(runtime_.overrides, std::vector<std::string>{"web 192.0.2.1 drain"});
  EXPECT_EQ(writes_->states().at("web").version, 2u);
  EXPECT_EQ(writes_->history("web", 0)->size(), 2u);
}

TEST_F(PoolWritesTest, StaleExpectedVersionIsRefusedWithTheCurrentVersion) {
  ASSERT_EQ(put({{"pool", kWeb}, {"expected_version", 0u}}).status, WriteStatus::kApplied);
  auto stale = put({{"pool", kWeb}, {"expected_version", 0u}});
  EXPECT_EQ(stale.status, WriteStatus::kConflict);
  EXPECT_EQ(pool_http_status(stale), 409);
  EXPECT_EQ(stale.message, "pool web: version conflict: expected 0, current version is 1");
  EXPECT_EQ(stale.version, 1u);
  json changed = kWeb;
  changed["ttl"] = 30;
  EXPECT_EQ(put({{"pool", changed}, {"expected_version", 1u}}).status, WriteStatus::kApplied);
}

TEST_F(PoolWritesTest, PlanVersionMustRise) {
  ASSERT_EQ(put({{"pool", kWeb}, {"plan_version", 5u}}).status, WriteStatus::kApplied);
  json changed = kWeb;
  changed["ttl"] = 30;
  auto stale = put({{"pool", changed}, {"plan_version", 5u}});
  EXPECT_EQ(stale.status, WriteStatus::kStale);
  EXPECT_NE(stale.message.find("last applied plan version 5"), std::string::npos) << stale.message;
}

TEST_F(PoolWritesTest, BadBodiesAreRefusedNamingTheField) {
  auto unknown = put_pool_request("web", {{"pool", kWeb}, {"expectd_version", 1}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown field 'expectd_version'"), std::string::npos);
  auto not_object = put_pool_request("web", {{"pool", "web.pool.test."}});
  ASSERT_FALSE(not_object);
  EXPECT_NE(not_object.error().message.find("pool must be an object"), std::string::npos);
  auto bad_version = put_pool_request("web", {{"pool", kWeb}, {"expected_version", "one"}});
  ASSERT_FALSE(bad_version);
  EXPECT_EQ(bad_version.error().message, "expected_version must be a whole number");
  EXPECT_FALSE(override_request("web", "192.0.2.1", "unplug", json::object()));
  EXPECT_FALSE(undo_pool_request("web", json::object()));

  struct Case {
    std::string field;
    json value;
    std::string message;
  };
  for (const auto& c : std::vector<Case>{
           {"ttl", "soon", "pools.web.ttl: expected whole seconds"},
           {"shape", "round-robin", "pools.web.shape: unknown shape 'round-robin'"},
           {"name", "web.elsewhere.test.", "pools.web.name: web.elsewhere.test. is outside every zone"},
           {"endpoints", json::array({{{"address", "not-an-ip"}}}), "pools.web.endpoints[0].address: expected a numeric"},
           {"endpoints", json::array({{{"address", "192.0.2.1"}, {"port", 80}, {"check", {{"type", "exec"}, {"command", "true"}}}}}),
            "pools.web.endpoints[0].check.type: exec checks run commands"},
           {"colour", "blue", "pools.web.colour: unknown key"}}) {
    json settings = kWeb;
    settings[c.field] = c.value;
    auto result = put({{"pool", settings}});
    EXPECT_EQ(result.status, WriteStatus::kInvalid) << c.field;
    EXPECT_EQ(pool_http_status(result), 400) << c.field;
    EXPECT_NE(result.message.find(c.message), std::string::npos) << result.message;
  }
  EXPECT_EQ(runtime_.applied, 1);  // only the replay at open: nothing bad was applied
  EXPECT_TRUE(writes_->history("web", 0)->empty());
}

// A pool of hostname endpoints through the API (docs/pools.md "Hostname endpoints"): the same
// reader as the config, journaled and replayed like any pool, drained by its target's name.
TEST_F(PoolWritesTest, AHostnamePoolIsWrittenJournaledAndReplayed) {
  json settings = {{"name", "web.pool.test."},
                   {"check", {{"type", "tcp"}, {"port", 443}, {"resolver", "127.0.0.1:5353"}}},
                   {"endpoints", json::array({{{"target", "lb-eu.example.net."}, {"priority", 1}},
                                              {{"target", "lb-us.example.net."}, {"priority", 2}}})}};
  ASSERT_EQ(put({{"pool", settings}}).status, WriteStatus::kApplied);
  ASSERT_EQ(call(override_request("web", "lb-eu.example.net.", "drain", json::object())).status, WriteStatus::kApplied);
  open();  // replayed from the journal
  ASSERT_EQ(runtime_.api.size(), 1u);
  const PoolSpec& spec = runtime_.api[0];
  EXPECT_TRUE(spec.alias());
  ASSERT_EQ(spec.endpoints.size(), 2u);
  EXPECT_EQ(spec.endpoints[1].target->to_text(), "lb-us.example.net.");
  EXPECT_EQ(spec.endpoints[0].check.resolvers, std::vector<std::string>{"127.0.0.1:5353"});
  ASSERT_TRUE(writes_->start());
  EXPECT_EQ(runtime_.overrides, std::vector<std::string>{"web lb-eu.example.net. drain"});
  // Mixed with an address, it is refused naming the endpoint.
  settings["check"].erase("resolver");  // that key alone is refused on an address endpoint
  settings["endpoints"].push_back({{"address", "192.0.2.9"}});
  auto mixed = put({{"pool", settings}});
  EXPECT_EQ(mixed.status, WriteStatus::kInvalid);
  EXPECT_NE(mixed.message.find("pools.web.endpoints[2]: a pool's endpoints are all addresses or all hostnames"),
            std::string::npos)
      << mixed.message;
}

TEST_F(PoolWritesTest, FloorRefusesDeletingAPoolOrDrainingItsLastEndpointUnlessAllowed) {
  ASSERT_EQ(put({{"pool", kWeb}}).status, WriteStatus::kApplied);
  auto removed = call(delete_pool_request("web", json::object()));
  EXPECT_EQ(removed.status, WriteStatus::kFloor);
  EXPECT_EQ(pool_http_status(removed), 422);
  EXPECT_NE(removed.message.find("pool web would be deleted and its name web.pool.test."), std::string::npos)
      << removed.message;
  ASSERT_EQ(call(override_request("web", "192.0.2.1", "drain", json::object())).status, WriteStatus::kApplied);
  auto last = call(override_request("web", "192.0.2.2", "drain", json::object()));
  EXPECT_EQ(last.status, WriteStatus::kFloor);
  EXPECT_NE(last.message.find("pool web would have no endpoint left"), std::string::npos) << last.message;
  EXPECT_EQ(call(override_request("web", "192.0.2.2", "drain", {{"allow_empty", true}})).status, WriteStatus::kApplied);
  auto gone = call(delete_pool_request("web", {{"allow_empty", true}}));
  EXPECT_EQ(gone.status, WriteStatus::kApplied);
  EXPECT_TRUE(runtime_.api.empty());
  EXPECT_EQ(call(delete_pool_request("web", {{"allow_empty", true}})).status, WriteStatus::kNotFound);
}

TEST_F(PoolWritesTest, ConfigPoolsAreReadOnlyButTheirOverridesAreJournaled) {
  auto replaced = writes_->write(*put_pool_request("static", {{"pool", kWeb}}));
  EXPECT_EQ(replaced.status, WriteStatus::kConflict);
  EXPECT_NE(replaced.message.find("defined in the config file"), std::string::npos);
  EXPECT_EQ(call(delete_pool_request("static", json::object())).status, WriteStatus::kConflict);
  EXPECT_EQ(call(patch_pool_request("static", {{"patch", {{"ttl", 5}}}})).status, WriteStatus::kConflict);
  EXPECT_EQ(call(override_request("static", "192.0.2.9", "force-up", json::object())).status, WriteStatus::kApplied);
  EXPECT_EQ(call(override_request("static", "192.0.2.77", "drain", json::object())).status, WriteStatus::kNotFound);
  EXPECT_EQ(writes_->states().at("static").overrides.at("192.0.2.9"), health::Override::kForceUp);
}

TEST_F(PoolWritesTest, DryRunAppliesAndJournalsNothing) {
  ASSERT_EQ(put({{"pool", kWeb}}).status, WriteStatus::kApplied);
  auto dry = call(patch_pool_request("web", {{"patch", {{"ttl", 30}}}, {"dry_run", true}}));
  EXPECT_EQ(dry.status, WriteStatus::kDryRun);
  EXPECT_EQ((*dry.after.settings)["ttl"], 30);
  EXPECT_EQ(dry.version, 1u);
  EXPECT_EQ(runtime_.api[0].ttl, kDefaultPoolTtl);
  EXPECT_EQ(writes_->history("web", 0)->size(), 1u);
}

TEST_F(PoolWritesTest, UndoReturnsSettingsAndOverridesAsANewVersion) {
  ASSERT_EQ(put({{"pool", kWeb}}).status, WriteStatus::kApplied);
  ASSERT_EQ(call(patch_pool_request("web", {{"patch", {{"ttl", 30}}}})).status, WriteStatus::kApplied);
  ASSERT_EQ(call(override_request("web", "192.0.2.2", "drain", json::object())).status, WriteStatus::kApplied);
  auto undo = undo_pool_request("web", {{"to", 1u}});
  ASSERT_TRUE(undo);
  auto undone = writes_->undo("web", undo->first, std::move(undo->second));
  ASSERT_EQ(undone.status, WriteStatus::kApplied) << undone.message;
  EXPECT_EQ(undone.version, 4u);
  EXPECT_TRUE(undone.after.overrides.empty());
  EXPECT_EQ(runtime_.api[0].ttl, kDefaultPoolTtl);
  EXPECT_EQ(runtime_.overrides.back(), "web 192.0.2.2 none");
  EXPECT_EQ(writes_->history("web", 0)->back().what, "undo to version 1");
  EXPECT_EQ(writes_->undo("web", 9, undo_pool_request("web", {{"to", 9u}})->second).status, WriteStatus::kNotFound);
}

TEST_F(PoolWritesTest, DamagedLastEntryIsDroppedAndEarlierOneFailsTheStart) {
  ASSERT_EQ(put({{"pool", kWeb}}).status, WriteStatus::kApplied);
  ASSERT_EQ(call(override_request("web", "192.0.2.1", "drain", json::object())).status, WriteStatus::kApplied);
  writes_.reset();
  auto tamper = [this](int version) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(config_.writes.journal.c_str(), &db), SQLITE_OK);
    std::string sql = "UPDATE journal SET who='tampered' WHERE version=" + std::to_string(version);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  };
  tamper(2);
  open();
  EXPECT_EQ(writes_->states().at("web").version, 1u);
  EXPECT_TRUE(writes_->states().at("web").overrides.empty());
  ASSERT_EQ(call(override_request("web", "192.0.2.2", "drain", json::object())).status, WriteStatus::kApplied);
  writes_.reset();
  tamper(1);
  EXPECT_THROW(PoolWrites(runtime_, config_, logger_), config::ConfigError);
}

}  // namespace
}  // namespace cutover::pool
