// curl clients: `curl` runs a new curl process per request (programs/curl_each.sh), so its DNS
// cache starts empty every time; `curl-long` runs one curl process for every request
// (programs/curl_long.sh, --rate), whose DNS cache keeps an address 60 s from its lookup
// (CURLOPT_DNS_CACHE_TIMEOUT's default; the command line has no option to change it) and
// whose connection cache keeps a connection the origin leaves open.
#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

class CurlClient : public ClientAdapter {
 public:
  explicit CurlClient(bool long_lived) : long_lived_(long_lived) {}
  std::string id() const override { return long_lived_ ? "curl-long" : "curl"; }
  std::string runtime() const override { return "curl"; }
  std::string setting() const override {
    return long_lived_ ? "one process for all requests (--rate)" : "a new process per request";
  }
  std::string program() const override { return "curl"; }
  std::string package() const override { return "curl"; }
  bool reuses_connections() const override { return long_lived_; }
  ClientCache cache() const override {
    if (!long_lived_) return {ClientCache::Kind::kNone, 0, 0, "none (a new process per request)"};
    return {ClientCache::Kind::kFromFirstLookup, 60, 0, "DNS cache, CURLOPT_DNS_CACHE_TIMEOUT default 60 s"};
  }
  std::string version(const ClientPaths&) const override {
    CommandOutput out = run_capture({"curl", "--version"});
    return out.exit_code == 0 ? client_version_in(out.text) : std::string();
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {"sh", paths.programs_dir + (long_lived_ ? "/curl_long.sh" : "/curl_each.sh")};
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    return argv;
  }

 private:
  bool long_lived_;
};

}  // namespace

ClientKind curl_client() {
  return {"curl", [] { return std::unique_ptr<ClientAdapter>(new CurlClient(false)); }};
}
ClientKind curl_long_client() {
  return {"curl-long", [] { return std::unique_ptr<ClientAdapter>(new CurlClient(true)); }};
}

}  // namespace cutover::lab
