// The signal board on the fake clock (TTL, expiry, listing) and the signal probe's readings
// of it; the file probe's parser and its re-reading of a changed file.
#include "health/signal/signal_probe.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "health/file/file_probe.h"
#include "health/signal_board.h"

namespace cutover::health {
namespace {

using std::chrono::seconds;

TEST(SignalBoard, ASignalLastsItsTtlAndIsUnknownAfter) {
  base::FakeClock clock;
  SignalBoard board;
  EXPECT_FALSE(board.get("deploy", clock.now()));
  board.set("deploy", SignalState::kDown, seconds(60), clock.now(), clock.wall_now(), "api@127.0.0.1");
  EXPECT_EQ(board.get("deploy", clock.now()), SignalState::kDown);
  clock.advance(seconds(59));
  EXPECT_EQ(read_signal(board, "deploy", clock.now()).outcome, ProbeOutcome::kFail);
  clock.advance(seconds(1));
  EXPECT_FALSE(board.get("deploy", clock.now()));
  ProbeResult expired = read_signal(board, "deploy", clock.now());
  EXPECT_EQ(expired.outcome, ProbeOutcome::kError);
  EXPECT_EQ(expired.detail, "signal deploy is not set or its TTL ran out");
  EXPECT_TRUE(board.list(clock.now()).empty());  // dropped from the list too

  board.set("deploy", SignalState::kUp, seconds(10), clock.now(), clock.wall_now(), "api@127.0.0.1");
  board.set("maint", SignalState::kDown, seconds(20), clock.now(), clock.wall_now(), "api@127.0.0.2");
  EXPECT_EQ(read_signal(board, "deploy", clock.now()).outcome, ProbeOutcome::kPass);
  auto listed = board.list(clock.now());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[1].name, "maint");
  EXPECT_EQ(listed[1].who, "api@127.0.0.2");
  EXPECT_TRUE(board.erase("deploy"));
  EXPECT_FALSE(board.erase("deploy"));
  EXPECT_FALSE(board.get("deploy", clock.now()));
}

TEST(SignalBoard, NamesAndStates) {
  EXPECT_TRUE(valid_signal_name("192.0.2.10"));
  EXPECT_TRUE(valid_signal_name("eu-west_1.deploy"));
  EXPECT_FALSE(valid_signal_name(""));
  EXPECT_FALSE(valid_signal_name("a/b"));
  EXPECT_FALSE(valid_signal_name("a b"));
  EXPECT_FALSE(valid_signal_name(std::string(65, 'a')));
  EXPECT_EQ(parse_signal_state("UP"), SignalState::kUp);
  EXPECT_EQ(parse_signal_state("Down"), SignalState::kDown);
  EXPECT_FALSE(parse_signal_state("danger"));
}

TEST(SignalProbe, ReadsTheRegistrysBoardByNameOrByTheProbedAddress) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  ASSERT_TRUE(registry.knows("signal"));
  CheckSettings settings;
  settings.type = "signal";
  auto probe = registry.create(settings);
  ASSERT_TRUE(probe);
  Target target;
  target.address = "192.0.2.10";
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kError);
  auto now = std::chrono::steady_clock::now();
  registry.signals()->set("192.0.2.10", SignalState::kDown, std::chrono::hours(1), now, {}, "test");
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kFail);
  EXPECT_EQ((*probe)->run(target).detail, "signal 192.0.2.10 is down");
}

TEST(SignalFile, ParsesNameEqualsStateLinesAndListsTheBadOnes) {
  SignalFile file = parse_signal_file(
      "# written by the deploy pipeline\n"
      "192.0.2.10 = UP\n"
      "192.0.2.11=down   # draining\n"
      "\n"
      "  eu-west.maint = Up\r\n"
      "192.0.2.12 = DANGER\n"
      "no equals sign\n"
      "192.0.2.10 = DOWN\n"
      "bad/name = UP");
  EXPECT_EQ(file.states.size(), 3u);
  EXPECT_EQ(file.states.at("192.0.2.10"), SignalState::kDown);  // the last line wins
  EXPECT_EQ(file.states.at("192.0.2.11"), SignalState::kDown);
  EXPECT_EQ(file.states.at("eu-west.maint"), SignalState::kUp);
  EXPECT_EQ(file.bad_lines, (std::vector<std::size_t>{6, 7, 9}));
  EXPECT_TRUE(parse_signal_file("").states.empty());
  EXPECT_TRUE(parse_signal_file("").bad_lines.empty());
}

// The real file on disk, rewritten between probes: each change is read at the next probe.
TEST(FileProbe, ReReadsTheFileWhenItChanges) {
  char dir[] = "/tmp/file_probe_test.XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/states";
  ProbeRegistry registry;
  register_builtin_probes(registry);
  auto options = std::make_shared<FileOptions>();
  options->file = path;
  CheckSettings settings;
  settings.type = "file";
  settings.options = options;
  auto probe = registry.create(settings);
  ASSERT_TRUE(probe);
  Target target;
  target.address = "192.0.2.10";
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kError);  // no file yet
  auto write = [&](const std::string& text) {
    std::string temporary = path + ".new";
    std::ofstream(temporary) << text;
    ASSERT_EQ(std::rename(temporary.c_str(), path.c_str()), 0);  // a new inode, as a writer should
  };
  write("192.0.2.10 = UP\n");
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kPass);
  write("192.0.2.10 = DOWN\n");
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kFail);
  write("192.0.2.99 = UP\n");
  ProbeResult missing = (*probe)->run(target);
  EXPECT_EQ(missing.outcome, ProbeOutcome::kError);
  EXPECT_EQ(missing.detail, path + " has no line for 192.0.2.10");
  std::remove(path.c_str());
  ::rmdir(dir);
}

}  // namespace
}  // namespace cutover::health
