// A pool's detection window: the slowest of its endpoints' checks, by the formula of
// health/detection.h. Pure; thread-safe.
#pragma once

#include "health/detection.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

health::DetectionWindow detection_window(const PoolSpec& spec);

}  // namespace cutover::pool
