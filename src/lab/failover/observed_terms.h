// E10's detection time D, derived from the direct polls of cutover that a case keeps in
// details.direct_observations, by the same rule as the case's measured value (first poll
// answering result.rule_value). Used when measuring and by `cutover lab check`. Pure.
#pragma once

#include <optional>

#include "lab/case_result.h"

namespace cutover::lab {

std::optional<double> derive_detection(const CaseResult& result);

// K = measured − D, to the millisecond; nullopt when either is missing.
std::optional<double> derive_cache_term(const CaseResult& result);

}  // namespace cutover::lab
