// A pool's detection window: the slowest of its endpoints' checks, by the formula of
// health/detection.h. Pure; thread-safe.
#pragma once

#include "health/detection.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

health::DetectionWindow detection_window(const PoolSpec& spec);
// The window a running server reports (/status, the pool.configured log): for a pool with
// `checkers:` the remote verdicts' publish-and-watch latency L is added to the upper bound,
// at its default (health::kDefaultPublishLatency; docs/cluster.md, "Detection with a
// quorum"), as `cutover explain` does without --publish-latency.
health::DetectionWindow served_detection_window(const PoolSpec& spec);
bool has_remote_checkers(const PoolSpec& spec);

}  // namespace cutover::pool
