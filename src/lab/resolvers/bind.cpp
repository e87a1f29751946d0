// BIND 9 adapter: `named -g -4 -n 1 -c named.conf`. 9.18 takes no port in static-stub
// server-addresses, so the global `port` option sends every outgoing query to the authority's port.
// introspect() reads the cache through `rndc dumpdb -cache` over a control channel on a private
// 127.0.0.1 port with a key generated for the instance (rndc(8), named.conf(5) `controls`).
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "dns/base_encoding.h"
#include "lab/process.h"
#include "lab/resolvers/cache_dumps.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

constexpr int kDumpWaitSteps = 150;  // 20 ms each: rndc dumpdb returns before named has written the file
constexpr auto kDumpWaitStep = std::chrono::milliseconds(20);

// A fresh HMAC-SHA256 secret for one instance's control channel, base64 as named.conf wants it.
std::string control_secret() {
  std::random_device random;
  std::vector<std::uint8_t> bytes(32);
  for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random());
  return dns::base64_encode(bytes);
}

// `trust-anchors { "." static-ds TAG ALG TYPE "HEX"; };` from "TAG ALG TYPE HEX".
std::string trust_anchor_statement(const std::string& ds) {
  std::istringstream fields(ds);
  std::string tag, algorithm, digest_type, digest, more;
  fields >> tag >> algorithm >> digest_type >> digest;
  while (fields >> more) digest += more;
  return fmt::format("trust-anchors {{ \".\" static-ds {} {} {} \"{}\"; }};\n", tag, algorithm, digest_type, digest);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class Bind : public ResolverAdapter {
 public:
  std::string name() const override { return "bind"; }
  std::string program() const override { return "named"; }
  std::string package() const override { return "bind9"; }
  std::string unsupported(const ResolverConfig&) const override { return {}; }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    bool stub = config.upstream.kind == Upstream::Kind::kStub;
    std::string options = fmt::format(
        "  directory \"{0}\";\n  pid-file \"{0}/named.pid\";\n  session-keyfile \"{0}/session.key\";\n"
        "  managed-keys-directory \"{0}\";\n  listen-on port {1} {{ 127.0.0.1; }};\n  listen-on-v6 {{ none; }};\n"
        "  recursion yes;\n  allow-query {{ any; }};\n  allow-recursion {{ 127.0.0.0/8; }};\n"
        "  dnssec-validation {2};\n  qname-minimization off;\n  prefetch 0;\n",
        dir, port, config.trust_anchor.empty() ? "no" : "yes");
    if (stub) options += fmt::format("  port {};\n", config.upstream.port);
    if (cache.ttl_floor) options += fmt::format("  min-cache-ttl {};\n", *cache.ttl_floor);
    if (cache.ttl_cap) options += fmt::format("  max-cache-ttl {};\n", *cache.ttl_cap);
    if (cache.negative_cap) options += fmt::format("  max-ncache-ttl {};\n", *cache.negative_cap);
    if (cache.stale_window) {
      options += fmt::format("  stale-answer-enable yes;\n  stale-cache-enable yes;\n  max-stale-ttl {};\n",
                             *cache.stale_window);
    }
    // --resolver-option lines are `options { }` statements (named.conf(5)), after the lab's own.
    for (const auto& line : config.extra_lines) options += "  " + line + "\n";
    options += fmt::format("  dump-file \"{}\";\n", dump_file(dir));
    // A control channel of its own (a private port and key), so instances never share rndc's 953.
    auto control_port = free_port();
    std::string key = fmt::format("key \"lab-rndc\" {{ algorithm hmac-sha256; secret \"{}\"; }};\n", control_secret());
    std::string conf = key + "options {\n" + options + "};\n";
    // E14: the lab root's DS as the only trust anchor (named.conf(5) `trust-anchors`, static-ds).
    if (!config.trust_anchor.empty()) conf += trust_anchor_statement(config.trust_anchor);
    LaunchPlan plan;
    if (control_port) {
      conf += fmt::format("controls {{ inet 127.0.0.1 port {} allow {{ 127.0.0.1; }} keys {{ \"lab-rndc\"; }}; }};\n",
                          *control_port);
      plan.files.emplace_back("rndc.conf", key + fmt::format("options {{ default-key \"lab-rndc\"; default-server "
                                                             "127.0.0.1; default-port {}; }};\n",
                                                             *control_port));
    } else {
      conf += "controls { };\n";
    }
    if (stub) {
      conf += fmt::format("zone \"{}\" {{ type static-stub; server-addresses {{ {}; }}; }};\n", config.upstream.zone,
                          config.upstream.host);
    } else {
      conf += fmt::format("zone \".\" {{ type hint; file \"{}/root.hints\"; }};\n", dir);
      plan.files.emplace_back("root.hints", root_hints_file(config.upstream));
    }
    plan.files.emplace_back("named.conf", conf);
    plan.argv = {"named", "-g", "-4", "-n", "1", "-c", dir + "/named.conf"};
    return plan;
  }

  nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const override {
    if (::access((dir + "/rndc.conf").c_str(), R_OK) != 0) {
      return {{"available", false}, {"reason", "no control channel: no free port for it when the instance started"}};
    }
    // One dump at a time per process: cases sharing an instance would overwrite each other's file.
    static std::mutex dumping;
    std::lock_guard lock(dumping);
    std::string path = dump_file(dir);
    ::unlink(path.c_str());
    CommandOutput dumped = run_capture({"rndc", "-c", dir + "/rndc.conf", "dumpdb", "-cache"});
    if (dumped.exit_code != 0) {
      return {{"available", false}, {"reason", "rndc dumpdb -cache: " + dumped.text.substr(0, dumped.text.find('\n'))}};
    }
    std::string dump;
    for (int step = 0; step < kDumpWaitSteps; ++step) {
      dump = read_text(path);
      if (dump.find("; Dump complete") != std::string::npos) break;
      std::this_thread::sleep_for(kDumpWaitStep);
    }
    if (dump.find("; Dump complete") == std::string::npos) {
      return {{"available", false}, {"reason", "named did not finish " + path + " within 3 s of rndc dumpdb"}};
    }
    nlohmann::json state = parse_bind_cache_dump(dump, names);
    state["available"] = true;
    state["source"] = "rndc dumpdb -cache";
    return state;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"named", "-v"}; }

 private:
  static std::string dump_file(const std::string& dir) { return dir + "/named_dump.db"; }
};

}  // namespace

ResolverKind bind_resolver() { return {"bind", true, without_options<Bind>}; }

}  // namespace cutover::lab
