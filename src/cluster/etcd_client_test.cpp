// EtcdClient against real etcd members on loopback (skipped when etcd is not installed):
// put and range through the gateway, leases that expire, the watch, failover to the next
// member, and the URL list's errors.
#include "cluster/etcd_client.h"

#include <algorithm>

#include <gtest/gtest.h>

#include <thread>

#include "cluster/etcd_test_support.h"

namespace cutover::cluster {
namespace {

constexpr int kBasePort = 27461;  // members at 27461-27466

TEST(EtcdUrls, ParsesListsAndRefusesOthers) {
  auto members = parse_etcd_urls("http://127.0.0.1:2379,http://[::1]:2479/");
  ASSERT_TRUE(members) << members.error().message;
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].url(), "http://127.0.0.1:2379");
  EXPECT_EQ((*members)[1].host, "::1");
  EXPECT_EQ((*members)[1].port, 2479);
  EXPECT_EQ(parse_etcd_urls("https://127.0.0.1:2379").error().code, base::ErrorCode::kUnsupported);
  EXPECT_FALSE(parse_etcd_urls("http://127.0.0.1"));
  EXPECT_FALSE(parse_etcd_urls("http://127.0.0.1:0"));
  EXPECT_FALSE(parse_etcd_urls("http://127.0.0.1:70000"));
  EXPECT_FALSE(parse_etcd_urls(""));
}

TEST(EtcdUrls, PrefixEnd) {
  EXPECT_EQ(prefix_end("/cutover/"), "/cutover0");
  EXPECT_EQ(prefix_end("a\xff"), "b");
}

class EtcdClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_etcd()) GTEST_SKIP() << "etcd is not installed (Debian package etcd-server)";
    etcd_ = std::make_unique<testing::EtcdCluster>(3, kBasePort);
    ASSERT_TRUE(etcd_->wait_healthy()) << "etcd members did not become healthy; logs in " << etcd_->dir();
  }
  std::unique_ptr<testing::EtcdCluster> etcd_;
};

TEST_F(EtcdClientTest, PutRangeLeaseWatchAndFailover) {
  // The first URL is a port nothing listens on: every call must go on to a member.
  auto members = parse_etcd_urls("http://127.0.0.1:27460," + etcd_->urls());
  ASSERT_TRUE(members);
  EtcdClient client(*members, std::chrono::milliseconds(2000));

  auto put = client.put("/t/a", "one");
  ASSERT_TRUE(put) << put.error().message;
  EXPECT_GT(*put, 0);
  EXPECT_NE(client.current_member(), "http://127.0.0.1:27460");
  ASSERT_TRUE(client.put("/t/b", std::string("two\0bytes", 9)));
  ASSERT_TRUE(client.put("/u/c", "outside"));
  auto range = client.range_prefix("/t/");
  ASSERT_TRUE(range) << range.error().message;
  ASSERT_EQ(range->kvs.size(), 2u);
  EXPECT_EQ(range->kvs[0].key, "/t/a");
  EXPECT_EQ(range->kvs[0].value, "one");
  EXPECT_EQ(range->kvs[1].value, std::string("two\0bytes", 9));
  EXPECT_GE(range->revision, *put);

  // A watch from the range's revision sees a new put and the delete of an expired lease.
  auto lease = client.grant(std::chrono::seconds(2));
  ASSERT_TRUE(lease) << lease.error().message;
  ASSERT_TRUE(client.keepalive(*lease));
  std::vector<WatchEvent> seen;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_TRUE(client.put("/t/leased", "v", *lease));
  });
  auto start = std::chrono::steady_clock::now();
  while (seen.size() < 2 && std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
    std::int64_t from = range->revision + 1;
    if (!seen.empty()) from = seen.back().kv.mod_revision + 1;
    auto last = client.watch_prefix(
        "/t/", from, [&](const std::vector<WatchEvent>& events, std::int64_t) {
          for (const auto& event : events) seen.push_back(event);
        },
        [&] { return seen.size() >= 2; }, std::chrono::milliseconds(1000));
    ASSERT_TRUE(last) << last.error().message;
  }
  writer.join();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_FALSE(seen[0].deleted);
  EXPECT_EQ(seen[0].kv.key, "/t/leased");
  EXPECT_EQ(seen[0].kv.lease, *lease);
  EXPECT_TRUE(seen[1].deleted);  // the lease ran out: etcd deleted its key
  EXPECT_EQ(seen[1].kv.key, "/t/leased");
  EXPECT_EQ(client.keepalive(*lease).error().code, base::ErrorCode::kNotFound);
  auto late = client.put("/t/late", "v", *lease);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, base::ErrorCode::kNotFound) << late.error().message;

  // Each member's own status: one leader, the same leader for all, the store's revision.
  auto statuses = member_statuses(*members, std::chrono::milliseconds(2000));
  ASSERT_EQ(statuses.size(), 4u);
  EXPECT_FALSE(statuses[0].reached);  // nothing listens there
  EXPECT_FALSE(statuses[0].error.empty());
  int leaders = 0;
  for (std::size_t i = 1; i < statuses.size(); ++i) {
    ASSERT_TRUE(statuses[i].reached) << statuses[i].url << ": " << statuses[i].error;
    EXPECT_FALSE(statuses[i].member_id.empty());
    EXPECT_EQ(statuses[i].leader_id, statuses[1].leader_id);
    EXPECT_GE(statuses[i].raft_index, 1);
    EXPECT_FALSE(statuses[i].version.empty());
    leaders += statuses[i].leader ? 1 : 0;
  }
  EXPECT_EQ(leaders, 1);
  auto leader = std::find_if(statuses.begin(), statuses.end(), [](const MemberStatus& one) { return one.leader; });
  ASSERT_NE(leader, statuses.end());
  EXPECT_GE(leader->revision, *put);
  auto json = member_statuses_json(statuses);
  ASSERT_EQ(json.size(), 4u);
  EXPECT_EQ(json[0]["reached"], false);
  EXPECT_TRUE(json[1]["member_id"].is_string());

  // One member down: calls go on to the others.
  etcd_->stop(0);
  auto after = client.put("/t/after", "x");
  ASSERT_TRUE(after) << after.error().message;

  // All down: a clear error, no hang beyond the timeouts.
  etcd_->stop(1);
  etcd_->stop(2);
  auto none = client.put("/t/none", "x");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, base::ErrorCode::kIo);
  EXPECT_NE(none.error().message.find("no etcd member answered"), std::string::npos);
}

}  // namespace
}  // namespace cutover::cluster
