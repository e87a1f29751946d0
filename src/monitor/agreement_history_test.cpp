// AgreementHistory: one point per round and name, bounded to kAgreementRounds, names that
// left the config forgotten, and the strip in the monitor's status document.
#include "monitor/agreement_history.h"

#include <gtest/gtest.h>

#include "monitor/metrics.h"

namespace cutover::monitor {
namespace {

WatchOutcome outcome(const std::string& name, bool mismatch) {
  WatchOutcome out;
  out.name = name;
  out.type = "A";
  out.mismatch = mismatch;
  return out;
}

TEST(AgreementHistory, KeepsTheLastRoundsPerWatchedName) {
  AgreementHistory history;
  for (std::uint64_t round = 1; round <= kAgreementRounds + 30; ++round) {
    history.record({outcome("www.example.test.", round % 10 == 0), outcome("api.example.test.", false)}, round,
                   1000.0 + static_cast<double>(round));
  }
  const auto& www = history.of("www.example.test. A");
  ASSERT_EQ(www.size(), kAgreementRounds);
  EXPECT_EQ(www.front().round, 31u);  // the oldest went first
  EXPECT_EQ(www.back().round, kAgreementRounds + 30);
  EXPECT_FALSE(www.back().agree);  // round 150: a mismatch
  EXPECT_TRUE(www[www.size() - 2].agree);
  EXPECT_DOUBLE_EQ(www.back().at_unix, 1150.0);
  EXPECT_EQ(history.of("api.example.test. A").size(), kAgreementRounds);
  EXPECT_TRUE(history.of("nope.example.test. A").empty());

  history.record({outcome("www.example.test.", false)}, kAgreementRounds + 31, 2000.0);
  EXPECT_TRUE(history.of("api.example.test. A").empty());  // no longer watched
}

TEST(AgreementHistory, TheStatusDocumentCarriesEachNamesStrip) {
  MonitorSnapshot snapshot;
  snapshot.outcomes = {outcome("www.example.test.", true)};
  snapshot.agreement.record({outcome("www.example.test.", false)}, 1, 10.0);
  snapshot.agreement.record(snapshot.outcomes, 2, 20.0);
  snapshot.rounds = 2;
  auto status = status_json(snapshot);
  const auto& strip = status["watches"][0]["history"];
  ASSERT_EQ(strip.size(), 2u);
  EXPECT_EQ(strip[0]["round"], 1);
  EXPECT_EQ(strip[0]["agree"], true);
  EXPECT_EQ(strip[1]["agree"], false);
  EXPECT_EQ(strip[1]["at_unix"], 20.0);
}

}  // namespace
}  // namespace cutover::monitor
