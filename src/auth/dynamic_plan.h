// The dynamic-answer stage of answering: names held by a DynamicAnswers snapshot are answered
// from it instead of zone data. Thread-safe; never throws.
#pragma once

#include "auth/answer_plan.h"
#include "auth/dynamic_answers.h"

namespace cutover::auth {

// Adds the entry's A/AAAA records for `qtype` (both for ANY) to the answer section and
// marks the plan as a dynamic answer. False when there is nothing to answer (another type,
// or an empty answer): the caller then plans NODATA. A steered entry answers `network`'s group
// (the default group when null) and records the choice's scope in the plan.
bool plan_dynamic_answer(const DynamicAnswer& entry, const dns::Name& owner, dns::RRType qtype, AnswerPlan& plan,
                         const ClientNetwork* network = nullptr);

}  // namespace cutover::auth
