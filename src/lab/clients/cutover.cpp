// The reference client: `cutover fetch URL --log-json` of the running binary (src/client/:
// a cache that honours the record and negative TTLs, RFC 8305 Happy Eyeballs, a connection
// pool that retires connections to addresses that left the answer). A binary built without
// `fetch` reports every case as not supported.
#include "lab/clients/client.h"
#include "lab/process.h"

namespace cutover::lab {
namespace {

class CutoverClient : public ClientAdapter {
 public:
  std::string id() const override { return "cutover"; }
  std::string runtime() const override { return "cutover"; }
  std::string setting() const override { return "cutover fetch (reference client)"; }
  std::string program() const override { return "cutover"; }
  std::string package() const override { return "cutover"; }
  bool reuses_connections() const override { return true; }
  bool retires_moved_connections() const override { return true; }
  ClientCache cache() const override { return {ClientCache::Kind::kNone, 0, 0, "honours the record TTL (RFC 2308 for negative)"}; }
  std::string unsupported(const ClientPaths& paths) const override {
    // An unknown subcommand's --help may still print the top-level help and exit 0, so the
    // check is that fetch's own help names its per-request log flag.
    CommandOutput help = run_capture({paths.cutover_binary, "fetch", "--help"});
    if (help.exit_code != 0 || help.text.find("--log-json") == std::string::npos) {
      return "not supported: " + paths.cutover_binary + " has no `fetch` subcommand (the reference client)";
    }
    return {};
  }
  std::string version(const ClientPaths& paths) const override {
    CommandOutput out = run_capture({paths.cutover_binary, "--version"});
    return out.exit_code == 0 ? client_version_in(out.text) : std::string();
  }
  std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const override {
    std::vector<std::string> argv = {paths.cutover_binary, "fetch"};
    for (auto& flag : common_flags(run)) argv.push_back(flag);
    argv.push_back("--log-json");
    return argv;
  }
};

}  // namespace

ClientKind cutover_client() { return {"cutover", [] { return std::unique_ptr<ClientAdapter>(new CutoverClient()); }}; }

}  // namespace cutover::lab
