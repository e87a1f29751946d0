// The encode stage: writes an AnswerPlan into a response packet with compression, RRset
// ordering (fixed/cyclic/random) and truncation that never splits an RRset. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "auth/answer_plan.h"
#include "dns/message.h"

namespace cutover::auth {

struct ResponseFrame {
  dns::Header header;                    // id, opcode, flags and rcode of the response
  std::optional<dns::Question> question;  // echoed as the client sent it
  std::optional<dns::Edns> edns;          // OPT to include, if any
  std::size_t max_size = dns::kClassicUdpSize;
};

// Sets header.tc when a required RRset did not fit.
std::vector<std::uint8_t> encode_answer(const AnswerPlan& plan, ResponseFrame frame);

}  // namespace cutover::auth
