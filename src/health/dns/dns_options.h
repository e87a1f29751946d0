// The options of the dns probe, and the reading of its keys of a check mapping.
// DnsOptions is a plain value type; read_dns_option is stateless.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "dns/name.h"
#include "dns/types.h"
#include "health/probe_options.h"

namespace cutover::health {

struct DnsOptions : ProbeOptions {
  dns::Name qname;  // the root (empty) means: the pool's own name
  dns::RRType qtype = dns::RRType::SOA;
  dns::Rcode rcode = dns::Rcode::kNoError;
  std::string expect_answer;  // empty: any answer; else one answer rdata must print as this
  bool tcp = false;
};

// The keys of a check mapping that the dns probe reads (README.md).
constexpr std::array<std::string_view, 5> kDnsOptionKeys = {"qname", "qtype", "rcode", "expect-answer", "tcp"};
void read_dns_option(DnsOptions& options, const std::string& key, const OptionReader& reader);

}  // namespace cutover::health
