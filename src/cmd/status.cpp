// `cutover status`: asks a running server's control API for GET /status and prints every
// pool and endpoint, and every signed zone's keys and signature window, as a readable table
// (or the /status document with --json); pointed at a `cutover checker --control`, its
// vantage, etcd and verdicts. Exit 2 when the server cannot be reached or gives no status.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "config/config.h"

namespace cutover::cmd {
namespace {

struct StatusOptions {
  std::string control = "127.0.0.1:8053";
  std::string token;
  Output output{"status"};
};

std::string text_of(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  return value.dump();
}

std::string answer_text(const nlohmann::json& answer) {
  std::string out;
  for (const auto& [type, family] : answer.items()) {
    std::string addresses;
    for (const auto& address : family["addresses"]) addresses += (addresses.empty() ? "" : " ") + text_of(address);
    std::string up;
    if (family.contains("up")) up = fmt::format(", {}/{} up", text_of(family["up"]), text_of(family["endpoints"]));
    out += fmt::format("{}{} {} [{}{}, ttl {}]", out.empty() ? "" : "; ", type, addresses.empty() ? "(none)" : addresses,
                       text_of(family["mode"]), up, text_of(family["ttl"]));
  }
  return out.empty() ? "(none)" : out;
}

void print_table(const nlohmann::json& status) {
  for (const auto& pool : status["pools"]) {
    const auto& detection = pool["detection"];
    std::printf("pool %s  %s  shape %s  min-healthy %s  when-all-down %s  queries %s\n", text_of(pool["name"]).c_str(),
                text_of(pool["owner"]).c_str(), text_of(pool["shape"]).c_str(),
                text_of(pool.value("min_healthy", nlohmann::json("off"))).c_str(), text_of(pool["when_all_down"]).c_str(),
                text_of(pool.value("queries", nlohmann::json(0))).c_str());
    std::printf("  answer: %s\n", answer_text(pool["answer"]).c_str());
    // Steered pools: each region's clients' answer and where it comes from (docs/steering.md).
    if (pool.contains("steering")) {
      const auto& steering = pool["steering"];
      std::printf("  steering: %s prefixes from %s, default region %s\n", text_of(steering["prefixes"]).c_str(),
                  text_of(steering["networks"]).c_str(), text_of(steering["default_region"]).c_str());
      for (const auto& region : steering["regions"]) {
        std::string from;
        for (const auto& [type, family] : region["answer"].items()) {
          std::string source = text_of(family.value("region", nlohmann::json("")));
          if (source != text_of(region["name"])) from = source.empty() ? " (from the whole pool)" : " (from " + source + ")";
        }
        std::printf("    region %s%s: %s\n", text_of(region["name"]).c_str(), from.c_str(),
                    answer_text(region["answer"]).c_str());
      }
    }
    std::printf("  detection D %.1f-%.1f s, ttl %s s, worst D+K %.1f s\n",
                detection["d_min_ms"].get<double>() / 1000, detection["d_max_ms"].get<double>() / 1000,
                text_of(detection["ttl_s"]).c_str(), detection["worst_d_plus_k_ms"].get<double>() / 1000);
    if (pool.contains("nodata_negative_ttl")) {
      std::printf("  nodata answers are cached by resolvers for %s s (the zone's negative TTL)\n",
                  text_of(pool["nodata_negative_ttl"]).c_str());
    }
    std::printf("  %-28s %-6s %-6s %-8s %-9s %-10s %-44s %-8s %-7s %s\n", "ENDPOINT", "PORT", "CHECK", "STATE", "OVERRIDE",
                "LATENCY", "LAST PROBE", "DOWN s", "FLAPS/h", "LAST CHANGE");
    for (const auto& endpoint : pool["endpoints"]) {
      std::string probe = "-";
      std::string latency = "-";
      if (endpoint["last_probe"].is_object()) {
        probe = text_of(endpoint["last_probe"]["result"]) + ": " + text_of(endpoint["last_probe"]["detail"]);
        latency = fmt::format("{:.1f} ms", endpoint["last_probe"]["latency_ms"].get<double>());
      }
      if (probe.size() > 44) probe = probe.substr(0, 41) + "...";
      std::string change = "-";
      if (!endpoint["transitions"].empty()) {
        const auto& last = endpoint["transitions"].back();
        change = text_of(last["from"]) + "->" + text_of(last["to"]) + " " + text_of(last["at"]);
      }
      std::string down = "-";
      if (endpoint.contains("seconds_down")) down = fmt::format("{:.0f}", endpoint["seconds_down"].get<double>());
      std::string check = text_of(endpoint["check"]);
      const auto& checks = endpoint.value("checks", nlohmann::json::array());
      if (checks.size() > 1) check = fmt::format("{}x{}", checks.size(), text_of(endpoint["combine"]));
      std::printf("  %-28s %-6s %-6s %-8s %-9s %-10s %-44s %-8s %-7s %s\n", text_of(endpoint["address"]).c_str(),
                  text_of(endpoint["port"]).c_str(), check.c_str(), text_of(endpoint["state"]).c_str(),
                  text_of(endpoint["override"]).c_str(), latency.c_str(), probe.c_str(), down.c_str(),
                  text_of(endpoint.value("flaps_last_hour", nlohmann::json(0))).c_str(), change.c_str());
      // A cluster's vantages (docs/cluster.md): who reports, and a lost quorum.
      if (endpoint.value("quorum_lost", false) || endpoint.value("quorum", std::string("local")) != "local") {
        std::string vantages;
        for (const auto& view : endpoint.value("vantages", nlohmann::json::array())) {
          vantages += fmt::format(" {}={}{}", text_of(view["name"]), text_of(view["state"]),
                                  view.value("suspect", false) ? "(suspect)" : "");
        }
        std::string votes;
        if (endpoint.contains("quorum_votes")) {
          const auto& counted = endpoint["quorum_votes"];
          votes = fmt::format(" ({} up, {} down of {} reporting)", text_of(counted["up"]), text_of(counted["down"]),
                              text_of(counted["reporting"]));
        }
        std::printf("    vantages:%s  quorum %s%s%s\n", vantages.empty() ? " none" : vantages.c_str(),
                    text_of(endpoint.value("quorum", nlohmann::json("local"))).c_str(), votes.c_str(),
                    endpoint.value("quorum_lost", false) ? "  quorum_lost (the last verdict is held)" : "");
      }
      // An endpoint with several checks: one line per check under it.
      for (std::size_t i = 0; checks.size() > 1 && i < checks.size(); ++i) {
        const auto& one = checks[i];
        std::string last = one["last_probe"].is_object()
                               ? text_of(one["last_probe"]["result"]) + ": " + text_of(one["last_probe"]["detail"])
                               : "-";
        std::printf("    checks[%zu] %-8s %s:%s%s  %s  %s\n", i, text_of(one["type"]).c_str(), text_of(one["address"]).c_str(),
                    text_of(one["port"]).c_str(), one.value("invert", false) ? " (inverted)" : "",
                    text_of(one["state"]).c_str(), last.c_str());
      }
    }
  }
}

// Each etcd member's own view: leader or follower, its revision and raft index.
void print_etcd_members(const nlohmann::json& etcd) {
  for (const auto& member : etcd.value("members", nlohmann::json::array())) {
    if (!member.value("reached", false)) {
      std::printf("    member %s  NOT reached (%s)\n", text_of(member["url"]).c_str(), text_of(member["error"]).c_str());
      continue;
    }
    std::printf("    member %s  %s  id %s  revision %s  raft term %s index %s  db %s bytes  etcd %s\n",
                text_of(member["url"]).c_str(), member.value("leader", false) ? "leader" : "follower",
                text_of(member["member_id"]).c_str(), text_of(member["revision"]).c_str(),
                text_of(member["raft_term"]).c_str(), text_of(member["raft_index"]).c_str(),
                text_of(member["db_size"]).c_str(), text_of(member["version"]).c_str());
  }
}

// The etcd line (the URLs, whether the last call reached one) and each member's own view.
void print_etcd(const nlohmann::json& etcd) {
  std::string members;
  for (const auto& url : etcd["endpoints"]) members += (members.empty() ? "" : ", ") + text_of(url);
  std::string reach = etcd.value("reached", false)
                          ? "reached " + text_of(etcd["member"]) + " at " + text_of(etcd["last_reached"])
                          : "NOT reached (" + text_of(etcd["last_error"]) + "; last reached " +
                                text_of(etcd["last_reached"]) + ")";
  std::printf("  etcd %s: %s\n", members.c_str(), reach.c_str());
  print_etcd_members(etcd);
}

// A checker's /status (`cutover checker --control`): its vantage, lease, etcd and the latest
// verdict it has on each endpoint.
void print_checker(const nlohmann::json& cluster) {
  std::printf("checker  vantage %s  prefix %s  lease %s (ttl %s s)  published %s\n", text_of(cluster["vantage"]).c_str(),
              text_of(cluster["prefix"]).c_str(), text_of(cluster["lease"]).c_str(),
              text_of(cluster["lease_ttl_s"]).c_str(), text_of(cluster["published"]).c_str());
  print_etcd(cluster["etcd"]);
  std::printf("  %-16s %-28s %-8s %-10s %-26s %s\n", "POOL", "ENDPOINT", "STATE", "LATENCY", "PROBED", "REASON");
  for (const auto& verdict : cluster.value("verdicts", nlohmann::json::array())) {
    std::string latency = verdict.contains("latency_ms") ? fmt::format("{:.1f} ms", verdict.value("latency_ms", 0.0)) : "-";
    std::printf("  %-16s %-28s %-8s %-10s %-26s %s%s\n", text_of(verdict["pool"]).c_str(),
                text_of(verdict["endpoint"]).c_str(), text_of(verdict["state"]).c_str(), latency.c_str(),
                text_of(verdict["probe_time"]).c_str(), text_of(verdict["reason"]).c_str(),
                verdict.value("published", true) ? "" : "  (not yet published)");
  }
}

// The cluster section (docs/cluster.md, "Status and suspect vantages"): this server's place
// in it, etcd, and each vantage that reports; the quorum per endpoint is under each pool.
void print_cluster(const nlohmann::json& cluster) {
  std::printf("cluster  vantage %s  local-checker %s  suspect-after %.3g s  prefix %s\n", text_of(cluster["vantage"]).c_str(),
              cluster.value("local_checker", true) ? "true" : "false",
              cluster.value("suspect_after_ms", 0.0) / 1000, text_of(cluster["prefix"]).c_str());
  print_etcd(cluster["etcd"]);
  std::printf("  applied: verdicts revision %s, pool state revision %s\n", text_of(cluster["verdicts_revision"]).c_str(),
              text_of(cluster["pool_state_revision"]).c_str());
  std::printf("  %-20s %-6s %-26s %-9s %-9s %s\n", "VANTAGE", "REMOTE", "LAST VERDICT", "ENDPOINTS", "REPORTING",
              "SUSPECT");
  for (const auto& vantage : cluster.value("vantages", nlohmann::json::array())) {
    std::string suspect = "no";
    if (vantage.value("suspect", false)) {
      suspect = "SUSPECT on";
      for (const auto& where : vantage["suspect_on"]) {
        suspect += " " + text_of(where["pool"]) + "/" + text_of(where["endpoint"]);
      }
    }
    std::printf("  %-20s %-6s %-26s %-9s %-9s %s\n", text_of(vantage["name"]).c_str(),
                vantage.value("remote", false) ? "yes" : "no", text_of(vantage["last_verdict"]).c_str(),
                text_of(vantage["endpoints"]).c_str(), text_of(vantage["reporting"]).c_str(), suspect.c_str());
  }
}

// The signed zones (docs/dnssec.md, "Keys and signatures"): keys with their tags and
// algorithms, and the window their signatures are valid in.
void print_dnssec(const nlohmann::json& zones) {
  for (const auto& zone : zones) {
    std::printf("dnssec %s  denial %s%s  CDS %s  CDNSKEY %s\n", text_of(zone["zone"]).c_str(), text_of(zone["denial"]).c_str(),
                zone.value("opt_out", false) ? " (opt-out)" : "", zone.value("cds", false) ? "published" : "none",
                zone.value("cdnskey", false) ? "published" : "none");
    for (const auto& problem : zone.value("parent_signal_problems", nlohmann::json::array())) {
      std::printf("  problem: %s\n", text_of(problem).c_str());
    }
    for (const auto& key : zone["keys"]) {
      std::printf("  key %-7s tag %-5s algorithm %-3s flags %s%s\n", text_of(key["role"]).c_str(),
                  text_of(key["key_tag"]).c_str(), text_of(key["algorithm"]).c_str(), text_of(key["flags"]).c_str(),
                  key.contains("ds") ? ("  DS " + text_of(key["ds"])).c_str() : "");
    }
    std::printf("  signatures %s (%s expired, %s not yet valid), latest inception %s, first to expire %s at %s (in %.1f days)\n",
                text_of(zone["signatures"]).c_str(), text_of(zone["expired"]).c_str(), text_of(zone["not_yet_valid"]).c_str(),
                text_of(zone.value("latest_inception", nlohmann::json())).c_str(),
                text_of(zone.value("earliest_rrset", nlohmann::json())).c_str(),
                text_of(zone.value("earliest_expiration", nlohmann::json())).c_str(),
                zone.value("earliest_expiry_in_seconds", 0.0) / 86400.0);
  }
}

// Zones signed online (docs/dnssec.md, "Online signing").
void print_dnssec_online(const nlohmann::json& zones) {
  for (const auto& zone : zones) {
    std::printf("dnssec %s  online, denial %s  CDS/CDNSKEY %s\n", text_of(zone["zone"]).c_str(),
                text_of(zone["denial"]).c_str(), zone.value("publishes_cds", false) ? "published" : "none");
    for (const auto& key : zone["keys"]) {
      std::printf("  key %-7s tag %-5s algorithm %-3s %-9s%s\n", text_of(key["role"]).c_str(), text_of(key["key_tag"]).c_str(),
                  text_of(key["algorithm"]).c_str(), text_of(key["state"]).c_str(),
                  key.contains("ds") ? ("  DS " + text_of(key["ds"])).c_str() : "");
    }
    std::printf("  signatures made now: inception %s, expiration %s; %s RRsets signed, %s from the cache (%s cached)\n",
                text_of(zone["inception"]).c_str(), text_of(zone["expiration"]).c_str(),
                text_of(zone["signed_rrsets"]).c_str(), text_of(zone["cache_hits"]).c_str(),
                text_of(zone["cached_rrsets"]).c_str());
  }
}

void run_status(const StatusOptions& options) {
  const Output& output = options.output;
  auto listen = config::parse_control_listen(options.control);
  if (!listen) output.fail(ExitCode::kCouldNotRun, "--control: " + listen.error().message);
  httplib::Client client(listen->host, listen->port);
  client.set_connection_timeout(std::chrono::seconds(3));
  client.set_read_timeout(std::chrono::seconds(5));
  httplib::Headers headers;
  if (!options.token.empty()) headers.emplace("Authorization", "Bearer " + options.token);
  auto reply = client.Get("/status", headers);
  if (!reply || reply->status != 200) {
    output.fail(ExitCode::kCouldNotRun, "no status from " + options.control + ": " +
                                            (reply ? "HTTP " + std::to_string(reply->status) : httplib::to_string(reply.error())));
  }
  auto status = nlohmann::json::parse(reply->body, nullptr, false);
  if (!status.is_discarded() && status.is_object() && status.value("role", "") == "checker" &&
      status.contains("cluster") && status["cluster"].is_object()) {
    if (output.json()) {
      output.document(status);
    } else {
      print_checker(status["cluster"]);
    }
    return;
  }
  if (status.is_discarded() || !status.is_object() || !status.contains("pools")) {
    output.fail(ExitCode::kCouldNotRun, "the reply is not a cutover status document");
  }
  if (output.json()) {
    output.document(status);
    return;
  }
  if (status["pools"].empty()) std::printf("no pools configured\n");
  print_table(status);
  if (status.contains("cluster") && status["cluster"].is_object()) print_cluster(status["cluster"]);
  if (status.contains("dnssec") && status["dnssec"].is_array()) print_dnssec(status["dnssec"]);
  if (status.contains("dnssec_online") && status["dnssec_online"].is_array()) print_dnssec_online(status["dnssec_online"]);
}

}  // namespace

void add_status_command(CLI::App& app) {
  auto options = std::make_shared<StatusOptions>();
  auto* command = app.add_subcommand("status", "Show the pools, endpoint health and current answers of a running server");
  command->add_option("--control", options->control, "ADDRESS:PORT of the server's control API")->capture_default_str();
  command->add_option("--token", options->token, "Bearer token of the control API");
  options->output.add_json_flag(*command, "Print the /status document");
  command->callback([options] { run_status(*options); });
}

}  // namespace cutover::cmd
