// Documents generated from the config key table (keys.h) and the embedded config: the man page
// cutover.yaml(5) and the commented example config the Debian package installs as
// /etc/cutover/cutover.yaml. Pure functions; thread-safe.
#pragma once

#include <string>

namespace cutover::config {

// cutover.yaml(5) in man(7) roff: every key of the table with its type, default and meaning.
std::string config_man_page(const std::string& version);

// Where the packaged server keeps its state and runtime files (the unit's StateDirectory= and
// RuntimeDirectory=).
struct PackagedPaths {
  std::string listen = "127.0.0.1:53";
  std::string journal = "/var/lib/cutover/journal.sqlite";
  std::string pid_file = "/run/cutover/cutover.pid";
};

// The embedded config as a commented file: each key it sets is preceded by the table's
// meaning, the journal and pid file are set to `paths`, and every other key of the table is
// listed commented out with its default. parse_config reads it back (config_docs_test).
std::string example_config(const PackagedPaths& paths);

}  // namespace cutover::config
