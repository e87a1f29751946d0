// Go clients on programs/lab_client.go, built once per run with `go build` (GOCACHE in the
// run's build directory): `go` with the pure Go resolver (GODEBUG=netdns=go) and `go-cgo`
// with glibc's (netdns=cgo). Both use net/http's default transport (keep-alive, a 300 ms
// Happy Eyeballs fallback delay, a 30 s dial timeout unless --connect-timeout is given).
#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

class GoClient : public ClientAdapter {
 public:
  explicit GoClient(bool cgo) : cgo_(cgo) {}
  std::string id() const override { return cgo_ ? "go-cgo" : "go"; }
  std::string runtime() const override { return "Go"; }
  std::string setting() const override { return cgo_ ? "net/http, cgo resolver (glibc)" : "net/http, pure Go resolver"; }
  std::string program() const override { return "go"; }
  std::string package() const override { return "golang-go"; }
  bool reuses_connections() const override { return true; }
  ClientCache cache() const override { return {ClientCache::Kind::kNone, 0, 0, "none"}; }
  base::Status prepare(const ClientPaths& paths) const override {
    CommandOutput out = run_capture({"env", "GOCACHE=" + paths.build_dir + "/gocache", "GOPATH=" + paths.build_dir + "/gopath",
                                     "GO111MODULE=off", "CGO_ENABLED=1", "go", "build", "-o", binary(paths),
                                     paths.programs_dir + "/lab_client.go"});
    if (out.exit_code != 0) return base::make_error(base::ErrorCode::kIo, "go build lab_client.go failed:\n" + out.text);
    return {};
  }
  std::string version(const ClientPaths&) const override {
    CommandOutput out = run_capture({"go", "version"});
    return out.exit_code == 0 ? client_version_in(out.text) : std::string();
  }
  std::vector<std::string> environment(const ClientPaths&) const override {
    return {cgo_ ? "GODEBUG=netdns=cgo" : "GODEBUG=netdns=go"};
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {binary(paths)};
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    return argv;
  }

 private:
  std::string binary(const ClientPaths& paths) const { return paths.build_dir + "/lab_client_" + id(); }
  bool cgo_;
};

}  // namespace

ClientKind go_client() { return {"go", [] { return std::unique_ptr<ClientAdapter>(new GoClient(false)); }}; }
ClientKind go_cgo_client() { return {"go-cgo", [] { return std::unique_ptr<ClientAdapter>(new GoClient(true)); }}; }

}  // namespace cutover::lab
