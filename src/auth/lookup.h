// The lookup stage: RFC 1034 §4.3.2 resolution inside the served zones, with CNAME chains,
// wildcards (RFC 4592), DNAME (RFC 6672), referrals and negative answers (RFC 2308).
// Pure function of its inputs; thread-safe.
#pragma once

#include "auth/answer_plan.h"
#include "auth/dynamic_answers.h"
#include "auth/engine.h"

namespace cutover::auth {

// Longest CNAME/DNAME chain followed inside a zone before giving up.
constexpr int kMaxChainLength = 16;

// `minimal_any`: answer QTYPE ANY with a single RRset (RFC 8482 §4.2).
// `dynamic`: names it holds (pools) are answered from it (dynamic_plan.h), steered ones for
// `network` when given, except entries not answered in the view `view_bit` (auth/views.h).
AnswerPlan plan_answer(const zone::Zone& zone, const dns::Name& qname, dns::RRType qtype, bool minimal_any,
                       const DynamicAnswers* dynamic = nullptr, const ClientNetwork* network = nullptr,
                       std::uint16_t view_bit = kDefaultViewBit);

}  // namespace cutover::auth
