// CookieJar: configured secrets taken as they are and replaced on reload, generated ones
// rotated (by hand here, and once by its own thread in real time), cookies turned off.
#include "server/cookie_jar.h"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace cutover::server {
namespace {

dns::CookieSecrets snapshot(const CookieJar& jar) {
  const dns::CookieSecrets* current = jar.current();
  return current != nullptr ? *current : dns::CookieSecrets{};
}

TEST(CookieJar, GeneratedSecretsRotateKeepingThePreviousOne) {
  config::CookieConfig config;
  CookieJar jar(config);
  auto first = snapshot(jar);
  ASSERT_EQ(first.secrets.size(), 1u);
  EXPECT_NE(first.generation, 0u);
  jar.rotate();
  auto second = snapshot(jar);
  ASSERT_EQ(second.secrets.size(), 2u);
  EXPECT_NE(second.secrets[0], first.secrets[0]);
  EXPECT_EQ(second.secrets[1], first.secrets[0]);  // cookies it made are still accepted
  EXPECT_NE(second.generation, first.generation);
  jar.rotate();
  auto third = snapshot(jar);
  ASSERT_EQ(third.secrets.size(), 2u);
  EXPECT_EQ(third.secrets[1], second.secrets[0]);  // the oldest is gone
}

TEST(CookieJar, ConfiguredSecretsAreUsedAsTheyAreAndReplacedOnReload) {
  config::CookieConfig config;
  config.secrets = {dns::CookieSecret{1}, dns::CookieSecret{2}};
  config.require = true;
  CookieJar jar(config);
  auto configured = snapshot(jar);
  EXPECT_EQ(configured.secrets, config.secrets);
  EXPECT_TRUE(configured.require);
  jar.rotate();  // no-op: the operator rolls configured secrets
  EXPECT_EQ(snapshot(jar).secrets, config.secrets);
  config.secrets = {dns::CookieSecret{3}};
  jar.reload(config);
  auto reloaded = snapshot(jar);
  EXPECT_EQ(reloaded.secrets, config.secrets);
  EXPECT_NE(reloaded.generation, configured.generation);
  config.enabled = false;
  jar.reload(config);
  EXPECT_EQ(jar.current(), nullptr);
}

TEST(CookieJar, ItsThreadRotatesInRealTime) {
  config::CookieConfig config;
  config.rotate = std::chrono::milliseconds(50);
  CookieJar jar(config);
  auto first = snapshot(jar).secrets.front();
  bool rotated = false;
  for (int i = 0; i < 200 && !rotated; ++i) {  // up to 10 s
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    rotated = snapshot(jar).secrets.front() != first;
  }
  EXPECT_TRUE(rotated);
}

}  // namespace
}  // namespace cutover::server
