// The explicit list of resolver adapters, and what every adapter shares.
#include <regex>

#include "lab/process.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {

std::unique_ptr<ResolverAdapter> make_unbound();
std::unique_ptr<ResolverAdapter> make_bind();
std::unique_ptr<ResolverAdapter> make_kresd();
std::unique_ptr<ResolverAdapter> make_pdns_recursor();
std::unique_ptr<ResolverAdapter> make_dnsmasq();
std::unique_ptr<ResolverAdapter> make_external(const std::string& address);

std::string CacheSettings::label() const {
  std::string out;
  auto add = [&out](const char* knob, const std::optional<std::uint32_t>& value) {
    if (!value) return;
    if (!out.empty()) out += "-";
    out += knob + std::to_string(*value);
  };
  add("floor", ttl_floor);
  add("cap", ttl_cap);
  add("neg", negative_cap);
  add("stale", stale_window);
  return out.empty() ? "default" : out;
}

std::string ResolverAdapter::version() const { return first_version(capture_output(version_command())); }

std::string ResolverAdapter::first_version(const std::string& text) {
  static const std::regex kVersion(R"((\d+\.\d+(\.\d+)?))");
  std::smatch match;
  return std::regex_search(text, match, kVersion) ? match[1].str() : std::string();
}

std::unique_ptr<ResolverAdapter> make_resolver(const std::string& spec) {
  if (spec == "unbound") return make_unbound();
  if (spec == "bind") return make_bind();
  if (spec == "kresd") return make_kresd();
  if (spec == "pdns-recursor") return make_pdns_recursor();
  if (spec == "dnsmasq") return make_dnsmasq();
  if (spec.rfind("external:", 0) == 0) return make_external(spec.substr(9));
  return nullptr;
}

std::vector<std::string> builtin_resolver_names() { return {"unbound", "bind", "kresd", "pdns-recursor", "dnsmasq"}; }

std::string root_hints_file(const Upstream& upstream) {
  return ".                        3600000 IN NS " + upstream.root_name + "\n" + upstream.root_name +
         " 3600000 IN A " + upstream.host + "\n";
}

}  // namespace cutover::lab
