// Store: fence, floor, serial, journal replay, damaged tail, undo, dry run, a view's store.
#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "store/store_test_support.h"
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

using testing::a_rdata;
using testing::name;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::new_journal_path("store_test");
    ASSERT_FALSE(path_.empty());
    open();
  }

  void open() {
    auto journal = Journal::open(path_);
    ASSERT_TRUE(journal) << journal.error().message;
    store_ = std::make_unique<Store>(std::move(*journal), [this](auto zones) { published_ = zones; }, logger_);
    auto loaded = zone::load_zone_text(name("example.test."), kZone, "test");
    ASSERT_TRUE(loaded.zone);
    loaded_ = loaded.zone;
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
  std::shared_ptr<const zone::Zone> loaded_;  // the zone as the last open() loaded it
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

// The write path edits the zone in place and puts the touched names back on a refusal: a
// write refused after some of its edits applied must leave no trace of them.
TEST_F(StoreTest, RefusedWritesLeaveTheDataAsItWas) {
  auto records_now = [this] {
    std::vector<std::string> lines;
    for (const auto& record : store_->view(name("example.test."))->data.records()) {
      lines.push_back(record.owner.to_text() + " " + std::to_string(record.ttl) + " " + dns::type_to_text(record.type) +
                      " " + dns::rdata_to_text(record.type, record.rdata));
    }
    return lines;
  };
  auto before = records_now();
  WriteRequest invalid;
  invalid.zone = name("example.test.");
  invalid.edits.push_back({Edit::Op::kAddRecord, name("new.example.test."), dns::RRType::A, 60, {a_rdata("192.0.2.7")}});
  invalid.edits.push_back({Edit::Op::kAddRecord, name("other.test."), dns::RRType::A, 60, {a_rdata("192.0.2.8")}});
  EXPECT_EQ(store_->write(invalid).status, WriteStatus::kInvalid);
  WriteRequest floor;
  floor.zone = name("example.test.");
  floor.edits.push_back({Edit::Op::kAddRecord, name("new.example.test."), dns::RRType::A, 60, {a_rdata("192.0.2.7")}});
  floor.edits.push_back({Edit::Op::kDeleteName, name("www.example.test."), dns::RRType::A, 0, {}});
  EXPECT_EQ(store_->write(floor).status, WriteStatus::kFloor);
  floor.allow_empty = true;
  floor.dry_run = true;
  EXPECT_EQ(store_->write(floor).status, WriteStatus::kDryRun);
  WriteRequest conflict = floor;
  conflict.dry_run = false;
  conflict.expected_version = 5;
  EXPECT_EQ(store_->write(conflict).status, WriteStatus::kConflict);
  EXPECT_EQ(records_now(), before);
  EXPECT_EQ(served_serial(), 10u);
  // And the next accepted write starts from that unchanged state.
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  auto view = store_->view(name("example.test."));
  EXPECT_FALSE(view->data.has_name(name("new.example.test.")));
  EXPECT_EQ(view->data.records().size(), before.size());
}

// docs/dnssec.md: an edit to a zone signed offline would serve records no signature covers,
// so it is refused; a whole new state (a reload of the re-signed file) is taken.
TEST_F(StoreTest, AnEditToAPreSignedZoneIsRefusedAndAReloadIsTaken) {
  constexpr const char* kSigned = R"(
$ORIGIN signed.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
@ IN DNSKEY 257 3 13 a2V5
@ IN RRSIG SOA 13 2 300 20461201000000 20261201000000 4242 signed.test. c2ln
ns1 IN A 192.0.2.1
)";
  auto loaded = zone::load_zone_text(name("signed.test."), kSigned, "signed");
  ASSERT_TRUE(loaded.zone);
  ASSERT_TRUE(store_->load({ZoneSource{loaded_, {}, ""}, ZoneSource{loaded.zone, {}, ""}}));
  WriteRequest edit;
  edit.zone = name("signed.test.");
  edit.edits.push_back({Edit::Op::kAddRecord, name("www.signed.test."), dns::RRType::A, 60, {a_rdata("192.0.2.7")}});
  auto refused = store_->write(edit);
  EXPECT_EQ(refused.status, WriteStatus::kInvalid);
  EXPECT_NE(refused.message.find("signed offline"), std::string::npos) << refused.message;
  EXPECT_FALSE(store_->view(name("signed.test."))->data.has_name(name("www.signed.test.")));
  // The unsigned zone beside it still takes edits.
  EXPECT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  // A whole new state of the signed zone (what a reload of the re-signed file writes) is taken.
  WriteRequest reload;
  reload.zone = name("signed.test.");
  reload.target = store_->view(name("signed.test."))->data;
  ASSERT_TRUE(reload.target->apply({Edit::Op::kAddRecord, name("www.signed.test."), dns::RRType::A, 60, {a_rdata("192.0.2.7")}}));
  EXPECT_EQ(store_->write(reload).status, WriteStatus::kApplied);
  EXPECT_TRUE(store_->view(name("signed.test."))->data.has_name(name("www.signed.test.")));
}

// RFC 2136 §3.4.2.2: an added SOA must raise the serial, or it is ignored; a reloaded zone
// file's SOA replaces ours whatever its serial (the write path then moves the serial on).
TEST_F(StoreTest, AnAddedSoaReplacesTheSoaOnlyWithAGreaterSerial) {
  auto soa_rdata = [](std::uint32_t serial, std::uint32_t refresh) {
    dns::SoaFields soa;
    soa.mname = name("ns1.example.test.");
    soa.rname = name("admin.example.test.");
    soa.serial = serial;
    soa.refresh = refresh;
    soa.retry = 600;
    soa.expire = 86400;
    soa.minimum = 60;
    return dns::encode_soa(soa);
  };
  auto add_soa = [&](std::uint32_t serial, std::uint32_t refresh) {
    WriteRequest request;
    request.zone = name("example.test.");
    request.edits.push_back({Edit::Op::kAddRecord, name("example.test."), dns::RRType::SOA, 300, {soa_rdata(serial, refresh)}});
    request.skip_ignored_edits = true;
    return store_->write(request);
  };
  for (std::uint32_t serial : {10u, 9u, 10u + 0x80000000U}) {
    EXPECT_EQ(add_soa(serial, 7200).status, WriteStatus::kNoChange) << serial;
  }
  EXPECT_EQ(store_->view(name("example.test."))->data.soa()->refresh, 3600u);
  WriteResult raised = add_soa(20, 7200);
  ASSERT_EQ(raised.status, WriteStatus::kApplied) << raised.message;
  EXPECT_EQ(raised.serial, 20u);
  EXPECT_EQ(store_->view(name("example.test."))->data.soa()->refresh, 7200u);
  WriteRequest replace;
  replace.zone = name("example.test.");
  replace.edits.push_back({Edit::Op::kReplaceRRset, name("example.test."), dns::RRType::SOA, 300, {soa_rdata(5, 900)}});
  WriteResult replaced = store_->write(replace);
  ASSERT_EQ(replaced.status, WriteStatus::kApplied) << replaced.message;
  EXPECT_EQ(replaced.serial, 21u);
  EXPECT_EQ(store_->view(name("example.test."))->data.soa()->refresh, 900u);
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

// The served zone shares the loaded one's blocks: the very zone without journal entries, a
// patch over it with the owners the journal touched.
TEST_F(StoreTest, TheServedZoneIsTheLoadedOneOrAPatchOverIt) {
  EXPECT_EQ(published_->zones().front(), loaded_);
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  store_.reset();
  open();
  const auto& served = published_->zones().front();
  EXPECT_EQ(served->base(), loaded_);
  const zone::Node* www = served->find(name("www.example.test."));
  ASSERT_NE(www, nullptr);
  ASSERT_NE(www->find(dns::RRType::A), nullptr);
  EXPECT_EQ(dns::Rdata(www->find(dns::RRType::A)->rdatas.to_vector().front()), a_rdata("192.0.2.20"));
  EXPECT_EQ(served->soa_fields().serial, 11u);
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

namespace cutover::store {
namespace {

// A reload of several zones keeps each zone's written data; it once crashed on the second
// zone (a moved-from slot of the zone list was looked up).
// A view's store shares the journal with the default one and keeps its own streams: the same
// origin written in both replays apart, and each has its own version and history.
TEST_F(StoreTest, AViewsStoreKeepsItsCopyOfAZoneApartInTheSameJournal) {
  auto journal = Journal::open(path_);
  ASSERT_TRUE(journal) << journal.error().message;
  auto storage = (*journal)->storage();
  std::shared_ptr<const auth::ZoneSet> view_published;
  auto open_view = [&] {
    auto store = std::make_unique<Store>(std::make_unique<Journal>(storage),
                                         [&view_published](auto zones) { view_published = zones; }, logger_, "internal");
    auto loaded = zone::load_zone_text(name("example.test."), kZone, "test");
    EXPECT_TRUE(store->load({ZoneSource{loaded.zone, {}, ""}}));
    return store;
  };
  auto view = open_view();
  WriteRequest request;
  request.zone = name("example.test.");
  request.edits.push_back({Edit::Op::kReplaceRRset, name("www.example.test."), dns::RRType::A, 60, {a_rdata("10.0.0.1")}});
  WriteResult written = view->write(request);
  ASSERT_EQ(written.status, WriteStatus::kApplied) << written.message;
  EXPECT_EQ(written.version, 1u);
  ASSERT_EQ(set_www("192.0.2.20").status, WriteStatus::kApplied);
  ASSERT_EQ(set_www("192.0.2.21").status, WriteStatus::kApplied);

  // Replayed, each store has its own writes and nothing of the other's.
  view.reset();
  store_.reset();
  open();
  view = open_view();
  auto www = [](const Store& store) {
    return store.view(name("example.test."))->data.find(name("www.example.test."), dns::RRType::A)->rdatas.front();
  };
  EXPECT_EQ(www(*view), a_rdata("10.0.0.1"));
  EXPECT_EQ(www(*store_), a_rdata("192.0.2.21"));
  EXPECT_EQ(view->view(name("example.test."))->version, 1u);
  EXPECT_EQ(store_->view(name("example.test."))->version, 2u);
  auto history = view->entries_after(name("example.test."), 0);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->size(), 1u);
  // Refusals name the view's copy.
  WriteRequest missing;
  missing.zone = name("other.test.");
  EXPECT_EQ(view->write(missing).message, "no zone other.test. in view internal is served here");
  EXPECT_EQ(view->view_name(), "internal");
}

TEST(StoreReload, SeveralZonesReloadTogether) {
  std::string path = testing::new_journal_path("store_reload_test");
  ASSERT_FALSE(path.empty());
  auto journal = Journal::open(path);
  ASSERT_TRUE(journal) << journal.error().message;
  base::Logger logger{nullptr, base::LogLevel::kError};
  std::shared_ptr<const auth::ZoneSet> published;
  Store store(std::move(*journal), [&published](auto zones) { published = zones; }, logger);
  // a.test. has more names than a patch may hold, so only a write that touches the names it
  // changes (not every owner) can be a patch.
  auto zone_of = [](const std::string& origin, const std::string& www) {
    std::string text = "$ORIGIN " + origin + "\n$TTL 300\n@ IN SOA ns1 admin 10 3600 600 86400 60\n@ IN NS ns1\n"
                       "ns1 IN A 192.0.2.1\nwww IN A " + www + "\n";
    for (int i = 0; origin == "a.test." && i < 400; ++i) text += "h" + std::to_string(i) + " IN A 192.0.2.2\n";
    auto loaded = zone::load_zone_text(testing::name(origin.c_str()), text, origin);
    EXPECT_TRUE(loaded.zone) << origin;
    return loaded.zone;
  };
  std::vector<ZoneSource> first = {ZoneSource{zone_of("a.test.", "192.0.2.10"), {}, ""},
                                   ZoneSource{zone_of("b.test.", "192.0.2.20"), {}, ""}};
  ASSERT_TRUE(store.load(first));
  const zone::Zone* a_before = published->find(testing::name("a.test."));
  auto a_served = published->served_of(a_before);
  WriteRequest request;
  request.zone = testing::name("b.test.");
  request.edits.push_back({Edit::Op::kReplaceRRset, testing::name("new.b.test."), dns::RRType::A, 60,
                           {testing::a_rdata("192.0.2.77")}});
  ASSERT_TRUE(store.write(request).ok());
  // A write to b.test. leaves a.test.'s served form (its fast index) as it was, not rebuilt.
  EXPECT_EQ(published->find(testing::name("a.test.")), a_before);
  EXPECT_EQ(published->served_of(a_before), a_served);
  auto www_of = [&published](const std::string& owner) {
    const zone::Zone* zone = published->find(testing::name(owner.c_str()));
    EXPECT_NE(zone, nullptr) << owner;
    return zone != nullptr && zone->find(testing::name(owner.c_str())) != nullptr;
  };

  std::vector<ZoneSource> second = {ZoneSource{zone_of("a.test.", "192.0.2.11"), {}, ""},
                                    ZoneSource{zone_of("b.test.", "192.0.2.21"), {}, ""}};
  auto status = store.reload(second);
  ASSERT_TRUE(status) << status.error().message;
  ASSERT_EQ(published->zones().size(), 2u);
  EXPECT_TRUE(www_of("new.b.test."));  // the write survives the reload
  // A reload that changes one name is a patch over the zone as served, not a whole build.
  const zone::Zone* a_after = published->find(testing::name("a.test."));
  EXPECT_EQ(a_after->base().get(), a_before);
  const zone::Node* www = a_after->find(testing::name("www.a.test."));
  ASSERT_NE(www, nullptr);
  EXPECT_EQ(dns::Rdata(www->find(dns::RRType::A)->rdatas.to_vector().front()), testing::a_rdata("192.0.2.11"));
  // So is an undo, a write of a whole earlier state: it touches the names that differ.
  WriteRequest fence;
  auto undone = store.undo(testing::name("a.test."), 0, fence);
  ASSERT_TRUE(undone.ok()) << undone.message;
  const zone::Zone* a_undone = published->find(testing::name("a.test."));
  EXPECT_EQ(a_undone->base().get(), a_before);
  www = a_undone->find(testing::name("www.a.test."));
  ASSERT_NE(www, nullptr);
  EXPECT_EQ(dns::Rdata(www->find(dns::RRType::A)->rdatas.to_vector().front()), testing::a_rdata("192.0.2.10"));
  auto names = store.zone_names();
  EXPECT_EQ(names.size(), 2u);
}

}  // namespace
}  // namespace cutover::store
