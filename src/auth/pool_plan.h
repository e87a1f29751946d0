// The pool stage of answering: names owned by health-checked pools are answered from the
// current PoolAnswers snapshot instead of zone data. Thread-safe; never throws.
#pragma once

#include "auth/answer_plan.h"
#include "pool/pool_answers.h"

namespace cutover::auth {

// Adds the pool's A/AAAA records for `qtype` (both for ANY) to the answer section and
// marks the plan as a pool answer. False when there is nothing to answer (another type,
// or an empty all-down answer): the caller then plans NODATA.
bool plan_pool_answer(const pool::PoolAnswer& pool, const dns::Name& owner, dns::RRType qtype, AnswerPlan& plan);

}  // namespace cutover::auth
