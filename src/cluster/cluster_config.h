// The `cluster:` section of cutover.yaml (docs/cluster.md): etcd's client URLs, this
// server's vantage name, whether it probes itself, and the key prefix. Registered with
// config by cmd's main like `pools:`. Plain values; register_cluster_section is thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/etcd_client.h"
#include "cluster/verdict.h"
#include "config/config.h"

namespace cutover::cluster {

struct ClusterConfig {
  std::vector<EtcdMember> etcd;
  std::string vantage;
  bool local_checker = true;
  std::string prefix = kDefaultPrefix;
};

void register_cluster_section();
// The section when the config has one.
std::optional<ClusterConfig> config_cluster(const config::Config& config);

}  // namespace cutover::cluster
