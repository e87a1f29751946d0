// LabRunner: `cutover lab run`. Starts the lab authority and, once each, the fixtures the chosen
// experiments declare, then for every resolver and every chosen experiment runs all cases at
// once (each on its own thread, each with a unique name), starting resolver instances on first
// use, and collects the CaseResults. Progress lines go to the given stream. Not thread-safe
// itself; run() is called once.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "lab/case_result.h"

namespace cutover::lab {

struct RunOptions {
  std::vector<std::string> resolvers;    // names or external:ADDR:PORT
  std::vector<std::string> experiments;  // E1 ...
  std::string out_dir;
  std::string cutover_binary;
  std::string zone = "cutover-lab.";
  std::uint16_t authority_port = 0;  // 0: any free port
  double client_timeout = kDefaultClientTimeout;  // seconds; every poll is judged by it
  int repeat = 1;                                 // runs of every case (--repeat)
  // --resolver-option: adapter name -> lines in its own config syntax; each adapter named
  // gets an extra configuration with all its lines, beside the default one.
  std::map<std::string, std::vector<std::string>> resolver_options;
  std::string cases;  // comma list of globs over case names (--cases); empty: every case
  // --clients: the client runtime ids of E6, E7 and E11 (lab/clients/); empty: those
  // experiments have no cases.
  std::vector<std::string> clients;
};

// Whether case `name` matches one of the comma-separated globs (fnmatch), or `globs` is empty.
bool case_selected(const std::string& globs, const std::string& name);

// A judged case as its progress line shows it: "pass 6.001 s (expected parent 4.998, delta
// +1.003)", naming the expectation the delta is taken against when there are several.
std::string progress_value(const CaseResult& result);

// One resolver configuration the run started: the instance key the cases name, whether it
// started, and the files the adapter generated (its effective configuration).
struct ConfigurationRecord {
  std::string instance;
  std::string status;
  std::vector<std::pair<std::string, std::string>> files;  // name, content
};

struct ResolverSummary {
  std::string name;
  std::string version;
  std::string status;  // "ok", or why it did not run
  std::string package_version = {};  // dpkg's full version, or "not available: WHY"
  std::vector<ConfigurationRecord> configurations = {};
  std::string variant = {};  // the extra configuration's option lines, empty for the default one
};

struct RunResults {
  std::vector<ResolverSummary> resolvers;
  std::vector<CaseResult> cases;
  double wall_seconds = 0;
  std::string started;  // UTC, ISO 8601
  std::string authority;  // address of the lab authority
};

base::Result<RunResults> run_lab(const RunOptions& options, std::FILE* progress);

}  // namespace cutover::lab
