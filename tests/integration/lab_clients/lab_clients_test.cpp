// Integration test of the lab's client experiments: E6, E7 and E11 on the CI clients
// (python, curl, curl-long, java, cutover), all cases at once, each in its own network
// namespace with its own authority, Unbound, origins and nftables rules. Every case must be
// measured (the `cutover` client may instead say that this binary has no `fetch`), the report
// must follow from the raw per-request logs (`lab check`), a tampered raw log must be caught,
// and the runtime caches the JDK and a long-lived curl document must show. Needs root,
// unbound, nft, curl, java; skipped with a message otherwise.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

TEST(LabClients, CiSubsetMeasuresEveryCaseAndFollowsFromTheRawLogs) {
  if (::geteuid() != 0) GTEST_SKIP() << "network namespaces need root";
  for (const char* program : {"unbound", "nft", "ip", "curl", "java", "javac"}) {
    if (!have_program(program)) GTEST_SKIP() << program << " is needed (scripts/install-deps.sh)";
  }
  // As the adapter decides: fetch's own help names its per-request log flag (an unknown
  // subcommand's --help may print the top-level help and exit 0).
  CommandResult fetch_help = run_command({CUTOVER_BINARY, "fetch", "--help"}, 10s);
  bool has_fetch = fetch_help.exit_code == 0 && fetch_help.out.find("--log-json") != std::string::npos;
  std::string out = make_temp_dir("lab-clients");
  CommandResult run = run_command({CUTOVER_BINARY, "lab", "run", "--resolvers", "unbound", "--clients", "ci",
                                   "--experiments", "E6,E7,E11", "--out", out},
                                  280s);
  ASSERT_FALSE(run.timed_out) << run.out;
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.exit_code << "\n" << run.out << run.err;

  auto results = nlohmann::json::parse(read_file(out + "/results.json"));
  // Per client: 1 E6 case, 9 E7 cases, 4 E11 cases.
  ASSERT_EQ(results["cases"].size(), 5u * 14u);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& item : results["cases"]) {
    std::string client = item["details"].value("client", "");
    std::string where = item["experiment"].get<std::string>() + " " + item["case"].get<std::string>();
    by_name[where] = item;
    if (client == "cutover" && !has_fetch) {
      EXPECT_EQ(item["verdict"], "not supported") << where;
      EXPECT_NE(item["note"].get<std::string>().find("no `fetch` subcommand"), std::string::npos) << where;
      continue;
    }
    ASSERT_TRUE(item["verdict"] == "pass" || item["verdict"] == "fail") << where << ": " << item["note"];
    EXPECT_FALSE(item["details"].value("client_version", "").empty()) << where;
    EXPECT_FALSE(item["observations"].empty() && item["experiment"] != "E7") << where;
    std::string log = item["details"].value("client_log", "");
    ASSERT_FALSE(log.empty()) << where;
    EXPECT_FALSE(read_file(out + "/" + log).empty() && item["experiment"] != "E7") << where;
  }
  // What the runtimes document, and a new process per request does not have: per-request
  // curl and Python follow within the resolver's TTL, the JDK's default keeps its first
  // answer about 30 s from the first lookup, one curl process 60 s.
  for (const char* fast : {"E6 python", "E6 curl"}) {
    ASSERT_TRUE(by_name.count(fast)) << fast;
    EXPECT_EQ(by_name[fast]["verdict"], "pass") << fast << ": " << by_name[fast]["measured"];
  }
  ASSERT_TRUE(by_name.count("E6 java") && by_name.count("E6 curl-long"));
  EXPECT_GT(by_name["E6 java"]["measured"].get<double>(), 20.0);
  EXPECT_GT(by_name["E6 curl-long"]["measured"].get<double>(), 50.0);
  // The reference client keeps its connection, yet leaves a kept-open old origin once the
  // record's TTL has run out, where one curl process and the JDK stay (R has no bound there).
  if (has_fetch) {
    ASSERT_TRUE(by_name.count("E11 cutover-keep"));
    EXPECT_EQ(by_name["E11 cutover-keep"]["verdict"], "pass") << by_name["E11 cutover-keep"]["measured"];
    ASSERT_TRUE(by_name["E11 cutover-keep"]["measured"].is_number());
    EXPECT_LT(by_name["E11 cutover-keep"]["measured"].get<double>(), 4.0);
    EXPECT_TRUE(by_name["E11 curl-long-keep"]["measured"].is_null());
  }
  // calc, explain and plan take C and R from this run (docs/tools.md, "Client terms from the
  // lab"): the JDK's C is the span from its first lookup to its switch, a per-request curl
  // has none, and a per-request curl's E11 on a kept-open origin costs no reuse term.
  std::string results_path = out + "/results.json";
  auto calc = [&](const char* client) {
    CommandResult run = run_command({CUTOVER_BINARY, "calc", "--interval", "10", "--fall", "3", "--timeout", "2", "--ttl",
                                     "60", "--client", client, "--lab-results", results_path, "--json"},
                                    20s);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    return nlohmann::json::parse(run.out)["inputs"];
  };
  nlohmann::json java = calc("java");
  EXPECT_TRUE(java["client_measured"].get<bool>());
  EXPECT_NEAR(java["client_cache"].get<double>(),
              by_name["E6 java"]["measured"].get<double>() + by_name["E6 java"]["details"]["change_after_first"].get<double>(),
              0.01);
  EXPECT_TRUE(java["reuse_measured"].get<bool>());
  EXPECT_NE(java["client_source"].get<std::string>().find(results_path), std::string::npos);
  nlohmann::json curl = calc("curl");
  EXPECT_EQ(curl["client_cache"].get<double>(), 0.0);
  ASSERT_TRUE(curl["connection_reuse"].is_number());
  EXPECT_LT(curl["connection_reuse"].get<double>(), 1.5);
  CommandResult explain =
      run_command({CUTOVER_BINARY, "explain", "--client", "curl-long", "--lab-results", results_path}, 20s);
  EXPECT_EQ(explain.exit_code, 0) << explain.out << explain.err;
  EXPECT_NE(explain.out.find("with client"), std::string::npos) << explain.out;
  EXPECT_NE(explain.out.find("client terms from the lab run"), std::string::npos) << explain.out;

  // A refused first address costs Python and curl one reset, not a timeout.
  for (const char* refused : {"E7 python-v4-refused-default", "E7 curl-v4-refused-default"}) {
    ASSERT_TRUE(by_name.count(refused)) << refused;
    ASSERT_FALSE(by_name[refused]["measured"].is_null()) << refused;
    EXPECT_LT(by_name[refused]["measured"].get<double>(), 1.5) << refused;
    EXPECT_GT(by_name[refused]["details"]["dead_syns"].get<int>(), 0) << refused << ": the dead address was not tried";
  }

  CommandResult check = run_command({CUTOVER_BINARY, "lab", "check", out}, 30s);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  // report.html draws E6's switches and E11's requests per origin (inline SVG).
  std::string html = read_file(out + "/report.html");
  EXPECT_NE(html.find("E6 switch timeline per runtime"), std::string::npos);
  EXPECT_NE(html.find("E11 requests per origin over time"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // The check reads the raw logs: one request moved in time is caught.
  std::string log_path = out + "/" + by_name["E6 python"]["details"]["client_log"].get<std::string>();
  std::string text = read_file(log_path);
  std::size_t t = text.find("\"t\": ");
  ASSERT_NE(t, std::string::npos);
  text.replace(t, 5, "\"t\": 1");
  write_file(log_path, text);
  CommandResult tampered = run_command({CUTOVER_BINARY, "lab", "check", out}, 30s);
  EXPECT_EQ(tampered.exit_code, 1) << tampered.out;
  EXPECT_NE(tampered.out.find("raw client log"), std::string::npos) << tampered.out;

  // Nothing is left behind: every namespace the run made is gone.
  CommandResult namespaces = run_command({"ip", "netns", "list"}, 10s);
  std::set<std::string> listed;
  std::istringstream lines(namespaces.out);
  for (std::string line; std::getline(lines, line);) listed.insert(line.substr(0, line.find(' ')));
  for (const auto& [where, item] : by_name) {
    std::string name = item["details"].value("namespace", "");
    EXPECT_TRUE(name.empty() || listed.count(name) == 0) << where << ": " << name << " is still there";
  }
}

// E12 and E15 on python, curl and the reference client, all cases at once (about 25 s): the
// authority's cyclic order must alternate (cutover serve and BIND alike), a client that looks
// the name up once sends every request to one origin, a stopped origin stays in a static
// RRset and leaves a pool's answer after D; under ndots:5 and three search domains glibc
// asks every domain (A and AAAA, NXDOMAIN each) before a name with fewer dots, and nothing
// more for the name with its trailing dot. The report must follow from the raw logs.
TEST(LabClients, RotationAndSearchListsOnASubset) {
  if (::geteuid() != 0) GTEST_SKIP() << "network namespaces need root";
  for (const char* program : {"unbound", "named", "nft", "ip", "curl"}) {
    if (!have_program(program)) GTEST_SKIP() << program << " is needed (scripts/install-deps.sh)";
  }
  std::string out = make_temp_dir("lab-rotation");
  CommandResult run = run_command({CUTOVER_BINARY, "lab", "run", "--resolvers", "unbound", "--clients",
                                   "python,curl,cutover", "--experiments", "E12,E15", "--out", out},
                                  200s);
  ASSERT_FALSE(run.timed_out) << run.out;
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.exit_code << "\n" << run.out << run.err;
  auto results = nlohmann::json::parse(read_file(out + "/results.json"));
  // Per client: 4 E12 cases (static, static-keep, bind, pool) and 3 E15 cases.
  ASSERT_EQ(results["cases"].size(), 3u * 7u);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& item : results["cases"]) {
    std::string where = item["experiment"].get<std::string>() + " " + item["case"].get<std::string>();
    by_name[where] = item;
    ASSERT_TRUE(item["verdict"] == "pass" || item["verdict"] == "fail") << where << ": " << item["note"];
  }
  for (const char* client : {"python", "curl", "cutover"}) {
    std::string c = client;
    for (const char* variant : {"static", "bind", "pool"}) {
      const auto& details = by_name["E12 " + c + "-" + variant]["details"];
      std::string order = details.value("authority_order", "");
      // Six answers of the authority, each both addresses, alternating (cyclic).
      EXPECT_NE(order.find("ab"), std::string::npos) << c << " " << variant << ": " << order;
      EXPECT_NE(order.find("ba"), std::string::npos) << c << " " << variant << ": " << order;
      // 13 request slots before the stop; a new curl process per request falls behind them on a
      // loaded machine (7 in one CI run), so half of them, enough for the counts to say something.
      int before = details["before_stop"]["a"].get<int>() + details["before_stop"]["b"].get<int>();
      EXPECT_GE(before, 6) << c << " " << variant << ": " << details["before_stop"];
    }
    // A static RRset keeps the stopped address; the pool drops it after D (I = 1 s, F = 2).
    EXPECT_TRUE(by_name["E12 " + c + "-static"]["details"]["left_authority"].is_null()) << c;
    EXPECT_TRUE(by_name["E12 " + c + "-bind"]["details"]["left_authority"].is_null()) << c;
    const auto& left = by_name["E12 " + c + "-pool"]["details"]["left_authority"];
    ASSERT_TRUE(left.is_number()) << c;
    EXPECT_GE(left.get<double>(), 0.5) << c;
    EXPECT_LE(left.get<double>(), 3.5) << c;
  }
  // The reference client looks the name up once per TTL (30 s): every request before the stop
  // goes to one origin, whatever the rotation.
  const auto& pinned = by_name["E12 cutover-static"]["details"]["before_stop"];
  EXPECT_EQ(pinned["a"].get<int>() * pinned["b"].get<int>(), 0) << pinned;
  // Search lists through glibc (python, curl): the short name is found under the first domain,
  // the dotted one after three NXDOMAINs per type, the trailing dot asks only the name.
  for (const char* client : {"python", "curl"}) {
    std::string c = client;
    const auto& dots = by_name["E15 " + c + "-dots"]["details"]["totals"];
    EXPECT_EQ(dots["queries"].get<int>(), 8) << c << ": " << by_name["E15 " + c + "-dots"]["details"]["queries"];
    EXPECT_EQ(dots["nxdomain"].get<int>(), 6) << c;
    const auto& fqdn = by_name["E15 " + c + "-fqdn"]["details"]["totals"];
    EXPECT_EQ(fqdn["queries"].get<int>(), 2) << c << ": " << by_name["E15 " + c + "-fqdn"]["details"]["queries"];
    EXPECT_EQ(fqdn["nxdomain"].get<int>(), 0) << c;
    const auto& short_name = by_name["E15 " + c + "-short"]["details"]["totals"];
    EXPECT_EQ(short_name["nxdomain"].get<int>(), 0) << c;
    EXPECT_GE(short_name["queries"].get<int>(), 1) << c;
  }
  CommandResult check = run_command({CUTOVER_BINARY, "lab", "check", out}, 30s);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  // The E12 counts are re-derived from the observations: a changed count is caught.
  auto tampered = results;
  for (auto& item : tampered["cases"]) {
    if (item["experiment"] == "E12") {
      item["details"]["before_stop"]["a"] = item["details"]["before_stop"]["a"].get<int>() + 1;
      break;
    }
  }
  write_file(out + "/results.json", tampered.dump(1) + "\n");
  CommandResult caught = run_command({CUTOVER_BINARY, "lab", "check", out}, 30s);
  EXPECT_EQ(caught.exit_code, 1) << caught.out;
  std::string report = read_file(out + "/report.md");
  EXPECT_NE(report.find("| Runtime | Version | Setting | Authority |"), std::string::npos);
  EXPECT_NE(report.find("| Runtime | Version | Setting | Name | Queries |"), std::string::npos);
  EXPECT_NE(read_file(out + "/report.html").find("E12 requests per origin"), std::string::npos);
  // The namespaces and their /etc/netns/NAME/resolv.conf are gone.
  for (const auto& [where, item] : by_name) {
    std::string name = item["details"].value("namespace", "");
    if (name.empty()) continue;
    EXPECT_NE(run_command({"test", "-e", "/etc/netns/" + name}, 5s).exit_code, 0) << where << ": /etc/netns/" << name;
  }
}

}  // namespace
}  // namespace cutover::testing
