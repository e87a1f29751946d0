// Helpers shared by the zone parser and check tests: parse text and render the records
// or diagnostics as short strings that tables can list. Test-only; stateless.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/master_parser.h"

namespace cutover::zone::test {

inline dns::Name test_origin() { return dns::Name::from_text("example.test.").value(); }

// "owner TTL TYPE rdata" per record, in file order.
inline std::vector<std::string> record_lines(const ParseResult& result) {
  std::vector<std::string> lines;
  for (const auto& parsed : result.records) {
    const auto& r = parsed.record;
    lines.push_back(fmt::format("{} {} {} {}", r.owner.to_text(), r.ttl, dns::type_to_text(r.type),
                                dns::rdata_to_text(r.type, r.rdata)));
  }
  return lines;
}

// "LINE:COLUMN: error: message" per diagnostic (the file name left out).
inline std::vector<std::string> diagnostic_lines(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> lines;
  for (const auto& d : diagnostics) {
    lines.push_back(fmt::format("{}:{}: {}: {}", d.location.line, d.location.column,
                                d.severity == Severity::kError ? "error" : "warning", d.message));
  }
  return lines;
}

inline ParseResult parse(std::string_view text) { return parse_master_text(test_origin(), text, "test.zone"); }

}  // namespace cutover::zone::test
