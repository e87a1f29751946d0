// Logger lines in both forms (base/log_format.h): the text form's quoting and the JSON form's
// escaping, read back from a real file.
#include "base/log.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "base/log_format.h"

namespace cutover::base {
namespace {

// Restores the process's log form after each test, whatever it asserted.
class LogFormatTest : public ::testing::Test {
 protected:
  void TearDown() override { set_log_format(LogFormat::kText); }

  // What `write` logged, read back from a temporary file.
  template <typename Write>
  std::string logged(Write write, LogLevel level = LogLevel::kInfo) {
    std::FILE* file = std::tmpfile();
    EXPECT_NE(file, nullptr);
    {
      Logger logger(file, level);
      write(logger);
    }
    std::rewind(file);
    std::string text;
    char buffer[512];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    std::fclose(file);
    return text;
  }
};

// The fixed-width time at the start of each form: 2026-12-02T14:30:00.123Z.
constexpr std::size_t kTimeWidth = 24;

TEST_F(LogFormatTest, TextIsTheDefaultAndQuotesValuesWithSpaces) {
  EXPECT_EQ(log_format(), LogFormat::kText);
  std::string line = logged([](Logger& logger) {
    logger.info("zone.loaded", {{"origin", "example.test."}, {"reason", "a \"b\" c"}});
  });
  ASSERT_GT(line.size(), kTimeWidth);
  EXPECT_EQ(line[kTimeWidth - 1], 'Z') << line;
  EXPECT_EQ(line.substr(kTimeWidth), " INFO zone.loaded origin=example.test. reason=\"a \\\"b\\\" c\"\n");
}

TEST_F(LogFormatTest, JsonLinesAreOneObjectWithEveryFieldAsAString) {
  set_log_format(LogFormat::kJson);
  std::string line = logged([](Logger& logger) {
    logger.warn("reload.failed", {{"reason", "zone.db:7:12: error: \"x\"\tbad\\"}, {"zones", "2"}});
  });
  const std::string head = "{\"time\":\"";
  ASSERT_EQ(line.substr(0, head.size()), head) << line;
  ASSERT_GT(line.size(), head.size() + kTimeWidth);
  EXPECT_EQ(line.substr(head.size() + kTimeWidth - 1, 2), "Z\"") << line;
  EXPECT_EQ(line.substr(head.size() + kTimeWidth + 1),
            ",\"level\":\"WARN\",\"event\":\"reload.failed\","
            "\"reason\":\"zone.db:7:12: error: \\\"x\\\"\\tbad\\\\\",\"zones\":\"2\"}\n");
}

TEST_F(LogFormatTest, JsonEscapesControlAndHighBytes) {
  set_log_format(LogFormat::kJson);
  std::string line = logged([](Logger& logger) { logger.error("x", {{"value", std::string("a\nb\x01\xc3\xa9", 6)}}); });
  EXPECT_NE(line.find("\"value\":\"a\\nb\\u0001\\u00c3\\u00a9\"}\n"), std::string::npos) << line;
  EXPECT_NE(line.find("\"level\":\"ERROR\""), std::string::npos) << line;
}

TEST_F(LogFormatTest, LevelFilterAppliesInBothForms) {
  for (LogFormat format : {LogFormat::kText, LogFormat::kJson}) {
    set_log_format(format);
    std::string text = logged([](Logger& logger) {
      logger.debug("hidden");
      logger.info("shown");
    });
    EXPECT_EQ(text.find("hidden"), std::string::npos) << text;
    EXPECT_NE(text.find("shown"), std::string::npos) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  }
}

}  // namespace
}  // namespace cutover::base
