// Parsers of BIND, PowerDNS Recursor, dnsmasq and Knot Resolver cache dumps (Debian 12 formats).
#include "lab/resolvers/cache_dumps.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <ctime>
#include <optional>
#include <sstream>

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string trim(const std::string& text) {
  std::size_t begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

std::string absolute(std::string name) {
  if (name.empty() || name.back() != '.') name += '.';
  return name;
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The value in "[key value]" of a BIND ADB line, e.g. "[srtt 2040]" -> "2040".
std::string bracket_value(const std::string& line, const std::string& key) {
  std::size_t at = line.find("[" + key + " ");
  if (at == std::string::npos) return {};
  at += key.size() + 2;
  return line.substr(at, line.find(']', at) - at);
}

// Appends a record to `rrsets`, into the last entry when it is the same name and type.
void add_record(Json& rrsets, const Json& head, const std::string& data) {
  if (!rrsets.empty() && rrsets.back()["name"] == head["name"] && rrsets.back()["type"] == head["type"]) {
    rrsets.back()["data"].push_back(data);
    return;
  }
  Json entry = head;
  entry["data"] = Json::array({data});
  rrsets.push_back(entry);
}

std::string joined(const std::vector<std::string>& parts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < parts.size(); ++i) out += (out.empty() ? "" : " ") + parts[i];
  return out;
}

}  // namespace

std::vector<std::string> dump_fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string field;
  while (in >> field) out.push_back(field);
  return out;
}

bool name_is_under(const std::string& owner, const std::vector<std::string>& names) {
  std::string name = lower(absolute(owner));
  for (const auto& wanted : names) {
    std::string base = lower(absolute(wanted));
    if (name == base) return true;
    if (name.size() > base.size() && name.compare(name.size() - base.size(), base.size(), base) == 0 &&
        name[name.size() - base.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

Json parse_bind_cache_dump(const std::string& dump, const std::vector<std::string>& names) {
  Json rrsets = Json::array();
  Json messages = Json::array();
  Json infra = Json::array();
  Json state = Json::object();
  enum class Section { kNone, kCache, kAdb, kBad, kServfail } section = Section::kNone;
  std::string trust;
  std::string stale_note;
  std::string owner;
  std::string adb_zone;
  bool in_default_view = false;
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    // Only the view that answers clients; `_bind` (CHAOS) follows it.
    if (starts_with(line, "; Start view ")) in_default_view = line == "; Start view _default";
    if (!in_default_view) continue;
    if (starts_with(line, "; Cache dump of view")) section = Section::kCache;
    if (line == "; Address database dump") section = Section::kAdb;
    if (line == "; Bad cache") section = Section::kBad;
    if (line == "; SERVFAIL cache") section = Section::kServfail;
    if (starts_with(line, "; using a ")) {
      std::vector<std::string> parts = dump_fields(line);
      if (parts.size() > 3 && is_number(parts[3])) state["stale_ttl"] = std::stoll(parts[3]);
    }
    if (line.empty() || starts_with(line, "$DATE")) continue;
    std::vector<std::string> parts = dump_fields(line);
    if (section == Section::kCache) {
      if (line[0] == ';') {
        // "; authanswer", "; glue", ...: the rank of the records below it (dns_trust_t);
        // "; stale ..." marks a record kept past its TTL for serve-stale.
        std::string comment = trim(line.substr(1));
        if (starts_with(comment, "stale") || starts_with(comment, "ancient")) {
          stale_note = comment;
        } else if (!comment.empty() && comment.find(' ') == std::string::npos) {
          trust = comment;
        }
        continue;
      }
      bool continued = std::isspace(static_cast<unsigned char>(line[0]));
      std::size_t at = 0;
      if (!continued) owner = parts[at++];
      if (at >= parts.size() || !is_number(parts[at])) continue;
      long long ttl = std::stoll(parts[at++]);
      if (at < parts.size() && (parts[at] == "IN" || parts[at] == "CH" || parts[at] == "HS")) ++at;
      if (at >= parts.size()) continue;
      std::string type = parts[at++];
      if (!name_is_under(owner, names)) {
        stale_note.clear();
        continue;
      }
      if (starts_with(type, "\\-")) {
        // A negative entry: "\-ANY ;-$NXDOMAIN" for the name, "\-AAAA ;-$NXRRSET" for a type.
        std::string rest = joined(parts, at, parts.size());
        std::string rcode = rest.find("NXDOMAIN") != std::string::npos ? "NXDOMAIN" : "NOERROR";
        messages.push_back({{"name", owner}, {"type", type.substr(2)}, {"rcode", rcode}, {"ttl", ttl},
                            {"trust_name", trust}, {"negative", true}});
      } else {
        Json head{{"name", owner}, {"type", type}, {"ttl", ttl}, {"trust_name", trust}, {"stale", !stale_note.empty()}};
        if (!stale_note.empty()) head["stale_note"] = stale_note;
        add_record(rrsets, head, joined(parts, at, parts.size()));
      }
      stale_note.clear();
    } else if (section == Section::kAdb && line.size() > 2 && line[0] == ';') {
      // "; zone [v4 TTL 1800] ..." names the zone of the server lines
      // ";\t127.0.0.1 [srtt 2040] [flags 00000004] [edns 4/0] [plain 0/0] [udpsize 512] [ttl 1800]".
      if (line[1] == '\t' && parts.size() > 2 && parts[2] == "[srtt") {
        std::string srtt = bracket_value(line, "srtt");
        Json server{{"address", parts[1]}, {"zone", adb_zone}};
        if (is_number(srtt)) {
          server["srtt_us"] = std::stoll(srtt);
          server["rtt"] = std::stoll(srtt) / 1000;
        }
        for (const char* key : {"edns", "plain", "flags"}) server[key] = bracket_value(line, key);
        std::string udpsize = bracket_value(line, "udpsize");
        if (is_number(udpsize)) server["udpsize"] = std::stoll(udpsize);
        std::string ttl = bracket_value(line, "ttl");
        if (is_number(ttl)) server["ttl"] = std::stoll(ttl);
        infra.push_back(server);
      } else if (line[1] == ' ' && parts.size() > 2 && starts_with(parts[2], "[v4")) {
        adb_zone = absolute(parts[1]);
      }
    } else if ((section == Section::kServfail || section == Section::kBad) && parts.size() >= 4 &&
               parts[0] == ";" && parts[2] == "[ttl") {
      // "; www.example/A [ttl 900]": the entry's remaining time in milliseconds.
      std::size_t slash = parts[1].rfind('/');
      std::string name = absolute(parts[1].substr(0, slash));
      if (slash == std::string::npos || !name_is_under(name, names)) continue;
      std::string ms = parts[3].substr(0, parts[3].find(']'));
      if (!is_number(ms)) continue;
      messages.push_back({{"name", name}, {"type", parts[1].substr(slash + 1)},
                          {"rcode", section == Section::kServfail ? "SERVFAIL" : "BAD"},
                          {"ttl", static_cast<double>(std::stoll(ms)) / 1000.0}, {"ttl_ms", std::stoll(ms)}});
    }
  }
  state["rrsets"] = rrsets;
  state["messages"] = messages;
  state["infra"] = infra;
  return state;
}

Json parse_pdns_cache_dump(const std::string& dump, const std::vector<std::string>& names) {
  Json rrsets = Json::array();
  Json messages = Json::array();
  Json packets = Json::array();
  enum class Section { kNone, kRecords, kNegative, kPackets } section = Section::kNone;
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    if (starts_with(line, "; main record cache dump")) section = Section::kRecords;
    if (starts_with(line, "; negcache dump")) section = Section::kNegative;
    if (starts_with(line, "; main packet cache dump")) section = Section::kPackets;
    if (line.empty() || line[0] == ';') continue;
    std::size_t comment_at = line.find(" ; ");
    std::vector<std::string> parts = dump_fields(line.substr(0, comment_at));
    std::vector<std::string> notes =
        comment_at == std::string::npos ? std::vector<std::string>{} : dump_fields(line.substr(comment_at + 3));
    if (parts.empty() || !name_is_under(parts[0], names)) continue;
    auto note = [&](const std::string& key) -> std::string {
      for (const auto& item : notes) {
        if (starts_with(item, key + "=")) return item.substr(key.size() + 1);
      }
      return {};
    };
    if (section == Section::kRecords && parts.size() >= 6 && is_number(parts[1]) && is_number(parts[2])) {
      // "name ORIG_TTL REMAINING IN TYPE rdata ; (dnssec state) auth=1 zone=Z from=ADDR ...".
      std::string dnssec = notes.empty() ? "" : notes[0];
      if (dnssec.size() > 2 && dnssec.front() == '(') dnssec = dnssec.substr(1, dnssec.size() - 2);
      Json head{{"name", parts[0]}, {"type", parts[4]}, {"ttl", std::stoll(parts[2])},
                {"orig_ttl", std::stoll(parts[1])}, {"trust_name", note("auth") == "1" ? "auth" : "non-auth"},
                {"dnssec", dnssec}, {"zone", note("zone")}, {"from", note("from")}};
      add_record(rrsets, head, joined(parts, 5, parts.size()));
    } else if (section == Section::kNegative && parts.size() >= 6 && parts[4] == "VIA" && is_number(parts[1])) {
      // "name REMAINING IN TYPE VIA zone ; (state) origttl=N": TYPE0 is the whole name (NXDOMAIN).
      bool nxdomain = parts[3] == "TYPE0";
      Json entry{{"name", parts[0]}, {"type", nxdomain ? "ANY" : parts[3]}, {"rcode", nxdomain ? "NXDOMAIN" : "NOERROR"},
                 {"ttl", std::stoll(parts[1])}, {"zone", parts[5]}, {"negative", true}};
      std::string orig = note("origttl");
      if (is_number(orig)) entry["orig_ttl"] = std::stoll(orig);
      messages.push_back(entry);
    } else if (section == Section::kPackets && parts.size() >= 3 && is_number(parts[1])) {
      // "name REMAINING TYPE ; tag 0 udp": a whole reply, whatever its rcode.
      packets.push_back({{"name", parts[0]}, {"type", parts[2]}, {"ttl", std::stoll(parts[1])}});
    }
  }
  return Json{{"rrsets", rrsets}, {"messages", messages}, {"packet_cache", packets}};
}

Json parse_pdns_nsspeeds(const std::string& dump) {
  Json servers = Json::array();
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ';') continue;
    // "nsname\ttimestamp\tip/decaying-ms/last-ms ...": a server the recursor has timed.
    std::vector<std::string> parts = dump_fields(line);
    for (std::size_t i = 2; i < parts.size(); ++i) {
      std::size_t last = parts[i].rfind('/');
      std::size_t first = last == std::string::npos ? last : parts[i].rfind('/', last - 1);
      if (first == std::string::npos) continue;
      try {
        servers.push_back({{"name", parts[0]}, {"address", parts[i].substr(0, first)},
                           {"rtt", std::stod(parts[i].substr(first + 1, last - first - 1))},
                           {"last_rtt", std::stod(parts[i].substr(last + 1))}});
      } catch (const std::exception&) {
        // Not a timing (another version's column): the server is left out.
      }
    }
  }
  return servers;
}

namespace {

// dnsmasq's table columns (cache.c dump_cache): host 30, address 40, flags 10, expires 24.
constexpr std::size_t kHostWidth = 30;
constexpr std::size_t kAddressAt = 31;
constexpr std::size_t kFlagsAt = 72;
constexpr std::size_t kExpiresAt = 83;
constexpr std::size_t kExpiresWidth = 24;

// "Wed Dec  2 14:46:27 2026" (ctime) as seconds, read as UTC; only differences are used.
std::optional<std::int64_t> ctime_seconds(const std::string& text) {
  std::tm tm{};
  const char* end = ::strptime(text.c_str(), "%a %b %d %H:%M:%S %Y", &tm);
  if (end == nullptr) return std::nullopt;
  return static_cast<std::int64_t>(::timegm(&tm));
}

// The message of a log-facility line, "Dec  2 14:46:20 dnsmasq[12760]: MESSAGE".
std::string log_message(const std::string& line) {
  std::size_t at = line.find("]: ");
  return at == std::string::npos ? std::string() : line.substr(at + 3);
}

bool is_table_row(const std::string& message) {
  return message.size() >= kFlagsAt + 1 && message[kHostWidth] == ' ' && message[kFlagsAt - 1] == ' ';
}

std::string dnsmasq_type(char flag, const std::string& address) {
  switch (flag) {
    case '4': return "A";
    case '6': return "AAAA";
    case 'C': return "CNAME";
    case 'S': return "SRV";
    default:
      // Other types show as "<SOA>", "<TXT>", ... in the address column; none for a name's NXDOMAIN.
      if (address.size() > 2 && address.front() == '<') return address.substr(1, address.size() - 2);
      return "ANY";
  }
}

}  // namespace

Json parse_dnsmasq_cache_dump(const std::string& log, const std::vector<std::string>& names) {
  std::vector<std::string> lines;
  {
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  std::size_t header = lines.size();
  for (std::size_t i = lines.size(); i-- > 0;) {
    if (starts_with(log_message(lines[i]), "Host ") && log_message(lines[i]).find("Expires") != std::string::npos) {
      header = i;
      break;
    }
  }
  if (header == lines.size()) return Json{{"found", false}};
  Json rrsets = Json::array();
  Json messages = Json::array();
  Json infra = Json::array();
  // The dump's own time: the header line's syslog stamp ("Dec  2 14:46:20"), its year taken
  // from the first Expires column (the stamp has none).
  std::string stamp = lines[header].substr(0, 15);
  std::optional<std::int64_t> now;
  for (std::size_t i = header; i-- > 0;) {
    std::string message = log_message(lines[i]);
    if (starts_with(message, "server ") && message.find("queries sent") != std::string::npos) {
      // "server 127.0.0.1#26201: queries sent 4, retried 0, failed 0, nxdomain replies 1, avg. latency 0ms"
      std::vector<std::string> parts = dump_fields(message);
      Json server{{"address", parts[1].substr(0, parts[1].find(':'))}};
      for (std::size_t k = 2; k + 1 < parts.size(); ++k) {
        std::string value = parts[k + 1];
        if (!value.empty() && value.back() == ',') value.pop_back();
        if (parts[k] == "sent" && is_number(value)) server["queries_sent"] = std::stoll(value);
        if (parts[k] == "retried" && is_number(value)) server["retried"] = std::stoll(value);
        if (parts[k] == "failed" && is_number(value)) server["failed"] = std::stoll(value);
        if (parts[k] == "latency" && value.size() > 2) server["rtt"] = std::stoll(value.substr(0, value.size() - 2));
      }
      infra.insert(infra.begin(), server);
    }
    if (starts_with(message, "time ")) break;
  }
  for (std::size_t i = header + 2; i < lines.size(); ++i) {
    std::string message = log_message(lines[i]);
    if (!is_table_row(message)) break;
    std::string host = trim(message.substr(0, kHostWidth));
    std::string address = trim(message.substr(kAddressAt, kFlagsAt - 1 - kAddressAt));
    std::string flags = message.substr(kFlagsAt, kExpiresAt - 1 - kFlagsAt);
    std::string expires = message.size() > kExpiresAt ? trim(message.substr(kExpiresAt, kExpiresWidth)) : "";
    bool truncated = host.size() == kHostWidth;
    bool wanted = !host.empty() && name_is_under(host, names);
    if (!wanted && truncated) {
      for (const auto& name : names) wanted = wanted || starts_with(lower(name), lower(host));
    }
    if (!wanted) continue;
    // Flag columns: type (4, 6, C, S, T, ...), then F(orwarded) R I D N(egative) X(NXDOMAIN) H C V.
    auto flag = [&](std::size_t at, char c) { return flags.size() > at && flags[at] == c; };
    std::optional<std::int64_t> expiry = ctime_seconds(expires);
    if (!now && expires.size() >= 4) {
      std::tm tm{};
      std::string with_year = stamp + " " + expires.substr(expires.size() - 4);
      if (::strptime(with_year.c_str(), "%b %d %H:%M:%S %Y", &tm) != nullptr) now = ::timegm(&tm);
    }
    Json ttl = expiry && now ? Json(*expiry - *now) : Json(nullptr);
    std::string name = absolute(host);
    std::string type = dnsmasq_type(flags.empty() ? ' ' : flags[0], address);
    if (flag(5, 'N')) {
      Json entry{{"name", name}, {"type", type}, {"rcode", flag(6, 'X') ? "NXDOMAIN" : "NOERROR"}, {"ttl", ttl},
                 {"negative", true}, {"flags", trim(flags)}};
      if (truncated) entry["name_truncated"] = true;
      messages.push_back(entry);
    } else {
      Json head{{"name", name}, {"type", type}, {"ttl", ttl}, {"flags", trim(flags)},
                {"trust_name", flag(1, 'F') ? "forwarded" : "local"}};
      if (truncated) head["name_truncated"] = true;
      add_record(rrsets, head, address);
    }
  }
  return Json{{"found", true}, {"rrsets", rrsets}, {"messages", messages}, {"infra", infra}};
}

namespace {

// enum kr_rank (lib/resolve.h): a base value, with KR_RANK_AUTH (16) set for authoritative data.
std::string kresd_rank_name(int rank) {
  std::string base;
  switch (rank & ~16) {
    case 0: base = "initial"; break;
    case 1: base = "omit"; break;
    case 2: base = "try"; break;
    case 4: base = "indet"; break;
    case 5: base = "bogus"; break;
    case 6: base = "mismatch"; break;
    case 7: base = "missing"; break;
    case 8: base = "insecure"; break;
    case 32: base = "secure"; break;
    default: base = "rank" + std::to_string(rank & ~16);
  }
  return (rank & 16) ? "auth+" + base : base;
}

const char* rcode_name(int rcode) {
  static const char* kNames[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"};
  return rcode >= 0 && rcode < 6 ? kNames[rcode] : "OTHER";
}

}  // namespace

Json parse_kresd_control_reply(const std::string& reply) {
  std::size_t open = reply.find('\'');
  std::size_t close = reply.rfind('\'');
  if (open == std::string::npos || close <= open) return Json{{"found", false}};
  std::string text = reply.substr(open + 1, close - open - 1);
  Json settings = Json::object();
  Json rrsets = Json::array();
  Json messages = Json::array();
  Json count = nullptr;
  std::istringstream in(text);
  std::string item;
  bool first = true;
  while (std::getline(in, item, '|')) {
    std::vector<std::string> parts = dump_fields(item);
    if (first) {
      first = false;
      for (const auto& part : parts) {
        std::size_t eq = part.find('=');
        if (eq == std::string::npos || !is_number(part.substr(eq + 1))) continue;
        if (part.substr(0, eq) == "count") {
          count = std::stoll(part.substr(eq + 1));
        } else {
          settings[part.substr(0, eq)] = std::stoll(part.substr(eq + 1));
        }
      }
      continue;
    }
    // "name type remaining ttl rank packet rcode"
    if (parts.size() < 7) continue;
    try {
      long long remaining = std::stoll(parts[2]);
      int rank = std::stoi(parts[4]);
      if (parts[5] == "1") {
        messages.push_back({{"name", parts[0]}, {"type", parts[1]}, {"rcode", rcode_name(std::stoi(parts[6]))},
                            {"ttl", remaining}, {"orig_ttl", std::stoll(parts[3])}, {"trust_name", kresd_rank_name(rank)}});
      } else {
        rrsets.push_back({{"name", parts[0]}, {"type", parts[1]}, {"ttl", remaining}, {"orig_ttl", std::stoll(parts[3])},
                          {"rank", rank}, {"trust_name", kresd_rank_name(rank)}, {"data", Json::array()}});
      }
    } catch (const std::exception&) {
      // A malformed entry is left out; the others stand.
    }
  }
  return Json{{"found", true}, {"settings", settings}, {"cache_count", count}, {"rrsets", rrsets}, {"messages", messages}};
}

}  // namespace cutover::lab
