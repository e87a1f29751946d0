// The exit codes and JSON output of docs/cli.md that need no running server: --version and
// its build facts, lint's --json beside --format json, and the commands that could not run
// (an unreachable server, an unknown pool, unreadable lab results) exiting 2.
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

std::string zone_file() { return std::string(CUTOVER_SOURCE_DIR) + "/tests/zones/example.test.zone"; }

nlohmann::json parse_one(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

TEST(ExitCodes, VersionPrintsTheBuild) {
  CommandResult text = run_command({CUTOVER_BINARY, "--version"}, 10s);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(^cutover \d+\.\d+\.\d+\n)"))) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(\ncommit ([0-9a-f]{40}|unknown)\n)"))) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(\ncompiler (GNU|Clang) \d+)"))) << text.out;
  EXPECT_NE(text.out.find("\nbuild type "), std::string::npos) << text.out;

  CommandResult json = run_command({CUTOVER_BINARY, "--version", "--json"}, 10s);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json version = parse_one(json.out);
  ASSERT_TRUE(version.is_object()) << json.out;
  for (const char* key : {"version", "commit", "compiler", "build_type"}) {
    ASSERT_TRUE(version.contains(key) && version[key].is_string()) << key << ": " << json.out;
    EXPECT_FALSE(version[key].get<std::string>().empty()) << key;
    // The text and the JSON tell the same build.
    EXPECT_NE(text.out.find(version[key].get<std::string>()), std::string::npos) << key;
  }
  // Built from a git checkout, the commit is one of its history: HEAD when it was configured
  // (HEAD itself, unless something was committed since the build).
  CommandResult inside = run_command({"git", "-C", CUTOVER_SOURCE_DIR, "rev-parse", "--is-inside-work-tree"}, 10s);
  if (inside.exit_code == 0) {
    std::string commit = version["commit"].get<std::string>();
    ASSERT_NE(commit, "unknown") << "built from a git checkout";
    CommandResult ancestor =
        run_command({"git", "-C", CUTOVER_SOURCE_DIR, "merge-base", "--is-ancestor", commit, "HEAD"}, 10s);
    EXPECT_EQ(ancestor.exit_code, 0) << commit << " is not in this checkout's history";
  }
}

TEST(ExitCodes, LintTakesJsonAndKeepsFormatJson) {
  CommandResult json = run_command({CUTOVER_BINARY, "lint", zone_file(), "--json"}, 10s);
  CommandResult format = run_command({CUTOVER_BINARY, "lint", zone_file(), "--format", "json"}, 10s);
  EXPECT_TRUE(json.exit_code == 0 || json.exit_code == 1) << json.exit_code << json.err;
  EXPECT_EQ(json.exit_code, format.exit_code);
  EXPECT_EQ(json.out, format.out);
  EXPECT_FALSE(parse_one(json.out).is_discarded()) << json.out;

  CommandResult both = run_command({CUTOVER_BINARY, "lint", zone_file(), "--json", "--format", "sarif"}, 10s);
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(parse_one(both.out).value("exit_code", -1), 2) << both.out;

  CommandResult rules = run_command({CUTOVER_BINARY, "lint", "--rules", "--json"}, 10s);
  EXPECT_EQ(rules.exit_code, 0);
  nlohmann::json listed = parse_one(rules.out);
  ASSERT_TRUE(listed.contains("rules")) << rules.out;
  EXPECT_FALSE(listed["rules"].empty());
}

TEST(ExitCodes, AnUnreachableServerIsCouldNotRun) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"status", "--control", "127.0.0.1:1"},
           {"get", "example.test", "--control", "127.0.0.1:1"},
           {"set", "example.test", "www", "A", "192.0.2.1", "--control", "127.0.0.1:1"},
           {"pool", "drain", "app", "127.0.0.11", "--control", "127.0.0.1:1"}}) {
    std::string what = args[0] + (args[0] == "pool" ? " " + args[1] : "");
    args.insert(args.begin(), CUTOVER_BINARY);
    CommandResult text = run_command(args, 20s);
    EXPECT_EQ(text.exit_code, 2) << what << ": " << text.err;
    EXPECT_NE(text.err.find("cutover " + what + ": "), std::string::npos) << text.err;
    args.push_back("--json");
    CommandResult json = run_command(args, 20s);
    EXPECT_EQ(json.exit_code, 2) << what;
    nlohmann::json error = parse_one(json.out);
    EXPECT_EQ(error.value("command", std::string()), what) << json.out;
    EXPECT_EQ(error.value("exit_code", -1), 2) << json.out;
  }
}

TEST(ExitCodes, ExplainOfAnUnknownPoolIsCouldNotRun) {
  CommandResult known = run_command({CUTOVER_BINARY, "explain", "app", "--json"}, 10s);
  EXPECT_EQ(known.exit_code, 0) << known.err;
  nlohmann::json pools = parse_one(known.out);
  ASSERT_TRUE(pools.contains("pools")) << known.out;
  ASSERT_EQ(pools["pools"].size(), 1u);
  EXPECT_EQ(pools["pools"][0]["name"], "app.example.test.");
  EXPECT_GT(pools["pools"][0]["d_max_ms"].get<long>(), pools["pools"][0]["d_min_ms"].get<long>());

  CommandResult unknown = run_command({CUTOVER_BINARY, "explain", "no-such-pool"}, 10s);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no pool named no-such-pool"), std::string::npos) << unknown.err;
}

TEST(ExitCodes, LabCompareAndCheckOfUnreadableResultsAreCouldNotRun) {
  std::string dir = make_temp_dir("cli-lab");
  write_file(dir + "/bad.json", "{not json");
  CommandResult run = run_command({CUTOVER_BINARY, "lab", "compare", dir + "/bad.json", dir + "/missing.json"}, 10s);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  CommandResult json = run_command({CUTOVER_BINARY, "lab", "compare", dir + "/bad.json", dir + "/missing.json", "--json"}, 10s);
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(parse_one(json.out).value("command", std::string()), "lab compare") << json.out;
  // A directory without results.json has nothing to check: could not run, not an inconsistency.
  CommandResult check = run_command({CUTOVER_BINARY, "lab", "check", dir}, 10s);
  EXPECT_EQ(check.exit_code, 2) << check.out << check.err;
}

TEST(ExitCodes, ParseErrorsAreTwoNotTheParsersOwnCodes) {
  // CLI11 exits 105-109 on its own; every one of these must be 2.
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"lint", "--format", "yaml", zone_file()},          // a value outside the set (validation)
           {"check-zone", "example.test"},                     // a missing positional (required)
           {"serve", "--threads", "99"},                       // out of range
           {"serve", "--config", "/nonexistent/cutover.yaml"}, // not an existing file
           {"calc", "--ttl", "soon"},                          // not a number (conversion)
           {"status", "extra", "arguments"}}) {                // extras
    std::string what = args[0] + " " + args[1];
    args.insert(args.begin(), CUTOVER_BINARY);
    CommandResult run = run_command(args, 10s);
    EXPECT_EQ(run.exit_code, 2) << what << ": " << run.err;
    EXPECT_FALSE(run.err.empty()) << what;
  }
}

}  // namespace
}  // namespace cutover::testing
