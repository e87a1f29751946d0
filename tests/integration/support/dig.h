// Runs the real dig / kdig against a server on 127.0.0.1 and parses their text output into
// header flags, rcode, EDNS and records. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/process.h"

namespace cutover::testing {

struct DigRecord {
  std::string owner;  // lowercased, absolute (trailing dot)
  std::string type;   // uppercase mnemonic, e.g. "A", "TYPE65534"
  std::string rdata;  // as the tool printed it
  std::uint32_t ttl = 0;
};

struct DigResult {
  int exit_code = -1;
  bool timed_out = false;  // the tool itself was killed after the harness timeout
  bool no_reply = true;    // no response header was printed (timeout, refused, error)
  std::string raw;         // stdout then stderr

  std::string opcode;  // "QUERY"
  std::string status;  // "NOERROR", "NXDOMAIN", "BADVERS", ...
  std::vector<std::string> flags;  // lowercase header flags: qr aa tc rd ra ad cd
  std::uint32_t qdcount = 0, ancount = 0, nscount = 0, arcount = 0;

  bool edns = false;  // the response carried an OPT record
  std::uint32_t edns_version = 0;
  std::uint32_t udp_size = 0;
  std::vector<std::string> edns_flags;  // e.g. "do"

  std::vector<DigRecord> answer;
  std::vector<DigRecord> authority;
  std::vector<DigRecord> additional;

  bool has_flag(std::string_view flag) const;
  // rdata of every record of `type` in the given section, in printed order.
  static std::vector<std::string> rdatas(const std::vector<DigRecord>& section, std::string_view type);
};

// dig @127.0.0.1 -p PORT NAME TYPE +time=2 +tries=1 EXTRA...; when the reply was truncated
// and dig retried over TCP, the result describes the last response printed.
DigResult dig(std::uint16_t port, std::string name, std::string type, std::vector<std::string> extra = {});
// kdig @127.0.0.1 -p PORT NAME TYPE +time=2 +retry=0 EXTRA...
DigResult kdig(std::uint16_t port, std::string name, std::string type, std::vector<std::string> extra = {});

// The parsers behind dig() and kdig(), exposed for tests of the harness itself.
// Sends one UPDATE message with BIND's nsupdate to 127.0.0.1:`port`: `commands` (nsupdate
// lines, each ending in a newline) after the server and zone lines, then "send". The script
// is written to `script`; `key` is nsupdate's -y argument (ALG:NAME:SECRET), "" unsigned.
CommandResult nsupdate(std::uint16_t port, const std::string& zone, const std::string& commands,
                       const std::string& key, const std::string& script);

DigResult parse_dig_output(std::string_view text);
DigResult parse_kdig_output(std::string_view text);

}  // namespace cutover::testing
