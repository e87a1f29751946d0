// The `cluster:` section: what a user writes, the defaults, and each bad value with its
// file:line:column.
#include "cluster/cluster_config.h"

#include <gtest/gtest.h>

#include "pool/config/pool_config.h"

namespace cutover::cluster {
namespace {

const bool kSectionsRegistered = (pool::register_config_section(), register_cluster_section(), true);

config::Config parse(const std::string& cluster) {
  return config::parse_config("zones:\n  - {origin: example.test., file: z.db}\ncluster:\n" + cluster, "c.yaml", "/d");
}

std::string error_of(const std::string& cluster) {
  try {
    parse(cluster);
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ClusterConfig, ReadsTheSection) {
  auto config = parse(
      "  etcd: [http://127.0.0.1:2379, 'http://127.0.0.2:2379,http://127.0.0.3:2379']\n"
      "  vantage: dns1\n"
      "  local-checker: false\n"
      "  prefix: /prod/cutover/\n"
      "  suspect-after: 90s\n");
  auto cluster = config_cluster(config);
  ASSERT_TRUE(cluster);
  ASSERT_EQ(cluster->etcd.size(), 3u);
  EXPECT_EQ(cluster->etcd[2].url(), "http://127.0.0.3:2379");
  EXPECT_EQ(cluster->vantage, "dns1");
  EXPECT_FALSE(cluster->local_checker);
  EXPECT_EQ(cluster->prefix, "/prod/cutover/");
  EXPECT_EQ(cluster->suspect_after, std::chrono::seconds(90));

  auto defaults = config_cluster(parse("  etcd: http://127.0.0.1:2379\n  vantage: dns1\n"));
  ASSERT_TRUE(defaults);
  EXPECT_TRUE(defaults->local_checker);
  EXPECT_EQ(defaults->prefix, "/cutover/");
  EXPECT_EQ(defaults->suspect_after, std::chrono::seconds(60));
  EXPECT_FALSE(config_cluster(config::parse_config("zones: []\n", "c.yaml", "/d")));
}

TEST(ClusterConfig, SameClusterComparesEveryKey) {
  const std::string base = "  etcd: [http://127.0.0.1:2379, http://127.0.0.2:2379]\n  vantage: dns1\n";
  auto first = config_cluster(parse(base));
  EXPECT_TRUE(same_cluster(first, config_cluster(parse(base))));
  EXPECT_TRUE(same_cluster(std::nullopt, std::nullopt));
  EXPECT_FALSE(same_cluster(first, std::nullopt));
  EXPECT_FALSE(same_cluster(first, config_cluster(parse("  etcd: [http://127.0.0.2:2379, http://127.0.0.1:2379]\n"
                                                          "  vantage: dns1\n"))));
  EXPECT_FALSE(same_cluster(first, config_cluster(parse(base + "  local-checker: false\n"))));
  EXPECT_FALSE(same_cluster(first, config_cluster(parse(base + "  prefix: /other/\n"))));
  EXPECT_FALSE(same_cluster(first, config_cluster(parse(base + "  suspect-after: 5s\n"))));
  EXPECT_FALSE(same_cluster(first, config_cluster(parse("  etcd: [http://127.0.0.1:2379, http://127.0.0.2:2379]\n"
                                                          "  vantage: dns2\n"))));
}

TEST(ClusterConfig, RefusesBadValuesWithTheirPlace) {
  struct Case {
    std::string cluster;
    std::string error;
  };
  const std::vector<Case> cases{
      {"  vantage: dns1\n", "c.yaml:4:3: cluster: missing required key 'etcd'"},
      {"  etcd: [http://127.0.0.1:2379]\n", "cluster: missing required key 'vantage'"},
      {"  etcd: [http://127.0.0.1:2379, http://127.0.0.2]\n  vantage: a\n",
       "c.yaml:4:33: cluster.etcd[1]: etcd URL http://127.0.0.2: expected HOST:PORT"},
      {"  etcd: https://127.0.0.1:2379\n  vantage: a\n", "cluster.etcd: etcd URL https://127.0.0.1:2379: only http://"},
      {"  etcd: []\n  vantage: a\n", "cluster.etcd: expected at least one etcd URL"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a/b\n", "c.yaml:5:12: cluster.vantage: expected 1 to 64 of"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a\n  local-checker: maybe\n", "cluster.local-checker: expected true or false"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a\n  prefix: cutover\n", "cluster.prefix: expected a key prefix"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a\n  members: 3\n", "cluster.members: unknown key"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a\n  suspect-after: soon\n",
       "c.yaml:6:18: cluster.suspect-after: expected a positive duration like 10s, 500ms or 14d"},
      {"  etcd: http://127.0.0.1:2379\n  vantage: a\n  suspect-after: 0s\n", "cluster.suspect-after: expected a positive duration"},
  };
  for (const auto& test : cases) {
    std::string error = error_of(test.cluster);
    EXPECT_NE(error.find(test.error), std::string::npos) << "expected: " << test.error << "\ngot: " << error;
  }
}

}  // namespace
}  // namespace cutover::cluster
