// Parsers of unbound-control's dump_cache and dump_infra output (Unbound 1.17 formats).
#include "lab/resolvers/unbound_control.h"

#include "lab/resolvers/cache_dumps.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin() + (text[0] == '-' ? 1 : 0), text.end(),
                                      [](unsigned char c) { return std::isdigit(c); }) &&
         text != "-";
}

const char* rcode_name(int rcode) {
  static const char* kNames[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"};
  return rcode >= 0 && rcode < 6 ? kNames[rcode] : "OTHER";
}

}  // namespace

std::string unbound_trust_name(int trust) {
  static const char* kNames[] = {"none",   "add_noAA", "auth_noAA",  "add_AA",      "nonauth_ans_AA",
                                 "ans_noAA", "glue",   "auth_AA",    "ans_AA",      "sec_noglue",
                                 "prim_noglue", "validated", "ultimate"};
  return trust >= 0 && trust < 13 ? kNames[trust] : "unknown";
}

Json parse_unbound_cache_dump(const std::string& dump, const std::vector<std::string>& names) {
  Json rrsets = Json::array();
  Json messages = Json::array();
  std::istringstream in(dump);
  std::string line;
  // ";rrset TTL COUNT RRSIGS TRUST SECURITY" heads COUNT + RRSIGS record lines
  // ("owner TTL class type rdata"); "msg QNAME CLASS TYPE FLAGS QDCOUNT TTL ..." heads a message.
  int pending = 0;
  Json entry;
  while (std::getline(in, line)) {
    std::vector<std::string> parts = dump_fields(line);
    if (parts.empty()) continue;
    if (pending > 0) {
      --pending;
      if (parts.size() < 5) continue;
      if (entry["name"].get<std::string>().empty()) {
        entry["name"] = parts[0];
        entry["type"] = parts[3];
      }
      if (parts[3] == entry["type"]) {
        std::string data;
        for (std::size_t i = 4; i < parts.size(); ++i) data += (data.empty() ? "" : " ") + parts[i];
        entry["data"].push_back(data);
      }
      if (pending == 0 && name_is_under(entry["name"].get<std::string>(), names)) rrsets.push_back(entry);
      continue;
    }
    if (parts[0] == ";rrset" && parts.size() >= 6 && is_number(parts[1]) && is_number(parts[2]) &&
        is_number(parts[3]) && is_number(parts[4])) {
      pending = std::stoi(parts[2]) + std::stoi(parts[3]);
      int trust = std::stoi(parts[4]);
      entry = Json{{"name", ""}, {"type", ""}, {"ttl", std::stoll(parts[1])}, {"trust", trust},
                   {"trust_name", unbound_trust_name(trust)}, {"data", Json::array()}};
      continue;
    }
    if (parts[0] == "msg" && parts.size() >= 7 && is_number(parts[4]) && is_number(parts[6])) {
      if (!name_is_under(parts[1], names)) continue;
      int rcode = std::stoi(parts[4]) & 0xf;
      messages.push_back(
          {{"name", parts[1]}, {"type", parts[3]}, {"rcode", rcode_name(rcode)}, {"ttl", std::stoll(parts[6])}});
    }
  }
  return Json{{"rrsets", rrsets}, {"messages", messages}};
}

Json parse_unbound_infra(const std::string& dump) {
  Json servers = Json::array();
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> parts = dump_fields(line);
    if (parts.size() < 4 || parts[2] != "ttl") continue;
    Json server{{"address", parts[0]}, {"zone", parts[1]}};
    // "name value" pairs; the word "lame" heads the lameness counters that follow it
    // ("lame dnssec 0 rec 0 A 0 other 0"), stored as lame_dnssec, lame_rec, ...
    std::string prefix;
    for (std::size_t i = 2; i < parts.size(); ++i) {
      if (i + 1 < parts.size() && is_number(parts[i + 1])) {
        server[prefix + parts[i]] = std::stoll(parts[i + 1]);
        ++i;
      } else if (parts[i] == "lame") {
        prefix = "lame_";
      }
    }
    servers.push_back(server);
  }
  return servers;
}

}  // namespace cutover::lab
