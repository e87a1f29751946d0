// The monitor's reading of a sweep round (watch_outcome.h).
#include "monitor/watch_outcome.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cutover::monitor {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The rdata of the answer records of `type` in a probe's "owner TYPE rdata" lines.
std::vector<std::string> rdata_of(const tools::ServerReply& reply, const std::string& type) {
  std::vector<std::string> out;
  for (const auto& line : reply.answers) {
    std::size_t first = line.find(' ');
    std::size_t second = first == std::string::npos ? first : line.find(' ', first + 1);
    if (second == std::string::npos) continue;
    if (line.substr(first + 1, second - first - 1) != type) continue;
    out.push_back(lowercase(line.substr(second + 1)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

WatchOutcome evaluate_watch(const WatchSpec& spec, tools::SweepRound round) {
  WatchOutcome outcome;
  outcome.name = spec.name.to_text();
  outcome.type = dns::type_to_text(spec.type);
  bool any_authoritative = false;
  outcome.authoritatives_agree = true;
  const tools::SourceResult* reference = nullptr;
  for (const auto& source : round.sources) {
    const auto& reply = source.probe;
    if (source.authoritative) {
      if (!reply.answered) {
        outcome.silent_authoritatives.push_back(reply.server);
        continue;
      }
      any_authoritative = true;
      if (source.status != "ok") outcome.authoritatives_agree = false;
      if (source.status == "ok" && reference == nullptr) reference = &source;
    }
    if (source.status == "differs" || source.status == "not authoritative") outcome.mismatch = true;
    if (spec.exists && reply.answered && reply.rcode == dns::Rcode::kNxDomain) outcome.nxdomain = true;
  }
  if (!any_authoritative) outcome.authoritatives_agree = false;
  if (!spec.expect.empty()) {
    std::vector<std::string> expected;
    for (const auto& item : spec.expect) expected.push_back(lowercase(item));
    std::sort(expected.begin(), expected.end());
    outcome.expected_matches = reference != nullptr && reference->probe.rcode == dns::Rcode::kNoError &&
                               rdata_of(reference->probe, outcome.type) == expected;
    if (!*outcome.expected_matches) outcome.mismatch = true;
  }
  outcome.round = std::move(round);
  return outcome;
}

std::string watch_subject(const WatchOutcome& outcome) { return outcome.name + " " + outcome.type; }

std::vector<Condition> conditions_of(const std::vector<WatchOutcome>& outcomes) {
  std::vector<Condition> out;
  std::map<std::string, std::pair<int, int>> asked;  // authoritative -> (asked, silent)
  for (const auto& outcome : outcomes) {
    std::string subject = watch_subject(outcome);
    if (outcome.mismatch) {
      std::vector<std::string> differing;
      for (const auto& source : outcome.round.sources) {
        if (source.status == "differs" || source.status == "not authoritative") differing.push_back(source.probe.server);
      }
      std::string message = fmt::format("reference '{}'", outcome.round.reference);
      if (!differing.empty()) message += fmt::format("; differing: {}", fmt::join(differing, ", "));
      if (outcome.expected_matches == false) message += "; the expected answer is not served";
      out.push_back({kRuleMismatch, subject, message});
    }
    if (outcome.nxdomain) {
      std::vector<std::string> saying;
      for (const auto& source : outcome.round.sources) {
        if (source.probe.answered && source.probe.rcode == dns::Rcode::kNxDomain) saying.push_back(source.probe.server);
      }
      out.push_back({kRuleNxdomain, subject, fmt::format("NXDOMAIN from {}", fmt::join(saying, ", "))});
    }
    for (const auto& source : outcome.round.sources) {
      if (!source.authoritative) continue;
      auto& [count, silent] = asked[source.probe.server];
      ++count;
      if (!source.probe.answered) ++silent;
    }
  }
  for (const auto& [server, counts] : asked) {
    if (counts.first == counts.second) {
      out.push_back({kRuleAuthoritativeSilent, server,
                     fmt::format("no reply to any of {} questions this round", counts.first)});
    }
  }
  return out;
}

}  // namespace cutover::monitor
