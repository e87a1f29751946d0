// The generated documents (docs.h): the example config parses back with the reader and sets
// the packaged paths; the man page names every key of the table.
#include <gtest/gtest.h>

#include "config/config.h"
#include "config/docs.h"
#include "config/keys.h"

namespace cutover::config {
namespace {

TEST(ConfigDocs, ExampleConfigParsesBackWithThePackagedPaths) {
  PackagedPaths paths;
  std::string text = example_config(paths);
  Config config = parse_config(text, "/etc/cutover/cutover.yaml", "/etc/cutover");
  EXPECT_EQ(config.writes.journal, "/var/lib/cutover/journal.sqlite");
  EXPECT_EQ(config.pid_file, "/run/cutover/cutover.pid");
  ASSERT_EQ(config.listen.size(), 1u);
  EXPECT_EQ(config.listen[0].text, "127.0.0.1:53");
  ASSERT_EQ(config.zones.size(), 1u);
  EXPECT_EQ(config.zones[0].file, "/etc/cutover/example.test.zone");
  EXPECT_EQ(config.control.host, "127.0.0.1");
}

TEST(ConfigDocs, ExampleConfigMentionsEveryKey) {
  std::string text = example_config(PackagedPaths{});
  for (const auto& key : config_keys()) {
    std::string leaf(key.path.substr(key.path.rfind('.') == std::string_view::npos ? 0 : key.path.rfind('.') + 1));
    EXPECT_NE(text.find(leaf + ":"), std::string::npos) << key.path;
  }
}

TEST(ConfigDocs, ManPageHasEveryKeyWithItsDefault) {
  std::string page = config_man_page("0.1.0");
  EXPECT_EQ(page.rfind(".TH CUTOVER.YAML 5", 0), 0u);
  for (const auto& key : config_keys()) {
    std::string path;
    for (char c : key.path) path += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(page.find(".B " + path + "\n"), std::string::npos) << key.path;
  }
  EXPECT_NE(page.find("default 127.0.0.1:5353"), std::string::npos);
}

}  // namespace
}  // namespace cutover::config
