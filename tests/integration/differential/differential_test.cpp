// The differential answer test: `cutover serve` and BIND 9.18 (`named`, minimal-responses
// yes, recursion no) load every zone of tests/zones/ and get the same query bytes, over UDP
// and TCP, without EDNS, with EDNS 1232 and with EDNS 1232 + DO. The queries come from the
// zones themselves (read with cutover's own master-file parser): every (owner, type), a
// NODATA type and an NXDOMAIN name under every node, ANY at every owner, long names below
// every DNAME, a name below and a DS query at every delegation. Answers are compared section by section (rcode, AA, TC,
// question, answer/authority/additional as sets of RRs, EDNS and DO); every difference must
// match an entry of tests/differential/allowed.yaml, and every entry must match something.
// docs/rfc-coverage.md, "The differential answer test", says how to run it and add entries.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "differential/allow_list.h"
#include "dns/message.h"
#include "dns/rdata.h"
#include "support/process.h"
#include "support/server.h"
#include "support/wire_exchange.h"
#include "zone/master_parser.h"

namespace cutover::testing::differential {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr auto kExchangeTimeout = std::chrono::milliseconds(2000);
// A server that stops answering would otherwise make every remaining query wait for the timeout.
constexpr std::size_t kMaxNoReplies = 20;
// Upper bound on the queries per zone, so a large zone added later cannot make the test slow.
constexpr std::size_t kMaxQueriesPerZone = 1500;
// The printed report stops after this many unexplained differences (all go to the file).
constexpr std::size_t kMaxPrinted = 40;

fs::path source_zones_dir() { return fs::path(CUTOVER_SOURCE_DIR) / "tests" / "zones"; }
std::string allow_list_path() { return (fs::path(CUTOVER_SOURCE_DIR) / "tests" / "differential" / "allowed.yaml").string(); }

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

struct TestZone {
  std::string origin;  // as the file name spells it, e.g. "MixedCase.Test"
  std::string key;     // lowercased origin: the zone's name in the allow-list
  std::string path;    // the scratch copy both servers load
  std::vector<dns::ResourceRecord> records;
};

struct Query {
  const TestZone* zone = nullptr;
  dns::Name name;
  dns::RRType type = dns::RRType::A;
};

struct Variant {
  const char* transport;  // "udp" or "tcp"
  const char* edns;       // "none", "edns", "do"
};
constexpr Variant kVariants[] = {{"udp", "none"}, {"udp", "edns"}, {"udp", "do"},
                                 {"tcp", "none"}, {"tcp", "edns"}, {"tcp", "do"}};

std::vector<std::uint8_t> query_bytes(std::uint16_t id, const Query& query, const Variant& variant) {
  dns::Message message;
  message.header.id = id;
  message.header.qdcount = 1;
  message.questions.push_back({query.name, query.type, dns::RRClass::IN});
  if (std::string(variant.edns) != "none") {
    dns::Edns edns;
    edns.udp_size = 1232;
    edns.dnssec_ok = std::string(variant.edns) == "do";
    message.edns = edns;
  }
  return dns::encode_message(message);
}

// `base` with labels prepended until about `prefix_bytes` octets precede it; nullopt when
// that would pass 255 octets.
std::optional<dns::Name> long_name_below(const dns::Name& base, std::size_t prefix_bytes) {
  dns::Name name = base;
  std::size_t added = 0;
  for (int i = 0; added < prefix_bytes && i < 8; ++i) {
    std::size_t length = std::min<std::size_t>(50, prefix_bytes - added);
    if (length < 2) break;
    auto longer = name.prepend(std::string(1, static_cast<char>('a' + i)) + std::string(length - 2, 'q'));
    if (!longer.ok()) return std::nullopt;
    name = *longer;
    added += length;
  }
  return name;
}

// The queries a zone's own contents call for (file header). Names keep the case the zone
// file writes them in, so the question-case echo is compared too.
std::vector<Query> queries_for(const TestZone& zone) {
  auto origin = dns::Name::from_text(zone.origin + ".");
  std::vector<Query> out;
  if (!origin.ok()) return out;
  std::set<std::pair<std::string, std::uint16_t>> seen;
  auto add = [&](const dns::Name& name, dns::RRType type) {
    if (out.size() >= kMaxQueriesPerZone) return;
    if (seen.insert({lower(name.to_text()), static_cast<std::uint16_t>(type)}).second) {
      out.push_back({&zone, name, type});
    }
  };
  // Nodes: every owner and every empty non-terminal between an owner and the apex.
  std::map<std::string, dns::Name> nodes;
  std::map<std::string, std::set<dns::RRType>> types_at;
  std::vector<dns::Name> cuts;
  for (const auto& record : zone.records) {
    std::string key = lower(record.owner.to_text());
    nodes.emplace(key, record.owner);
    types_at[key].insert(record.type);
    if (record.type == dns::RRType::NS && !(record.owner == *origin) &&
        std::find(cuts.begin(), cuts.end(), record.owner) == cuts.end()) {
      cuts.push_back(record.owner);
    }
    for (dns::Name up = record.owner.parent(); up.label_count() > origin->label_count() && up.is_subdomain_of(*origin);
         up = up.parent()) {
      nodes.emplace(lower(up.to_text()), up);
    }
  }
  // Every (owner, type) present.
  for (const auto& record : zone.records) add(record.owner, record.type);
  // A type absent at each node (NODATA, or a referral, CNAME or wildcard answer there), an
  // NXDOMAIN name under it, and ANY at each owner.
  const dns::RRType candidates[] = {dns::RRType::NAPTR, dns::RRType::HINFO, dns::RRType::SSHFP, dns::RRType::RP};
  for (const auto& [key, name] : nodes) {
    for (auto type : candidates) {
      if (!types_at[key].count(type)) {
        add(name, type);
        break;
      }
    }
    if (auto below = name.prepend("nx-diff"); below.ok()) add(*below, dns::RRType::A);
    if (types_at.count(key) && !types_at[key].empty()) add(name, dns::RRType::ANY);
  }
  // Long names below every DNAME (RFC 6672 §2.2): one whose synthesized CNAME target fits
  // in 255 octets when the DNAME target is long, one whose target does not (YXDOMAIN).
  for (const auto& record : zone.records) {
    if (record.type != dns::RRType::DNAME) continue;
    for (std::size_t prefix : {60u, 200u}) {
      if (auto below = long_name_below(record.owner, prefix)) add(*below, dns::RRType::A);
    }
  }
  // Below every cut, and DS at the cut (RFC 4035 §3.1.4.1) and at the apex.
  for (const auto& cut : cuts) {
    if (auto below = cut.prepend("below-diff"); below.ok()) {
      add(*below, dns::RRType::A);
      add(*below, dns::RRType::DS);
    }
    add(cut, dns::RRType::DS);
  }
  add(*origin, dns::RRType::DS);
  return out;
}

std::string record_text(const dns::ResourceRecord& record) {
  return fmt::format("{} {} {} {} {}", lower(record.owner.to_text()), record.ttl, dns::class_to_text(record.klass),
                     dns::type_to_text(record.type), dns::rdata_to_text(record.type, record.rdata));
}

std::set<std::string> record_set(const std::vector<dns::ResourceRecord>& records) {
  std::set<std::string> out;
  for (const auto& record : records) out.insert(record_text(record));
  return out;
}

std::string variant_text(const Variant& variant) {
  std::string edns = variant.edns;
  return fmt::format("{}, {}", variant.transport,
                     edns == "none" ? "no EDNS" : edns == "edns" ? "EDNS 1232" : "EDNS 1232 + DO");
}

std::uint16_t full_rcode(const dns::Message& message) {
  return static_cast<std::uint16_t>((message.edns ? message.edns->extended_rcode << 4 : 0) | message.header.rcode);
}

std::string rcode_text(std::uint16_t rcode) { return dns::rcode_to_text(static_cast<dns::Rcode>(rcode)); }

// A whole reply, for the report.
std::string describe(const dns::Message& message) {
  const auto& h = message.header;
  std::string out = fmt::format("    rcode {}{}{}{}{}", rcode_text(full_rcode(message)), h.aa ? " aa" : "", h.tc ? " tc" : "",
                                h.ra ? " ra" : "", h.ad ? " ad" : "");
  if (message.edns) {
    out += fmt::format(", OPT v{} size {}{}", message.edns->version, message.edns->udp_size,
                       message.edns->dnssec_ok ? " do" : "");
    for (const auto& option : message.edns->options) out += fmt::format(" option{}", option.code);
  } else {
    out += ", no OPT";
  }
  out += "\n";
  auto section = [&](const char* label, const std::vector<dns::ResourceRecord>& records) {
    for (const auto& record : records) out += fmt::format("    {} {}\n", label, record_text(record));
  };
  section("AN", message.answers);
  section("NS", message.authorities);
  section("AR", message.additionals);
  return out;
}

std::string option_codes(const dns::Edns& edns) {
  std::vector<std::uint16_t> codes;
  for (const auto& option : edns.options) codes.push_back(option.code);
  std::sort(codes.begin(), codes.end());
  return fmt::format("{}", fmt::join(codes, ","));
}

// Compares two parsed replies (file header); each difference is filled in except its query fields.
std::vector<Difference> compare(const dns::Message& ours, const dns::Message& theirs) {
  std::vector<Difference> out;
  auto add = [&](std::string kind, std::string side, std::string detail, std::set<std::string> rrtypes = {}) {
    Difference d;
    d.kind = std::move(kind);
    d.side = std::move(side);
    d.detail = std::move(detail);
    d.rrtypes = std::move(rrtypes);
    out.push_back(std::move(d));
  };
  auto flag_side = [](bool cutover_set) { return std::string(cutover_set ? "cutover" : "bind"); };
  const auto& a = ours.header;
  const auto& b = theirs.header;
  if (full_rcode(ours) != full_rcode(theirs)) {
    add("rcode", "both",
        fmt::format("  rcode: cutover {}, bind {}\n  cutover:\n{}  bind:\n{}", rcode_text(full_rcode(ours)),
                    rcode_text(full_rcode(theirs)), describe(ours), describe(theirs)));
    return out;
  }
  if (a.tc != b.tc) {
    add("tc", flag_side(a.tc), fmt::format("  TC set by {}\n  cutover:\n{}  bind:\n{}", flag_side(a.tc), describe(ours),
                                           describe(theirs)));
    return out;
  }
  if (a.id != b.id || a.opcode != b.opcode || a.qr != b.qr || a.rd != b.rd || a.ra != b.ra || a.ad != b.ad ||
      a.cd != b.cd) {
    add("header", "both",
        fmt::format("  header: cutover id {} opcode {} qr {} rd {} ra {} ad {} cd {}; bind id {} opcode {} qr {} rd {} "
                    "ra {} ad {} cd {}\n",
                    a.id, static_cast<int>(a.opcode), a.qr, a.rd, a.ra, a.ad, a.cd, b.id, static_cast<int>(b.opcode),
                    b.qr, b.rd, b.ra, b.ad, b.cd));
  }
  if (a.aa != b.aa) add("aa", flag_side(a.aa), fmt::format("  AA set by {}\n", flag_side(a.aa)));
  bool same_question = ours.questions.size() == theirs.questions.size();
  for (std::size_t i = 0; same_question && i < ours.questions.size(); ++i) {
    const auto& qa = ours.questions[i];
    const auto& qb = theirs.questions[i];
    same_question = qa.name.wire() == qb.name.wire() && qa.type == qb.type && qa.klass == qb.klass;
  }
  if (!same_question) {
    auto text = [](const dns::Message& m) {
      std::string t;
      for (const auto& q : m.questions) t += q.name.to_text() + " " + dns::type_to_text(q.type) + " ";
      return t;
    };
    add("question", "both", fmt::format("  question: cutover [{}], bind [{}]\n", text(ours), text(theirs)));
  }
  auto section = [&](const char* kind, const std::vector<dns::ResourceRecord>& x,
                     const std::vector<dns::ResourceRecord>& y) {
    auto sx = record_set(x);
    auto sy = record_set(y);
    if (sx == sy) return;
    std::string detail;
    std::set<std::string> types;
    bool only_ours = false, only_theirs = false;
    auto type_of = [](const std::string& line) {
      std::istringstream fields(line);
      std::string owner, ttl, klass, type;
      fields >> owner >> ttl >> klass >> type;
      return type;
    };
    for (const auto& line : sx) {
      if (!sy.count(line)) {
        detail += "    only cutover: " + line + "\n";
        types.insert(type_of(line));
        only_ours = true;
      }
    }
    for (const auto& line : sy) {
      if (!sx.count(line)) {
        detail += "    only bind:    " + line + "\n";
        types.insert(type_of(line));
        only_theirs = true;
      }
    }
    add(kind, only_ours && only_theirs ? "both" : only_ours ? "cutover" : "bind",
        fmt::format("  {} section differs:\n{}", kind, detail), types);
  };
  section("answer", ours.answers, theirs.answers);
  section("authority", ours.authorities, theirs.authorities);
  section("additional", ours.additionals, theirs.additionals);
  if (ours.edns.has_value() != theirs.edns.has_value()) {
    add("edns", ours.edns ? "cutover" : "bind", fmt::format("  OPT only in {}'s reply\n", ours.edns ? "cutover" : "bind"));
  } else if (ours.edns) {
    const auto& ea = *ours.edns;
    const auto& eb = *theirs.edns;
    if (ea.version != eb.version || ea.udp_size != eb.udp_size || option_codes(ea) != option_codes(eb)) {
      add("edns", "both",
          fmt::format("  OPT: cutover version {} size {} options [{}]; bind version {} size {} options [{}]\n",
                      ea.version, ea.udp_size, option_codes(ea), eb.version, eb.udp_size, option_codes(eb)));
    }
    if (ea.dnssec_ok != eb.dnssec_ok) {
      add("do", ea.dnssec_ok ? "cutover" : "bind", fmt::format("  DO set by {}\n", ea.dnssec_ok ? "cutover" : "bind"));
    }
  }
  return out;
}

// BIND 9.18 serving the zones of `zones` from `zones_dir` on `port` (docs/shared real-peers
// notes: its own pid, session key and managed-keys paths, no rndc channel).
std::vector<std::string> bind_command(const std::string& dir, const std::string& zones_dir, std::uint16_t port,
                                      const std::vector<TestZone>& zones) {
  // The working directory is the zones' directory, so $INCLUDE paths relative to it resolve
  // as cutover resolves them relative to the including file (docs/zone-files.md).
  std::string conf = fmt::format(
      "options {{\n  directory \"{1}\";\n  listen-on port {0} {{ 127.0.0.1; }};\n  listen-on-v6 {{ none; }};\n"
      "  pid-file \"{2}/named.pid\";\n  session-keyfile \"{2}/session.key\";\n  managed-keys-directory \"{2}\";\n"
      "  recursion no;\n  notify no;\n  dnssec-validation no;\n  minimal-responses yes;\n}};\ncontrols {{ }};\n",
      port, zones_dir, dir);
  for (const auto& zone : zones) {
    conf += fmt::format("zone \"{}\" {{ type primary; file \"{}\"; }};\n", zone.origin, fs::path(zone.path).filename().string());
  }
  write_file(dir + "/named.conf", conf);
  return {"named", "-g", "-4", "-n", "1", "-c", dir + "/named.conf"};
}

std::optional<dns::Message> soa_reply(std::uint16_t port, const TestZone& zone) {
  auto origin = dns::Name::from_text(zone.origin + ".");
  if (!origin.ok()) return std::nullopt;
  Query query{&zone, *origin, dns::RRType::SOA};
  auto reply = udp_exchange(port, query_bytes(1, query, kVariants[1]), std::chrono::milliseconds(500));
  if (!reply) return std::nullopt;
  auto parsed = dns::parse_message(*reply);
  if (!parsed.ok()) return std::nullopt;
  return std::move(*parsed);
}

bool serves(std::uint16_t port, const TestZone& zone) {
  auto reply = soa_reply(port, zone);
  return reply && reply->header.aa && reply->header.rcode == 0 && !reply->answers.empty() &&
         reply->answers.front().type == dns::RRType::SOA;
}

struct Tally {
  std::size_t queries = 0, exchanges = 0, identical = 0;
  std::vector<std::pair<Difference, const AllowEntry*>> differences;
  std::vector<std::string> fatal;  // problems that end the run (a server gone quiet, the time bound)
};

TEST(Differential, EveryAnswerMatchesBindOrIsOnTheAllowList) {
  auto started = Clock::now();
  AllowList allow = AllowList::load(allow_list_path());
  std::string scratch = make_temp_dir("differential");
  std::string zones_dir = scratch + "/zones";
  fs::create_directories(zones_dir);
  // Both servers load the same copies; the include/ folder rides along ($INCLUDE), bad/ does not.
  std::vector<TestZone> all;
  for (const auto& entry : fs::directory_iterator(source_zones_dir())) {
    if (entry.is_directory() && entry.path().filename() == "include") {
      fs::copy(entry.path(), zones_dir + "/include", fs::copy_options::recursive);
    }
    if (!entry.is_regular_file() || entry.path().extension() != ".zone") continue;
    fs::copy_file(entry.path(), zones_dir + "/" + entry.path().filename().string());
    TestZone zone;
    zone.origin = entry.path().stem().string();
    zone.key = lower(zone.origin);
    zone.path = zones_dir + "/" + entry.path().filename().string();
    all.push_back(std::move(zone));
  }
  std::sort(all.begin(), all.end(), [](const TestZone& x, const TestZone& y) { return x.key < y.key; });
  ASSERT_GE(all.size(), 10u) << "tests/zones/ lost its zones";

  Tally run;
  // A zone one server cannot load is a difference like any other: on the allow-list by name,
  // or a failure. Never a silent skip.
  auto not_loaded = [&](const TestZone& zone, const std::string& side, const std::string& why) {
    Difference d;
    d.zone = zone.key;
    d.qname = zone.key + ".";
    d.qtype = "SOA";
    d.transport = "udp";
    d.edns = "edns";
    d.kind = "not-loaded";
    d.side = side;  // the server that did not load it
    d.detail = fmt::format("  {} did not load the zone: {}\n", side, why);
    const AllowEntry* entry = allow.allow(d);
    run.differences.push_back({d, entry});
  };

  // cutover's own parser reads each zone (the queries come from it); one it refuses is left
  // out of both servers.
  std::vector<TestZone> zones;
  for (auto& zone : all) {
    auto origin = dns::Name::from_text(zone.origin + ".");
    ASSERT_TRUE(origin.ok()) << zone.origin;
    auto parsed = zone::parse_master_file(*origin, zone.path);
    auto check = run_command({CUTOVER_BINARY, "check-zone", zone.origin, zone.path}, std::chrono::seconds(30));
    if (zone::has_errors(parsed.diagnostics) || check.exit_code != 0) {
      std::string why = check.err;
      for (const auto& diagnostic : parsed.diagnostics) why += diagnostic.to_string() + "\n";
      not_loaded(zone, "cutover", why);
      continue;
    }
    for (auto& record : parsed.records) zone.records.push_back(std::move(record.record));
    zones.push_back(std::move(zone));
  }
  ASSERT_FALSE(zones.empty());

  ServerSpec spec;
  for (const auto& zone : zones) spec.zones.push_back({zone.origin + ".", zone.path});
  CutoverServer cutover(spec);

  // free_port() only says the port was free a moment ago: a start whose port another test
  // took in between never answers, so it is tried again on a new port (three times at most).
  std::uint16_t bind_port = 0;
  std::unique_ptr<ChildProcess> named_process;
  bool bind_ready = false;
  for (int attempt = 0; attempt < 3 && !bind_ready; ++attempt) {
    if (named_process) named_process->stop();
    bind_port = free_port();
    named_process = std::make_unique<ChildProcess>(bind_command(scratch, zones_dir, bind_port, zones),
                                                   fmt::format("{}/named-{}.log", scratch, attempt));
    // named logs "all zones loaded" once it has tried each; bounded wait.
    auto bind_deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < bind_deadline && named_process->running()) {
      if (named_process->log().find("all zones loaded") != std::string::npos && soa_reply(bind_port, zones.front())) {
        bind_ready = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ChildProcess& named = *named_process;
  ASSERT_TRUE(bind_ready) << "named did not start; log:\n" << named.log();

  std::vector<const TestZone*> compared;
  for (const auto& zone : zones) {
    bool ours = serves(cutover.port(), zone);
    bool theirs = named.log().find("zone " + zone.origin + "/IN: loaded serial") != std::string::npos &&
                  serves(bind_port, zone);
    if (ours && theirs) {
      compared.push_back(&zone);
    } else if (!theirs) {
      std::string why;
      std::istringstream log(named.log());
      for (std::string line; std::getline(log, line);) {
        if (line.find(zone.origin) != std::string::npos) why += "\n    " + line;
      }
      not_loaded(zone, "bind", why + "\n    (" + named.log_path() + ")");
    } else {
      not_loaded(zone, "cutover", "no authoritative SOA answer; see " + cutover.log());
    }
  }

  // Same bytes to both servers, variant by variant; TCP over one kept connection per server.
  TcpExchanger cutover_tcp(cutover.port(), kExchangeTimeout);
  TcpExchanger bind_tcp(bind_port, kExchangeTimeout);
  std::size_t no_replies = 0;
  std::uint16_t id = 0;
  const auto run_deadline = started + std::chrono::seconds(120);
  for (const TestZone* zone : compared) {
    auto queries = queries_for(*zone);
    // The cap keeps the run bounded; a zone that reaches it would lose queries silently.
    EXPECT_LT(queries.size(), kMaxQueriesPerZone)
        << zone->origin << " calls for more queries than kMaxQueriesPerZone; raise it or split the zone";
    run.queries += queries.size();
    for (const auto& query : queries) {
      for (const auto& variant : kVariants) {
        if (!run.fatal.empty()) break;
        if (Clock::now() > run_deadline) {
          run.fatal.push_back("the run passed its time bound of 120 s");
          break;
        }
        auto bytes = query_bytes(++id, query, variant);
        bool udp = std::string(variant.transport) == "udp";
        auto ask = [&](std::uint16_t port, TcpExchanger& tcp) {
          if (!udp) return tcp.exchange(bytes);
          auto reply = udp_exchange(port, bytes, kExchangeTimeout);
          return reply ? reply : udp_exchange(port, bytes, kExchangeTimeout);  // one retry: UDP
        };
        auto ours = ask(cutover.port(), cutover_tcp);
        auto theirs = ask(bind_port, bind_tcp);
        run.exchanges += 2;
        std::vector<Difference> found;
        auto one = [&](const char* kind, const char* side, std::string detail) {
          Difference d;
          d.kind = kind;
          d.side = side;
          d.detail = std::move(detail);
          found.push_back(std::move(d));
        };
        if (!ours || !theirs) {
          if (!ours && !theirs) {
            one("no-reply", "both", "  neither server replied\n");
          } else {
            one("no-reply", ours ? "cutover" : "bind", fmt::format("  only {} replied\n", ours ? "cutover" : "bind"));
          }
          if (++no_replies > kMaxNoReplies) run.fatal.push_back("more than 20 queries got no reply; stopping");
        } else {
          auto parsed_ours = dns::parse_message(*ours);
          auto parsed_theirs = dns::parse_message(*theirs);
          // A UDP reply may not exceed 512 octets without EDNS (RFC 1035 §4.2.1) or the
          // 1232 the query advertised with it (RFC 6891 §6.2.5).
          std::size_t limit = std::string(variant.edns) == "none" ? 512 : 1232;
          if (udp && ours->size() > limit) one("malformed", "cutover", fmt::format("  cutover's reply has {} octets\n", ours->size()));
          if (udp && theirs->size() > limit) one("malformed", "bind", fmt::format("  BIND's reply has {} octets\n", theirs->size()));
          if (!parsed_ours.ok() || !parsed_theirs.ok()) {
            if (!parsed_ours.ok()) one("malformed", "cutover", "  cutover's reply does not parse\n");
            if (!parsed_theirs.ok()) one("malformed", "bind", "  BIND's reply does not parse\n");
          } else {
            auto compared_sections = compare(*parsed_ours, *parsed_theirs);
            found.insert(found.end(), compared_sections.begin(), compared_sections.end());
          }
        }
        if (found.empty()) ++run.identical;
        for (auto& d : found) {
          d.zone = zone->key;
          d.qname = lower(query.name.to_text());
          d.qtype = dns::type_to_text(query.type);
          d.transport = variant.transport;
          d.edns = variant.edns;
          d.detail = fmt::format("{} {} ({}): {}\n{}", query.name.to_text(), d.qtype, variant_text(variant), d.kind,
                                 d.detail);
          const AllowEntry* entry = allow.allow(d);
          run.differences.push_back({std::move(d), entry});
        }
      }
    }
  }
  named.stop();
  cutover.stop();
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);

  // The report: every difference with the entry that allowed it, in a file; the unexplained
  // ones (up to kMaxPrinted) and a count per class in the failure message.
  std::string report;
  std::string unexplained;
  std::map<std::string, std::size_t> unexplained_classes;
  std::size_t unexplained_count = 0;
  for (const auto& [d, entry] : run.differences) {
    report += fmt::format("[{}] {}: {}", entry ? entry->id : "NOT ALLOWED", d.zone, d.detail);
    if (entry) continue;
    ++unexplained_count;
    if (unexplained_count <= kMaxPrinted) unexplained += "zone " + d.zone + ": " + d.detail;
    unexplained_classes[fmt::format("zone {} kind {} side {} qtype {} {}/{} rrtypes [{}]", d.zone, d.kind, d.side,
                                    d.qtype, d.transport, d.edns, fmt::join(d.rrtypes, ","))]++;
  }
  write_file(scratch + "/differences.txt", report);
  std::printf("differential: %zu zones compared, %zu queries x %zu variants, %zu exchanges, %zu identical answers, "
              "%zu differences (%zu not allowed), %lld ms; all differences in %s/differences.txt\n",
              compared.size(), run.queries, std::size(kVariants), run.exchanges, run.identical,
              run.differences.size(), unexplained_count, static_cast<long long>(elapsed.count()), scratch.c_str());

  for (const auto& problem : run.fatal) ADD_FAILURE() << problem << "; cutover log:\n" << cutover.log();
  if (unexplained_count > 0) {
    std::string classes;
    for (const auto& [text, count] : unexplained_classes) classes += fmt::format("  {} x {}\n", count, text);
    ADD_FAILURE() << unexplained_count << " differences are not on " << allow_list_path() << "\nby class:\n"
                  << classes << "the first " << std::min(unexplained_count, kMaxPrinted) << ":\n"
                  << unexplained << "(all in " << scratch << "/differences.txt)";
  }
  // An entry that allows nothing is stale: the difference it described is gone (remove it)
  // or the entry no longer says what it should.
  std::string unused;
  for (const auto& entry : allow.entries()) {
    if (entry.hits == 0) unused += "  " + entry.id + " (" + entry.rule + ")\n";
  }
  EXPECT_TRUE(unused.empty()) << "allow-list entries that matched no difference (remove them):\n" << unused;
}

}  // namespace
}  // namespace cutover::testing::differential
