// Dry-run answer diff: ask both zone sets over TCP-sized buffers and compare the answers.
#include "store/answer_diff.h"

#include <set>
#include <utility>

#include "dns/message.h"

namespace cutover::store {
namespace {

std::vector<std::string> answer_lines(const auth::ZoneSet& zones, const dns::Name& name, dns::RRType type) {
  dns::Message query;
  query.header.id = 1;
  query.questions.push_back({name, type, dns::RRClass::IN});
  std::vector<std::uint8_t> response;
  auth::answer_query(zones, dns::encode_message(query), auth::Transport::kTcp, response);
  auto parsed = dns::parse_message(response);
  if (!parsed) return {"(unreadable answer: " + parsed.error().message + ")"};
  std::vector<std::string> lines;
  auto rcode = static_cast<dns::Rcode>(parsed->header.rcode);
  if (rcode != dns::Rcode::kNoError || parsed->answers.empty()) lines.push_back(dns::rcode_to_text(rcode));
  for (const auto& record : parsed->answers) {
    lines.push_back(record.owner.to_text() + " " + std::to_string(record.ttl) + " " + dns::type_to_text(record.type) +
                    " " + dns::rdata_to_text(record.type, record.rdata));
  }
  return lines;
}

}  // namespace

std::vector<AnswerChange> answer_diff(const auth::ZoneSet& before, const auth::ZoneSet& after, const Delta& delta) {
  std::set<std::pair<std::string, std::uint16_t>> asked;
  std::vector<AnswerChange> changes;
  for (const auto* list : {&delta.removed, &delta.added}) {
    for (const auto& record : *list) {
      if (record.type == dns::RRType::SOA) continue;
      if (!asked.emplace(record.owner.lowercased().to_text(), static_cast<std::uint16_t>(record.type)).second) continue;
      AnswerChange change{record.owner, record.type, answer_lines(before, record.owner, record.type),
                          answer_lines(after, record.owner, record.type)};
      if (change.before != change.after) changes.push_back(std::move(change));
    }
  }
  return changes;
}

}  // namespace cutover::store
