// The signal probe's readings of the registry's board: by its own name or the probed
// address, a pass, a failure, and unknown (an error) when the signal is not set.
#include "health/signal_check/signal_probe.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

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

  // A check with its own `signal:` reads that name, not the address.
  auto options = std::make_shared<SignalOptions>();
  options->signal = "eu-west.maint";
  settings.options = options;
  auto named = registry.create(settings);
  ASSERT_TRUE(named);
  EXPECT_EQ((*named)->run(target).outcome, ProbeOutcome::kError);
  registry.signals()->set("eu-west.maint", SignalState::kUp, std::chrono::hours(1), now, {}, "test");
  EXPECT_EQ((*named)->run(target).outcome, ProbeOutcome::kPass);
  EXPECT_EQ((*probe)->run(target).outcome, ProbeOutcome::kFail);  // the address's signal is still down
}

// Under check-address the probe's address is the probed one; the signal an unnamed check
// reads is still the endpoint's (answered) address. Regression test: it read the signal
// named after the check-address, which nobody pushes.
TEST(SignalProbe, AnUnnamedCheckReadsTheEndpointsAddressNotTheCheckAddress) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  CheckSettings settings;
  settings.type = "signal";
  auto probe = registry.create(settings);
  ASSERT_TRUE(probe);
  Target target;
  target.address = "10.0.0.62";
  target.endpoint = "192.0.2.62";
  auto now = std::chrono::steady_clock::now();
  registry.signals()->set("10.0.0.62", SignalState::kUp, std::chrono::hours(1), now, {}, "test");
  registry.signals()->set("192.0.2.62", SignalState::kDown, std::chrono::hours(1), now, {}, "test");
  ProbeResult result = (*probe)->run(target);
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "signal 192.0.2.62 is down");
}

// The probe's reading at a time past the signal's TTL is an error (unknown), never the
// last state pushed.
TEST(SignalProbe, AReadingPastTheTtlIsUnknown) {
  base::FakeClock clock;
  SignalBoard board;
  board.set("deploy", SignalState::kDown, std::chrono::seconds(60), clock.now(), clock.wall_now(), "test");
  clock.advance(std::chrono::seconds(59));
  EXPECT_EQ(read_signal(board, "deploy", clock.now()).outcome, ProbeOutcome::kFail);
  clock.advance(std::chrono::seconds(1));
  ProbeResult expired = read_signal(board, "deploy", clock.now());
  EXPECT_EQ(expired.outcome, ProbeOutcome::kError);
  EXPECT_EQ(expired.detail, "signal deploy is not set or its TTL ran out");
}

}  // namespace
}  // namespace cutover::health
