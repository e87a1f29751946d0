// The one list of experiments, in report order.
#include "lab/experiments/experiment.h"

// Each entry NAME is the file NAME.cpp in this folder, which defines `ExperimentInfo
// NAME_experiment()` (its id, title, fixtures and cases): adding an experiment is that file
// plus one line here.
#define CUTOVER_LAB_EXPERIMENTS(X) \
  X(e1_ttl) \
  X(e2_negative) \
  X(e3_stale) \
  X(e4_flip) \
  X(e5_lowering) \
  X(e6_following) \
  X(e7_dead_first) \
  X(e8_delegation) \
  X(e9_failure_cache) \
  X(e10_failover) \
  X(e11_reuse) \
  X(e12_rotation) \
  X(e13_split) \
  X(e14_ds) \
  X(e15_search)

namespace cutover::lab {

#define CUTOVER_DECLARE_EXPERIMENT(name) ExperimentInfo name##_experiment();
CUTOVER_LAB_EXPERIMENTS(CUTOVER_DECLARE_EXPERIMENT)
#undef CUTOVER_DECLARE_EXPERIMENT

const std::vector<ExperimentInfo>& experiments() {
#define CUTOVER_EXPERIMENT_ENTRY(name) name##_experiment(),
  static const std::vector<ExperimentInfo> kExperiments = {CUTOVER_LAB_EXPERIMENTS(CUTOVER_EXPERIMENT_ENTRY)};
#undef CUTOVER_EXPERIMENT_ENTRY
  return kExperiments;
}

}  // namespace cutover::lab
