// Store: fence, floor, serial, journal replay, damaged tail, undo, dry run.
#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "zone/loader.h"

namespace cutover::store {
namespace {

constexpr const char* kZone = R"(
$ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 192.0.2.1
www IN A 192.0.2.10
)";

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

dns::Rdata a_rdata(const char* address) {
  std::vector<dns::TextToken> tokens{{address, false, 1, 1}};
  return *dns::rdata_from_text(dns::RRType::A, tokens, name("."));
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/store_test.XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    path_ = std::string(dir) + "/journal.db";
    open();
  }

  void open() {
    auto journal = Journal::open(path_);
    ASSERT_TRUE(journal) << journal.error().message;
    store_ = std::make_unique<Store>(std::move(*journal), [this](auto zones) { published_ = zones; }, logger_);
    auto loaded = zone::load_zone_text(name("example.test."), kZone, "test");
    ASSERT_TRUE(loaded.zone);
    ASSERT_TRUE(store_->load({ZoneSource{loaded.zone, {}, ""}}));
  }

  WriteResult set_www(const char* address, std::optional<std::uint64_t> expected = std::nullopt) {
    WriteRequest request;
    request.zone = name("example.test.");
    request.edits.push_back({Edit::Op::kReplaceRRset, name("www.example.test."), dns::RRType::A, 60, {a_rdata(address)}});
    request.expected_version = expected;
    return store_->write(request);
  }

  std::uint32_t served_serial() const { return published_->zones().front()->soa_fields().serial; }

  std::string path_;
  base::Logger logger_{nullptr, base::LogLevel::kError};
  std::unique_ptr<Store> store_;
  std::shared_ptr<const auth::ZoneSet> published_;
};

TEST_F(StoreTest, AppliedWriteBumpsVersionAndSerialAndPublishes) {
  WriteResult result = set_www("192.0.2.20");
  ASSERT_EQ(result.status, WriteStatus::kApplied) << result.message;
  EXPECT_EQ(result.version, 1u);
  EXPECT_EQ(result.serial, 11u);
  EXPECT_EQ(served_serial(), 11u);
}

TEST_F(StoreTest, StaleExpectedVersionIsRejectedWithCurrentVersion) {
  ASSERT_EQ(set_www("192.0.2.20", 0).status, WriteStatus::kApplied);
  WriteResult late = set_www("192.0.2.30", 0);
  EXPECT_EQ(late.status, WriteStatus::kConflict);
  EXPECT_EQ(late.version, 1u);
  EXPECT_NE(late.message.find("current version is 1"), std::string::npos);
}

TEST_F(StoreTest, OlderPlanVersionIsRejected) {
  WriteRequest request;
  request.zone = name("example.test.");
  request.edits.push_back({Edit::Op::kReplaceRRset, name("www.example.test."), dns::RRType::A, 60, {a_rdata("192.0.2.5")}});
  request.plan_version = 7;
  ASSERT_EQ(store_->write(request).status, WriteStatus::kApplied);
  request.plan_version = 6;
  request.edits.front().rdatas = {a_rdata("192.0.2.6")};
  EXPECT_EQ(store_->write(request).status, WriteStatus::kStale);
}

TEST_F(StoreTest, FloorRefusesRemovingTheLastAddressUnlessAllowed) {
  WriteRequest request;
  request.zone = name("example.test.");
  request.edits.push_back({Edit::Op::kDeleteRRset, name("www.example.test."), dns::RRType::A, 0, {}});
  WriteResult refused = store_->write(request);
  EXPECT_EQ(refused.status, WriteStatus::kFloor);
  EXPECT_NE(refused.message.find("www.example.test."), std::string::npos);
  request.allow_empty = true;
  EXPECT_EQ(store_->write(request).status, WriteStatus::kApplied);
}

TEST_F(StoreTest, DryRunReportsAnswerDiffAndAppliesNothing) {
  WriteRequest request;
  request.zone = name("example.test.");
  request.edits.push_back({Edit::Op::kReplaceRRset, name("www.example.test."), dns::RRType::A, 60, {a_rdata("192.0.2.99")}});
  request.dry_run = true;
  WriteResult result = store_->write(request);
  ASSERT_EQ(result.status, WriteStatus::kDryRun);
  ASSERT_EQ(result.answers.size(), 1u);
  EXPECT_EQ(result.answers[0].after, std::vector<std::string>{"www.example.test. 60 A 192.0.2.99"});
  EXPECT_EQ(served_serial(), 10u);
  EXPECT_EQ(store_->view(name("example.test."))->version, 0u);
}

TEST_F(StoreTest, JournalReplaysOverTheZoneFileOnRestart) {
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  ASSERT_EQ(set_www("192.0.2.21").status, WriteStatus::kApplied);
  store_.reset();
  open();
  auto view = store_->view(name("example.test."));
  ASSERT_TRUE(view);
  EXPECT_EQ(view->version, 2u);
  EXPECT_EQ(view->serial, 12u);
  EXPECT_EQ(view->data.find(name("www.example.test."), dns::RRType::A)->rdatas.front(), a_rdata("192.0.2.21"));
}

TEST_F(StoreTest, DamagedLastEntryIsDroppedAndEarlierOneIsAnError) {
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  ASSERT_EQ(set_www("192.0.2.21").status, WriteStatus::kApplied);
  store_.reset();
  auto corrupt = [this](int version) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    std::string sql = "UPDATE journal SET who='tampered' WHERE version=" + std::to_string(version);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  };
  corrupt(2);
  open();
  EXPECT_EQ(store_->view(name("example.test."))->version, 1u);
  ASSERT_EQ(set_www("192.0.2.22").status, WriteStatus::kApplied);
  store_.reset();
  corrupt(1);
  auto journal = Journal::open(path_);
  ASSERT_TRUE(journal);
  Store reopened(std::move(*journal), [](auto) {}, logger_);
  auto loaded = zone::load_zone_text(name("example.test."), kZone, "test");
  auto status = reopened.load({ZoneSource{loaded.zone, {}, ""}});
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("entry 1"), std::string::npos);
}

TEST_F(StoreTest, UndoRestoresAnEarlierVersionAsANewWriteWithCacheTail) {
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  WriteRequest fence;
  fence.expected_version = 1;
  WriteResult undone = store_->undo(name("example.test."), 0, fence);
  ASSERT_EQ(undone.status, WriteStatus::kApplied) << undone.message;
  EXPECT_EQ(undone.version, 2u);
  EXPECT_EQ(undone.serial, 12u);
  EXPECT_EQ(undone.cache_tail.longest_ttl, 60u);
  auto view = store_->view(name("example.test."));
  EXPECT_EQ(view->data.find(name("www.example.test."), dns::RRType::A)->rdatas.front(), a_rdata("192.0.2.10"));
}

}  // namespace
}  // namespace cutover::store
