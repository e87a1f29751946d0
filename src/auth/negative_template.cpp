// Builds the negative-answer SOA record with the general MessageWriter (so both paths agree
// byte for byte) and relocates its compression pointers per query.
#include "auth/negative_template.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "dns/message.h"

namespace cutover::auth {
namespace {

constexpr std::uint8_t kPointerBits = 0xC0;

// Offset just past the (possibly compressed) name at `pos`; the pointer's offset, if the
// name ends in one, goes into `pointers`.
std::size_t skip_name(const std::vector<std::uint8_t>& wire, std::size_t pos, std::vector<std::uint16_t>& pointers) {
  while (wire[pos] != 0) {
    if ((wire[pos] & kPointerBits) == kPointerBits) {
      pointers.push_back(static_cast<std::uint16_t>(pos));
      return pos + 2;
    }
    pos += 1u + wire[pos];
  }
  return pos + 1;
}

// The lowercase label of `name` just above `origin` (length byte first), if `name` lies
// strictly below `origin`.
void add_label_above(const dns::Name& name, const dns::Name& origin, std::vector<std::vector<std::uint8_t>>& out) {
  std::size_t labels = name.label_count();
  std::size_t origin_labels = origin.label_count();
  if (labels <= origin_labels || !name.is_subdomain_of(origin)) return;
  auto label = name.label(labels - origin_labels - 1);
  std::vector<std::uint8_t> lower{static_cast<std::uint8_t>(label.size())};
  for (char c : label) lower.push_back(dns::ascii_lower(static_cast<std::uint8_t>(c)));
  out.push_back(std::move(lower));
}

}  // namespace

NegativeTemplate::NegativeTemplate(const zone::Zone& zone)
    : origin_size_(zone.origin().wire().size()), origin_labels_(zone.origin().label_count()) {
  dns::MessageWriter writer(std::numeric_limits<std::uint16_t>::max());
  (void)writer.add_question(dns::Question{zone.origin(), dns::RRType::SOA, dns::RRClass::IN});
  (void)writer.add_rrset(dns::Section::kAuthority, zone.origin(), dns::RRType::SOA, dns::RRClass::IN,
                         zone.negative_ttl(), zone.soa().rdatas);
  auto message = writer.finish();
  std::size_t start = dns::kHeaderSize + origin_size_ + 4;
  record_.assign(message.begin() + static_cast<std::ptrdiff_t>(start), message.end());
  std::size_t pos = skip_name(record_, 0, pointers_) + 10;  // type, class, TTL, rdlength
  pos = skip_name(record_, pos, pointers_);                 // MNAME
  skip_name(record_, pos, pointers_);                       // RNAME
  add_label_above(zone.soa_fields().mname, zone.origin(), clashing_labels_);
  add_label_above(zone.soa_fields().rname, zone.origin(), clashing_labels_);
}

bool NegativeTemplate::append(std::span<const std::uint8_t> lower_qname, std::span<const std::uint8_t> label_starts,
                              std::uint8_t* out) const {
  if (label_starts.size() > origin_labels_) {
    const std::uint8_t* above = lower_qname.data() + label_starts[label_starts.size() - origin_labels_ - 1];
    for (const auto& label : clashing_labels_) {
      if (above[0] == label[0] && std::memcmp(above, label.data(), label.size()) == 0) return false;
    }
  }
  std::memcpy(out, record_.data(), record_.size());
  // Every pointer targets the question's origin or a name inside this record; both lie
  // `shift` bytes later when the question name is longer than the origin.
  std::size_t shift = lower_qname.size() - origin_size_;
  for (std::uint16_t at : pointers_) {
    std::size_t target = ((std::size_t{out[at]} & 0x3F) << 8 | out[at + 1]) + shift;
    out[at] = static_cast<std::uint8_t>(kPointerBits | (target >> 8));
    out[at + 1] = static_cast<std::uint8_t>(target);
  }
  return true;
}

}  // namespace cutover::auth
