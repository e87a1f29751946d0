// Table and JSON forms of a trace.
#include <fmt/format.h>

#include "tools/report/text_table.h"
#include "tools/trace/trace.h"

namespace cutover::tools {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : " ") + item;
  return out.empty() ? "-" : out;
}

}  // namespace

std::string trace_to_text(const TraceResult& result) {
  std::string out;
  for (const auto& cut : result.cuts) {
    out += fmt::format("zone {} (referral from {} at {})\n", cut.zone, cut.parent_zone, cut.parent_server);
    TextTable table({"side", "server", "host", "ns set", "ns ttl", "serial", "aa", "answer"});
    table.add_row({"parent", cut.parent_server, "-", join(cut.parent_ns), std::to_string(cut.parent_ns_ttl), "-", "-", "-"});
    for (const auto& view : cut.children) {
      table.add_row({view.origin == "parent" ? "child" : view.origin, view.server.empty() ? "-" : view.server,
                     view.host.empty() ? "-" : view.host, view.answered ? join(view.ns_set) : "(" + view.error + ")",
                     view.ns_ttl ? std::to_string(*view.ns_ttl) : "-",
                     view.serial ? std::to_string(*view.serial) : "-", view.authoritative ? "aa" : "-",
                     view.answer.empty() ? "-" : view.answer});
    }
    out += table.render();
    for (const auto& glue : cut.glue) {
      out += fmt::format("  {} address {} {} ttl {}\n", glue.side, glue.host, glue.address, glue.ttl);
    }
    out += "\n";
  }
  if (result.chain.size() > 1) out += "chain: " + join(result.chain) + "\n";
  out += fmt::format("answer: {}{}\n", result.final_answer.empty() ? "(none)" : result.final_answer,
                     result.completed ? "" : " (incomplete)");
  for (const auto& finding : result.findings) out += finding_to_text(finding) + "\n";
  return out;
}

nlohmann::json trace_to_json(const TraceResult& result) {
  nlohmann::json cuts = nlohmann::json::array();
  for (const auto& cut : result.cuts) {
    nlohmann::json children = nlohmann::json::array();
    for (const auto& view : cut.children) {
      nlohmann::json child = {{"host", view.host},         {"server", view.server},
                              {"listed_by", view.origin},  {"answered", view.answered},
                              {"aa", view.authoritative},  {"ns_set", view.ns_set},
                              {"answer", view.answer}};
      if (view.ns_ttl) child["ns_ttl"] = *view.ns_ttl;
      if (view.serial) child["serial"] = *view.serial;
      if (!view.error.empty()) child["error"] = view.error;
      children.push_back(child);
    }
    nlohmann::json glue = nlohmann::json::array();
    for (const auto& record : cut.glue) {
      glue.push_back({{"side", record.side}, {"host", record.host}, {"address", record.address}, {"ttl", record.ttl}});
    }
    cuts.push_back({{"zone", cut.zone},
                    {"parent_zone", cut.parent_zone},
                    {"parent_server", cut.parent_server},
                    {"parent_ns", cut.parent_ns},
                    {"parent_ns_ttl", cut.parent_ns_ttl},
                    {"glue", glue},
                    {"servers", children}});
  }
  return {{"cuts", cuts},
          {"chain", result.chain},
          {"answer", result.final_answer},
          {"answers", result.answers},
          {"completed", result.completed},
          {"findings", findings_to_json(result.findings)}};
}

}  // namespace cutover::tools
