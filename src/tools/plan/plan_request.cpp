// Parsing of plan inputs. Record data goes through the zone parser, so --set accepts exactly
// what a zone file accepts and reports the same errors.
#include "tools/plan/plan_request.h"

#include <cstdio>
#include <limits>
#include <sstream>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "dns/rdata.h"
#include "dns/types.h"
#include "tools/calc/client_profiles.h"
#include "zone/master_parser.h"

namespace cutover::tools {
namespace {

using base::ErrorCode;
using base::make_error;

std::vector<std::string> split_words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::string RecordChange::text() const {
  if (kind == Kind::kDelete) return fmt::format("delete {} {}", owner.to_text(), dns::type_to_text(type));
  return fmt::format("set {} {} {}", owner.to_text(), dns::type_to_text(type), rdata_text);
}

base::Result<RecordChange> parse_set_change(std::string_view text, const dns::Name& origin) {
  // A placeholder TTL lets "owner TYPE RDATA" parse as a master-file line; the plan picks the TTL.
  zone::ParseResult parsed = zone::parse_master_text(origin, fmt::format("$TTL 300\n{}\n", text), "--set");
  if (!parsed.diagnostics.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--set '{}': {}", text, parsed.diagnostics.front().message));
  }
  if (parsed.records.size() != 1) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("--set '{}': expected one record", text));
  }
  const auto& record = parsed.records.front().record;
  if (!record.owner.is_subdomain_of(origin)) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("--set '{}': outside {}", text, origin.to_text()));
  }
  return RecordChange{RecordChange::Kind::kSet, record.owner, record.type,
                      dns::rdata_to_text(record.type, record.rdata)};
}

base::Result<RecordChange> parse_delete_change(std::string_view text, const dns::Name& origin) {
  auto words = split_words(text);
  if (words.size() != 2) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("--delete '{}': expected NAME TYPE", text));
  }
  auto owner = words[0] == "@" ? base::Result<dns::Name>(origin) : dns::Name::from_text(words[0], &origin);
  auto type = dns::type_from_text(words[1]);
  if (!owner || !type || !owner->is_subdomain_of(origin)) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("--delete '{}': bad name or type", text));
  }
  return RecordChange{RecordChange::Kind::kDelete, *owner, *type, {}};
}

base::Result<std::vector<dns::Name>> parse_nameserver_list(std::string_view text, const dns::Name& origin) {
  std::vector<dns::Name> names;
  std::string item;
  std::istringstream in{std::string(text)};
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    auto name = dns::Name::from_text(item, &origin);
    if (!name) return make_error(ErrorCode::kInvalidArgument, fmt::format("--move-ns '{}': {}", item, name.error().message));
    names.push_back(*name);
  }
  if (names.empty()) return make_error(ErrorCode::kInvalidArgument, "--move-ns: no name servers given");
  return names;
}

base::Result<std::vector<ClientEntry>> parse_client_inventory(std::string_view yaml,
                                                              std::span<const MeasuredClient> measured) {
  std::vector<ClientEntry> clients;
  try {
    YAML::Node root = YAML::Load(std::string(yaml));
    if (!root["services"] || !root["services"].IsSequence()) {
      return make_error(ErrorCode::kInvalidArgument, "inventory: expected a 'services' list");
    }
    for (const auto& item : root["services"]) {
      ClientEntry entry;
      entry.service = item["name"] ? item["name"].as<std::string>() : "unnamed";
      if (item["profile"]) {
        const auto* profile = find_client_profile(item["profile"].as<std::string>());
        if (!profile) {
          return make_error(ErrorCode::kInvalidArgument,
                            fmt::format("inventory: {}: unknown profile '{}'", entry.service,
                                        item["profile"].as<std::string>()));
        }
        entry.runtime = std::string(profile->name);
        entry.cache_seconds = profile->cache_seconds.value_or(std::numeric_limits<double>::infinity());
        entry.source = std::string(profile->source);
      } else if (item["client"]) {
        auto terms = find_client_terms(item["client"].as<std::string>(), measured);
        if (!terms) {
          return make_error(ErrorCode::kInvalidArgument,
                            fmt::format("inventory: {}: unknown client '{}'{}", entry.service,
                                        item["client"].as<std::string>(),
                                        measured.empty() ? " (a lab client id needs --lab-results)" : ""));
        }
        entry.runtime = terms->name;
        entry.cache_seconds = terms->cache;
        entry.source = terms->basis;
      } else if (item["cache_seconds"]) {
        entry.runtime = item["runtime"] ? item["runtime"].as<std::string>() : "custom";
        entry.cache_seconds = item["cache_seconds"].as<double>();
        if (entry.cache_seconds < 0) entry.cache_seconds = std::numeric_limits<double>::infinity();
        entry.source = "inventory";
      } else {
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("inventory: {}: needs 'profile', 'client' or 'cache_seconds'", entry.service));
      }
      clients.push_back(std::move(entry));
    }
  } catch (const YAML::Exception& e) {
    return make_error(ErrorCode::kMalformed, fmt::format("inventory: {}", e.what()));
  }
  return clients;
}

base::Result<std::chrono::sys_seconds> parse_utc_time(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::string copy(text);
  char separator = 0;
  int fields = std::sscanf(copy.c_str(), "%d-%d-%d%c%d:%d:%d", &year, &month, &day, &separator, &hour, &minute, &second);
  if (fields < 6 || (separator != 'T' && separator != ' ')) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}': expected YYYY-MM-DDTHH:MM[:SS]Z (UTC)", text));
  }
  std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                   std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}': not a valid date and time", text));
  }
  return std::chrono::sys_days(date) + std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second);
}

std::string format_utc_time(std::chrono::sys_seconds time) { return fmt::format("{:%Y-%m-%d %H:%M:%S} UTC", time); }

}  // namespace cutover::tools
