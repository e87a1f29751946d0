// The `cluster:` section of cutover.yaml (docs/cluster.md): etcd's client URLs, this
// server's vantage name, whether it probes itself, the key prefix and suspect-after. Registered with
// config by cmd's main like `pools:`. Plain values; register_cluster_section is thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cluster/etcd_client.h"
#include "cluster/verdict.h"
#include "config/config.h"
#include "health/vantage_suspicion.h"

namespace cutover::cluster {

struct ClusterConfig {
  std::vector<EtcdMember> etcd;
  std::string vantage;
  bool local_checker = true;
  std::string prefix = kDefaultPrefix;
  // A vantage that disagrees with the majority longer than this is reported suspect
  // (health/vantage_suspicion.h).
  std::chrono::milliseconds suspect_after = health::kDefaultSuspectAfter;
};

// Whether two sections say the same (every key; the etcd URLs in order).
bool same_cluster(const std::optional<ClusterConfig>& a, const std::optional<ClusterConfig>& b);

void register_cluster_section();
// The section when the config has one.
std::optional<ClusterConfig> config_cluster(const config::Config& config);

}  // namespace cutover::cluster
