// C from E6 and R from E11 (docs/lab.md, "E6" and "E11"; docs/tools.md, "Client terms from the lab").
#include "lab/report/client_terms.h"

#include <algorithm>

#include <fmt/format.h>

#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

// The interval between requests in E6 and E11 (lab/experiments/client_common.h).
constexpr double kInterval = 0.5;

bool measurable(const CaseResult& result) {
  return result.verdict == Verdict::kPass || result.verdict == Verdict::kFail;
}

double number(const nlohmann::json& details, const char* key, double fallback) {
  auto it = details.find(key);
  return it != details.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string text(const nlohmann::json& details, const char* key) {
  auto it = details.find(key);
  return it != details.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// C from an E6 case. A switch the resolver's TTL explains (within the record TTL plus one
// interval, plus the case's tolerance) shows no cache of the client's own beyond what the
// runtime documents; a later one shows the client kept the address from its first lookup
// until the switch, and that span is its cache lifetime (the worst case: a change just after a
// lookup).
void read_cache(const CaseResult& e6, LabClientTerms& terms) {
  double ttl = number(e6.details, "record_ttl", 2);
  double since_first = number(e6.details, "change_after_first", 0);
  const nlohmann::json documented = e6.details.value("client_cache_seconds", nlohmann::json(0.0));
  if (!e6.measured) {
    terms.cache = std::nullopt;
    terms.cache_basis = fmt::format("E6: never reached the new origin within the {:.1f} s after the change", e6.window);
    return;
  }
  double first_new = *e6.measured;
  if (first_new <= ttl + kInterval + e6.tolerance.above) {
    double own = documented.is_number() ? documented.get<double>() : 0.0;
    terms.cache = own;
    terms.cache_basis =
        own > 0 ? fmt::format("E6: first new request {:.2f} s after the change (record TTL {:g} s), consistent with its "
                              "documented {:g} s cache",
                              first_new, ttl, own)
                : fmt::format("E6: first new request {:.2f} s after the change (record TTL {:g} s): no cache of its own",
                              first_new, ttl);
    return;
  }
  terms.cache = since_first + first_new;
  terms.cache_basis = fmt::format(
      "E6: first new request {:.2f} s after a change {:.2f} s after its first lookup: it kept the address {:.1f} s",
      first_new, since_first, since_first + first_new);
}

void read_reuse(const CaseResult& e11, const CaseResult& e6, LabClientTerms& terms) {
  terms.reuse_measured = true;
  std::string behaviour = text(e11.details, "origin_behaviour");
  if (!e11.measured) {
    terms.reuse = std::nullopt;
    terms.reuse_basis = fmt::format("E11 ({}): still reaching the old origin {:.1f} s after the change, when the run ended",
                                    behaviour, e11.window);
    return;
  }
  double baseline = e6.measured ? *e6.measured : number(e6.details, "record_ttl", 2) + kInterval;
  terms.reuse = std::max(0.0, *e11.measured - baseline);
  terms.reuse_basis = fmt::format("E11 ({}): first new request {:.2f} s after the change, against {:.2f} s on new "
                                  "connections (E6)",
                                  behaviour, *e11.measured, baseline);
}

}  // namespace

std::vector<LabClientTerms> client_terms(const RunResults& results, const std::string& reuse_behaviour) {
  std::vector<LabClientTerms> out;
  for (const auto& e6 : results.cases) {
    if (e6.experiment != "E6" || !measurable(e6)) continue;
    LabClientTerms terms;
    terms.id = text(e6.details, "client");
    if (terms.id.empty()) continue;
    if (std::any_of(out.begin(), out.end(), [&](const LabClientTerms& seen) { return seen.id == terms.id; })) continue;
    terms.runtime = text(e6.details, "runtime");
    terms.version = text(e6.details, "client_version");
    terms.setting = text(e6.details, "setting");
    read_cache(e6, terms);
    for (const auto& e11 : results.cases) {
      if (e11.experiment == "E11" && measurable(e11) && text(e11.details, "client") == terms.id &&
          text(e11.details, "origin_behaviour") == reuse_behaviour) {
        read_reuse(e11, e6, terms);
        break;
      }
    }
    out.push_back(std::move(terms));
  }
  return out;
}

}  // namespace cutover::lab
