// answer_batch must answer every query of a batch exactly as answer_query answers it alone,
// whatever the batch size (chunks of 32), the mix of fast and general shapes, odd packets and
// pool names in between.
#include "auth/answer_batch.h"

#include <gtest/gtest.h>

#include "auth/test_support.h"
#include "pool/answer_builder.h"
#include "pool/test_support.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using pool::testing::endpoint;
using testing::make_query;
using testing::make_zone;
using pool::testing::pool_spec;
using Bytes = std::vector<std::uint8_t>;

std::shared_ptr<const zone::Zone> hosts_zone() {
  std::vector<std::string> lines = {
      "batch.test. 3600 SOA ns1.batch.test. hostmaster.batch.test. 1 7200 900 1209600 300",
      "batch.test. 3600 NS ns1.batch.test.",
      "ns1.batch.test. 3600 A 192.0.2.53",
      "mail.batch.test. 300 MX 10 h1.batch.test.",
      "alias.batch.test. 300 CNAME h2.batch.test.",
  };
  for (int i = 0; i < 300; ++i) lines.push_back("h" + std::to_string(i) + ".batch.test. 300 A 10.0.1." + std::to_string(i % 250));
  return make_zone("batch.test.", lines);
}

std::shared_ptr<const pool::PoolAnswers> failover_pool(pool::PolicyRegistry& policies) {
  pool::register_builtin_policies(policies);
  auto spec = pool_spec("web", "failover", {endpoint("192.0.2.80", 1), endpoint("192.0.2.81", 2)}, "batch.test.");
  health::HealthSnapshot health;
  for (const auto& member : spec.endpoints) {
    health.endpoints.push_back({spec.name, member.address, health::HealthState::kUp, true, std::nullopt, false});
  }
  std::vector<pool::AllDownEvent> events;
  return pool::AnswerBuilder(policies, {spec}).build(health, events);
}

// A mix like the benchmark's with every other shape in between: hits in any case, NXDOMAIN,
// NODATA, MX and CNAME (general path), EDNS, a pool name, and packets that are not plain queries.
std::vector<Bytes> mixed_queries() {
  std::vector<Bytes> queries;
  for (int i = 0; i < 100; ++i) {
    std::string host = "h" + std::to_string(i * 7 % 320) + (i % 3 == 0 ? ".BATCH.test." : ".batch.test.");
    queries.push_back(make_query(host, i % 5 == 0 ? RRType::AAAA : RRType::A, i % 2 == 0));
    if (i % 10 == 0) queries.push_back(make_query("mail.batch.test.", RRType::MX));
    if (i % 10 == 3) queries.push_back(make_query("alias.batch.test.", RRType::A, true));
    if (i % 10 == 5) queries.push_back(make_query("web.batch.test.", RRType::A));
    if (i % 10 == 7) queries.push_back(make_query("elsewhere.example.", RRType::A));
    if (i % 10 == 8) {
      Bytes response = make_query("h1.batch.test.", RRType::A);
      response[2] |= 0x80;  // a response: dropped
      queries.push_back(response);
      queries.push_back(Bytes(queries.back().begin(), queries.back().begin() + 7));  // truncated header
    }
  }
  return queries;
}

class AnswerBatchTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  ZoneSet zones_{{hosts_zone()}};
  pool::PolicyRegistry policies_;
  std::shared_ptr<const pool::PoolAnswers> pools_ = failover_pool(policies_);
};

TEST_P(AnswerBatchTest, AnswersEveryQueryAsAnswerQueryDoes) {
  std::size_t batch_size = GetParam();
  std::vector<Bytes> queries = mixed_queries();
  std::vector<Bytes> responses(queries.size());
  int fast = 0;
  int dropped = 0;
  for (std::size_t start = 0; start < queries.size(); start += batch_size) {
    std::vector<BatchQuery> batch;
    for (std::size_t i = start; i < std::min(queries.size(), start + batch_size); ++i) batch.push_back({queries[i], &responses[i], {}});
    std::vector<QueryOutcome> outcomes(batch.size());
    answer_batch(zones_, pools_->dynamic().get(), batch, outcomes);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      std::size_t i = start + k;
      Bytes alone;
      QueryOutcome expected = answer_query(zones_, pools_->dynamic().get(), queries[i], Transport::kUdp, alone, false);
      const QueryOutcome& got = outcomes[k];
      EXPECT_EQ(got.respond, expected.respond) << "query " << i;
      EXPECT_EQ(got.rcode, expected.rcode) << "query " << i;
      EXPECT_EQ(got.qtype, expected.qtype) << "query " << i;
      EXPECT_EQ(got.fast_path, expected.fast_path) << "query " << i;
      EXPECT_EQ(got.dynamic, expected.dynamic) << "query " << i;
      if (expected.respond) {
        EXPECT_EQ(responses[i], alone) << "query " << i;
      }
      fast += got.fast_path ? 1 : 0;
      dropped += got.respond ? 0 : 1;
    }
  }
  EXPECT_GT(fast, 100);    // most plain queries took the fast path inside the batch
  EXPECT_EQ(dropped, 20);  // the response packets and the truncated headers
}

INSTANTIATE_TEST_SUITE_P(BatchSizes, AnswerBatchTest, ::testing::Values(1, 7, 32, 45, 200));

}  // namespace
}  // namespace cutover::auth
