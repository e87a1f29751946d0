// Node.js clients on programs/lab_client.js: `node` (http.get with a new agent per request,
// so a new connection each time) and `node-keepalive` (one keep-alive agent). Lookups go
// through dns.lookup, i.e. glibc getaddrinfo, with no cache of Node's own.
#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

class NodeClient : public ClientAdapter {
 public:
  explicit NodeClient(bool keepalive) : keepalive_(keepalive) {}
  std::string id() const override { return keepalive_ ? "node-keepalive" : "node"; }
  std::string runtime() const override { return "Node.js"; }
  std::string setting() const override { return keepalive_ ? "http.get, one keep-alive agent" : "http.get, new agent per request"; }
  std::string program() const override { return "node"; }
  std::string package() const override { return "nodejs"; }
  bool reuses_connections() const override { return keepalive_; }
  ClientCache cache() const override { return {ClientCache::Kind::kNone, 0, 0, "none (dns.lookup per connection)"}; }
  std::string version(const ClientPaths&) const override {
    CommandOutput out = run_capture({"node", "--version"});
    return out.exit_code == 0 ? client_version_in(out.text) : std::string();
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {"node", paths.programs_dir + "/lab_client.js"};
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    if (keepalive_) argv.push_back("--keepalive");
    return argv;
  }

 private:
  bool keepalive_;
};

}  // namespace

ClientKind node_client() { return {"node", [] { return std::unique_ptr<ClientAdapter>(new NodeClient(false)); }}; }
ClientKind node_keepalive_client() {
  return {"node-keepalive", [] { return std::unique_ptr<ClientAdapter>(new NodeClient(true)); }};
}

}  // namespace cutover::lab
