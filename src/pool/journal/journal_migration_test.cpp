// The migration of a schema-1 journal file, zone and pool entries together: the zone side
// through store::Store, the pool side through PoolJournal, over one file.
#include "pool/journal/pool_journal.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "store/store.h"
#include "store/store_test_support.h"
#include "zone/loader.h"

namespace cutover::pool {
namespace {

using store::Edit;
using store::Journal;
using store::Store;
using store::WriteRequest;
using store::WriteResult;
using store::WriteStatus;
using store::ZoneSource;
using store::ZoneView;

using store::testing::a_rdata;
using store::testing::name;

// tests/fixtures/journal-v1.sqlite was written by a real `cutover serve` before zone and pool
// entries shared one table (schema 1; tests/fixtures/README.md says how). A copy must open,
// migrated in place, with the zone entries and the pool states it held, through one
// connection for both; a damaged last entry stays droppable and earlier damage still stops.
class JournalFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = store::testing::new_journal_path("journal_fixture_test");
    ASSERT_FALSE(path_.empty());
    std::filesystem::copy_file(std::string(CUTOVER_SOURCE_DIR) + "/tests/fixtures/journal-v1.sqlite", path_);
  }
  void TearDown() override { std::fclose(null_); }

  // The fixture's zone file for example.test. (tests/fixtures/make_journal_v1.sh).
  base::Status open_store() {
    auto journal = Journal::open(path_);
    if (!journal) return journal.error();
    store_ = std::make_unique<Store>(std::move(*journal), [](auto) {}, logger_);
    auto loaded = zone::load_zone_text(name("example.test."),
                                       "$ORIGIN example.test.\n$TTL 300\n@ IN SOA ns1 admin 10 3600 600 86400 60\n"
                                       "@ IN NS ns1\nns1 IN A 127.0.0.1\nwww IN A 192.0.2.10\n",
                                       "fixture");
    if (!loaded.zone) return base::make_error(base::ErrorCode::kMalformed, "the fixture zone does not load");
    return store_->load({ZoneSource{loaded.zone, {}, ""}});
  }
  // Runs `text` on the file through a connection of its own.
  void sql(const std::string& text) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, text.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  std::int64_t number(const std::string& query) {
    sqlite3* db = nullptr;
    std::int64_t value = -1;
    if (sqlite3_open(path_.c_str(), &db) != SQLITE_OK) return value;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, query.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      value = sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return value;
  }
  std::vector<std::string> rdatas(const ZoneView& view, const char* owner, dns::RRType type) {
    std::vector<std::string> out;
    const auto* rrset = view.data.find(name(owner), type);
    if (rrset != nullptr) {
      for (const auto& rdata : rrset->rdatas) out.push_back(dns::rdata_to_text(type, rdata));
    }
    return out;
  }

  std::string path_;
  std::FILE* null_ = std::fopen("/dev/null", "w");
  base::Logger logger_{null_};
  std::unique_ptr<Store> store_;
};

TEST_F(JournalFixture, ZoneEntriesAndPoolStatesOfASchema1FileSurviveTheMigration) {
  ASSERT_TRUE(open_store());
  auto view = store_->view(name("example.test."));
  ASSERT_TRUE(view);
  EXPECT_EQ(view->version, 5u);
  EXPECT_EQ(view->plan_version, 7u);
  EXPECT_EQ(view->serial, 15u);
  EXPECT_EQ(rdatas(*view, "www.example.test.", dns::RRType::A), (std::vector<std::string>{"192.0.2.20", "192.0.2.21"}));
  EXPECT_EQ(rdatas(*view, "txt.example.test.", dns::RRType::TXT), std::vector<std::string>{"\"hello journal\""});
  EXPECT_TRUE(rdatas(*view, "mail.example.test.", dns::RRType::A).empty());  // undone by entry 5
  auto history = store_->entries_after(name("example.test."), 0);
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history->size(), 5u);
  EXPECT_EQ(history->front().who, "fixture");
  EXPECT_EQ((*history)[1].plan_version, 7u);
  EXPECT_EQ((*history)[3].serial_before, 13u);
  EXPECT_EQ((*history)[3].serial, 14u);
  EXPECT_EQ((*history)[3].what, "DNS UPDATE: 0 prerequisites, 1 updates");
  EXPECT_EQ(history->back().what, "undo to version 3");

  // The pool entries, from the same file and through the same connection.
  auto pools = PoolJournal::open(path_);
  ASSERT_TRUE(pools) << pools.error().message;
  auto loaded = (*pools)->load();
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->pools.size(), 1u);
  const PoolEntry& web = loaded->pools.front().latest;
  EXPECT_EQ(loaded->pools.front().mark.version, 6u);
  EXPECT_EQ(loaded->pools.front().mark.plan_version, 4u);
  EXPECT_EQ(web.pool, "web");
  EXPECT_EQ(web.version, 6u);
  EXPECT_EQ(web.plan_version, 4u);
  EXPECT_EQ(web.what, "undo to version 3");
  EXPECT_NE(web.state.find(R"("overrides":{"127.0.0.61":"drain"})"), std::string::npos) << web.state;
  EXPECT_NE(web.state.find(R"("ttl":45)"), std::string::npos) << web.state;
  auto pool_history = (*pools)->history("web", 0);
  ASSERT_TRUE(pool_history) << pool_history.error().message;
  ASSERT_EQ(pool_history->size(), 6u);
  EXPECT_EQ((*pool_history)[1].who, "fixture@127.0.0.1");
  EXPECT_EQ((*pool_history)[4].what, "drain 127.0.0.62");

  // Writes go on from the versions the file held, and the file is schema 2 for good.
  WriteRequest request;
  request.zone = name("example.test.");
  request.expected_version = 5;
  request.edits.push_back({Edit::Op::kAddRecord, name("new.example.test."), dns::RRType::A, 60, {a_rdata("192.0.2.99")}});
  WriteResult written = store_->write(request);
  ASSERT_EQ(written.status, WriteStatus::kApplied) << written.message;
  EXPECT_EQ(written.version, 6u);
  EXPECT_EQ(written.serial, 16u);
  PoolEntry next = web;
  next.version = 7;
  next.what = "after the migration";
  ASSERT_TRUE((*pools)->append(next));
  pools->reset();
  store_.reset();
  EXPECT_EQ(number("PRAGMA user_version"), 2);
  EXPECT_EQ(number("SELECT count(*) FROM sqlite_master WHERE name IN ('pool_journal', 'journal_v1', 'marks_v1')"), 0);
  EXPECT_EQ(number("SELECT count(*) FROM journal"), 13);
  ASSERT_TRUE(open_store());
  EXPECT_EQ(store_->view(name("example.test."))->version, 6u);
}

TEST_F(JournalFixture, DamageInASchema1FileIsJudgedByTheTornTailRuleAfterTheMigration) {
  // The last pool entry and an early zone entry, damaged before the migration.
  sql("UPDATE pool_journal SET who='tampered' WHERE version=6; UPDATE journal SET who='tampered' WHERE version=2");
  auto pools = PoolJournal::open(path_);
  ASSERT_TRUE(pools) << pools.error().message;
  auto loaded = (*pools)->load();
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_TRUE(loaded->dropped_torn_tail);
  ASSERT_EQ(loaded->pools.size(), 1u);
  EXPECT_EQ(loaded->pools.front().latest.version, 5u);
  EXPECT_EQ(loaded->pools.front().mark.version, 5u);
  auto status = open_store();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("entry 2 of zone example.test."), std::string::npos) << status.error().message;
}

}  // namespace
}  // namespace cutover::pool
