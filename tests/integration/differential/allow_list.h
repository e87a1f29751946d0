// The allow-list of the differential answer test (tests/differential/allowed.yaml): each
// entry names one class of difference between cutover's and BIND's answers narrowly (zone,
// query name, query type, transport, EDNS variant, kind, which side has the extra records,
// their types) and the rule that makes it legal (or "open: ..." for a known cutover bug).
// Header-only (the area's binary is built from *_test.cpp files). Not thread-safe.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstddef>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cutover::testing::differential {

// What differed. A difference in rcode or TC is reported alone: the sections of two answers
// with different rcodes or truncation follow from that and are not compared further.
inline const std::set<std::string>& known_kinds() {
  static const std::set<std::string> kinds = {
      "not-loaded",  // a zone one of the two servers did not load (side: the one that failed)
      "no-reply",    // one server sent nothing within the timeout (side: the one that replied)
      "malformed",   // a reply that does not parse, or a UDP reply over its size limit (side: its sender)
      "header",      // ID, opcode, QR, RD, RA, AD, CD
      "question",    // the question section, compared byte for byte (case included)
      "rcode",       // the 12-bit rcode (EDNS extended rcode included)
      "aa",          // the AA flag (side: the one that set it)
      "tc",          // the TC flag (side: the one that set it)
      "answer", "authority", "additional",  // RR sets (side: who has records the other lacks)
      "edns",        // OPT presence (side: the one with an OPT), version, payload size, option codes
      "do",          // the DO bit of the reply's OPT (side: the one that set it)
  };
  return kinds;
}

// One difference, in the terms the allow-list matches on.
struct Difference {
  std::string zone;       // lowercased origin, no trailing dot
  std::string qname;      // lowercased, absolute
  std::string qtype;      // mnemonic
  std::string transport;  // "udp" or "tcp"
  std::string edns;       // "none", "edns" (1232, DO clear) or "do" (1232, DO set)
  std::string kind;       // one of known_kinds()
  std::string side;       // "cutover", "bind" or "both"
  std::set<std::string> rrtypes;  // for section kinds: the types of the records that differ
  std::string detail;     // readable: what each side had
};

struct AllowEntry {
  std::string id;
  std::string rule;  // required: the RFC section or docs/ section, or "open: ..."
  std::string kind;
  std::regex zone{".*"};
  std::regex name{".*"};
  std::string zone_text = ".*", name_text = ".*";
  std::set<std::string> qtypes, transports, edns_variants, rrtypes;
  std::string side;  // empty: any side
  std::size_t hits = 0;

  bool matches(const Difference& d) const {
    if (d.kind != kind) return false;
    if (!std::regex_match(d.zone, zone) || !std::regex_match(d.qname, name)) return false;
    if (!qtypes.empty() && !qtypes.count(d.qtype)) return false;
    if (!transports.empty() && !transports.count(d.transport)) return false;
    if (!edns_variants.empty() && !edns_variants.count(d.edns)) return false;
    if (!side.empty() && side != d.side) return false;
    if (!rrtypes.empty()) {
      if (d.rrtypes.empty()) return false;
      for (const auto& type : d.rrtypes) {
        if (!rrtypes.count(type)) return false;
      }
    }
    return true;
  }
};

class AllowList {
 public:
  // Reads the file; throws std::runtime_error naming the entry on any unknown key, unknown
  // kind, missing id or rule, or a pattern that is not a regular expression.
  static AllowList load(const std::string& path) {
    AllowList list;
    YAML::Node root = YAML::LoadFile(path);
    YAML::Node entries = root["allowed"];
    if (!entries || !entries.IsSequence()) throw std::runtime_error(path + ": no 'allowed:' list");
    static const std::set<std::string> keys = {"id",   "rule",      "kind", "zone",    "name",
                                               "qtype", "transport", "edns", "rrtypes", "side", "note"};
    std::set<std::string> ids;
    for (const auto& node : entries) {
      AllowEntry entry;
      entry.id = node["id"] ? node["id"].as<std::string>() : "";
      std::string where = path + ": entry '" + entry.id + "'";
      if (entry.id.empty() || !ids.insert(entry.id).second) throw std::runtime_error(where + ": missing or repeated id");
      for (const auto& pair : node) {
        if (!keys.count(pair.first.as<std::string>())) {
          throw std::runtime_error(where + ": unknown key " + pair.first.as<std::string>());
        }
      }
      entry.rule = node["rule"] ? node["rule"].as<std::string>() : "";
      if (entry.rule.empty()) throw std::runtime_error(where + ": 'rule' is required");
      entry.kind = node["kind"] ? node["kind"].as<std::string>() : "";
      if (!known_kinds().count(entry.kind)) throw std::runtime_error(where + ": unknown kind '" + entry.kind + "'");
      try {
        if (node["zone"]) entry.zone_text = node["zone"].as<std::string>();
        if (node["name"]) entry.name_text = node["name"].as<std::string>();
        entry.zone = std::regex(entry.zone_text);
        entry.name = std::regex(entry.name_text);
      } catch (const std::regex_error& error) {
        throw std::runtime_error(where + ": bad pattern: " + error.what());
      }
      entry.qtypes = strings(node["qtype"]);
      entry.transports = strings(node["transport"]);
      entry.edns_variants = strings(node["edns"]);
      entry.rrtypes = strings(node["rrtypes"]);
      for (const auto& t : entry.transports) {
        if (t != "udp" && t != "tcp") throw std::runtime_error(where + ": transport is udp or tcp");
      }
      for (const auto& e : entry.edns_variants) {
        if (e != "none" && e != "edns" && e != "do") throw std::runtime_error(where + ": edns is none, edns or do");
      }
      if (node["side"]) entry.side = node["side"].as<std::string>();
      if (!entry.side.empty() && entry.side != "cutover" && entry.side != "bind" && entry.side != "both") {
        throw std::runtime_error(where + ": side is cutover, bind or both");
      }
      list.entries_.push_back(std::move(entry));
    }
    return list;
  }

  // The first entry that allows `d` (its hit counted), or null.
  const AllowEntry* allow(const Difference& d) {
    for (auto& entry : entries_) {
      if (entry.matches(d)) {
        ++entry.hits;
        return &entry;
      }
    }
    return nullptr;
  }

  const std::vector<AllowEntry>& entries() const { return entries_; }

 private:
  // A scalar or a sequence of scalars.
  static std::set<std::string> strings(const YAML::Node& node) {
    std::set<std::string> out;
    if (!node) return out;
    if (node.IsSequence()) {
      for (const auto& item : node) out.insert(item.as<std::string>());
    } else {
      out.insert(node.as<std::string>());
    }
    return out;
  }

  std::vector<AllowEntry> entries_;
};

}  // namespace cutover::testing::differential
