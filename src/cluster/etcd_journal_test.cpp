// EtcdJournal against a real etcd member on loopback (skipped when etcd is not installed):
// appends as compare-and-set transactions, two journals racing for one version, reads
// after a position, the marks' plan version, streams, compaction, an entry changed outside
// cutover, and the write pipeline's version conflict when another writer appended first.
#include "cluster/etcd_journal.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "cluster/etcd_test_support.h"
#include "store/write_pipeline.h"

namespace cutover::cluster {
namespace {

constexpr int kEtcdPort = 0;  // ports the kernel picks: ctest runs these tests side by side

store::StoredEntry entry(const std::string& stream, std::uint64_t version, std::string body,
                         std::uint64_t plan_version = 0) {
  store::StoredEntry out;
  out.stream = stream;
  out.version = version;
  out.plan_version = plan_version;
  out.at_ms = 1'700'000'000'000 + static_cast<std::int64_t>(version);
  out.who = "test";
  out.what = "write " + std::to_string(version);
  out.body.assign(body.begin(), body.end());
  return out;
}

std::string body_of(const store::StoredEntry& stored) { return {stored.body.begin(), stored.body.end()}; }

class EtcdJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_etcd()) GTEST_SKIP() << "etcd is not installed (Debian package etcd-server)";
    etcd_ = std::make_unique<testing::EtcdCluster>(1, kEtcdPort);
    ASSERT_TRUE(etcd_->wait_healthy()) << "etcd did not start; log in " << etcd_->dir();
    auto members = parse_etcd_urls(etcd_->urls());
    ASSERT_TRUE(members);
    config_.etcd = *members;
    config_.vantage = "t";
    config_.prefix = "/journal-test/";
  }
  std::unique_ptr<EtcdJournal> journal() {
    return std::make_unique<EtcdJournal>(config_, std::chrono::milliseconds(2000));
  }

  std::unique_ptr<testing::EtcdCluster> etcd_;
  ClusterConfig config_;
};

TEST_F(EtcdJournalTest, AppendsInOrderAndReadsBackAfterAPosition) {
  auto a = journal();
  ASSERT_TRUE(a->append(entry("pool web", 1, "one")));
  ASSERT_TRUE(a->append(entry("pool web", 2, "two", 7)));
  ASSERT_TRUE(a->append(entry("pool web", 3, "three")));
  ASSERT_TRUE(a->append(entry("pool api", 1, "other")));
  // The plan version only rises; the version follows the entries.
  auto b = journal();
  EXPECT_EQ(b->mark("pool web").version, 3u);
  EXPECT_EQ(b->mark("pool web").plan_version, 7u);
  EXPECT_EQ(b->mark("pool none").version, 0u);
  auto read = b->read("pool web", 1, store::TornTail::kFail);
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->entries.size(), 2u);
  EXPECT_EQ(read->entries[0].version, 2u);
  EXPECT_EQ(body_of(read->entries[0]), "two");
  EXPECT_EQ(read->entries[0].what, "write 2");
  EXPECT_EQ(read->entries[0].at_ms, 1'700'000'000'002);
  EXPECT_EQ(body_of(read->entries[1]), "three");
  auto streams = b->streams("pool ");
  ASSERT_TRUE(streams);
  EXPECT_EQ(*streams, (std::vector<std::string>{"pool api", "pool web"}));
  EXPECT_GT(b->revision(), 0);
}

TEST_F(EtcdJournalTest, AVersionTakenAlreadyIsAConflict) {
  auto a = journal();
  auto b = journal();
  ASSERT_TRUE(a->append(entry("pool web", 1, "from a")));
  auto again = b->append(entry("pool web", 1, "from b"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, base::ErrorCode::kInvalidArgument) << again.error().message;
  auto skipped = b->append(entry("pool web", 3, "a gap"));
  ASSERT_FALSE(skipped);
  EXPECT_EQ(skipped.error().code, base::ErrorCode::kInvalidArgument);
  auto read = b->read("pool web", 0, store::TornTail::kFail);
  ASSERT_TRUE(read);
  ASSERT_EQ(read->entries.size(), 1u);
  EXPECT_EQ(body_of(read->entries[0]), "from a");
}

// Many writers appending the next version at once: every version is taken exactly once,
// and no appended entry is lost or overwritten.
TEST_F(EtcdJournalTest, RacingWritersEachWinAVersionOnce) {
  constexpr int kWriters = 4;
  constexpr int kRounds = 10;
  std::vector<std::unique_ptr<EtcdJournal>> journals;
  for (int i = 0; i < kWriters; ++i) journals.push_back(journal());
  std::atomic<int> wins{0};
  std::vector<std::vector<std::string>> won(kWriters);
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      for (int round = 0; round < kRounds; ++round) {
        // Each writer tries the version after the mark it reads, like the write path does.
        std::uint64_t next = journals[i]->mark("pool race").version + 1;
        std::string body = "w" + std::to_string(i) + "r" + std::to_string(round);
        if (journals[i]->append(entry("pool race", next, body))) {
          ++wins;
          won[i].push_back(body);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  auto read = journals[0]->read("pool race", 0, store::TornTail::kFail);
  ASSERT_TRUE(read);
  ASSERT_EQ(static_cast<int>(read->entries.size()), wins.load());
  EXPECT_GE(wins.load(), kRounds);  // at least one writer wins every round
  std::multiset<std::string> stored;
  for (std::size_t i = 0; i < read->entries.size(); ++i) {
    EXPECT_EQ(read->entries[i].version, i + 1);
    stored.insert(body_of(read->entries[i]));
  }
  std::multiset<std::string> acknowledged;
  for (const auto& bodies : won) acknowledged.insert(bodies.begin(), bodies.end());
  EXPECT_EQ(stored, acknowledged);
}

TEST_F(EtcdJournalTest, CompactionKeepsTheMarkAndTheNewerEntries) {
  auto a = journal();
  for (std::uint64_t v = 1; v <= 4; ++v) ASSERT_TRUE(a->append(entry("pool web", v, "v" + std::to_string(v))));
  ASSERT_TRUE(a->compact("pool web", 2));
  auto read = a->read("pool web", 0, store::TornTail::kFail);
  ASSERT_TRUE(read);
  ASSERT_EQ(read->entries.size(), 2u);
  EXPECT_EQ(read->entries[0].version, 3u);
  EXPECT_EQ(a->mark("pool web").version, 4u);
  EXPECT_TRUE(a->append(entry("pool web", 5, "v5")));
}

TEST_F(EtcdJournalTest, AnEntryChangedOutsideCutoverFailsItsChecksum) {
  auto a = journal();
  ASSERT_TRUE(a->append(entry("pool web", 1, "one")));
  EtcdClient raw(config_.etcd, std::chrono::milliseconds(2000));
  const std::string key = journal_entry_key(config_.prefix, "pool web", 1);
  auto stored = raw.range(key);
  ASSERT_TRUE(stored && stored->kvs.size() == 1);
  std::string value = stored->kvs[0].value;
  auto at = value.find("\"who\":\"test\"");
  ASSERT_NE(at, std::string::npos);
  value.replace(at, 12, "\"who\":\"evil\"");
  ASSERT_TRUE(raw.put(key, value));
  auto read = a->read("pool web", 0, store::TornTail::kDrop);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().message.find("checksum"), std::string::npos) << read.error().message;
  EXPECT_NE(read.error().message.find(key), std::string::npos) << read.error().message;
}

// The write pipeline over two journals of one etcd: the second writer's fence passes on
// its stale view, its append loses, and it is told the version now.
class CountingWrite : public store::PendingWrite {
 public:
  store::Step prepare() override { return std::nullopt; }
  bool changes_anything() const override { return true; }
  std::optional<std::string> floor_violation() const override { return std::nullopt; }
  store::Step finish() override { return std::nullopt; }
  void preview() override {}
  std::vector<std::uint8_t> entry_body() const override { return {'x'}; }
  void publish(const store::StoredEntry&, const store::StreamMark&) override { ++published; }
  int published = 0;
};

TEST_F(EtcdJournalTest, ThePipelineReportsALostAppendAsAVersionConflict) {
  base::Logger logger(nullptr, base::LogLevel::kError);
  std::shared_ptr<EtcdJournal> a = journal();
  std::shared_ptr<EtcdJournal> b = journal();
  store::WritePipeline first(a, logger, store::wall_clock());
  store::WritePipeline second(b, logger, store::wall_clock());
  store::WriteSubject subject{"pool web", "pool web", {}};
  store::WriteOptions options;
  options.expected_version = 0;
  CountingWrite one;
  auto won = first.run(subject, options, one);
  EXPECT_EQ(won.status, store::WriteStatus::kApplied) << won.message;
  CountingWrite two;
  auto lost = second.run(subject, options, two);  // the same stale view: version 0
  EXPECT_EQ(lost.status, store::WriteStatus::kConflict) << lost.message;
  EXPECT_EQ(lost.mark.version, 1u);
  EXPECT_NE(lost.message.find("current version is 1"), std::string::npos) << lost.message;
  EXPECT_EQ(two.published, 0);
}

TEST_F(EtcdJournalTest, AnUnreachableEtcdIsAnIoErrorAndTheLastMarkIsKept) {
  auto a = journal();
  ASSERT_TRUE(a->append(entry("pool web", 1, "one")));
  EXPECT_EQ(a->mark("pool web").version, 1u);
  etcd_->stop(0);
  auto refused = a->append(entry("pool web", 2, "two"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, base::ErrorCode::kIo) << refused.error().message;
  EXPECT_NE(refused.error().message.find("etcd"), std::string::npos) << refused.error().message;
  EXPECT_EQ(a->mark("pool web").version, 1u);
}

}  // namespace
}  // namespace cutover::cluster
