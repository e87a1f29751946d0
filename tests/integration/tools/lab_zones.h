// Zone texts for the tools' loopback lab: a root, a parent "lab." and the child corp.lab.
// as the docs/tools.md incident left it (old provider zone and new zone). Addresses come from
// lab_ip(), so the texts are built at run time.
#pragma once

#include <string>

#include "tools/tool_lab.h"

namespace cutover::testing {

// Lab hosts: 1 root, 2 parent (lab.), 3 old provider, 4 new provider, 5 second new server.
inline std::string root_zone() {
  return "$TTL 3600\n"
         ". IN SOA a.root-servers.net. hostmaster.lab. 1 3600 600 86400 300\n"
         ". IN NS a.root-servers.net.\n"
         "a.root-servers.net. IN A " + lab_ip(1) + "\n"
         "lab. 172800 IN NS ns1.nic.lab.\n"
         "ns1.nic.lab. 172800 IN A " + lab_ip(2) + "\n";
}

// The parent delegating corp.lab. to `ns_host` at `address` with the .com-like 172800 s TTL.
inline std::string parent_zone(const std::string& ns_host, const std::string& address, const std::string& extra = {}) {
  return "$TTL 3600\n"
         "@ IN SOA ns1.nic hostmaster 1 3600 600 86400 300\n"
         "@ IN NS ns1.nic\n"
         "ns1.nic IN A " + lab_ip(2) + "\n"
         "corp 172800 IN NS " + ns_host + ".corp\n" +
         ns_host + ".corp 172800 IN A " + address + "\n" + extra;
}

// The incident's old zone: the provider's 86400 s default on everything, serial of the day before.
inline std::string old_corp_zone() {
  return "$TTL 86400\n"
         "@ IN SOA ns1.old hostmaster 2025061401 3600 600 86400 3600\n"
         "@ IN NS ns1.old\n"
         "ns1.old IN A " + lab_ip(3) + "\n"
         "app IN A 198.51.100.10\n";
}

// The new zone: app moved to 203.0.113.50 with TTL 300.
inline std::string new_corp_zone(const std::string& serial = "2025061502", const std::string& app = "203.0.113.50") {
  return "$TTL 3600\n"
         "@ IN SOA ns1.new hostmaster " + serial + " 3600 600 86400 3600\n"
         "@ IN NS ns1.new\n"
         "ns1.new IN A " + lab_ip(4) + "\n"
         "app 300 IN A " + app + "\n"
         "www 300 IN CNAME app\n";
}

}  // namespace cutover::testing
