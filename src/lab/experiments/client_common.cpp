// Shared steps of the client experiments.
#include "lab/experiments/client_common.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/clients/netns.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

std::string escape_cell(std::string_view text) { return markdown_cell(text); }

void run_client_case(ClientSuite& suite, const std::string& id, const std::string& label, const ClientCaseBody& body,
                     CaseResult& result) {
  result.details["client"] = id;
  std::string no_namespaces = namespaces_unavailable();
  if (!no_namespaces.empty()) {
    result.verdict = Verdict::kNotSupported;
    result.note = no_namespaces;
    return;
  }
  if (!suite.resolver_unavailable().empty()) {
    result.verdict = Verdict::kError;
    result.note = suite.resolver_unavailable();
    return;
  }
  const ClientSuite::Client& client = suite.client(id);
  if (client.adapter) {
    result.details["runtime"] = client.adapter->runtime();
    result.details["setting"] = client.adapter->setting();
    ClientCache cache = client.adapter->cache();
    result.details["client_cache"] = cache.source;
    // The documented cache as a number, for `calc --lab-results` (lab/report/client_terms.h):
    // null for a client that keeps an address forever.
    result.details["client_cache_seconds"] =
        cache.kind == ClientCache::Kind::kForever ? nlohmann::json(nullptr)
                                                  : nlohmann::json(cache.kind == ClientCache::Kind::kNone ? 0.0 : cache.seconds);
  }
  result.details["client_version"] = client.version;
  result.version = suite.resolver_version();
  if (!client.unavailable.empty()) {
    bool failed = client.unavailable.rfind("not supported", 0) != 0;
    result.verdict = failed ? Verdict::kError : Verdict::kNotSupported;
    result.note = client.unavailable;
    result.log_tail = client.log_tail;
    return;
  }
  ClientCaseSetup setup = body.setup(*client.adapter);
  setup.label = label;
  auto gate = std::make_shared<ClientSuite::StartGate>(suite);
  auto world = ClientCase::open(suite, setup);
  if (world) (*world)->hold_start_gate(gate);
  gate.reset();
  if (!world) {
    result.verdict = Verdict::kError;
    result.note = "the case's lab did not start: " + world.error().message.substr(0, world.error().message.find('\n'));
    result.log_tail = world.error().message;
    return;
  }
  try {
    body.run(**world, suite, client, result);
  } catch (const LabError& e) {
    result.verdict = Verdict::kError;
    result.note = e.what();
    result.log_tail = (*world)->stderr_tail();
    return;
  }
  if (result.details.contains("garbage")) {
    result.verdict = Verdict::kError;
    result.note = fmt::format("the client printed {} lines that are not its per-request log",
                              result.details["garbage"].size());
    result.log_tail = (*world)->stderr_tail();
    return;
  }
  judge(result);
}

}  // namespace

std::vector<CaseSpec> client_case_specs(const LabEnv& env, const std::string& experiment,
                                        const std::vector<ClientVariant>& variants) {
  std::vector<CaseSpec> specs;
  if (env.clients == nullptr) return specs;
  for (const auto& id : env.clients->ids()) {
    for (const auto& variant : variants) {
      std::string name = id + (variant.name.empty() ? "" : "-" + variant.name);
      CaseSpec spec{experiment, name, {}, "", nullptr};
      std::string label = experiment + "-" + name + "-" + env.tag;
      ClientSuite* suite = env.clients;
      ClientCaseBody body = variant.body;
      spec.run_isolated = [suite, id, label, body](const LabEnv&, CaseResult& result) {
        run_client_case(*suite, id, label, body, result);
      };
      specs.push_back(std::move(spec));
    }
  }
  return specs;
}

Expectation following_expectation(const ClientCache& cache, double since_first, double ttl, double interval) {
  switch (cache.kind) {
    case ClientCache::Kind::kNone:
      return {"resolver TTL + one interval", 0, ttl + interval};
    case ClientCache::Kind::kFromFirstLookup: {
      double rest = std::max(0.0, cache.seconds - since_first);
      return {fmt::format("{:g} s client cache from the first lookup", cache.seconds), rest, rest + interval};
    }
    case ClientCache::Kind::kForever:
      return {"never within the run", 0, 0, true};
  }
  return {};
}

Expectation repair_expectation(const ClientCache& cache, double since_first, double negative_ttl, double interval) {
  if (cache.negative_seconds <= 0) return {"negative TTL + one interval", 0, negative_ttl + interval};
  double rest = std::max(0.0, cache.negative_seconds - since_first);
  return {fmt::format("{:g} s client negative cache", cache.negative_seconds), rest, rest + interval};
}

double start_and_wait_first(ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client,
                            const ClientInvocation& run) {
  auto started = world.start_client(*client.adapter, suite.paths(), run);
  if (!started) throw LabError(started.error().message);
  bool printed = world.wait_for_lines(1, unix_now() + 30);
  world.release_start_gate();
  if (!printed) throw LabError("the client printed no request line within 30 s");
  auto first = parse_request_line(world.lines().front());
  if (!first) throw LabError("the client's first line is not its per-request log: " + first.error().message);
  return first->t;
}

void sleep_until_unix(double at) { base::sleep_until(monotonic_at(at)); }

std::string client_runtime_cell(const CaseResult& result) { return escape_cell(result.details.value("client", "?")); }

std::string client_version_cell(const CaseResult& result) {
  std::string runtime = result.details.value("runtime", "");
  std::string version = result.details.value("client_version", "");
  if (version.empty()) return "—";
  return escape_cell(version.find(runtime) == std::string::npos && !runtime.empty() ? runtime + " " + version : version);
}

std::string client_setting_cell(const CaseResult& result) { return escape_cell(result.details.value("setting", "—")); }

std::string client_pass_cell(const CaseResult& result) {
  if (result.verdict == Verdict::kNotSupported || result.verdict == Verdict::kError) {
    std::string note = result.note.substr(0, result.note.find('\n'));
    if (note.rfind("not supported: ", 0) == 0) note = note.substr(15);
    return pass_text(result) + ": " + escape_cell(note);
  }
  return pass_text(result) + (result.note.empty() ? "" : " (" + escape_cell(result.note) + ")");
}

std::optional<double> last_old_of(const CaseResult& result) {
  nlohmann::json following = result.details.value("following", nlohmann::json::object());
  if (following.contains("last_old") && following["last_old"].is_number()) return following["last_old"].get<double>();
  return std::nullopt;
}

std::string first_new_cell(const CaseResult& result) {
  if (result.measured) return seconds_text(result.measured);
  return result.observations.empty() ? "—" : "none";
}

std::string client_timeline_svg(const RunResults& results, const std::string& experiment, const std::string& title) {
  std::vector<const CaseResult*> rows;
  double low = 0, high = 1;
  for (const auto& result : results.cases) {
    if (result.experiment != experiment || result.observations.empty()) continue;
    rows.push_back(&result);
    for (const auto& observation : result.observations) {
      low = std::min(low, observation.sent);
      high = std::max(high, observation.sent);
    }
  }
  if (rows.empty()) return {};
  constexpr double kLeft = 190, kWidth = 600, kRow = 14;
  double scale = kWidth / (high - low);
  auto x_of = [&](double seconds) { return kLeft + (seconds - low) * scale; };
  double height = 30 + kRow * static_cast<double>(rows.size());
  std::string svg = fmt::format(
      "<h3>{} requests by time after the change (s): grey reached a, blue b, red failed; the line is the change, "
      "the black tick the measured switch</h3><svg width=\"{}\" height=\"{}\" font-size=\"10\" "
      "font-family=\"sans-serif\">\n",
      html_escape(title), kLeft + kWidth + 20, height);
  svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"0\" x2=\"{0:.1f}\" y2=\"{1:.1f}\" stroke=\"#f90\"/>\n", x_of(0),
                     height - 20);
  for (double tick = std::ceil(low / 5) * 5; tick <= high; tick += 5) {
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:g}</text>\n", x_of(tick) - 4, height - 5, tick);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& result = *rows[i];
    double y = 12 + kRow * static_cast<double>(i);
    svg += fmt::format("<text x=\"2\" y=\"{:.1f}\">{}</text>\n", y + 3, html_escape(result.name));
    for (const auto& observation : result.observations) {
      bool ok = observation.rcode == "NOERROR" && !observation.answer.empty();
      const char* colour = !ok ? "#d22" : observation.answer.front() == kOldOrigin ? "#999" : "#26c";
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n", x_of(observation.sent), y,
                         colour);
    }
    if (result.measured) {
      svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#000\"/>\n",
                         x_of(*result.measured), y - 6, y + 6);
    }
  }
  return svg + "</svg>\n";
}

void derive_following_details(CaseResult& result) {
  if (result.observations.empty() && !result.details.contains("following")) return;
  result.details["following"] = following_details(result.observations, kOldOrigin, 0);
}

}  // namespace cutover::lab
