// The signal board on the fake clock (TTL, expiry, listing), signal names and states, and
// the signal file format.
#include "health/signal/signal_board.h"

#include <gtest/gtest.h>

#include "health/signal/signal_file.h"

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
  EXPECT_EQ(board.get("deploy", clock.now()), SignalState::kDown);
  clock.advance(seconds(1));
  EXPECT_FALSE(board.get("deploy", clock.now()));
  EXPECT_TRUE(board.list(clock.now()).empty());  // dropped from the list too

  board.set("deploy", SignalState::kUp, seconds(10), clock.now(), clock.wall_now(), "api@127.0.0.1");
  board.set("maint", SignalState::kDown, seconds(20), clock.now(), clock.wall_now(), "api@127.0.0.2");
  EXPECT_EQ(board.get("deploy", clock.now()), SignalState::kUp);
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

}  // namespace
}  // namespace cutover::health
