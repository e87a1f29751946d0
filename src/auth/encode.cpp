// Encodes planned RRsets section by section, ordering members per the RRset's policy.
#include "auth/encode.h"

#include <algorithm>
#include <random>

namespace cutover::auth {
namespace {

// The members of an RRset in the order this answer uses.
std::vector<dns::Rdata> ordered_members(const zone::RRset& rrset) {
  std::vector<dns::Rdata> members = rrset.rdatas.to_vector();
  if (members.size() < 2) return members;
  switch (rrset.order) {
    case zone::RRsetOrder::kFixed:
      break;
    case zone::RRsetOrder::kCyclic: {
      auto start = rrset.rotation.fetch_add(1, std::memory_order_relaxed) % members.size();
      std::rotate(members.begin(), members.begin() + static_cast<std::ptrdiff_t>(start), members.end());
      break;
    }
    case zone::RRsetOrder::kRandom: {
      thread_local std::minstd_rand generator{std::random_device{}()};
      std::shuffle(members.begin(), members.end(), generator);
      break;
    }
  }
  return members;
}

bool write_rrset(dns::MessageWriter& writer, dns::Section section, const PlannedRRset& planned) {
  if (planned.source == nullptr) {
    return writer.add_rrset(section, planned.owner, planned.type, dns::RRClass::IN, planned.ttl, planned.synthesized);
  }
  if (planned.source->order == zone::RRsetOrder::kFixed) {
    return writer.add_rrset(section, planned.owner, planned.type, dns::RRClass::IN, planned.ttl,
                            planned.source->rdatas);
  }
  auto members = ordered_members(*planned.source);
  return writer.add_rrset(section, planned.owner, planned.type, dns::RRClass::IN, planned.ttl, members);
}

// Writes one section; returns false when a required RRset did not fit.
bool write_section(dns::MessageWriter& writer, dns::Section section, const std::vector<PlannedRRset>& rrsets) {
  for (const auto& planned : rrsets) {
    if (!write_rrset(writer, section, planned) && planned.required) return false;
  }
  return true;
}

}  // namespace

std::vector<std::uint8_t> encode_answer(const AnswerPlan& plan, ResponseFrame frame) {
  dns::MessageWriter writer(frame.max_size);
  if (frame.edns) writer.set_edns(*frame.edns);
  if (frame.question) (void)writer.add_question(*frame.question);
  bool complete = write_section(writer, dns::Section::kAnswer, plan.answer) &&
                  write_section(writer, dns::Section::kAuthority, plan.authority) &&
                  write_section(writer, dns::Section::kAdditional, plan.additional);
  frame.header.tc = !complete;
  writer.set_header(frame.header);
  return writer.finish();
}

}  // namespace cutover::auth
