// Reading of the dns probe's options; the keys and defaults are in README.md.
#include "health/dns/dns_options.h"

#include <cstdint>

namespace cutover::health {

void read_dns_option(DnsOptions& options, const std::string& key, const OptionReader& reader) {
  if (key == "qname") {
    std::string text = reader.scalar(key);
    if (text.empty() || text.back() != '.') text.push_back('.');  // config names are absolute
    auto name = dns::Name::from_text(text, nullptr);
    if (!name) reader.fail(key, "invalid domain name: " + name.error().message);
    options.qname = *name;
  }
  if (key == "qtype") {
    auto qtype = dns::type_from_text(reader.scalar(key));
    if (!qtype) reader.fail(key, "unknown record type");
    options.qtype = *qtype;
  }
  if (key == "rcode") {
    std::string text = reader.scalar(key);
    bool known = false;
    for (std::uint16_t value = 0; value < 24 && !known; ++value) {
      auto rcode = static_cast<dns::Rcode>(value);
      if (dns::rcode_to_text(rcode) == text) {
        options.rcode = rcode;
        known = true;
      }
    }
    if (!known) reader.fail(key, "unknown rcode (expected e.g. NOERROR, NXDOMAIN, SERVFAIL)");
  }
  if (key == "expect-answer") options.expect_answer = reader.scalar(key);
  if (key == "tcp") options.tcp = reader.boolean(key);
}

}  // namespace cutover::health
