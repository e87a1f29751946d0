// libFuzzer target: parse_message on arbitrary bytes; whatever parses must re-encode, parse
// again to the same content, encode to the same bytes, and print every record as text that
// parses back to the same rdata. Any mismatch aborts so the fuzzer reports it.
#include "dns/message.h"
#include "fuzz_check.h"

namespace {

using cutover::dns::Message;
using cutover::dns::ResourceRecord;
using cutover::fuzz::check;

void check_records(const std::vector<ResourceRecord>& a, const std::vector<ResourceRecord>& b) {
  check(a.size() == b.size(), "record count");
  for (std::size_t i = 0; i < a.size(); ++i) {
    check(a[i].owner == b[i].owner, "owner");
    check(a[i].type == b[i].type && a[i].klass == b[i].klass && a[i].ttl == b[i].ttl, "type/class/ttl");
    // Compression may change the case of compressed names, never anything else.
    check(cutover::dns::rdata_canonical(a[i].type, a[i].rdata) == cutover::dns::rdata_canonical(b[i].type, b[i].rdata),
          "rdata");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = cutover::dns::parse_message(std::span(data, size));
  if (!parsed.ok()) return 0;
  const Message& first = *parsed;
  for (const auto* section : {&first.answers, &first.authorities, &first.additionals}) {
    for (const ResourceRecord& record : *section) {
      // Empty rdata of update deletions (class ANY/NONE) has no presentation form.
      if (!record.rdata.empty()) cutover::fuzz::check_text_round_trip(record.type, record.rdata);
    }
  }
  auto wire = cutover::dns::encode_message(first);
  auto again = cutover::dns::parse_message(wire);
  check(again.ok(), "re-encoded message does not parse");
  const Message& second = *again;
  check(first.header.id == second.header.id && first.header.opcode == second.header.opcode &&
            first.header.rcode == second.header.rcode && first.header.qr == second.header.qr &&
            first.header.aa == second.header.aa && first.header.tc == second.header.tc &&
            first.header.rd == second.header.rd && first.header.ra == second.header.ra &&
            first.header.z == second.header.z && first.header.ad == second.header.ad &&
            first.header.cd == second.header.cd,
        "header");
  check(first.questions.size() == second.questions.size(), "question count");
  for (std::size_t i = 0; i < first.questions.size(); ++i) {
    check(first.questions[i].name == second.questions[i].name && first.questions[i].type == second.questions[i].type &&
              first.questions[i].klass == second.questions[i].klass,
          "question");
  }
  check_records(first.answers, second.answers);
  check_records(first.authorities, second.authorities);
  check_records(first.additionals, second.additionals);
  check(first.edns.has_value() == second.edns.has_value(), "EDNS presence");
  if (first.edns) {
    const auto& a = *first.edns;
    const auto& b = *second.edns;
    check(a.udp_size == b.udp_size && a.extended_rcode == b.extended_rcode && a.version == b.version &&
              a.dnssec_ok == b.dnssec_ok && a.other_flags == b.other_flags && a.options.size() == b.options.size(),
          "EDNS fields");
    for (std::size_t i = 0; i < a.options.size(); ++i) {
      check(a.options[i].code == b.options[i].code && a.options[i].data == b.options[i].data, "EDNS option");
    }
  }
  check(cutover::dns::encode_message(second) == wire, "encoding is not stable");
  return 0;
}
