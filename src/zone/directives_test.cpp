// Unit tests for $ORIGIN, $TTL and $INCLUDE: origins, restoring state after an include,
// relative paths, cycles and the depth limit. Include tests write files to a temp dir.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "zone/master_parser.h"
#include "zone/parse_test_support.h"

namespace cutover::zone {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using test::diagnostic_lines;
using test::parse;
using test::record_lines;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "zone_directives.XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string write(const std::string& relative, std::string_view text) const {
    auto path = path_ / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

 private:
  std::filesystem::path path_;
};

TEST(MasterFile, ReadsAFileWhoseSizeIsNotKnownAhead) {
  // A FIFO reports size 0, so the reader must grow its buffer over many read() calls.
  TempDir dir;
  std::string fifo = dir.write("unused", "") + ".fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string text = "$TTL 60\n";
  for (int i = 0; i < 5000; ++i) text += fmt::format("h{} A 192.0.2.{}\n", i, i % 256);
  std::thread writer([&] {
    // Non-blocking open fails until the parser opens the reading end; bounded retries.
    int fd = -1;
    for (int attempt = 0; attempt < 5000 && fd < 0; ++attempt) {
      fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, 0);
    for (std::size_t done = 0; done < text.size();) {
      ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
      if (wrote <= 0) break;
      done += static_cast<std::size_t>(wrote);
    }
    ::close(fd);
  });
  auto result = parse_master_file(test::test_origin(), fifo);
  writer.join();
  EXPECT_THAT(result.diagnostics, IsEmpty());
  ASSERT_EQ(result.records.size(), 5000u);
  EXPECT_EQ(record_lines(result).back(), "h4999.example.test. 60 A 192.0.2.135");
}

TEST(Directives, OriginAbsoluteRelativeAndCaseInsensitive) {
  auto result = parse("$TTL 60\n$ORIGIN sub.example.test.\na A 192.0.2.1\n$ORIGIN deeper\nb A 192.0.2.2\n"
                      "$origin example.test.\nc A 192.0.2.3\n");
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  EXPECT_THAT(record_lines(result),
              ElementsAre("a.sub.example.test. 60 A 192.0.2.1", "b.deeper.sub.example.test. 60 A 192.0.2.2",
                          "c.example.test. 60 A 192.0.2.3"));
}

TEST(Directives, OriginAppliesToRdataNames) {
  auto result = parse("$TTL 60\n$ORIGIN other.test.\nm MX 10 mail\n");
  EXPECT_THAT(record_lines(result), ElementsAre("m.other.test. 60 MX 10 mail.other.test."));
}

TEST(Directives, TtlWithUnitsAndErrors) {
  auto result = parse("$TTL 2h\na A 192.0.2.1\n$TTL\n$TTL 1 2\n$TTL x\n");
  EXPECT_THAT(record_lines(result), ElementsAre("a.example.test. 7200 A 192.0.2.1"));
  EXPECT_THAT(diagnostic_lines(result.diagnostics),
              ElementsAre("3:5: error: expected a TTL after $TTL, found end of line",
                          "4:8: error: unexpected '2': $TTL takes a TTL", "5:6: error: 'x' is not a TTL"));
}

TEST(Directives, UnknownAndGenerate) {
  auto result = parse("$FOO 1\n$GENERATE 1-2 h$ A 192.0.2.$\n");
  EXPECT_THAT(diagnostic_lines(result.diagnostics),
              ElementsAre("1:1: error: unknown directive '$FOO'",
                          "2:1: error: $GENERATE is not supported: expand it before loading"));
}

TEST(Directives, IncludeWithOriginRestoresOriginAndOwner) {
  TempDir dir;
  dir.write("sub/hosts.inc", "h A 192.0.2.1\n@ TXT inner\n$ORIGIN moved\nm A 192.0.2.2\n$TTL 99\n");
  std::string top = dir.write("top.zone",
                              "$TTL 60\nowner A 192.0.2.9\n$INCLUDE sub/hosts.inc branch\n  TXT after\n"
                              "x A 192.0.2.3\n");
  auto result = parse_master_file(test::test_origin(), top);
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  EXPECT_THAT(record_lines(result),
              ElementsAre("owner.example.test. 60 A 192.0.2.9", "h.branch.example.test. 60 A 192.0.2.1",
                          "branch.example.test. 60 TXT \"inner\"", "m.moved.branch.example.test. 60 A 192.0.2.2",
                          // The owner and origin come back; the $TTL set inside stays, as in BIND.
                          "owner.example.test. 99 TXT \"after\"", "x.example.test. 99 A 192.0.2.3"));
}

TEST(Directives, NestedIncludePathsAreRelativeToTheIncludingFile) {
  TempDir dir;
  dir.write("a/b/leaf.inc", "leaf A 192.0.2.2\n");
  dir.write("a/mid.inc", "mid A 192.0.2.1\n$INCLUDE b/leaf.inc\n");
  std::string top = dir.write("top.zone", "$TTL 60\n$INCLUDE a/mid.inc\n");
  auto result = parse_master_file(test::test_origin(), top);
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  EXPECT_THAT(record_lines(result),
              ElementsAre("mid.example.test. 60 A 192.0.2.1", "leaf.example.test. 60 A 192.0.2.2"));
}

TEST(Directives, RecordsKnowTheirFileAndShareItsName) {
  TempDir dir;
  std::string inc = dir.write("hosts.inc", "a A 192.0.2.1\n\n  A 192.0.2.2\n");
  std::string top = dir.write("top.zone", "$TTL 60\n$INCLUDE hosts.inc\nc A 192.0.2.3\nd A 192.0.2.4\n");
  auto result = parse_master_file(test::test_origin(), top);
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  ASSERT_EQ(result.records.size(), 4u);
  const auto& records = result.records;
  EXPECT_EQ(records[0].location().file, inc);
  EXPECT_EQ(records[0].location().line, 1u);
  EXPECT_EQ(records[1].location().line, 3u);
  EXPECT_EQ(records[1].location().column, 3u);
  EXPECT_EQ(records[2].location().file, top);
  EXPECT_EQ(records[3].location().line, 4u);
  // One string per file, not a copy per record.
  EXPECT_EQ(records[0].file.get(), records[1].file.get());
  EXPECT_EQ(records[2].file.get(), records[3].file.get());
  EXPECT_NE(records[0].file.get(), records[2].file.get());
}

TEST(Directives, IncludedFileErrorsNameThatFile) {
  TempDir dir;
  std::string inc = dir.write("bad.inc", "\nx bogus A 192.0.2.1\n");
  std::string top = dir.write("top.zone", "$TTL 60\n$INCLUDE bad.inc\n");
  auto result = parse_master_file(test::test_origin(), top);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].location.file, inc);
  EXPECT_EQ(result.diagnostics[0].location.line, 2u);
  EXPECT_EQ(result.diagnostics[0].location.column, 3u);
}

TEST(Directives, IncludeCycleIsReportedOnce) {
  TempDir dir;
  dir.write("a.inc", "$INCLUDE b.inc\n");
  dir.write("b.inc", "$INCLUDE a.inc\n");
  std::string top = dir.write("top.zone", "$TTL 60\n$INCLUDE a.inc\n");
  auto result = parse_master_file(test::test_origin(), top);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_THAT(result.diagnostics[0].message, HasSubstr("$INCLUDE cycle"));
  EXPECT_THAT(result.diagnostics[0].location.file, HasSubstr("b.inc"));
  EXPECT_EQ(result.diagnostics[0].location.column, 10u);
}

TEST(Directives, IncludeDepthIsLimited) {
  TempDir dir;
  for (int i = 0; i < 5; ++i) {
    dir.write("l" + std::to_string(i) + ".inc", "$INCLUDE l" + std::to_string(i + 1) + ".inc\n");
  }
  dir.write("l5.inc", "deep A 192.0.2.1\n");
  std::string top = dir.write("top.zone", "$TTL 60\n$INCLUDE l0.inc\n");

  ParseLimits shallow;
  shallow.max_include_depth = 3;
  auto limited = parse_master_file(test::test_origin(), top, shallow);
  ASSERT_EQ(limited.diagnostics.size(), 1u);
  EXPECT_EQ(limited.diagnostics[0].message, "$INCLUDE nested more than 3 levels deep");
  EXPECT_THAT(limited.records, IsEmpty());

  auto unlimited = parse_master_file(test::test_origin(), top);
  EXPECT_THAT(unlimited.diagnostics, IsEmpty());
  EXPECT_EQ(unlimited.records.size(), 1u);
}

TEST(Directives, IncludeMissingFileAndArguments) {
  auto result = parse("$INCLUDE /nonexistent/x.inc\n$INCLUDE\n$INCLUDE a b c\n");
  EXPECT_THAT(diagnostic_lines(result.diagnostics),
              ElementsAre("1:10: error: cannot read '/nonexistent/x.inc': No such file or directory",
                          "2:9: error: expected a file name and an optional origin after $INCLUDE, found end of line",
                          "3:14: error: unexpected 'c': $INCLUDE takes a file name and an optional origin"));
}

}  // namespace
}  // namespace cutover::zone
