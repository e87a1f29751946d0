// Materialize mode through the real write path (journal in a temp dir, fake clock): which
// edits a pool answer becomes, one write per answer change and none when it is unchanged,
// the first-verdict wait, the nodata marker past the floor, and who appears in history.
#include "pool/writes/pool_materializer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "pool/answer_builder.h"
#include "zone/loader.h"

namespace cutover::pool {
namespace {

constexpr const char* kZoneText = R"(
$ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 192.0.2.1
)";
constexpr const char* kPrimary = "192.0.2.30";
constexpr const char* kBackup = "198.51.100.30";

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

pool::PoolSpec web_pool(AllDownPolicy policy) {
  PoolSpec spec;
  spec.name = "web";
  spec.owner = name("web.example.test.");
  spec.ttl = 20;
  spec.serve = ServeMode::kMaterialize;
  spec.when_all_down = policy;
  spec.check.interval = std::chrono::seconds(1);
  spec.check.timeout = std::chrono::milliseconds(300);
  spec.check.fall = 2;
  spec.endpoints = {{kPrimary, 80, 1, 1, spec.check, {}, {}, {}, {}}, {kBackup, 80, 2, 1, spec.check, {}, {}, {}, {}}};
  return spec;
}

class PoolMaterializerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/pool_materializer_test.XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    journal_path_ = std::string(dir) + "/journal.db";
    auto journal = store::Journal::open(journal_path_);
    ASSERT_TRUE(journal) << journal.error().message;
    store_ = std::make_unique<store::Store>(std::move(*journal), [this](auto zones) { published_ = zones; }, logger_);
    auto loaded = zone::load_zone_text(name("example.test."), kZoneText, "test");
    ASSERT_TRUE(loaded.zone);
    ASSERT_TRUE(store_->load({store::ZoneSource{loaded.zone, {}, ""}}));
    register_builtin_policies(policies_);
  }

  void use(const PoolSpec& spec) {
    spec_ = spec;
    materializer_ = std::make_unique<PoolMaterializer>(*store_, clock_, logger_);
    materializer_->configure({spec_});
  }

  // The pool's answers for endpoint states (primary, backup); nullopt: no verdict yet.
  std::shared_ptr<const PoolAnswers> answers(std::optional<bool> primary, std::optional<bool> backup) {
    health::HealthSnapshot snapshot;
    for (const auto& [address, up] : {std::pair{kPrimary, primary}, std::pair{kBackup, backup}}) {
      auto state = !up ? health::HealthState::kUnknown : *up ? health::HealthState::kUp : health::HealthState::kDown;
      snapshot.endpoints.push_back({"web", address, state, up.value_or(true), {}, false});
    }
    AnswerBuilder builder(policies_, {spec_});
    std::vector<AllDownEvent> events;
    return builder.build(snapshot, events);
  }

  PoolMaterializer::Pass pass(std::optional<bool> primary, std::optional<bool> backup) {
    return materializer_->write_changes(*answers(primary, backup), ++ticket_);
  }

  std::vector<std::string> served(dns::RRType type) const {
    std::vector<std::string> out;
    const zone::Node* node = published_->zones().front()->find(name("web.example.test."));
    if (node == nullptr) return out;
    for (const auto& rrset : node->rrsets()) {
      if (rrset.type != type) continue;
      for (const auto& rdata : rrset.rdatas) out.push_back(dns::rdata_to_text(type, rdata));
    }
    return out;
  }

  std::vector<store::JournalEntry> history() {
    auto entries = store_->entries_after(name("example.test."), 0);
    EXPECT_TRUE(entries);
    return entries ? *entries : std::vector<store::JournalEntry>{};
  }

  std::string journal_path_;
  base::Logger logger_{nullptr, base::LogLevel::kError};
  base::FakeClock clock_;
  std::unique_ptr<store::Store> store_;
  std::shared_ptr<const auth::ZoneSet> published_;
  PolicyRegistry policies_;
  PoolSpec spec_;
  std::unique_ptr<PoolMaterializer> materializer_;
  std::uint64_t ticket_ = 0;
};

TEST(MaterializeEdits, ReplaceWhatIsAnsweredAndDeleteTheRest) {
  MaterializedRecords records;
  records.owner = name("web.example.test.");
  records.ttl = 20;
  records.a = {{192, 0, 2, 30}};
  auto edits = materialize_edits(records);
  ASSERT_EQ(edits.size(), 3u);
  EXPECT_EQ(edits[0].op, store::Edit::Op::kReplaceRRset);
  EXPECT_EQ(edits[0].type, dns::RRType::A);
  EXPECT_EQ(edits[0].ttl, 20u);
  EXPECT_EQ(edits[0].rdatas, records.a);
  EXPECT_EQ(edits[1].op, store::Edit::Op::kDeleteRRset);
  EXPECT_EQ(edits[1].type, dns::RRType::AAAA);
  EXPECT_EQ(edits[2].op, store::Edit::Op::kDeleteRRset);
  EXPECT_EQ(edits[2].type, dns::RRType::TXT);
}

TEST_F(PoolMaterializerTest, OneJournaledWritePerAnswerChangeAndNoneWhenUnchanged) {
  use(web_pool(AllDownPolicy::kFailOpen));
  auto first = pass(true, true);
  ASSERT_EQ(first.writes.size(), 1u);
  EXPECT_EQ(first.writes[0].status, store::WriteStatus::kApplied) << first.writes[0].message;
  EXPECT_EQ(first.writes[0].serial, 11u);
  EXPECT_EQ(served(dns::RRType::A), std::vector<std::string>{kPrimary});

  EXPECT_TRUE(pass(true, true).writes.empty());
  EXPECT_TRUE(pass(true, false).writes.empty());  // the backup is not answered: same records

  auto failover = pass(false, true);
  ASSERT_EQ(failover.writes.size(), 1u);
  EXPECT_EQ(failover.writes[0].status, store::WriteStatus::kApplied);
  EXPECT_EQ(failover.writes[0].serial, 12u);
  EXPECT_EQ(served(dns::RRType::A), std::vector<std::string>{kBackup});

  auto entries = history();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].who, "pool:web");
  EXPECT_EQ(entries[1].what, "health -> A 198.51.100.30 (healthy)");
}

TEST_F(PoolMaterializerTest, FailOpenIsWrittenWithoutTouchingTheFloor) {
  use(web_pool(AllDownPolicy::kFailOpen));
  ASSERT_EQ(pass(true, true).writes.size(), 1u);
  auto all_down = pass(false, false);
  ASSERT_EQ(all_down.writes.size(), 1u);
  EXPECT_EQ(all_down.writes[0].status, store::WriteStatus::kApplied);
  EXPECT_EQ(served(dns::RRType::A).size(), 2u);
}

TEST_F(PoolMaterializerTest, NoDataEmptiesTheNamePastTheFloorAndKeepsItExisting) {
  use(web_pool(AllDownPolicy::kNoData));
  ASSERT_EQ(pass(true, true).writes.size(), 1u);
  auto all_down = pass(false, false);
  ASSERT_EQ(all_down.writes.size(), 1u);
  EXPECT_EQ(all_down.writes[0].status, store::WriteStatus::kApplied) << all_down.writes[0].message;
  EXPECT_TRUE(served(dns::RRType::A).empty());
  EXPECT_EQ(served(dns::RRType::TXT).size(), 1u);  // NODATA for A, never NXDOMAIN
  auto back = pass(true, false);
  ASSERT_EQ(back.writes.size(), 1u);
  EXPECT_EQ(served(dns::RRType::A), std::vector<std::string>{kPrimary});
  EXPECT_TRUE(served(dns::RRType::TXT).empty());
}

TEST_F(PoolMaterializerTest, WaitsForEveryVerdictUntilTheFirstVerdictDeadline) {
  use(web_pool(AllDownPolicy::kFailOpen));
  auto waiting = pass(true, std::nullopt);
  EXPECT_TRUE(waiting.writes.empty());
  ASSERT_TRUE(waiting.wake_at.has_value());
  // D_max = F·I + T = 2.3 s, plus one interval of start spread.
  EXPECT_EQ(*waiting.wake_at - clock_.now(), std::chrono::milliseconds(3300));
  clock_.advance(std::chrono::milliseconds(3300));
  auto late = pass(true, std::nullopt);
  ASSERT_EQ(late.writes.size(), 1u);
  EXPECT_FALSE(late.wake_at.has_value());
  EXPECT_EQ(served(dns::RRType::A), std::vector<std::string>{kPrimary});
}

TEST_F(PoolMaterializerTest, AnOverrideIsJournaledUnderTheOperatorsName) {
  use(web_pool(AllDownPolicy::kFailOpen));
  ASSERT_EQ(pass(true, true).writes.size(), 1u);
  materializer_->annotate("web", "api@127.0.0.1", "drain 192.0.2.30");
  ASSERT_EQ(pass(false, true).writes.size(), 1u);
  ASSERT_EQ(pass(true, true).writes.size(), 1u);  // the cause was used once
  materializer_->annotate("web", "api@127.0.0.1", "drain 198.51.100.30");  // changed no verdict...
  materializer_->clear_annotation("web");                                 // ...so it is dropped
  ASSERT_EQ(pass(false, true).writes.size(), 1u);
  auto entries = history();
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[1].who, "api@127.0.0.1 (pool:web)");
  EXPECT_EQ(entries[1].what, "drain 192.0.2.30 -> A 198.51.100.30 (healthy)");
  EXPECT_EQ(entries[2].who, "pool:web");
  EXPECT_EQ(entries[3].who, "pool:web");
}

TEST_F(PoolMaterializerTest, ARestartWithTheSameAnswerChangesNothing) {
  use(web_pool(AllDownPolicy::kFailOpen));
  ASSERT_EQ(pass(true, true).writes.size(), 1u);
  use(web_pool(AllDownPolicy::kFailOpen));  // a new materializer knows nothing written
  auto again = pass(true, true);
  ASSERT_EQ(again.writes.size(), 1u);
  EXPECT_EQ(again.writes[0].status, store::WriteStatus::kNoChange);
  EXPECT_EQ(again.writes[0].serial, 11u);
  EXPECT_EQ(history().size(), 1u);
}

}  // namespace
}  // namespace cutover::pool
