// The stub resolver's settings as /etc/resolv.conf gives them (resolv.conf(5)): nameservers,
// the search list, ndots, and the timeout and attempts options. Plain values and free
// functions; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "dns/name.h"
#include "net/address.h"

namespace cutover::client {

struct ResolverConfig {
  // In file order, at most kMaxNameservers (glibc's MAXNS). With none, 127.0.0.1:53, as glibc.
  std::vector<net::SocketAddress> nameservers;
  // Suffixes tried for names that are not absolute (the last `search` or `domain` line wins).
  std::vector<dns::Name> search;
  int ndots = 1;                            // options ndots:N, at most 15
  std::chrono::milliseconds timeout{5000};  // options timeout:N (seconds, at most 30), per query try
  int attempts = 2;                         // options attempts:N, at most 5: rounds over the servers
  std::string source;                       // the file read, for messages and the trace
};

inline constexpr std::size_t kMaxNameservers = 3;

// Parses resolv.conf text. Beyond glibc, a nameserver may carry a port ("127.0.0.1:5353",
// "[::1]:5353"), so a test or lab can point the client at a server on a high port. Unknown
// keywords and options are ignored, as glibc ignores them; a nameserver that is not an
// address, a search entry that is not a name and a bad number in ndots/timeout/attempts are
// errors naming `path`:line:column.
base::Result<ResolverConfig> parse_resolv_conf(std::string_view text, const std::string& path);

// Reads and parses the file; an unreadable file is an error (kIo) naming it.
base::Result<ResolverConfig> read_resolv_conf(const std::string& path);

}  // namespace cutover::client
