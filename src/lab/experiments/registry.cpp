// The explicit list of experiments, in report order.
#include "lab/experiments/experiment.h"

namespace cutover::lab {

std::vector<CaseSpec> e1_cases(const LabEnv& env);
std::vector<CaseSpec> e2_cases(const LabEnv& env);
std::vector<CaseSpec> e3_cases(const LabEnv& env);
std::vector<CaseSpec> e4_cases(const LabEnv& env);
std::vector<CaseSpec> e5_cases(const LabEnv& env);
std::vector<CaseSpec> e8_cases(const LabEnv& env);
std::vector<CaseSpec> e9_cases(const LabEnv& env);
std::vector<CaseSpec> e10_cases(const LabEnv& env);

const std::vector<ExperimentInfo>& experiments() {
  static const std::vector<ExperimentInfo> kExperiments = {
      {"E1", "TTL honoured or clamped", e1_cases},
      {"E2", "Negative caching", e2_cases},
      {"E3", "Serve-stale during an authoritative outage", e3_cases},
      {"E4", "Cutover after a record flip (cache term K)", e4_cases},
      {"E5", "TTL lowered late vs one old TTL ahead", e5_cases},
      {"E8", "Parent vs child NS TTL (three-tier lab)", e8_cases},
      {"E9", "Failure cache (RFC 9520)", e9_cases},
      {"E10", "Health-checked failover end to end (D + K)", e10_cases},
  };
  return kExperiments;
}

}  // namespace cutover::lab
