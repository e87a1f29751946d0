// Table-driven tests of the master-file parser: field order, owners, TTL rules, generic
// types, and error positions and messages.
#include "zone/master_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "zone/parse_test_support.h"

namespace cutover::zone {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsEmpty;
using test::diagnostic_lines;
using test::parse;
using test::record_lines;

constexpr const char* kSoa = "@ 3600 SOA ns hostmaster 1 3600 600 86400 300\n";

struct RecordCase {
  const char* name;
  std::string text;
  std::vector<std::string> records;
};

class ParsesRecords : public ::testing::TestWithParam<RecordCase> {};

TEST_P(ParsesRecords, AsExpected) {
  const auto& c = GetParam();
  auto result = parse(c.text);
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  EXPECT_THAT(record_lines(result), ElementsAreArray(c.records));
}

INSTANTIATE_TEST_SUITE_P(
    MasterParser, ParsesRecords,
    ::testing::Values(
        RecordCase{"ttl_class_type", "$TTL 60\nwww 300 IN A 192.0.2.1\n", {"www.example.test. 300 A 192.0.2.1"}},
        RecordCase{"class_ttl_type", "$TTL 60\nwww IN 300 A 192.0.2.1\n", {"www.example.test. 300 A 192.0.2.1"}},
        RecordCase{"ttl_type", "$TTL 60\nwww 1h A 192.0.2.1\n", {"www.example.test. 3600 A 192.0.2.1"}},
        RecordCase{"class_type", "$TTL 60\nwww in a 192.0.2.1\n", {"www.example.test. 60 A 192.0.2.1"}},
        RecordCase{"type_only", "$TTL 60\nwww A 192.0.2.1\n", {"www.example.test. 60 A 192.0.2.1"}},
        RecordCase{"at_is_origin", "$TTL 60\n@ A 192.0.2.1\n", {"example.test. 60 A 192.0.2.1"}},
        RecordCase{"absolute_owner", "$TTL 60\nx.example.test. A 192.0.2.1\n", {"x.example.test. 60 A 192.0.2.1"}},
        RecordCase{"previous_owner",
                   "$TTL 60\nwww A 192.0.2.1\n  AAAA 2001:db8::1\n\t30 TXT \"t\"\n",
                   {"www.example.test. 60 A 192.0.2.1", "www.example.test. 60 AAAA 2001:db8::1",
                    "www.example.test. 30 TXT \"t\""}},
        RecordCase{"wildcard_owner", "$TTL 60\n*.dev A 192.0.2.1\n", {"*.dev.example.test. 60 A 192.0.2.1"}},
        RecordCase{"escaped_owner", "$TTL 60\na\\.b\\032c TXT x\n", {"a\\.b\\ c.example.test. 60 TXT \"x\""}},
        RecordCase{"generic_type_and_class", "$TTL 60\nu CLASS1 TYPE65534 \\# 4 0a000001\n",
                   {"u.example.test. 60 TYPE65534 \\# 4 0A000001"}},
        RecordCase{"generic_rdata_for_known_type", "$TTL 60\nu TYPE1 \\# 4 c0000201\n",
                   {"u.example.test. 60 A 192.0.2.1"}},
        RecordCase{"rdata_across_lines", "$TTL 60\nm MX ( 10 ; pref\n  mail )\n",
                   {"m.example.test. 60 MX 10 mail.example.test."}},
        RecordCase{"zero_ttl", "z 0 A 192.0.2.1\n",
                   {"z.example.test. 0 A 192.0.2.1"}},
        // Without $TTL, a record without a TTL takes the last explicit one (RFC 1035 §5.1).
        RecordCase{"last_explicit_ttl", "a 100 A 192.0.2.1\nb A 192.0.2.2\nc 50 A 192.0.2.3\nd A 192.0.2.4\n",
                   {"a.example.test. 100 A 192.0.2.1", "b.example.test. 100 A 192.0.2.2",
                    "c.example.test. 50 A 192.0.2.3", "d.example.test. 50 A 192.0.2.4"}},
        // $TTL wins over the last explicit TTL, as in BIND.
        RecordCase{"dollar_ttl_beats_last_explicit", "$TTL 60\na 100 A 192.0.2.1\nb A 192.0.2.2\n",
                   {"a.example.test. 100 A 192.0.2.1", "b.example.test. 60 A 192.0.2.2"}},
        RecordCase{"explicit_soa_ttl_carries", std::string(kSoa) + "ns A 192.0.2.1\n",
                   {"example.test. 3600 SOA ns.example.test. hostmaster.example.test. 1 3600 600 86400 300",
                    "ns.example.test. 3600 A 192.0.2.1"}}),
    [](const auto& info) { return std::string(info.param.name); });

struct ErrorCase {
  const char* name;
  std::string text;
  std::vector<std::string> diagnostics;
};

class ReportsErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ReportsErrors, AtTheRightPlace) {
  const auto& c = GetParam();
  EXPECT_THAT(diagnostic_lines(parse(c.text).diagnostics), ElementsAreArray(c.diagnostics));
}

INSTANTIATE_TEST_SUITE_P(
    MasterParser, ReportsErrors,
    ::testing::Values(
        ErrorCase{"unknown_field", "$TTL 60\nwww foo A 192.0.2.1\n",
                  {"2:5: error: expected a TTL, class or type, found 'foo'"}},
        ErrorCase{"after_ttl", "$TTL 60\nwww 300 300 A 192.0.2.1\n",
                  {"2:9: error: expected a class or type, found '300'"}},
        ErrorCase{"after_class", "$TTL 60\nwww IN IN A 192.0.2.1\n",
                  {"2:8: error: expected a TTL or type, found 'IN'"}},
        ErrorCase{"after_both", "$TTL 60\nwww IN 300 \"A\" 192.0.2.1\n",
                  {"2:12: error: expected a type, found '\"A\"'"}},
        ErrorCase{"end_of_line", "$TTL 60\nwww 300\n", {"2:8: error: expected a class or type, found end of line"}},
        ErrorCase{"bad_ttl", "www 1q A 192.0.2.1\n", {"1:5: error: '1q' is not a TTL"}},
        ErrorCase{"huge_ttl", "www 2147483648 A 192.0.2.1\n",
                  {"1:5: warning: TTL 2147483648 is above 2147483647; using 0 as BIND does (RFC 2181 §8)"}},
        ErrorCase{"other_class", "$TTL 60\nwww CH TXT x\n",
                  {"2:5: error: class CH is not supported: only IN zones are served"}},
        ErrorCase{"meta_type", "$TTL 60\nwww OPT x\n", {"2:5: error: type OPT cannot appear in zone data"}},
        ErrorCase{"bad_rdata_token", "$TTL 60\nmx MX ten mail\n", {"2:7: error: bad MX rdata: bad number 'ten'"}},
        ErrorCase{"missing_rdata", "$TTL 60\nmx MX 10\n", {"2:9: error: bad MX rdata: missing rdata field"}},
        ErrorCase{"no_previous_owner", "$TTL 60\n  A 192.0.2.1\n",
                  {"2:3: error: the first record has no owner name (the line starts with a blank)"}},
        ErrorCase{"no_ttl_at_all", "www A 192.0.2.1\n",
                  {"1:1: error: no TTL: the record has none and no $TTL or earlier TTL applies"}},
        ErrorCase{"soa_minimum_default",
                  "@ SOA ns hostmaster 1 3600 600 86400 120\n",
                  {"1:1: warning: no TTL and no $TTL: using the SOA MINIMUM 120 as the default"}},
        ErrorCase{"bad_owner", "$TTL 60\na..b A 192.0.2.1\n",
                  {"2:1: error: bad owner name 'a..b': empty label in 'a..b'"}},
        ErrorCase{"keeps_going", "$TTL 60\na foo A 1.2.3.4\nb A 1.2.3.4\nc bar A 1.2.3.4\n",
                  {"2:3: error: expected a TTL, class or type, found 'foo'",
                   "4:3: error: expected a TTL, class or type, found 'bar'"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MasterParser, ErrorsDoNotLoseGoodRecords) {
  auto result = parse("$TTL 60\na foo A 1.2.3.4\nb A 192.0.2.2\n");
  EXPECT_THAT(record_lines(result), ElementsAreArray({"b.example.test. 60 A 192.0.2.2"}));
}

TEST(MasterParser, StopsAfterTheErrorLimit) {
  std::string text = "$TTL 60\n";
  for (int i = 0; i < 80; ++i) text += "x bogus A 192.0.2.1\n";
  auto result = parse(text);
  ASSERT_EQ(result.diagnostics.size(), 51u);
  EXPECT_EQ(result.diagnostics[49].location.line, 51u);
  EXPECT_EQ(result.diagnostics.back().message, "stopping after 50 errors");
}

TEST(MasterParser, LocationsNameTheFile) {
  auto result = parse_master_text(test::test_origin(), "x bogus A 192.0.2.1\n", "zones/x.zone");
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].to_string(),
            "zones/x.zone:1:3: error: expected a TTL, class or type, found 'bogus'");
}

TEST(MasterParser, LastRecordWithoutNewline) {
  auto result = parse("$TTL 60\na A 192.0.2.1\nb TXT \"end\"");
  EXPECT_THAT(diagnostic_lines(result.diagnostics), IsEmpty());
  EXPECT_THAT(record_lines(result),
              ElementsAreArray({"a.example.test. 60 A 192.0.2.1", "b.example.test. 60 TXT \"end\""}));
}

TEST(MasterParser, MissingFileIsOneDiagnosticNamingIt) {
  auto result = parse_master_file(test::test_origin(), "/nonexistent/dir/zone.db");
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].to_string(),
            "/nonexistent/dir/zone.db: error: cannot read '/nonexistent/dir/zone.db': No such file or directory");
}

}  // namespace
}  // namespace cutover::zone
