// The one list of resolver adapters, and what every adapter shares.
#include <regex>

#include "lab/process.h"
#include "lab/resolvers/resolver.h"

// Each entry FILE is FILE.cpp in this folder, which defines `ResolverKind FILE_resolver()`:
// adding a resolver is that file plus one line here. The order is the order of `all`.
#define CUTOVER_LAB_RESOLVERS(X) \
  X(unbound) \
  X(bind) \
  X(kresd) \
  X(pdns_recursor) \
  X(dnsmasq) \
  X(external)

namespace cutover::lab {

#define CUTOVER_DECLARE_RESOLVER(file) ResolverKind file##_resolver();
CUTOVER_LAB_RESOLVERS(CUTOVER_DECLARE_RESOLVER)
#undef CUTOVER_DECLARE_RESOLVER

namespace {

const std::vector<ResolverKind>& resolver_kinds() {
#define CUTOVER_RESOLVER_ENTRY(file) file##_resolver(),
  static const std::vector<ResolverKind> kKinds = {CUTOVER_LAB_RESOLVERS(CUTOVER_RESOLVER_ENTRY)};
#undef CUTOVER_RESOLVER_ENTRY
  return kKinds;
}

}  // namespace

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

nlohmann::json ResolverAdapter::introspect(const std::string&, const std::vector<std::string>&) const {
  return {{"available", false}, {"reason", "the lab reads no cache state from " + name() + " yet"}};
}

std::string ResolverAdapter::package_version() const {
  if (package().empty()) return "not available: " + name() + " is not installed from a Debian package by the lab";
  return debian_package_version(package());
}

std::string debian_package_version(const std::string& package) {
  CommandOutput output = run_capture({"dpkg-query", "-W", "-f=${Version}", package});
  std::string text = output.text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (output.exit_code == 0 && !text.empty()) return text;
  if (output.exit_code == 0) return "not available: " + package + " is not installed";
  if (output.exit_code == 127) return "not available: dpkg-query cannot be run";
  if (text.empty()) text = "dpkg-query exited with " + std::to_string(output.exit_code);
  return "not available: " + text.substr(0, text.find('\n'));
}

std::string ResolverAdapter::first_version(const std::string& text) {
  static const std::regex kVersion(R"((\d+\.\d+(\.\d+)?))");
  std::smatch match;
  return std::regex_search(text, match, kVersion) ? match[1].str() : std::string();
}

std::unique_ptr<ResolverAdapter> make_resolver(const std::string& spec) {
  std::size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  std::optional<std::string> options;
  if (colon != std::string::npos) options = spec.substr(colon + 1);
  for (const auto& kind : resolver_kinds()) {
    if (kind.name == name) return kind.make(options);
  }
  return nullptr;
}

std::optional<std::pair<std::string, std::string>> parse_resolver_option(const std::string& text) {
  std::size_t colon = text.find(':');
  if (colon == std::string::npos) return std::nullopt;
  std::string adapter = text.substr(0, colon);
  std::string line = text.substr(colon + 1);
  while (!line.empty() && line.front() == ' ') line.erase(line.begin());
  if (line.empty() || line.find('\n') != std::string::npos) return std::nullopt;
  for (const auto& kind : resolver_kinds()) {
    if (kind.name == adapter && kind.in_all) return std::make_pair(adapter, line);
  }
  return std::nullopt;
}

std::vector<std::string> builtin_resolver_names() {
  std::vector<std::string> names;
  for (const auto& kind : resolver_kinds()) {
    if (kind.in_all) names.push_back(kind.name);
  }
  return names;
}

std::string resolver_usage() {
  std::string out;
  for (const auto& kind : resolver_kinds()) {
    if (!out.empty()) out += ",";
    out += kind.usage.empty() ? kind.name : kind.usage;
  }
  return out;
}

std::string root_hints_file(const Upstream& upstream) {
  return ".                        3600000 IN NS " + upstream.root_name + "\n" + upstream.root_name +
         " 3600000 IN A " + upstream.host + "\n";
}

}  // namespace cutover::lab
