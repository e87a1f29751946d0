// Write path end to end: fenced concurrent writers (threads and processes) lose no update;
// kill -9 during acknowledged writes loses none across restarts; refusals carry the reason;
// dry run applies nothing; AXFR and IXFR (and its fallback) through dig.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "support/dig.h"
#include "writes/writes_fixture.h"

namespace cutover::testing {
namespace {

using nlohmann::json;

json append_txt(std::uint64_t version, const std::vector<std::string>& existing, const std::string& token) {
  json data = json::array();
  for (const auto& item : existing) data.push_back(item);
  data.push_back("\"" + token + "\"");
  return json{{"expected_version", version},
              {"edits", json::array({{{"op", "set"}, {"name", "shared"}, {"type", "TXT"}, {"ttl", 60}, {"data", data}}})}};
}

struct Counts {
  int attempted = 0;
  int acknowledged = 0;
};

// Read-modify-write of one shared RRset, `writes` times, retrying on version conflicts:
// without the fence most of these would overwrite each other.
Counts hammer(int port, const std::string& writer, int writes) {
  Counts counts;
  for (int i = 0; i < writes;) {
    ApiResult read = api(port, "GET", "/zones/example.test/records?name=shared&type=TXT", nullptr);
    if (read.status != 200) continue;
    std::vector<std::string> existing;
    for (const auto& record : read.body["records"]) existing.push_back(record["data"].get<std::string>());
    ++counts.attempted;
    ApiResult written = api(port, "POST", "/zones/example.test/records",
                                           append_txt(read.body["version"].get<std::uint64_t>(), existing,
                                                      writer + "-" + std::to_string(i)));
    if (written.status == 200 && written.body["status"] == "applied") {
      ++counts.acknowledged;
      ++i;
    }
  }
  return counts;
}

// The records of a zone transfer as dig prints them, each split into fields
// (owner, TTL, class, type, rdata...).
std::vector<std::vector<std::string>> transfer(std::uint16_t port, const std::string& type) {
  CommandResult result = run_command({"dig", "@127.0.0.1", "-p", std::to_string(port), "example.test", type, "+noall",
                                      "+answer", "+nottlunits"},
                                     std::chrono::seconds(10));
  std::vector<std::vector<std::string>> records;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == ';') continue;
    std::istringstream fields(line);
    std::vector<std::string> record;
    for (std::string field; fields >> field;) record.push_back(field);
    records.push_back(std::move(record));
  }
  return records;
}

class WritesTest : public WritesFixture {};

TEST_F(WritesTest, ConcurrentFencedWritersLoseNoUpdate) {
  start();
  constexpr int kThreads = 3;
  constexpr int kProcesses = 2;
  constexpr int kWrites = 15;
  // Processes first: fork before this process starts any thread of its own.
  std::vector<std::pair<pid_t, int>> children;
  for (int p = 0; p < kProcesses; ++p) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      Counts counts = hammer(control_port_, "process" + std::to_string(p), kWrites);
      int values[2] = {counts.attempted, counts.acknowledged};
      (void)::write(fds[1], values, sizeof values);
      ::_exit(0);
    }
    ::close(fds[1]);
    children.emplace_back(pid, fds[0]);
  }
  std::vector<std::thread> threads;
  std::vector<Counts> thread_counts(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { thread_counts[t] = hammer(control_port_, "thread" + std::to_string(t), kWrites); });
  }
  for (auto& thread : threads) thread.join();
  Counts total;
  for (const auto& counts : thread_counts) {
    total.attempted += counts.attempted;
    total.acknowledged += counts.acknowledged;
  }
  for (auto [pid, fd] : children) {
    int values[2] = {0, 0};
    ASSERT_EQ(::read(fd, values, sizeof values), static_cast<ssize_t>(sizeof values));
    ::close(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    total.attempted += values[0];
    total.acknowledged += values[1];
  }
  ApiResult final_state = call("GET", "/zones/example.test/records?name=shared&type=TXT");
  std::set<std::string> present;
  for (const auto& record : final_state.body["records"]) present.insert(record["data"].get<std::string>());
  std::printf("lost-update test: attempted=%d acknowledged=%d present=%zu\n", total.attempted, total.acknowledged,
              present.size());
  EXPECT_EQ(total.acknowledged, (kThreads + kProcesses) * kWrites);
  EXPECT_EQ(present.size(), static_cast<std::size_t>(total.acknowledged));
  EXPECT_EQ(final_state.body["version"].get<int>(), total.acknowledged);
}

TEST_F(WritesTest, KillDuringAcknowledgedWritesLosesNothing) {
  int iterations = std::getenv("CUTOVER_CRASH_ITERATIONS") ? std::atoi(std::getenv("CUTOVER_CRASH_ITERATIONS")) : 20;
  std::mt19937 random(12345);
  std::vector<std::string> acknowledged;
  int kills = 0;
  for (int round = 0; round < iterations; ++round) {
    start();
    std::atomic<bool> stop{false};
    std::vector<std::string> acked_this_round;
    std::thread writer([&] {
      for (int i = 0; !stop.load(); ++i) {
        std::string token = "r" + std::to_string(round) + "-" + std::to_string(i);
        json body = {{"edits", json::array({{{"op", "add"}, {"name", "crash"}, {"type", "TXT"}, {"ttl", 60},
                                             {"data", json::array({"\"" + token + "\""})}}})}};
        ApiResult result = call("POST", "/zones/example.test/records", body);
        if (result.status == 0) return;  // the server is gone
        if (result.status == 200 && result.body["status"] == "applied") acked_this_round.push_back("\"" + token + "\"");
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50 + random() % 250));
    server_->signal(SIGKILL);
    ASSERT_TRUE(server_->wait_for_exit(std::chrono::seconds(5)).has_value());
    ++kills;
    stop = true;
    writer.join();
    acknowledged.insert(acknowledged.end(), acked_this_round.begin(), acked_this_round.end());
  }
  start();
  ApiResult final_state = call("GET", "/zones/example.test/records?name=crash&type=TXT");
  ASSERT_EQ(final_state.status, 200);
  std::set<std::string> present;
  for (const auto& record : final_state.body["records"]) present.insert(record["data"].get<std::string>());
  std::size_t missing = 0;
  for (const auto& token : acknowledged) missing += present.count(token) == 0 ? 1 : 0;
  std::printf("crash loop: kills=%d acknowledged=%zu present=%zu missing=%zu\n", kills, acknowledged.size(),
              present.size(), missing);
  EXPECT_EQ(missing, 0u);
  EXPECT_GT(acknowledged.size(), 0u);
}

TEST_F(WritesTest, RefusalsNameTheReasonAndApplyNothing) {
  start();
  json conflict = {{"expected_version", 5},
                   {"edits", json::array({{{"op", "set"}, {"name", "www"}, {"type", "A"}, {"data", "192.0.2.1"}}})}};
  ApiResult stale = call("POST", "/zones/example.test/records", conflict);
  EXPECT_EQ(stale.status, 409);
  EXPECT_NE(stale.body["message"].get<std::string>().find("current version is 0"), std::string::npos);
  json empty = {{"edits", json::array({{{"op", "delete"}, {"name", "www"}, {"type", "A"}}})}};
  ApiResult floor = call("POST", "/zones/example.test/records", empty);
  EXPECT_EQ(floor.status, 422);
  EXPECT_NE(floor.body["message"].get<std::string>().find("www.example.test."), std::string::npos);
  json outside = {{"edits", json::array({{{"op", "set"}, {"name", "www.other.test."}, {"type", "A"}, {"data", "192.0.2.1"}}})}};
  EXPECT_EQ(call("POST", "/zones/example.test/records", outside).status, 422);
  json bad_data = {{"edits", json::array({{{"op", "set"}, {"name", "www"}, {"type", "A"}, {"data", "not-an-ip"}}})}};
  EXPECT_EQ(call("POST", "/zones/example.test/records", bad_data).status, 400);
  EXPECT_EQ(call("POST", "/zones/nowhere.test/records", conflict).status, 404);
  json dry = {{"dry_run", true},
              {"edits", json::array({{{"op", "set"}, {"name", "www"}, {"type", "A"}, {"data", "192.0.2.77"}}})}};
  ApiResult canary = call("POST", "/zones/example.test/records", dry);
  EXPECT_EQ(canary.body["status"], "dry_run");
  EXPECT_EQ(canary.body["answers"][0]["after"][0], "www.example.test. 300 A 192.0.2.77");
  EXPECT_EQ(dig(server_->port(), "www.example.test", "A").answer.front().rdata, "192.0.2.10");
  EXPECT_EQ(call("GET", "/zones/example.test/records").body["version"], 0);
}

// The CLI's side of a refusal (docs/cli.md): a write the server refuses with HTTP 4xx exits 1,
// with --json as one error document carrying the reply; a read of an unknown zone and a
// server that is gone exit 2.
TEST_F(WritesTest, CliExitsOneForARefusedWriteAndTwoWhenItCannotWrite) {
  start();
  std::string control = "127.0.0.1:" + std::to_string(control_port_);
  auto cli = [&](std::vector<std::string> args) {
    args.insert(args.begin(), CUTOVER_BINARY);
    args.insert(args.end(), {"--control", control});
    return run_command(args, std::chrono::seconds(20));
  };
  CommandResult fenced = cli({"set", "example.test", "www", "A", "192.0.2.1", "--expected-version", "5"});
  EXPECT_EQ(fenced.exit_code, 1) << fenced.out << fenced.err;
  EXPECT_NE(fenced.err.find("cutover set: HTTP 409: "), std::string::npos) << fenced.err;
  EXPECT_EQ(json::parse(fenced.out, nullptr, false).value("status", std::string()), "conflict") << fenced.out;

  CommandResult fenced_json = cli({"set", "example.test", "www", "A", "192.0.2.1", "--expected-version", "5", "--json"});
  EXPECT_EQ(fenced_json.exit_code, 1);
  json refusal = json::parse(fenced_json.out, nullptr, false);
  ASSERT_TRUE(refusal.is_object()) << fenced_json.out;
  EXPECT_EQ(refusal["command"], "set");
  EXPECT_EQ(refusal["exit_code"], 1);
  EXPECT_EQ(refusal["status"], 409);
  EXPECT_EQ(refusal["reply"]["status"], "conflict");
  EXPECT_NE(refusal["error"].get<std::string>().find("current version is 0"), std::string::npos) << refusal.dump();

  CommandResult floor = cli({"delete", "example.test", "www", "A", "--json"});
  EXPECT_EQ(floor.exit_code, 1);
  EXPECT_EQ(json::parse(floor.out, nullptr, false).value("status", 0), 422) << floor.out;

  CommandResult applied = cli({"set", "example.test", "www", "A", "192.0.2.11", "--json"});
  EXPECT_EQ(applied.exit_code, 0) << applied.out << applied.err;
  EXPECT_EQ(json::parse(applied.out, nullptr, false).value("status", std::string()), "applied") << applied.out;

  CommandResult unknown = cli({"get", "nowhere.test", "--json"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(json::parse(unknown.out, nullptr, false).value("status", 0), 404) << unknown.out;

  TearDown();
  EXPECT_EQ(server_->stop(), 0);
  CommandResult gone = cli({"set", "example.test", "www", "A", "192.0.2.12", "--json"});
  EXPECT_EQ(gone.exit_code, 2);
  json error = json::parse(gone.out, nullptr, false);
  EXPECT_EQ(error.value("exit_code", -1), 2) << gone.out;
  EXPECT_NE(error.value("error", std::string()).find("cannot reach " + control), std::string::npos) << gone.out;
}

TEST_F(WritesTest, AxfrAndIxfrFollowTheJournal) {
  start();
  json body = {{"edits", json::array({{{"op", "set"}, {"name", "www"}, {"type", "A"}, {"data", "192.0.2.20"}}})}};
  ASSERT_EQ(call("POST", "/zones/example.test/records", body).status, 200);
  auto axfr = transfer(server_->port(), "AXFR");
  ASSERT_EQ(axfr.size(), 5u);  // SOA, NS, ns1 A, www A, SOA
  EXPECT_EQ(axfr.front()[3], "SOA");
  EXPECT_EQ(axfr.back()[3], "SOA");
  auto ixfr = transfer(server_->port(), "IXFR=10");
  // SOA 11, SOA 10, www A .10, SOA 11, www A .20, SOA 11
  ASSERT_EQ(ixfr.size(), 6u);
  EXPECT_EQ(ixfr[2][4], "192.0.2.10");
  EXPECT_EQ(ixfr[4][4], "192.0.2.20");
  EXPECT_EQ(transfer(server_->port(), "IXFR=3").size(), axfr.size());  // unknown serial: the whole zone
  EXPECT_EQ(transfer(server_->port(), "IXFR=11").size(), 1u);          // current: the SOA alone
}

}  // namespace
}  // namespace cutover::testing
