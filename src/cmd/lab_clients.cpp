// --lab-results: results.json through the lab's reader, C and R through lab::client_terms.
#include "cmd/lab_clients.h"

#include <cmath>
#include <optional>

#include "lab/report/client_terms.h"
#include "lab/report/results_file.h"
#include "tools/calc/client_profiles.h"

namespace cutover::cmd {

std::string reuse_behaviour_of(const std::string& word) {
  if (word == "idle-close") return "closes idle connections";
  if (word == "drain-close") return "Connection: close once drained";
  if (word == "keep-open") return lab::kDefaultReuseBehaviour;
  return {};
}

std::vector<tools::MeasuredClient> load_lab_clients(const std::string& path, const Output& output,
                                                    const std::string& origin_behaviour) {
  std::vector<tools::MeasuredClient> measured;
  if (path.empty()) return measured;
  std::string behaviour = reuse_behaviour_of(origin_behaviour);
  if (behaviour.empty()) {
    output.fail(ExitCode::kCouldNotRun,
                "--origin-behaviour '" + origin_behaviour + "': expected keep-open, idle-close or drain-close");
  }
  auto results = lab::read_results(path);
  if (!results) output.fail(ExitCode::kCouldNotRun, "--lab-results " + path + ": " + results.error().message);
  for (const auto& terms : lab::client_terms(*results, behaviour)) {
    tools::MeasuredClient client;
    client.id = terms.id;
    client.runtime = terms.runtime;
    client.version = terms.version;
    // Some runtimes print their own name in their version ("Python 3.11.2"), others not ("7.88.1").
    if (client.version.starts_with(client.runtime + " ")) client.version.erase(0, client.runtime.size() + 1);
    client.setting = terms.setting;
    // The lab's times carry microseconds; a cutover window is read in milliseconds at most.
    auto to_millis = [](std::optional<double> seconds) -> std::optional<double> {
      if (!seconds) return seconds;
      return std::round(*seconds * 1000) / 1000;
    };
    client.cache_seconds = to_millis(terms.cache);
    client.cache_basis = terms.cache_basis;
    client.reuse_measured = terms.reuse_measured;
    client.reuse_seconds = to_millis(terms.reuse);
    client.reuse_basis = terms.reuse_basis;
    client.source = path + " (started " + results->started + ")";
    measured.push_back(std::move(client));
  }
  if (measured.empty()) {
    output.fail(ExitCode::kCouldNotRun, "--lab-results " + path +
                                            ": no measured E6 case of a client runtime (run cutover lab run --clients "
                                            "LIST --experiments E6,E11)");
  }
  return measured;
}

std::string known_client_names(const std::vector<tools::MeasuredClient>& measured) {
  std::string names;
  for (const auto& client : measured) names += (names.empty() ? "" : ", ") + client.id;
  return names.empty() ? "see --profiles" : "lab clients " + names + ", or see --profiles";
}

}  // namespace cutover::cmd
