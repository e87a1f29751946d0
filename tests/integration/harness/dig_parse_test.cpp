// Tests of the integration harness itself: dig/kdig output parsing on captured samples,
// and the process helpers on ordinary shell commands.
#include <gtest/gtest.h>

#include <chrono>

#include "support/dig.h"
#include "support/process.h"

namespace cutover::testing {
namespace {

// Captured from dig 9.18 against a canned responder.
constexpr const char* kDigSample = R"(
; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @127.0.0.1 -p 15353 WWW.Example.Test A +time=2 +tries=1
; (1 server found)
;; global options: +cmd
;; Got answer:
;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 16097
;; flags: qr aa rd; QUERY: 1, ANSWER: 2, AUTHORITY: 1, ADDITIONAL: 2
;; WARNING: recursion requested but not available

;; OPT PSEUDOSECTION:
; EDNS: version: 0, flags:; udp: 1232
;; QUESTION SECTION:
;WWW.Example.Test.		IN	A

;; ANSWER SECTION:
WWW.Example.Test.	300	IN	A	192.0.2.1
WWW.Example.Test.	300	IN	TXT	"hello world"

;; AUTHORITY SECTION:
WWW.Example.Test.	3600	IN	NS	WWW.Example.Test.

;; ADDITIONAL SECTION:
WWW.Example.Test.	300	IN	AAAA	::1

;; Query time: 0 msec
;; SERVER: 127.0.0.1#15353(127.0.0.1) (UDP)
;; MSG SIZE  rcvd: 127
)";

// Captured from kdig 3.2 against the same responder, with a BADVERS status edited in.
constexpr const char* kKdigSample = R"(;; ->>HEADER<<- opcode: QUERY; status: BADVERS; id: 13775
;; Flags: qr aa; QUERY: 1; ANSWER: 1; AUTHORITY: 0; ADDITIONAL: 1

;; EDNS PSEUDOSECTION:
;; Version: 0; flags: do; UDP size: 1232 B; ext-rcode: BADVERS

;; QUESTION SECTION:
;; www.example.test.   		IN	A

;; ANSWER SECTION:
www.example.test.   	300	IN	A	192.0.2.1

;; Received 127 B
;; From 127.0.0.1@15353(UDP) in 0.4 ms
)";

constexpr const char* kDigNoServer = R"(;; communications error to 127.0.0.1#15354: connection refused

; <<>> DiG 9.18.49-1~deb12u3-Debian <<>> @127.0.0.1 -p 15354 www.example.test A
;; global options: +cmd
;; no servers could be reached
)";

TEST(DigParse, ReadsHeaderFlagsEdnsAndSections) {
  DigResult result = parse_dig_output(kDigSample);
  EXPECT_FALSE(result.no_reply);
  EXPECT_EQ(result.opcode, "QUERY");
  EXPECT_EQ(result.status, "NOERROR");
  EXPECT_TRUE(result.has_flag("qr"));
  EXPECT_TRUE(result.has_flag("AA"));
  EXPECT_FALSE(result.has_flag("tc"));
  EXPECT_EQ(result.ancount, 2u);
  EXPECT_EQ(result.nscount, 1u);
  EXPECT_EQ(result.arcount, 2u);
  EXPECT_TRUE(result.edns);
  EXPECT_EQ(result.udp_size, 1232u);
  EXPECT_TRUE(result.edns_flags.empty());
  ASSERT_EQ(result.answer.size(), 2u);
  EXPECT_EQ(result.answer[0].owner, "www.example.test.");
  EXPECT_EQ(result.answer[0].type, "A");
  EXPECT_EQ(result.answer[0].ttl, 300u);
  EXPECT_EQ(result.answer[1].rdata, "\"hello world\"");
  ASSERT_EQ(result.authority.size(), 1u);
  EXPECT_EQ(result.authority[0].rdata, "WWW.Example.Test.");
  EXPECT_EQ(DigResult::rdatas(result.additional, "aaaa"), std::vector<std::string>{"::1"});
}

TEST(DigParse, ReadsKdigDialect) {
  DigResult result = parse_kdig_output(kKdigSample);
  EXPECT_FALSE(result.no_reply);
  EXPECT_EQ(result.status, "BADVERS");
  EXPECT_EQ(result.flags, (std::vector<std::string>{"qr", "aa"}));
  EXPECT_EQ(result.ancount, 1u);
  EXPECT_TRUE(result.edns);
  EXPECT_EQ(result.edns_flags, std::vector<std::string>{"do"});
  EXPECT_EQ(result.udp_size, 1232u);
  ASSERT_EQ(result.answer.size(), 1u);
  EXPECT_EQ(result.answer[0].rdata, "192.0.2.1");
}

TEST(DigParse, NoHeaderMeansNoReply) {
  DigResult result = parse_dig_output(kDigNoServer);
  EXPECT_TRUE(result.no_reply);
  EXPECT_TRUE(result.answer.empty());
}

TEST(DigParse, TcpRetryKeepsTheLastResponse) {
  std::string text = std::string(";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n"
                                 ";; flags: qr aa tc; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 0\n"
                                 ";; Truncated, retrying in TCP mode.\n") +
                     kDigSample;
  DigResult result = parse_dig_output(text);
  EXPECT_FALSE(result.has_flag("tc"));
  EXPECT_EQ(result.answer.size(), 2u);
}

TEST(Process, RunCommandCapturesStreamsAndExitCode) {
  CommandResult result = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"}, std::chrono::seconds(10));
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.out, "out\n");
  EXPECT_EQ(result.err, "err\n");
  EXPECT_FALSE(result.timed_out);
}

TEST(Process, RunCommandKillsOnTimeout) {
  CommandResult result = run_command({"sleep", "30"}, std::chrono::milliseconds(100));
  EXPECT_TRUE(result.timed_out);
  EXPECT_EQ(result.exit_code, 128 + 9);
}

TEST(Process, ChildStopsWithSigtermStatus) {
  ChildProcess child({"sleep", "30"});
  EXPECT_TRUE(child.running());
  EXPECT_EQ(child.stop(), 128 + 15);
  EXPECT_FALSE(child.running());
}

TEST(Process, ChildOutputGoesToLog) {
  ChildProcess child({"sh", "-c", "echo hello"});
  ASSERT_TRUE(child.wait_for_exit(std::chrono::seconds(10)).has_value());
  EXPECT_EQ(child.log(), "hello\n");
}

TEST(Process, FreePortIsNonZero) { EXPECT_NE(free_port(), 0); }

}  // namespace
}  // namespace cutover::testing
