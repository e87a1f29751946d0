// Pool names on the answer fast path: answer_query must answer them without the general
// pipeline (outcome.fast_path) and with the bytes answer_query_general writes, for failover,
// all-healthy (cyclic order) and weighted (per-query draw) pools.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "auth/test_support.h"
#include "pool/answer_builder.h"
#include "pool/test_support.h"
#include "zone/name_index.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using pool::testing::endpoint;
using testing::make_query;
using testing::make_zone;
using pool::testing::pool_spec;
using Bytes = std::vector<std::uint8_t>;

// The A and AAAA records after the question, one fixed-size record each, sorted: a weighted
// draw of every candidate in any order then compares equal to any other such draw.
Bytes sorted_records(Bytes response, std::size_t question_end, std::size_t record_size, std::size_t count) {
  std::vector<Bytes> records;
  for (std::size_t i = 0; i < count; ++i) {
    auto at = response.begin() + static_cast<std::ptrdiff_t>(question_end + i * record_size);
    records.emplace_back(at, at + static_cast<std::ptrdiff_t>(record_size));
  }
  std::sort(records.begin(), records.end());
  for (std::size_t i = 0; i < count; ++i) {
    std::copy(records[i].begin(), records[i].end(), response.begin() + static_cast<std::ptrdiff_t>(question_end + i * record_size));
  }
  return response;
}

class FastPoolAnswerTest : public ::testing::Test {
 protected:
  FastPoolAnswerTest() {
    pool::register_builtin_policies(policies_);
    auto failover = pool_spec("fo", "failover", {endpoint("192.0.2.30", 1), endpoint("198.51.100.30", 2),
                                                 endpoint("2001:db8::30", 1)});
    auto all = pool_spec("all", "all-healthy", {endpoint("192.0.2.41"), endpoint("192.0.2.42"), endpoint("192.0.2.43"),
                                               endpoint("2001:db8::41"), endpoint("2001:db8::42")});
    auto every = pool_spec("every", "weighted", {endpoint("192.0.2.51", 1, 5), endpoint("192.0.2.52", 1, 1),
                                                 endpoint("192.0.2.53", 1, 2)});
    every.max_answers = 3;
    auto one = pool_spec("one", "weighted", {endpoint("192.0.2.61"), endpoint("192.0.2.62"), endpoint("192.0.2.63")});
    one.max_answers = 1;
    auto skew = pool_spec("skew", "weighted", {endpoint("192.0.2.101", 1, 3), endpoint("192.0.2.102", 1, 1)});
    skew.max_answers = 1;
    auto single = pool_spec("single", "weighted", {endpoint("192.0.2.111", 1, 4)});
    single.max_answers = 1;
    auto down = pool_spec("down", "failover", {endpoint("192.0.2.71")});
    down.when_all_down = pool::AllDownPolicy::kNoData;
    auto suspected = pool_spec("suspected", "failover", {endpoint("192.0.2.81")});
    suspected.suspicion_ttl = true;
    auto delegated = pool_spec("p.sub", "failover", {endpoint("192.0.2.91")});
    std::vector<pool::PoolSpec> specs = {failover, all, every, one, skew, single, down, suspected, delegated};

    health::HealthSnapshot health;
    for (const auto& spec : specs) {
      for (const auto& member : spec.endpoints) {
        bool up = spec.name != "down";
        health::EndpointView view{spec.name, member.address, up ? health::HealthState::kUp : health::HealthState::kDown,
                                  up, std::nullopt};
        // A deadline already passed caps the TTL at 0 whenever the query runs.
        if (spec.name == "suspected") view.suspicion_deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        health.endpoints.push_back(view);
      }
    }
    pool::AnswerBuilder builder(policies_, specs);
    std::vector<pool::AllDownEvent> events;
    pools_ = builder.build(health, events);
  }

  struct Answered {
    Bytes bytes;
    QueryOutcome outcome;
  };
  Answered fast(const Bytes& query) {
    Answered out;
    out.outcome = answer_query(zones_, pools_->dynamic().get(), query, Transport::kUdp, out.bytes);
    return out;
  }
  Answered general(const Bytes& query) {
    Answered out;
    out.outcome = answer_query_general(zones_, query, Transport::kUdp, out.bytes, pools_->dynamic().get());
    return out;
  }

  // Every query shape the tests ask for a name: A, AAAA, a type pools do not answer, in
  // the configured and in a changed letter case, with and without EDNS.
  static std::vector<Bytes> shapes(const std::string& name,
                                   const std::vector<RRType>& types = {RRType::A, RRType::AAAA, RRType::TXT}) {
    std::string shouted = name;
    std::transform(shouted.begin(), shouted.end(), shouted.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
    std::vector<Bytes> queries;
    for (const auto& spelled : {name, shouted}) {
      for (RRType type : types) {
        queries.push_back(make_query(spelled, type));
        queries.push_back(make_query(spelled, type, true));
      }
    }
    return queries;
  }

  // The position of `name`'s entry in the pools' snapshot (DynamicAnswers::find_lower).
  std::size_t position_of(const std::string& name) const {
    std::vector<std::uint8_t> lower = dns::Name::from_text(name)->lowercased().wire();
    return pools_->dynamic()->find_lower(lower, zone::hash_lower_wire(lower));
  }

  void expect_fast_and_same(const Bytes& query, const std::string& label) {
    Answered one = fast(query);
    Answered other = general(query);
    EXPECT_TRUE(one.outcome.fast_path) << label;
    EXPECT_EQ(one.bytes, other.bytes) << label;
    EXPECT_EQ(one.outcome.rcode, other.outcome.rcode) << label;
    EXPECT_EQ(one.outcome.qname, other.outcome.qname) << label;
    ASSERT_NE(one.outcome.dynamic, nullptr) << label;
    EXPECT_EQ(one.outcome.dynamic, other.outcome.dynamic) << label;
  }

  pool::PolicyRegistry policies_;
  ZoneSet zones_{{make_zone("example.test.", {"example.test. 3600 SOA ns.example.test. h.example.test. 1 2 3 4 300",
                                              "example.test. 3600 NS ns.example.test.",
                                              "ns.example.test. 3600 A 192.0.2.53",
                                              "fo.example.test. 300 TXT zone data a pool name hides",
                                              "sub.example.test. 3600 NS ns.sub.example.test.",
                                              "ns.sub.example.test. 3600 A 192.0.2.54"})}};
  std::shared_ptr<const pool::PoolAnswers> pools_;
};

TEST_F(FastPoolAnswerTest, FailoverAnswersAndNodataMatchTheGeneralPath) {
  for (const std::string name : {"fo.example.test.", "down.example.test."}) {
    for (const auto& query : shapes(name)) expect_fast_and_same(query, name);
  }
  Answered answered = fast(make_query("FO.example.TEST.", RRType::A));
  auto parsed = dns::parse_message(answered.bytes);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(testing::texts(parsed->answers), std::vector<std::string>{"FO.example.TEST. 20 A 192.0.2.30"});
  EXPECT_EQ(answered.outcome.dynamic->source, "fo");
}

TEST_F(FastPoolAnswerTest, SuspicionCapPatchesTheTtl) {
  for (const auto& query : shapes("suspected.example.test.")) expect_fast_and_same(query, "suspected");
  auto parsed = dns::parse_message(fast(make_query("suspected.example.test.", RRType::A)).bytes);
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->answers.size(), 1u);
  EXPECT_EQ(parsed->answers.front().ttl, 0u);
}

// All-healthy answers rotate per query through one counter shared by both paths, so n
// queries on each path must produce the same n distinct answers.
TEST_F(FastPoolAnswerTest, AllHealthyRotationsMatchTheGeneralPath) {
  for (const auto& query : shapes("all.example.test.")) {
    std::set<Bytes> from_fast;
    std::set<Bytes> from_general;
    for (int i = 0; i < 3; ++i) {
      Answered answered = fast(query);
      EXPECT_TRUE(answered.outcome.fast_path);
      from_fast.insert(answered.bytes);
    }
    for (int i = 0; i < 3; ++i) from_general.insert(general(query).bytes);
    EXPECT_EQ(from_fast, from_general);
  }
  std::set<Bytes> rotations;
  for (int i = 0; i < 6; ++i) rotations.insert(fast(make_query("all.example.test.", RRType::A)).bytes);
  EXPECT_EQ(rotations.size(), 3u);  // three members, three orders
}

TEST_F(FastPoolAnswerTest, WeightedDrawOfEveryCandidateMatchesInAnyOrder) {
  for (bool edns : {false, true}) {
    Bytes query = make_query("Every.Example.Test.", RRType::A, edns);
    std::size_t question_end = query.size() - (edns ? 11 : 0);
    for (int i = 0; i < 20; ++i) {
      Answered one = fast(query);
      EXPECT_TRUE(one.outcome.fast_path);
      Bytes other = general(query).bytes;
      ASSERT_EQ(one.bytes.size(), other.size());
      EXPECT_EQ(sorted_records(one.bytes, question_end, 16, 3), sorted_records(other, question_end, 16, 3));
    }
  }
  for (const auto& query : shapes("every.example.test.", {RRType::AAAA, RRType::TXT})) {
    expect_fast_and_same(query, "every, NODATA");
  }
}

// One of three equal candidates per query: over many queries both paths give the same
// three possible answers (missing one by chance in 300 draws: below 1e-50).
TEST_F(FastPoolAnswerTest, WeightedDrawOfOneGivesTheGeneralPathsAnswers) {
  Bytes query = make_query("one.example.test.", RRType::A, true);
  std::set<Bytes> from_fast;
  std::set<Bytes> from_general;
  for (int i = 0; i < 300; ++i) {
    Answered answered = fast(query);
    EXPECT_TRUE(answered.outcome.fast_path);
    from_fast.insert(answered.bytes);
    from_general.insert(general(query).bytes);
  }
  EXPECT_EQ(from_fast.size(), 3u);
  EXPECT_EQ(from_fast, from_general);
}

// A draw of one by weight 3:1 on the fast path (its one-record draw is written out apart from
// weighted_draw_into): the heavier member's share of 4,000 answers is 0.75 with a standard
// deviation below 0.007, so outside 0.70-0.80 is over seven deviations away.
TEST_F(FastPoolAnswerTest, WeightedDrawOfOneFollowsTheWeights) {
  Bytes query = make_query("skew.example.test.", RRType::A, false);
  Bytes heavy = {192, 0, 2, 101};
  int heavier = 0;
  constexpr int kQueries = 4000;
  for (int i = 0; i < kQueries; ++i) {
    Answered answered = fast(query);
    ASSERT_TRUE(answered.outcome.fast_path);
    ASSERT_EQ(answered.bytes.size(), query.size() + 16);
    heavier += std::equal(heavy.begin(), heavy.end(), answered.bytes.end() - 4) ? 1 : 0;
  }
  double share = static_cast<double>(heavier) / kQueries;
  EXPECT_GT(share, 0.70);
  EXPECT_LT(share, 0.80);
}

// Equal weights (the "one" pool: three members, weight 1 each) take the draw's shortcut,
// the random value scaled to the count: each member's share of 3,000 answers is 1/3 with a
// standard deviation below 0.009, so outside 0.28-0.39 is over six deviations away.
TEST_F(FastPoolAnswerTest, WeightedDrawOfOneAmongEqualWeightsIsUniform) {
  std::size_t position = position_of("one.example.test.");
  ASSERT_NE(position, DynamicAnswers::kNone);
  EXPECT_TRUE(pools_->dynamic()->plain(position).a.uniform);
  EXPECT_FALSE(pools_->dynamic()->plain(position_of("skew.example.test.")).a.uniform);
  Bytes query = make_query("one.example.test.", RRType::A, false);
  std::map<std::uint8_t, int> answers;
  constexpr int kQueries = 3000;
  for (int i = 0; i < kQueries; ++i) {
    Answered answered = fast(query);
    ASSERT_TRUE(answered.outcome.fast_path);
    ASSERT_EQ(answered.bytes.size(), query.size() + 16);
    ++answers[answered.bytes.back()];
  }
  ASSERT_EQ(answers.size(), 3u);
  for (const auto& [last_octet, count] : answers) {
    double share = static_cast<double>(count) / kQueries;
    EXPECT_GT(share, 0.28) << "192.0.2." << int{last_octet};
    EXPECT_LT(share, 0.39) << "192.0.2." << int{last_octet};
  }
}

// A weighted draw among one candidate is encoded as the fixed answer it always is (no random
// step per query) and answers as the general path's draw does.
TEST_F(FastPoolAnswerTest, WeightedDrawAmongOneCandidateIsAFixedAnswer) {
  std::size_t position = position_of("single.example.test.");
  ASSERT_NE(position, DynamicAnswers::kNone);
  EXPECT_EQ(pools_->dynamic()->answers()[position].a.per_query, 1u);
  EXPECT_EQ(pools_->dynamic()->plain(position).a.per_query, 0u);
  for (const auto& query : shapes("single.example.test.")) expect_fast_and_same(query, "single");
  Answered answered = fast(make_query("single.example.test.", RRType::A));
  auto parsed = dns::parse_message(answered.bytes);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(testing::texts(parsed->answers), std::vector<std::string>{"single.example.test. 20 A 192.0.2.111"});
}

TEST_F(FastPoolAnswerTest, PoolBelowACutIsAReferralFromTheGeneralPath) {
  for (const auto& query : shapes("p.sub.example.test.")) {
    Answered one = fast(query);
    EXPECT_FALSE(one.outcome.fast_path);
    EXPECT_EQ(one.bytes, general(query).bytes);
    EXPECT_EQ(one.outcome.dynamic, nullptr);
  }
}

TEST_F(FastPoolAnswerTest, StaticNamesBesidePoolsStayOnTheFastPath) {
  Answered answered = fast(make_query("ns.example.test.", RRType::A));
  EXPECT_TRUE(answered.outcome.fast_path);
  EXPECT_EQ(answered.outcome.dynamic, nullptr);
  EXPECT_EQ(answered.bytes, general(make_query("ns.example.test.", RRType::A)).bytes);
}

}  // namespace
}  // namespace cutover::auth
