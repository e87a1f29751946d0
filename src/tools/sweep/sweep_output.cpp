// Table and JSON forms of sweep rounds and watches.
#include <fmt/format.h>

#include "dns/types.h"
#include "tools/report/text_table.h"
#include "tools/sweep/sweep.h"

namespace cutover::tools {
namespace {

std::string answer_cell(const ServerReply& p) {
  if (!p.answered) return "-";
  std::string out;
  for (const auto& answer : p.answers) {
    // "owner TYPE rdata": the rdata is what differs between sources.
    auto second_space = answer.find(' ', answer.find(' ') + 1);
    out += (out.empty() ? "" : " ") + (second_space == std::string::npos ? answer : answer.substr(second_space + 1));
  }
  return out.empty() ? "(empty)" : out;
}

nlohmann::json source_to_json(const SourceResult& source) {
  const auto& p = source.probe;
  nlohmann::json out = {{"role", source.authoritative ? "authoritative" : "resolver"},
                        {"server", p.server},
                        {"answered", p.answered},
                        {"status", source.status}};
  if (!p.answered) {
    out["error"] = p.error;
    out["timed_out"] = p.timed_out;
    return out;
  }
  out["rcode"] = dns::rcode_to_text(p.rcode);
  out["aa"] = p.authoritative;
  out["answers"] = p.answers;
  out["ttl"] = p.min_ttl ? nlohmann::json(*p.min_ttl) : nlohmann::json(nullptr);
  out["rtt_ms"] = static_cast<double>(p.round_trip.count()) / 1000.0;
  out["tcp_fallback"] = p.truncated_retried;
  if (source.serial) out["serial"] = *source.serial;
  return out;
}

}  // namespace

std::string sweep_round_to_text(const SweepRound& round) {
  TextTable table({"role", "source", "rcode", "answer", "ttl", "aa", "serial", "ms", "status"});
  for (const auto& source : round.sources) {
    const auto& p = source.probe;
    table.add_row({source.authoritative ? "auth" : "resolver", p.server,
                   p.answered ? dns::rcode_to_text(p.rcode) : "-", answer_cell(p),
                   p.min_ttl ? std::to_string(*p.min_ttl) : "-", p.answered ? (p.authoritative ? "aa" : "-") : "-",
                   source.serial ? std::to_string(*source.serial) : "-",
                   p.answered ? fmt::format("{:.1f}", static_cast<double>(p.round_trip.count()) / 1000.0) : "-",
                   source.status});
  }
  std::string out = table.render();
  out += fmt::format("reference: {}{}\n", round.reference.empty() ? "(none)" : round.reference,
                     round.reference_serial ? fmt::format(" (serial {})", *round.reference_serial) : "");
  for (const auto& finding : round.findings) out += finding_to_text(finding) + "\n";
  out += round.all_agree ? "all sources agree\n" : "sources disagree\n";
  return out;
}

std::string sweep_watch_to_text(const SweepWatch& watch) {
  std::string out;
  for (const auto& round : watch.rounds) {
    std::size_t differing = 0;
    for (const auto& source : round.sources) differing += source.status != "ok";
    out += fmt::format("+{:.1f}s  {} of {} sources differ or are silent\n", round.elapsed, differing,
                       round.sources.size());
  }
  for (const auto& change : watch.switches) out += fmt::format("{} switched at +{:.1f}s\n", change.resolver, change.at);
  if (!watch.rounds.empty()) out += "\nlast round:\n" + sweep_round_to_text(watch.rounds.back());
  out += watch.agreed_after ? fmt::format("agreed after {:.1f}s\n", *watch.agreed_after)
                            : std::string("did not agree within the watch\n");
  return out;
}

nlohmann::json sweep_round_to_json(const SweepRound& round) {
  nlohmann::json sources = nlohmann::json::array();
  for (const auto& source : round.sources) sources.push_back(source_to_json(source));
  nlohmann::json out = {{"elapsed", round.elapsed},         {"zone", round.zone},
                        {"reference", round.reference},     {"sources", sources},
                        {"findings", findings_to_json(round.findings)}, {"all_agree", round.all_agree}};
  if (round.reference_serial) out["reference_serial"] = *round.reference_serial;
  return out;
}

nlohmann::json sweep_watch_to_json(const SweepWatch& watch) {
  nlohmann::json rounds = nlohmann::json::array();
  for (const auto& round : watch.rounds) rounds.push_back(sweep_round_to_json(round));
  nlohmann::json switches = nlohmann::json::array();
  for (const auto& change : watch.switches) switches.push_back({{"resolver", change.resolver}, {"at", change.at}});
  return {{"rounds", rounds},
          {"switches", switches},
          {"agreed_after", watch.agreed_after ? nlohmann::json(*watch.agreed_after) : nlohmann::json(nullptr)}};
}

}  // namespace cutover::tools
