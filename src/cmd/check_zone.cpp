// `cutover check-zone ORIGIN FILE [--dump]`: loads a zone file the way the server would,
// prints every diagnostic to stderr and a summary (or, with --dump, the zone in canonical
// order) to stdout. Exit 0 when the zone loads, 1 when it has errors, 2 for a bad origin.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/loader.h"

namespace cutover::cmd {
namespace {

struct CheckZoneOptions {
  std::string origin;
  std::string file;
  bool dump = false;
};

// RFC 4034 §6.1 owner order, then type number, then canonical rdata octets (§6.3).
std::vector<dns::ResourceRecord> canonical_records(const zone::Zone& zone) {
  auto records = zone.records();
  auto key = [](const dns::ResourceRecord& record) {
    return std::make_tuple(static_cast<std::uint16_t>(record.type), dns::rdata_canonical(record.type, record.rdata));
  };
  std::stable_sort(records.begin(), records.end(), [&](const dns::ResourceRecord& a, const dns::ResourceRecord& b) {
    auto owner_order = a.owner.canonical_compare(b.owner);
    if (owner_order != 0) return owner_order < 0;
    return key(a) < key(b);
  });
  return records;
}

void print_dump(const zone::Zone& zone) {
  for (const auto& record : canonical_records(zone)) {
    fmt::print("{} {} IN {} {}\n", record.owner.lowercased().to_text(), record.ttl, dns::type_to_text(record.type),
               dns::rdata_to_text(record.type, record.rdata));
  }
}

int run_check_zone(const CheckZoneOptions& options) {
  std::string origin_text = options.origin.ends_with('.') ? options.origin : options.origin + ".";
  auto origin = dns::Name::from_text(origin_text);
  if (!origin) {
    fmt::print(stderr, "cutover check-zone: bad origin '{}': {}\n", options.origin, origin.error().message);
    return 2;
  }
  zone::ZoneLoad load = zone::load_zone_file(*origin, options.file);
  std::size_t errors = 0;
  for (const auto& diagnostic : load.diagnostics) {
    fmt::print(stderr, "{}\n", diagnostic.to_string());
    if (diagnostic.severity == zone::Severity::kError) ++errors;
  }
  if (!load.zone) {
    fmt::print("{}: {} errors\n", origin->to_text(), std::max<std::size_t>(errors, 1));
    return 1;
  }
  // With --dump stdout carries only the records, so the summary moves to stderr.
  std::FILE* summary = options.dump ? stderr : stdout;
  if (options.dump) print_dump(*load.zone);
  fmt::print(summary, "{}: loaded serial {}, {} records\n", origin->to_text(), load.zone->soa_fields().serial,
             load.zone->records().size());
  return 0;
}

}  // namespace

void add_check_zone_command(CLI::App& app) {
  auto options = std::make_shared<CheckZoneOptions>();
  CLI::App* command = app.add_subcommand("check-zone", "Check a zone master file and report its problems");
  command->add_option("origin", options->origin, "Zone origin, e.g. example.test")->required();
  command->add_option("file", options->file, "Master file to load")->required();
  command->add_flag("--dump", options->dump, "Print the loaded zone in canonical order, one record a line");
  command->callback([options] {
    int code = run_check_zone(*options);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace cutover::cmd
