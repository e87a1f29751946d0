// `cutover check-zone ORIGIN FILE [--dump]`: loads a zone file the way the server would,
// prints every diagnostic to stderr and a summary (or, with --dump, the zone in canonical
// order) to stdout; --json puts all of it in one document. Exit 0 when the zone loads, 1 when
// it has errors, 2 for a bad origin or a file that cannot be read.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
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
  Output output{"check-zone"};
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

std::vector<std::string> dump_lines(const zone::Zone& zone) {
  std::vector<std::string> lines;
  for (const auto& record : canonical_records(zone)) {
    lines.push_back(fmt::format("{} {} IN {} {}", record.owner.lowercased().to_text(), record.ttl,
                                dns::type_to_text(record.type), dns::rdata_to_text(record.type, record.rdata)));
  }
  return lines;
}

nlohmann::json diagnostic_json(const zone::Diagnostic& diagnostic) {
  return {{"severity", diagnostic.severity == zone::Severity::kError ? "error" : "warning"},
          {"file", diagnostic.location.file},
          {"line", diagnostic.location.line},
          {"column", diagnostic.location.column},
          {"message", diagnostic.message},
          {"text", diagnostic.to_string()}};
}

ExitCode run_check_zone(const CheckZoneOptions& options) {
  const Output& output = options.output;
  std::string origin_text = options.origin.ends_with('.') ? options.origin : options.origin + ".";
  auto origin = dns::Name::from_text(origin_text);
  if (!origin) output.fail(ExitCode::kCouldNotRun, "bad origin '" + options.origin + "': " + origin.error().message);
  // A file that cannot be read is no finding about the zone: the check did not run.
  std::error_code ignored;
  if (std::filesystem::is_directory(options.file, ignored)) output.fail(ExitCode::kCouldNotRun, options.file + ": is a directory");
  if (!std::ifstream(options.file)) output.fail(ExitCode::kCouldNotRun, options.file + ": cannot read: " + std::strerror(errno));
  zone::ZoneLoad load = zone::load_zone_file(*origin, options.file);
  std::size_t errors = 0;
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& diagnostic : load.diagnostics) {
    if (!output.json()) fmt::print(stderr, "{}\n", diagnostic.to_string());
    diagnostics.push_back(diagnostic_json(diagnostic));
    if (diagnostic.severity == zone::Severity::kError) ++errors;
  }
  if (load.zone == nullptr) errors = std::max<std::size_t>(errors, 1);
  if (output.json()) {
    nlohmann::json report = {{"command", output.command()}, {"origin", origin->to_text()}, {"file", options.file},
                             {"loaded", load.zone != nullptr}, {"errors", errors}, {"diagnostics", diagnostics}};
    if (load.zone) {
      report["serial"] = load.zone->soa_fields().serial;
      report["records"] = load.zone->records().size();
      if (options.dump) report["dump"] = dump_lines(*load.zone);
    }
    output.document(report);
    return load.zone ? ExitCode::kOk : ExitCode::kFindings;
  }
  if (!load.zone) {
    fmt::print("{}: {} errors\n", origin->to_text(), errors);
    return ExitCode::kFindings;
  }
  // With --dump stdout carries only the records, so the summary moves to stderr.
  std::FILE* summary = options.dump ? stderr : stdout;
  if (options.dump) {
    for (const auto& line : dump_lines(*load.zone)) fmt::print("{}\n", line);
  }
  fmt::print(summary, "{}: loaded serial {}, {} records\n", origin->to_text(), load.zone->soa_fields().serial,
             load.zone->records().size());
  return ExitCode::kOk;
}

}  // namespace

void add_check_zone_command(CLI::App& app) {
  auto options = std::make_shared<CheckZoneOptions>();
  CLI::App* command = app.add_subcommand("check-zone", "Check a zone master file and report its problems");
  command->add_option("origin", options->origin, "Zone origin, e.g. example.test")->required();
  command->add_option("file", options->file, "Master file to load")->required();
  command->add_flag("--dump", options->dump, "Print the loaded zone in canonical order, one record a line");
  options->output.add_json_flag(*command, "Print the result and every diagnostic as one JSON document");
  command->callback([options] { Output::finish(run_check_zone(*options)); });
}

}  // namespace cutover::cmd
