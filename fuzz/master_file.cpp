// libFuzzer target: the master-file parser (RFC 1035 §5) on arbitrary text. Every record it
// accepts must print as text that parses back to the same rdata, and must survive the wire:
// encoded in a message it parses again to the same record (text and wire accept the same
// records). $INCLUDE is refused (depth limit 0) so the target never reads files.
#include <string_view>

#include "dns/message.h"
#include "fuzz_check.h"
#include "zone/master_parser.h"

using cutover::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const cutover::dns::Name origin = *cutover::dns::Name::from_text("example.test.");
  cutover::zone::ParseLimits limits;
  limits.max_include_depth = 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = cutover::zone::parse_master_text(origin, text, "fuzz.zone", limits);
  cutover::dns::Message message;
  message.header.qr = true;
  for (const auto& parsed : result.records) {
    const auto& record = parsed.record;
    cutover::fuzz::check_text_round_trip(record.type, record.rdata);
    if (message.answers.size() < 64) message.answers.push_back(record);
  }
  if (message.answers.empty()) return 0;
  auto wire = cutover::dns::encode_message(message);
  if (wire.size() > 65535) return 0;
  auto again = cutover::dns::parse_message(wire);
  check(again.ok(), "records read from text do not parse from the wire");
  check(again->answers.size() == message.answers.size(), "record count after the wire");
  for (std::size_t i = 0; i < message.answers.size(); ++i) {
    const auto& a = message.answers[i];
    const auto& b = again->answers[i];
    check(a.owner == b.owner && a.type == b.type && a.klass == b.klass && a.ttl == b.ttl, "owner/type/class/ttl");
    check(cutover::dns::rdata_canonical(a.type, a.rdata) == cutover::dns::rdata_canonical(b.type, b.rdata),
          "rdata after the wire");
  }
  return 0;
}
