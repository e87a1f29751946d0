// Starting `cutover serve --lab` and driving its /lab/ control API over HTTP.
#include "lab/authority/authority_process.h"

#include <unistd.h>

#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "client/query.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;
constexpr int kStartAttempts = 4;
constexpr std::int64_t kStartTimeoutNs = 5'000'000'000;
constexpr int kHttpAttempts = 4;

}  // namespace

std::string self_executable() {
  char buffer[4096];
  ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length <= 0) return "cutover";
  return std::string(buffer, static_cast<std::size_t>(length));
}

base::Result<std::unique_ptr<AuthorityProcess>> AuthorityProcess::start(const AuthorityOptions& options) {
  std::string last_error = "not started";
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    std::unique_ptr<AuthorityProcess> authority(new AuthorityProcess());
    authority->host_ = options.host;
    if (options.dns_port != 0) {
      authority->dns_port_ = options.dns_port;
    } else {
      auto port = free_port();
      if (!port) return port.error();
      authority->dns_port_ = *port;
    }
    auto control = free_port();
    if (!control) return control.error();
    authority->control_port_ = *control;
    authority->log_path_ = options.work_dir + "/" + options.label + ".log";
    std::string listen = options.host + ":" + std::to_string(authority->dns_port_);
    std::vector<std::string> argv = options.exec_prefix;
    for (const std::string& arg : {options.cutover_binary, std::string("serve"), std::string("--lab"), std::string("--listen"),
                                   listen, std::string("--control"), "127.0.0.1:" + std::to_string(authority->control_port_),
                                   std::string("--threads"), std::string("2"), std::string("--log-level"), std::string("warn")}) {
      argv.push_back(arg);
    }
    auto child = ChildProcess::start(argv, authority->log_path_);
    if (!child) return child.error();
    authority->process_ = std::move(*child);
    std::int64_t deadline = base::monotonic_ns() + kStartTimeoutNs;
    while (base::monotonic_ns() < deadline && authority->process_.running()) {
      auto clock = authority->call("GET", "/lab/clock", "");
      if (clock) {
        client::QueryOptions probe;
        probe.timeout = std::chrono::milliseconds(300);
        auto name = dns::Name::from_text("ready.invalid.");
        if (client::query(authority->dns_address(), *name, dns::RRType::SOA, probe)) return authority;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    last_error = "lab authority on " + listen + " did not start:\n" + log_tail(authority->log_path_);
    authority->process_.stop();
    if (options.dns_port != 0) break;  // a fixed port taken by someone else will stay taken
  }
  return base::make_error(base::ErrorCode::kIo, last_error);
}

net::SocketAddress AuthorityProcess::dns_address() const {
  auto parsed = client::parse_server(host_ + ":" + std::to_string(dns_port_));
  return *parsed;
}

base::Result<std::string> AuthorityProcess::call(const std::string& method, const std::string& path,
                                                 const std::string& body) {
  // Every route is idempotent, so a transport failure (a burst of cases opening connections
  // at once can overrun the listener) is retried; the reply's at_ns is the one that counts.
  httplib::Result result(nullptr, httplib::Error::Unknown);
  for (int attempt = 0; attempt < kHttpAttempts; ++attempt) {
    httplib::Client http("127.0.0.1", control_port_);
    http.set_connection_timeout(2, 0);
    http.set_read_timeout(5, 0);
    result = method == "GET"   ? http.Get(path)
             : method == "PUT" ? http.Put(path, body, "application/json")
                               : http.Delete(path);
    if (result) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50 * (attempt + 1)));
  }
  if (!result) {
    return base::make_error(base::ErrorCode::kIo, method + " " + path + ": " + httplib::to_string(result.error()));
  }
  if (result->status != 200) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            method + " " + path + ": " + std::to_string(result->status) + " " + result->body);
  }
  return result->body;
}

base::Result<std::int64_t> AuthorityProcess::change(const std::string& method, const std::string& path,
                                                    const std::string& body) {
  auto text = call(method, path, body);
  if (!text) return text.error();
  Json json = Json::parse(*text, nullptr, false);
  if (json.is_discarded() || !json.contains("at_ns")) {
    return base::make_error(base::ErrorCode::kMalformed, path + ": reply has no at_ns: " + *text);
  }
  return json["at_ns"].get<std::int64_t>();
}

base::Result<std::int64_t> AuthorityProcess::put_zone(const std::string& origin, std::uint32_t soa_ttl,
                                                      std::uint32_t minimum, ZoneReplies replies) {
  Json body{{"soa_ttl", soa_ttl},
            {"minimum", minimum},
            {"negative", replies.uncapped_negative ? "uncapped" : "capped"},
            {"ns_in_authority", replies.ns_in_authority}};
  return change("PUT", "/lab/zones/" + origin, body.dump());
}

base::Result<std::int64_t> AuthorityProcess::put_zone_file(const std::string& origin, const std::string& text) {
  return change("PUT", "/lab/zone-files/" + origin, Json{{"text", text}}.dump());
}

base::Result<std::int64_t> AuthorityProcess::put_rrset(const std::string& name, const std::string& type,
                                                       std::uint32_t ttl, const std::vector<std::string>& data) {
  return change("PUT", "/lab/rrsets/" + name + "/" + type, Json{{"ttl", ttl}, {"data", data}}.dump());
}

base::Result<std::int64_t> AuthorityProcess::delete_name(const std::string& name) {
  return change("DELETE", "/lab/names/" + name, "");
}

base::Result<std::int64_t> AuthorityProcess::set_outage(const std::string& scope, const std::string& target,
                                                        const std::string& mode) {
  return change("PUT", "/lab/outage/" + scope + "/" + target, Json{{"mode", mode}}.dump());
}

base::Result<std::uint64_t> AuthorityProcess::count(const std::string& name, const std::string& type) {
  auto text = call("GET", "/lab/counts", "");
  if (!text) return text.error();
  Json json = Json::parse(*text, nullptr, false);
  if (json.is_discarded()) return base::make_error(base::ErrorCode::kMalformed, "bad /lab/counts reply");
  std::string wanted = dns::Name::from_text(name) ? dns::Name::from_text(name)->lowercased().to_text() : name;
  for (const auto& entry : json["counts"]) {
    if (entry["name"] == wanted && entry["type"] == type) return entry["count"].get<std::uint64_t>();
  }
  return std::uint64_t{0};
}

base::Result<std::vector<AuthorityProcess::QueryCount>> AuthorityProcess::counts() {
  auto text = call("GET", "/lab/counts", "");
  if (!text) return text.error();
  Json json = Json::parse(*text, nullptr, false);
  if (json.is_discarded() || !json.contains("counts")) {
    return base::make_error(base::ErrorCode::kMalformed, "bad /lab/counts reply");
  }
  std::vector<QueryCount> out;
  for (const auto& entry : json["counts"]) {
    out.push_back({entry.value("name", ""), entry.value("type", ""), entry.value("count", std::uint64_t{0})});
  }
  return out;
}

}  // namespace cutover::lab
