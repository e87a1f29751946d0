// External resolver (`external:ADDR:PORT`): one the user runs and configures. The lab cannot
// change its settings, so only cases with default cache settings and the stub upstream run.
#include "client/query.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

class External : public ResolverAdapter {
 public:
  External(std::string host, std::uint16_t port, std::string text)
      : host_(std::move(host)), port_(port), text_(std::move(text)) {}

  std::string name() const override { return "external:" + text_; }
  std::string program() const override { return {}; }
  std::string version() const override { return "external"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (!config.extra_lines.empty()) return "the lab cannot add options to an external resolver's configuration";
    if (!config.cache.is_default()) return "the lab cannot change an external resolver's cache settings";
    if (config.upstream.kind != Upstream::Kind::kStub) return "an external resolver cannot be pointed at the lab root";
    return {};
  }
  LaunchPlan plan(const std::string&, std::uint16_t, const ResolverConfig&) const override { return {}; }
  bool external() const override { return true; }
  std::string external_host() const override { return host_; }
  std::uint16_t external_port() const override { return port_; }

 protected:
  std::vector<std::string> version_command() const override { return {}; }

 private:
  std::string host_;
  std::uint16_t port_;
  std::string text_;
};

// The options are the address the resolver listens on, ADDR:PORT as client::parse_server reads it.
std::unique_ptr<ResolverAdapter> make_external(const std::optional<std::string>& address) {
  if (!address) return nullptr;
  auto parsed = client::parse_server(*address);
  if (!parsed) return nullptr;
  return std::make_unique<External>(net::format_host(parsed->storage), parsed->port(), *address);
}

}  // namespace

ResolverKind external_resolver() { return {"external", false, make_external, "external:ADDR:PORT"}; }

}  // namespace cutover::lab
