// Parsing of dig (BIND 9.18) and kdig (Knot 3.2) presentation output. Both print the same
// record lines and differ only in the header, flags and EDNS lines, so one line-driven
// parser handles both with a dialect switch.
#include "support/dig.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <sstream>

#include "support/process.h"

namespace cutover::testing {
namespace {

enum class Dialect { kDig, kKdig };
enum class Section { kNone, kAnswer, kAuthority, kAdditional };

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::uint32_t to_number(std::string_view text) {
  std::uint32_t value = 0;
  text = trim(text);
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// The text after "KEY" up to the next ',' or ';' (both tools separate fields with one of them).
std::string field_after(std::string_view line, std::string_view key) {
  auto at = line.find(key);
  if (at == std::string_view::npos) return {};
  auto rest = line.substr(at + key.size());
  auto end = rest.find_first_of(",;");
  return std::string(trim(rest.substr(0, end)));
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  std::string word;
  while (in >> word) out.push_back(lower(word));
  return out;
}

// ";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1" (dig) or with ';' separators (kdig).
void parse_header_line(std::string_view line, DigResult& result) {
  result = DigResult{};
  result.no_reply = false;
  result.opcode = field_after(line, "opcode:");
  result.status = field_after(line, "status:");
}

// ";; flags: qr aa rd; QUERY: 1, ANSWER: 2, ..." (dig) or ";; Flags: qr aa rd; QUERY: 1; ..." (kdig).
void parse_flags_line(std::string_view line, DigResult& result) {
  auto colon = line.find(':');
  auto semicolon = line.find(';', colon);
  result.flags = words(line.substr(colon + 1, semicolon - colon - 1));
  result.qdcount = to_number(field_after(line, "QUERY:"));
  result.ancount = to_number(field_after(line, "ANSWER:"));
  result.nscount = to_number(field_after(line, "AUTHORITY:"));
  result.arcount = to_number(field_after(line, "ADDITIONAL:"));
}

// dig:  "; EDNS: version: 0, flags: do; udp: 1232"
// kdig: ";; Version: 0; flags: do; UDP size: 1232 B; ext-rcode: NOERROR"
void parse_edns_line(std::string_view line, Dialect dialect, DigResult& result) {
  result.edns = true;
  result.edns_version = to_number(field_after(line, dialect == Dialect::kDig ? "version:" : "Version:"));
  result.edns_flags = words(field_after(line, "flags:"));
  std::string size = field_after(line, dialect == Dialect::kDig ? "udp:" : "UDP size:");
  result.udp_size = to_number(size.substr(0, size.find(' ')));
}

// "owner TTL CLASS TYPE rdata..." separated by tabs or spaces (the rdata may be empty, as an
// APL record with no items is); false if the line is not one.
bool parse_record_line(std::string_view line, DigRecord& record) {
  std::string_view fields[4];
  std::string_view rest = line;
  for (std::size_t i = 0; i < 4; ++i) {
    rest = trim(rest);
    auto end = rest.find_first_of(" \t");
    if (end == std::string_view::npos && (i < 3 || rest.empty())) return false;
    if (end == std::string_view::npos) end = rest.size();
    fields[i] = rest.substr(0, end);
    rest = rest.substr(end);
  }
  if (fields[1].empty() || !std::all_of(fields[1].begin(), fields[1].end(), ::isdigit)) return false;
  record.owner = lower(fields[0]);
  if (record.owner.empty() || record.owner.back() != '.') record.owner.push_back('.');
  record.ttl = to_number(fields[1]);
  record.type = upper(fields[3]);
  record.rdata = std::string(trim(rest));
  return true;
}

Section section_named(std::string_view line) {
  if (line.find("ANSWER SECTION") != std::string_view::npos) return Section::kAnswer;
  if (line.find("AUTHORITY SECTION") != std::string_view::npos) return Section::kAuthority;
  if (line.find("ADDITIONAL SECTION") != std::string_view::npos) return Section::kAdditional;
  return Section::kNone;
}

DigResult parse(std::string_view text, Dialect dialect) {
  DigResult result;
  Section section = Section::kNone;
  std::string_view flags_prefix = dialect == Dialect::kDig ? ";; flags:" : ";; Flags:";
  std::string_view edns_prefix = dialect == Dialect::kDig ? "; EDNS:" : ";; Version:";
  std::istringstream in{std::string(text)};
  std::string line_text;
  while (std::getline(in, line_text)) {
    std::string_view line = line_text;
    if (line.find("->>HEADER<<-") != std::string_view::npos) {
      parse_header_line(line, result);
      section = Section::kNone;
    } else if (starts_with(line, flags_prefix)) {
      parse_flags_line(line, result);
    } else if (starts_with(line, edns_prefix)) {
      parse_edns_line(line, dialect, result);
    } else if (starts_with(line, ";")) {
      section = section_named(line);
    } else if (trim(line).empty()) {
      section = Section::kNone;
    } else if (section != Section::kNone && !result.no_reply) {
      DigRecord record;
      if (!parse_record_line(line, record)) continue;
      auto& target = section == Section::kAnswer      ? result.answer
                     : section == Section::kAuthority ? result.authority
                                                      : result.additional;
      target.push_back(std::move(record));
    }
  }
  return result;
}

DigResult run_tool(std::vector<std::string> argv, Dialect dialect) {
  // Both tools give up after 2 s; the harness allows for slow starts under parallel ctest.
  CommandResult run = run_command(std::move(argv), std::chrono::seconds(10));
  DigResult result = parse(run.out, dialect);
  result.exit_code = run.exit_code;
  result.timed_out = run.timed_out;
  result.raw = run.out + run.err;
  return result;
}

std::vector<std::string> base_argv(std::string tool, std::uint16_t port, std::string name, std::string type) {
  return {std::move(tool), "@127.0.0.1", "-p", std::to_string(port), std::move(name), std::move(type)};
}

}  // namespace

bool DigResult::has_flag(std::string_view flag) const {
  return std::find(flags.begin(), flags.end(), lower(flag)) != flags.end();
}

std::vector<std::string> DigResult::rdatas(const std::vector<DigRecord>& section, std::string_view type) {
  std::vector<std::string> out;
  for (const auto& record : section) {
    if (record.type == upper(type)) out.push_back(record.rdata);
  }
  return out;
}

CommandResult nsupdate(std::uint16_t port, const std::string& zone, const std::string& commands,
                       const std::string& key, const std::string& script) {
  write_file(script, "server 127.0.0.1 " + std::to_string(port) + "\nzone " + zone + "\n" + commands + "send\n");
  std::vector<std::string> argv{"nsupdate", "-t", "5"};
  if (!key.empty()) argv.insert(argv.end(), {"-y", key});
  argv.push_back(script);
  return run_command(argv, std::chrono::seconds(30));
}

DigResult dig(std::uint16_t port, std::string name, std::string type, std::vector<std::string> extra) {
  auto argv = base_argv("dig", port, std::move(name), std::move(type));
  argv.insert(argv.end(), {"+time=2", "+tries=1"});
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_tool(std::move(argv), Dialect::kDig);
}

DigResult kdig(std::uint16_t port, std::string name, std::string type, std::vector<std::string> extra) {
  auto argv = base_argv("kdig", port, std::move(name), std::move(type));
  argv.insert(argv.end(), {"+time=2", "+retry=0"});
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_tool(std::move(argv), Dialect::kKdig);
}

DigResult parse_dig_output(std::string_view text) { return parse(text, Dialect::kDig); }
DigResult parse_kdig_output(std::string_view text) { return parse(text, Dialect::kKdig); }

}  // namespace cutover::testing
