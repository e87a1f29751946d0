// Pool answer -> zone records for materialize mode.
#include "pool/materialized.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cutover::pool {
namespace {

std::vector<dns::Rdata> sorted_rdatas(const FamilyAnswer& family) {
  std::vector<dns::Rdata> out = family.fixed.rdatas.to_vector();
  std::sort(out.begin(), out.end());
  return out;
}

std::string family_summary(const FamilyAnswer& family) {
  std::string addresses = family.addresses.empty() ? "none" : fmt::format("{}", fmt::join(family.addresses, " "));
  return fmt::format("{} {} ({})", dns::type_to_text(family.type), addresses, mode_to_text(family.mode));
}

dns::Rdata txt_rdata(const std::string& text) {
  dns::Rdata rdata;
  std::size_t length = std::min<std::size_t>(text.size(), 255);  // one character-string
  rdata.push_back(static_cast<std::uint8_t>(length));
  rdata.insert(rdata.end(), text.begin(), text.begin() + static_cast<std::ptrdiff_t>(length));
  return rdata;
}

}  // namespace

bool MaterializedRecords::same_records(const MaterializedRecords& other) const {
  return owner == other.owner && ttl == other.ttl && a == other.a && aaaa == other.aaaa && marker == other.marker;
}

MaterializedRecords materialized_records(const PoolAnswer& answer) {
  MaterializedRecords records;
  records.owner = answer.owner;
  records.ttl = answer.ttl;
  records.a = sorted_rdatas(answer.a);
  records.aaaa = sorted_rdatas(answer.aaaa);
  std::vector<std::string> parts;
  for (const FamilyAnswer* family : {&answer.a, &answer.aaaa}) {
    if (!family->configured) continue;
    parts.push_back(family_summary(*family));
    if (family->mode == AnswerMode::kNoData) records.emptied_by_policy = true;
  }
  if (records.a.empty() && records.aaaa.empty()) {
    records.marker = txt_rdata(fmt::format("cutover pool {}: no healthy endpoint (when-all-down: nodata)", answer.pool));
  }
  records.summary = fmt::format("{}", fmt::join(parts, "; "));
  return records;
}

}  // namespace cutover::pool
