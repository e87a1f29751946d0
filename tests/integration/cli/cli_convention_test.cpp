// The CLI convention of docs/cli.md, for every subcommand there is: the subcommands are found
// by walking `cutover --help` (so a new one is checked without anyone listing it here), and
// each must exit 0 for --help, 2 for an unknown flag (as the JSON error document with --json),
// and accept --json with one parseable JSON document on stdout, the error document when it
// could not run.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

std::string zone_file() { return std::string(CUTOVER_SOURCE_DIR) + "/tests/zones/example.test.zone"; }

// The subcommand names listed in the "Subcommands:" section of a help text.
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "Subcommands:" || line == "SUBCOMMANDS:") {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.empty() || line[0] != ' ') {
      inside = false;
      continue;
    }
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

struct Command {
  std::vector<std::string> path;  // {"pool", "drain"}
  bool group = false;             // has subcommands of its own
  std::string text() const {
    std::string out;
    for (const auto& word : path) out += (out.empty() ? "" : " ") + word;
    return out;
  }
};

// Every command reachable from `cutover --help`, depth first.
std::vector<Command> discover() {
  std::vector<Command> found;
  std::vector<std::vector<std::string>> pending = {{}};
  while (!pending.empty()) {
    std::vector<std::string> path = pending.back();
    pending.pop_back();
    CommandResult help = run_command(with(with({CUTOVER_BINARY}, path), {"--help"}), 10s);
    EXPECT_EQ(help.exit_code, 0) << "cutover " << Command{path}.text() << " --help\n" << help.err;
    std::vector<std::string> subs = listed_subcommands(help.out);
    if (!path.empty()) found.push_back({path, !subs.empty()});
    for (const auto& sub : subs) pending.push_back(with(path, {sub}));
    if (found.size() > 200) break;  // bounded, whatever the help says
  }
  return found;
}

// Arguments that let each command run far enough to answer for itself without touching the
// network beyond loopback port 1 (where nothing listens) or starting a server. A command not
// listed runs with --json alone, and must still print one JSON document.
const std::map<std::string, std::vector<std::string>>& run_arguments() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"serve", {"--check"}},
      {"status", {"--control", "127.0.0.1:1"}},
      {"explain", {}},
      {"reload", {"--pid-file", "/nonexistent/cutover.pid"}},
      {"check-zone", {"example.test", zone_file()}},
      {"sweep", {"www.example.test", "--auth", "127.0.0.1:1", "--resolvers", "127.0.0.1:1", "--timeout", "0.2", "--tries", "1"}},
      {"trace", {"www.example.test", "--root", "127.0.0.1:1", "--timeout", "0.2", "--tries", "1"}},
      {"calc", {"--interval", "10", "--fall", "3", "--timeout", "2", "--ttl", "60"}},
      {"plan", {zone_file(), "--set", "www A 192.0.2.99", "--start", "2026-12-02T15:00Z"}},
      {"lint", {zone_file()}},
      {"lab run", {}},
      {"lab check", {"/nonexistent/lab-dir"}},
      {"lab compare", {"/nonexistent/a.json", "/nonexistent/b.json"}},
      {"set", {"example.test", "www", "A", "192.0.2.1", "--control", "127.0.0.1:1"}},
      {"delete", {"example.test", "www", "--control", "127.0.0.1:1"}},
      {"get", {"example.test", "--control", "127.0.0.1:1"}},
      {"history", {"example.test", "--control", "127.0.0.1:1"}},
      {"undo", {"example.test", "--to", "1", "--control", "127.0.0.1:1"}},
      {"journal compact", {"example.test", "--control", "127.0.0.1:1"}},
      {"pool get", {"--control", "127.0.0.1:1"}},
      {"pool set", {"app", "{}", "--control", "127.0.0.1:1"}},
      {"pool patch", {"app", "{}", "--control", "127.0.0.1:1"}},
      {"pool delete", {"app", "--control", "127.0.0.1:1"}},
      {"pool undo", {"app", "--to", "1", "--control", "127.0.0.1:1"}},
      {"pool drain", {"app", "127.0.0.11", "--control", "127.0.0.1:1"}},
      {"pool undrain", {"app", "127.0.0.11", "--control", "127.0.0.1:1"}},
      {"pool force-up", {"app", "127.0.0.11", "--control", "127.0.0.1:1"}},
      {"pool history", {"app", "--control", "127.0.0.1:1"}},
      {"fetch", {"http://127.0.0.1:1/", "--connect-timeout", "0.2"}},
  };
  return table;
}

// stdout parsed as exactly one JSON document (nlohmann rejects trailing text).
nlohmann::json one_document(const CommandResult& run, const std::string& what) {
  nlohmann::json parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << what << ": stdout is not one JSON document:\n" << run.out << "\nstderr:\n" << run.err;
  return parsed;
}

void expect_error_document(const nlohmann::json& document, const std::string& command, int code, const std::string& what) {
  ASSERT_TRUE(document.is_object()) << what << ": " << document.dump();
  EXPECT_EQ(document.value("command", std::string()), command) << what << ": " << document.dump();
  EXPECT_EQ(document.value("exit_code", -1), code) << what << ": " << document.dump();
  ASSERT_TRUE(document.contains("error") && document["error"].is_string()) << what << ": " << document.dump();
  EXPECT_FALSE(document["error"].get<std::string>().empty()) << what;
}

TEST(CliConvention, TheHelpWalkFindsEveryKnownSubcommand) {
  std::set<std::string> found;
  for (const auto& command : discover()) found.insert(command.text());
  // The table above must not go stale: each entry is a command the walk finds.
  for (const auto& [command, args] : run_arguments()) EXPECT_TRUE(found.contains(command)) << command << " was not found";
  EXPECT_TRUE(found.contains("lab")) << "groups are found too";
  EXPECT_GE(found.size(), 25u);
}

TEST(CliConvention, EverySubcommandFollowsTheConvention) {
  std::vector<Command> commands = discover();
  ASSERT_FALSE(commands.empty());
  for (const auto& command : commands) {
    std::string name = command.text();
    SCOPED_TRACE(name);
    std::vector<std::string> base = with({CUTOVER_BINARY}, command.path);

    CommandResult help = run_command(with(base, {"--help"}), 10s);
    EXPECT_EQ(help.exit_code, 0) << help.err;
    if (!command.group) {
      EXPECT_NE(help.out.find("--json"), std::string::npos) << "--help lists no --json:\n" << help.out;
    }

    CommandResult bad = run_command(with(base, {"--no-such-flag"}), 10s);
    EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
    EXPECT_TRUE(bad.out.empty()) << "a parse error prints to stderr only:\n" << bad.out;

    CommandResult bad_json = run_command(with(base, {"--json", "--no-such-flag"}), 10s);
    EXPECT_EQ(bad_json.exit_code, 2) << bad_json.out << bad_json.err;
    expect_error_document(one_document(bad_json, "--json --no-such-flag"), name, 2, "--json --no-such-flag");

    std::vector<std::string> args;
    if (auto it = run_arguments().find(name); it != run_arguments().end()) args = it->second;
    CommandResult run = run_command(with(with(base, {"--json"}), args), 30s);
    ASSERT_FALSE(run.timed_out) << "cutover " << name << " --json did not finish:\n" << run.out << run.err;
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1 || run.exit_code == 2) << run.exit_code << "\n" << run.err;
    nlohmann::json document = one_document(run, "--json");
    // Exit 2 means it could not run: stdout then holds the error document.
    if (run.exit_code == 2) {
      expect_error_document(document, name, 2, "--json");
    }
  }
}

TEST(CliConvention, NoSubcommandAndAnUnknownOneExitTwo) {
  CommandResult none = run_command({CUTOVER_BINARY}, 10s);
  EXPECT_EQ(none.exit_code, 2) << none.err;
  CommandResult unknown = run_command({CUTOVER_BINARY, "no-such-command"}, 10s);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  CommandResult unknown_json = run_command({CUTOVER_BINARY, "no-such-command", "--json"}, 10s);
  EXPECT_EQ(unknown_json.exit_code, 2);
  expect_error_document(one_document(unknown_json, "unknown command"), "cutover", 2, "unknown command");
}

}  // namespace
}  // namespace cutover::testing
