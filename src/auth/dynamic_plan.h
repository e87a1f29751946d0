// The dynamic-answer stage of answering: names held by a DynamicAnswers snapshot are answered
// from it instead of zone data. Thread-safe; never throws.
#pragma once

#include "auth/answer_plan.h"
#include "auth/dynamic_answers.h"

namespace cutover::auth {

enum class DynamicPlan {
  kAnswered,  // records added
  kNoData,    // nothing to answer (another type, or an empty answer): the caller plans NODATA
  kAlias,     // a CNAME added; the caller follows it to the target (RFC 1034 §4.3.2 step 3a)
};

// Adds the entry's A/AAAA records for `qtype` (both for ANY) to the answer section and
// marks the plan as a dynamic answer. An alias entry adds its CNAME instead, for every type:
// kAlias and `target` set when the query asks for another type than CNAME or ANY, which the
// caller follows; kAnswered for CNAME and ANY. A steered entry answers `network`'s group
// (the default group when null) and records the choice's scope in the plan.
DynamicPlan plan_dynamic_answer(const DynamicAnswer& entry, const dns::Name& owner, dns::RRType qtype, AnswerPlan& plan,
                                const ClientNetwork* network = nullptr, dns::Name* target = nullptr);

}  // namespace cutover::auth
