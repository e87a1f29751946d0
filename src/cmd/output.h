// The one CLI convention every subcommand follows (docs/cli.md): exit codes 0 done,
// 1 done with findings or a refusal, 2 could not run; `--json` puts exactly one JSON document
// on stdout, errors included. An Output is set up while the command line is defined and read
// by the subcommand's callback; not thread-safe.
#pragma once

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tools/report/finding.h"

namespace cutover::cmd {

// The tools' exit codes are the binary's: kOk 0, kFindings 1, kCouldNotRun 2.
using ExitCode = tools::ExitCode;

// {"command": ..., "exit_code": ..., "error": ...}: what stdout holds when a command run with
// --json did not finish.
nlohmann::json error_document(const std::string& command, ExitCode code, const std::string& message);

class Output {
 public:
  // `command` is the subcommand's path as typed, e.g. "pool drain".
  explicit Output(std::string command) : command_(std::move(command)) {}

  // Adds `--json` to `app` with `help` (or the standard text).
  void add_json_flag(CLI::App& app, const std::string& help = {});

  const std::string& command() const { return command_; }
  bool json() const { return json_; }
  void set_json(bool json) { json_ = json; }

  // One JSON document and a newline on stdout.
  void document(const nlohmann::json& document) const;

  // Says why the command stopped (a line "cutover COMMAND: message" on stderr, or with --json
  // the error document, with `extra`'s members added, on stdout) and exits with `code`
  // (throws CLI::RuntimeError, which main turns into the exit status).
  [[noreturn]] void fail(ExitCode code, const std::string& message,
                         const nlohmann::json& extra = nlohmann::json::object()) const;

  // Exits with `code` after the command printed its result (nothing when kOk).
  static void finish(ExitCode code);

 private:
  std::string command_;
  bool json_ = false;
};

// Parses the command line and runs the chosen subcommand: its exit status. The parser's own
// errors (unknown flag, missing argument) become kCouldNotRun, printed as the error document
// when --json is among the arguments; --help and --version exit 0 (--version --json prints
// the build as JSON).
int run_command_line(CLI::App& app, int argc, char** argv);

}  // namespace cutover::cmd
