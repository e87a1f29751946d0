// cutover.yaml(5) and the example config, both generated from the key table (keys.h), so the
// documentation names exactly the keys the reader accepts.
#include "config/docs.h"

#include <set>
#include <sstream>
#include <string_view>

#include "config/embedded.h"
#include "config/keys.h"

namespace cutover::config {
namespace {

// roff text: hyphens as \- (so they are not broken or turned into dashes), backslashes doubled.
std::string roff(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  return out;
}

const KeySpec* find_key(std::string_view path) {
  for (const auto& key : config_keys()) {
    if (key.path == path) return &key;
  }
  return nullptr;
}

std::string described(const KeySpec& key) {
  std::string out = std::string(key.meaning) + " (" + std::string(key.type);
  if (!key.default_value.empty()) out += ", default " + std::string(key.default_value);
  return out + ")";
}

}  // namespace

std::string config_man_page(const std::string& version) {
  std::ostringstream out;
  out << ".TH CUTOVER.YAML 5 \"\" \"cutover " << roff(version) << "\" \"File Formats\"\n"
      << ".SH NAME\ncutover.yaml \\- configuration file of cutover serve\n"
      << ".SH SYNOPSIS\n/etc/cutover/cutover.yaml\n"
      << ".SH DESCRIPTION\n"
      << "The configuration of \\fBcutover serve \\-\\-config\\fR is a YAML mapping. It is read strictly: an unknown key, "
         "a duplicate key or a value of the wrong type is an error naming FILE:LINE:COL and the key's path, and the "
         "server does not start (or, on SIGHUP, keeps its old configuration). Relative paths are taken relative to the "
         "directory of the file.\n"
      << ".PP\nDurations are written like 10s, 500ms or 2m (a bare number is seconds). In the list below, "
         "\\fIa.b\\fR is key \\fIb\\fR of mapping \\fIa\\fR and \\fIzones[].origin\\fR is key \\fIorigin\\fR of each "
         "item of the list \\fIzones\\fR.\n"
      << ".SH KEYS\n";
  for (const auto& key : config_keys()) {
    out << ".TP\n.B " << roff(key.path) << "\n"
        << roff(key.type);
    if (!key.default_value.empty()) out << "; default " << roff(key.default_value);
    out << ".\n" << roff(key.meaning) << ".\n";
    if (!key.example.empty()) out << "Example: \\fB" << roff(key.path.substr(key.path.rfind('.') + 1)) << ": "
                                  << roff(key.example) << "\\fR\n";
  }
  out << ".SH FILES\n.TP\n/etc/cutover/cutover.yaml\nthe packaged configuration (a conffile)\n"
      << ".TP\n/var/lib/cutover\nthe journal of writes (the unit's StateDirectory)\n"
      << ".SH SEE ALSO\n\\fBcutover\\fR(1), docs/operations.md, docs/pools.md, docs/writes.md, docs/replication.md\n";
  return out.str();
}

std::string example_config(const PackagedPaths& paths) {
  std::ostringstream out;
  out << "# /etc/cutover/cutover.yaml: the configuration of `cutover serve` (see cutover.yaml(5)).\n"
      << "# Generated from the built-in example configuration; edit freely (it is a conffile).\n"
      << "# Reload after a change with `systemctl reload cutover` (SIGHUP): the new config and zones\n"
      << "# are checked first and swapped in only when valid.\n";
  std::set<std::string> set_keys;
  std::string yaml(embedded_config_yaml());
  std::istringstream lines(yaml);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto colon = line.find(':');
    bool top = line[0] != ' ' && line[0] != '#' && colon != std::string::npos;
    if (top) {
      std::string key = line.substr(0, colon);
      set_keys.insert(key);
      if (const KeySpec* spec = find_key(key)) out << "\n# " << key << ": " << described(*spec) << "\n";
      if (key == "listen") line = "listen: [\"" + paths.listen + "\"]";
    }
    out << line << "\n";
  }
  out << "\n# pid-file: " << described(*find_key("pid-file")) << "\npid-file: " << paths.pid_file << "\n";
  out << "\n# writes.journal: " << described(*find_key("writes.journal"))
      << "\n# (in the unit's StateDirectory; writes, history, undo and IXFR need it)\n"
      << "writes:\n  journal: " << paths.journal << "\n";
  set_keys.insert({"pid-file", "writes"});
  out << "\n# Other keys, with an example value each (cutover.yaml(5) has them all):\n";
  for (const auto& key : config_keys()) {
    std::string_view path = key.path;
    std::string top(path.substr(0, path.find_first_of(".[")));
    if (set_keys.count(top) && path.find('.') == std::string_view::npos) continue;
    if (path.rfind("zones[]", 0) == 0 || path == "writes.journal") continue;  // the zone above shows them
    out << "#   " << path << ": " << key.example << "    # " << described(key) << "\n";
  }
  out << "# Zone keys (under each item of zones:):\n";
  for (const auto& key : config_keys()) {
    if (key.path.rfind("zones[].", 0) != 0) continue;
    out << "#   " << key.path.substr(8) << ": " << key.example << "    # " << described(key) << "\n";
  }
  return out.str();
}

}  // namespace cutover::config
