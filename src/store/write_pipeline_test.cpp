// WritePipeline: the order of the steps, what each refusal stops, the entry it journals,
// and the history checks of undo, driven with a minimal kind over a real SQLite journal.
#include "store/write_pipeline.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "store/sqlite_journal.h"

namespace cutover::store {
namespace {

// A kind whose whole state is one text: the steps it was asked to run, in order, and
// switches to make each step refuse.
class TextWrite : public PendingWrite {
 public:
  TextWrite(std::string& served, std::string target) : served_(served), target_(std::move(target)) {}

  Step prepare() override {
    steps.push_back("prepare");
    if (refuse_prepare) return Refusal{WriteStatus::kPrecondition, "precondition refused"};
    return std::nullopt;
  }
  bool changes_anything() const override {
    steps.push_back("changes");
    return target_ != served_;
  }
  std::optional<std::string> floor_violation() const override {
    steps.push_back("floor");
    if (target_.empty()) return "text would be empty";
    return std::nullopt;
  }
  Step finish() override {
    steps.push_back("finish");
    if (refuse_finish) return Refusal{WriteStatus::kInvalid, "does not build"};
    return std::nullopt;
  }
  void preview() override { steps.push_back("preview"); }
  std::vector<std::uint8_t> entry_body() const override { return {target_.begin(), target_.end()}; }
  void publish(const StoredEntry& entry, const StreamMark&) override {
    steps.push_back("publish");
    published_version = entry.version;
    served_ = target_;
  }

  bool refuse_prepare = false;
  bool refuse_finish = false;
  mutable std::vector<std::string> steps;
  std::uint64_t published_version = 0;

 private:
  std::string& served_;
  std::string target_;
};

class WritePipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto storage = SqliteJournal::open(":memory:");
    ASSERT_TRUE(storage) << storage.error().message;
    storage_ = *storage;
    pipeline_ = std::make_unique<WritePipeline>(storage_, logger_, clock_);
  }

  WriteSubject subject() const { return WriteSubject{"text t", "text t", storage_->mark("text t")}; }

  WriteOutcome write(const std::string& target, const WriteOptions& options = {}) {
    TextWrite pending(served_, target);
    WriteOutcome outcome = pipeline_->run(subject(), options, pending);
    last_steps_ = pending.steps;
    return outcome;
  }

  std::vector<StoredEntry> entries() {
    auto read = storage_->read("text t", 0, TornTail::kFail);
    EXPECT_TRUE(read) << read.error().message;
    return read ? read->entries : std::vector<StoredEntry>{};
  }

  std::FILE* null_ = std::fopen("/dev/null", "w");
  base::Logger logger_{null_};
  base::FakeClock clock_;
  std::shared_ptr<SqliteJournal> storage_;
  std::unique_ptr<WritePipeline> pipeline_;
  std::string served_ = "one";
  std::vector<std::string> last_steps_;
};

using Steps = std::vector<std::string>;

TEST_F(WritePipelineTest, AnAppliedWriteRunsEveryStepAndJournalsItsEntryBeforePublishing) {
  WriteOptions options;
  options.plan_version = 3;
  options.who = "tester";
  options.what = "first";
  WriteOutcome outcome = write("two", options);
  ASSERT_EQ(outcome.status, WriteStatus::kApplied) << outcome.message;
  EXPECT_EQ(last_steps_, (Steps{"prepare", "changes", "floor", "finish", "publish"}));
  EXPECT_EQ(outcome.mark.version, 1u);
  EXPECT_EQ(outcome.mark.plan_version, 3u);
  EXPECT_EQ(served_, "two");
  auto stored = entries();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].version, 1u);
  EXPECT_EQ(stored[0].plan_version, 3u);
  EXPECT_EQ(stored[0].who, "tester");
  EXPECT_EQ(stored[0].what, "first");
  EXPECT_EQ(stored[0].at_ms, std::chrono::duration_cast<std::chrono::milliseconds>(
                                 clock_.wall_now().time_since_epoch()).count());
  EXPECT_EQ(std::string(stored[0].body.begin(), stored[0].body.end()), "two");

  // A write without a plan version records none, and keeps the last applied one.
  outcome = write("three");
  ASSERT_EQ(outcome.status, WriteStatus::kApplied) << outcome.message;
  EXPECT_EQ(outcome.mark.plan_version, 3u);
  EXPECT_EQ(entries().back().plan_version, 0u);
  EXPECT_EQ(storage_->mark("text t").plan_version, 3u);
}

TEST_F(WritePipelineTest, TheFenceRefusesBeforeTheChangeIsComputed) {
  WriteOptions options;
  options.expected_version = 4;
  WriteOutcome outcome = write("two", options);
  EXPECT_EQ(outcome.status, WriteStatus::kConflict);
  EXPECT_EQ(outcome.message, "text t: version conflict: expected 4, current version is 0");
  EXPECT_TRUE(last_steps_.empty());

  options = {};
  options.plan_version = 5;
  ASSERT_EQ(write("two", options).status, WriteStatus::kApplied);
  outcome = write("three", options);
  EXPECT_EQ(outcome.status, WriteStatus::kStale);
  EXPECT_EQ(outcome.message,
            "text t: stale plan: plan_version 5 is not above the last applied plan version 5 (current version 1)");
  EXPECT_TRUE(last_steps_.empty());
  EXPECT_EQ(served_, "two");
}

TEST_F(WritePipelineTest, ARefusedChangeAndANoChangeStopBeforeTheFloor) {
  TextWrite refusing(served_, "two");
  refusing.refuse_prepare = true;
  WriteOutcome outcome = pipeline_->run(subject(), {}, refusing);
  EXPECT_EQ(outcome.status, WriteStatus::kPrecondition);
  EXPECT_EQ(refusing.steps, (Steps{"prepare"}));

  outcome = write("one");
  EXPECT_EQ(outcome.status, WriteStatus::kNoChange);
  EXPECT_EQ(last_steps_, (Steps{"prepare", "changes"}));
  EXPECT_TRUE(entries().empty());
}

TEST_F(WritePipelineTest, TheFloorRefusesUnlessTheWriteAllowsEmpty) {
  WriteOutcome outcome = write("");
  EXPECT_EQ(outcome.status, WriteStatus::kFloor);
  EXPECT_EQ(outcome.message, "text would be empty");
  EXPECT_EQ(last_steps_, (Steps{"prepare", "changes", "floor"}));
  WriteOptions options;
  options.allow_empty = true;
  outcome = write("", options);
  EXPECT_EQ(outcome.status, WriteStatus::kApplied) << outcome.message;
  EXPECT_EQ(last_steps_, (Steps{"prepare", "changes", "finish", "publish"}));  // the floor is not asked
  EXPECT_EQ(served_, "");
}

TEST_F(WritePipelineTest, ADryRunAndAFailedFinishJournalAndPublishNothing) {
  WriteOptions options;
  options.dry_run = true;
  WriteOutcome outcome = write("two", options);
  EXPECT_EQ(outcome.status, WriteStatus::kDryRun);
  EXPECT_EQ(outcome.message, "dry run: nothing applied");
  EXPECT_EQ(last_steps_, (Steps{"prepare", "changes", "floor", "finish", "preview"}));
  EXPECT_EQ(outcome.mark.version, 0u);

  TextWrite failing(served_, "two");
  failing.refuse_finish = true;
  outcome = pipeline_->run(subject(), {}, failing);
  EXPECT_EQ(outcome.status, WriteStatus::kInvalid);
  EXPECT_EQ(failing.steps, (Steps{"prepare", "changes", "floor", "finish"}));
  EXPECT_TRUE(entries().empty());
  EXPECT_EQ(served_, "one");
}

TEST_F(WritePipelineTest, AnEntryTheJournalRefusesIsNeverPublished) {
  // Another writer moved the stream's mark: the append's compare-and-set fails.
  StoredEntry other;
  other.stream = "text t";
  other.version = 1;
  ASSERT_TRUE(storage_->append(other));
  TextWrite pending(served_, "two");
  WriteOutcome outcome = pipeline_->run(WriteSubject{"text t", "text t", {}}, {}, pending);
  // A version conflict, as the fence's, with the version now (a journal shared by several
  // writers, docs/cluster.md "Shared pool state").
  EXPECT_EQ(outcome.status, WriteStatus::kConflict);
  EXPECT_EQ(outcome.mark.version, 1u);
  EXPECT_NE(outcome.message.find("current version is 1"), std::string::npos) << outcome.message;
  EXPECT_EQ(pending.steps, (Steps{"prepare", "changes", "floor", "finish"}));
  EXPECT_EQ(served_, "one");
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(WritePipelineTest, UndoReadsTheEntriesItNeedsAndRefusesTheFutureAndCompactedHistory) {
  for (const char* text : {"a", "b", "c", "d"}) ASSERT_EQ(write(text).status, WriteStatus::kApplied);
  // Deltas: the entries after the version; whole states: from the version itself.
  HistoryRead deltas = pipeline_->undo_entries(subject(), 2, 3);
  ASSERT_FALSE(deltas.refusal) << deltas.refusal->message;
  ASSERT_EQ(deltas.entries.size(), 2u);
  EXPECT_EQ(deltas.entries.front().version, 3u);
  HistoryRead states = pipeline_->undo_entries(subject(), 2, 2);
  ASSERT_FALSE(states.refusal) << states.refusal->message;
  EXPECT_EQ(states.entries.front().version, 2u);
  HistoryRead now = pipeline_->undo_entries(subject(), 4, 5);
  ASSERT_FALSE(now.refusal) << now.refusal->message;
  EXPECT_TRUE(now.entries.empty());

  HistoryRead future = pipeline_->undo_entries(subject(), 5, 6);
  ASSERT_TRUE(future.refusal);
  EXPECT_EQ(future.refusal->status, WriteStatus::kNotFound);
  EXPECT_EQ(future.refusal->message, "text t: version 5 is in the future (current version 4)");

  ASSERT_TRUE(storage_->compact("text t", 2));
  HistoryRead compacted = pipeline_->undo_entries(subject(), 1, 2);
  ASSERT_TRUE(compacted.refusal);
  EXPECT_EQ(compacted.refusal->status, WriteStatus::kNotFound);
  EXPECT_EQ(compacted.refusal->message, "text t: the history before version 3 was compacted away");
  EXPECT_FALSE(pipeline_->undo_entries(subject(), 2, 3).refusal);
  EXPECT_TRUE(pipeline_->undo_entries(subject(), 2, 2).refusal);
}

}  // namespace
}  // namespace cutover::store
