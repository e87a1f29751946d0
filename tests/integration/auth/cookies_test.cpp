// DNS Cookies (RFC 7873, RFC 9018) and Extended DNS Errors (RFC 8914) of `cutover serve` as
// the real dig and kdig see them on loopback, and the interoperable server cookie checked
// against a real BIND 9.18 given the same secret.
#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "auth/auth_suite.h"
#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

constexpr const char* kSecret = "e5e973e5a6b2a43f48e7dc849e37bfcf";  // RFC 9018 appendix A's
constexpr const char* kOtherSecret = "00112233445566778899aabbccddeeff";
constexpr const char* kClientCookie = "2464c4abcf10c957";

// The COOKIE dig or kdig printed (client cookie and server cookie, lowercase hex), or "".
std::string printed_cookie(const DigResult& reply) {
  static const std::regex pattern(";+ COOKIE: ([0-9A-Fa-f]{16,80})");
  std::smatch match;
  if (!std::regex_search(reply.raw, match, pattern)) return "";
  std::string hex = match[1];
  for (char& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return hex;
}

std::string config_text(const std::string& cookies) {
  return fmt::format("threads: 2\ncookies:\n{}\nzones:\n  - origin: shapes.test.\n    file: {}\n", cookies,
                     data_file("shapes.zone"));
}

class CookiesTest : public ::testing::Test {
 protected:
  std::string dir_ = make_temp_dir("cookies");
  std::string config_ = dir_ + "/cutover.yaml";

  std::unique_ptr<CutoverServer> start(const std::string& cookies) {
    write_file(config_, config_text(cookies));
    ServerSpec spec;
    spec.config = config_;
    spec.probe_name = "shapes.test.";
    return std::make_unique<CutoverServer>(spec);
  }
};

TEST_F(CookiesTest, DigAndKdigGetAServerCookieThatIsThenAccepted) {
  auto server = start(fmt::format("  secrets: [\"{}\"]", kSecret));
  auto first = dig(server->port(), "www.shapes.test", "A", {"+cookie"});
  EXPECT_EQ(first.status, "NOERROR") << first.raw;
  std::string cookie = printed_cookie(first);
  ASSERT_EQ(cookie.size(), 48u) << first.raw;  // 8-byte client cookie, 16-byte server cookie
  EXPECT_NE(first.raw.find("(good)"), std::string::npos) << first.raw;  // dig checked the echo
  EXPECT_EQ(cookie.substr(16, 8), "01000000") << first.raw;              // RFC 9018 version 1
  // Sent back, the cookie is valid and young, so it comes back unchanged, on any thread.
  for (int i = 0; i < 6; ++i) {
    auto again = dig(server->port(), "www.shapes.test", "A", {"+cookie=" + cookie});
    EXPECT_EQ(printed_cookie(again), cookie) << again.raw;
  }
  auto by_kdig = kdig(server->port(), "www.shapes.test", "A", {std::string("+cookie=") + kClientCookie});
  EXPECT_EQ(by_kdig.status, "NOERROR") << by_kdig.raw;
  std::string from_kdig = printed_cookie(by_kdig);
  ASSERT_EQ(from_kdig.size(), 48u) << by_kdig.raw;
  EXPECT_EQ(from_kdig.substr(0, 16), kClientCookie);
  auto kdig_again = kdig(server->port(), "www.shapes.test", "A", {"+cookie=" + from_kdig});
  EXPECT_EQ(printed_cookie(kdig_again), from_kdig) << kdig_again.raw;
  // Over TCP too, and on the general path (a referral).
  auto tcp = dig(server->port(), "x.sub.shapes.test", "A", {"+cookie=" + cookie, "+tcp"});
  EXPECT_EQ(printed_cookie(tcp), cookie) << tcp.raw;
  // Without a cookie in the query there is none in the answer.
  auto plain = dig(server->port(), "www.shapes.test", "A", {"+nocookie"});
  EXPECT_EQ(printed_cookie(plain), "") << plain.raw;
}

TEST_F(CookiesTest, ServerCookieIsTheOneBindMakesWithTheSameSecret) {
  // RFC 9018's point: servers sharing a secret make and accept the same cookies.
  std::uint16_t bind_port = free_port();
  write_file(dir_ + "/shapes.zone", read_file(data_file("shapes.zone")));
  write_file(dir_ + "/named.conf",
             fmt::format("options {{\n  directory \"{0}\";\n  listen-on port {1} {{ 127.0.0.1; }};\n"
                         "  listen-on-v6 {{ none; }};\n  pid-file \"{0}/named.pid\";\n"
                         "  session-keyfile \"{0}/session.key\";\n  managed-keys-directory \"{0}\";\n"
                         "  dnssec-validation no;\n  recursion no;\n  notify no;\n"
                         "  cookie-algorithm siphash24;\n  cookie-secret \"{2}\";\n  require-server-cookie yes;\n}};\n"
                         "controls {{ }};\n"
                         "zone \"shapes.test\" {{ type primary; file \"shapes.zone\"; }};\n",
                         dir_, bind_port, kSecret));
  ChildProcess named({"named", "-g", "-4", "-n", "1", "-c", dir_ + "/named.conf"}, dir_ + "/named.log");
  bool up = false;
  for (int i = 0; i < 50 && !up; ++i) {
    up = dig(bind_port, "shapes.test", "SOA").status == "NOERROR";
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(up) << read_file(dir_ + "/named.log");
  auto server = start(fmt::format("  secrets: [\"{}\"]", kSecret));

  // The timestamp is in whole seconds: try again when the two answers straddle a second.
  bool same = false;
  std::string ours, bind;
  for (int attempt = 0; attempt < 5 && !same; ++attempt) {
    ours = printed_cookie(dig(server->port(), "www.shapes.test", "A", {std::string("+cookie=") + kClientCookie}));
    // BIND requires a server cookie: it answers this one BADCOOKIE, with the cookie it makes.
    bind = printed_cookie(dig(bind_port, "www.shapes.test", "A", {std::string("+cookie=") + kClientCookie, "+nobadcookie"}));
    same = !ours.empty() && ours == bind;
  }
  EXPECT_TRUE(same) << "cutover " << ours << ", BIND " << bind;
  // And BIND accepts ours: it requires a valid server cookie over UDP (require-server-cookie)
  // and answers the query. (Whether it echoes ours or makes a new one is its choice, RFC 9018
  // §4.3: BIND 9.18 stamps every reply's cookie with its own clock, so the bytes come back
  // unchanged only within the second ours was made; this once made the test fail on a busy
  // host, when asking it took longer than that.) BIND reads the time once per event-loop turn,
  // so in the second our cookie was stamped its clock may still be a second behind and take
  // the stamp for one from the future: asked again a moment later it must accept.
  DigResult to_bind;
  for (int attempt = 0; attempt < 5; ++attempt) {
    to_bind = dig(bind_port, "www.shapes.test", "A", {"+cookie=" + ours, "+nobadcookie"});
    if (to_bind.status == "NOERROR") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  EXPECT_EQ(to_bind.status, "NOERROR") << to_bind.raw;
  EXPECT_EQ(to_bind.ancount, 3u) << to_bind.raw;
  // A cookie made with another secret is refused the same way: the check above can fail.
  DigResult forged = dig(bind_port, "www.shapes.test", "A",
                         {"+cookie=" + ours.substr(0, ours.size() - 2) + (ours.substr(ours.size() - 2) == "00" ? "01" : "00"),
                          "+nobadcookie"});
  EXPECT_EQ(forged.status, "BADCOOKIE") << forged.raw;
  EXPECT_EQ(named.stop(), 0);
}

TEST_F(CookiesTest, RequiredCookiesGetBadCookieOverUdpUntilTheClientRetries) {
  auto server = start(fmt::format("  require: true\n  secrets: [\"{}\"]", kSecret));
  auto bad = dig(server->port(), "www.shapes.test", "A", {"+cookie", "+nobadcookie"});
  EXPECT_EQ(bad.status, "BADCOOKIE") << bad.raw;
  EXPECT_EQ(bad.ancount, 0u) << bad.raw;
  std::string cookie = printed_cookie(bad);
  ASSERT_EQ(cookie.size(), 48u) << bad.raw;
  auto retried = dig(server->port(), "www.shapes.test", "A", {"+cookie=" + cookie});
  EXPECT_EQ(retried.status, "NOERROR") << retried.raw;
  EXPECT_EQ(retried.ancount, 3u) << retried.raw;
  auto by_dig_itself = dig(server->port(), "www.shapes.test", "A", {"+cookie", "+badcookie"});
  EXPECT_EQ(by_dig_itself.status, "NOERROR") << by_dig_itself.raw;
  auto tcp = dig(server->port(), "www.shapes.test", "A", {"+cookie", "+tcp"});
  EXPECT_EQ(tcp.status, "NOERROR") << tcp.raw;
  auto without = dig(server->port(), "www.shapes.test", "A", {"+nocookie"});
  EXPECT_EQ(without.status, "NOERROR") << without.raw;
  auto malformed = dig(server->port(), "www.shapes.test", "A", {"+nocookie", "+ednsopt=10:0102"});
  EXPECT_EQ(malformed.status, "FORMERR") << malformed.raw;
}

TEST_F(CookiesTest, SecretsRollOnReloadWithoutARestart) {
  auto server = start(fmt::format("  require: true\n  secrets: [\"{}\"]", kSecret));
  std::string cookie = printed_cookie(dig(server->port(), "www.shapes.test", "A", {"+cookie", "+nobadcookie"}));
  ASSERT_EQ(cookie.size(), 48u);
  EXPECT_EQ(dig(server->port(), "www.shapes.test", "A", {"+cookie=" + cookie}).status, "NOERROR");

  // New secret first, the old one still accepted: the old cookie works and is replaced.
  write_file(config_, config_text(fmt::format("  require: true\n  secrets: [\"{}\", \"{}\"]", kOtherSecret, kSecret)));
  server->reload();
  ASSERT_TRUE(server->wait_for_log("reload.ok", 1));
  auto rolled = dig(server->port(), "www.shapes.test", "A", {"+cookie=" + cookie});
  EXPECT_EQ(rolled.status, "NOERROR") << rolled.raw;
  std::string replaced = printed_cookie(rolled);
  EXPECT_NE(replaced, cookie) << rolled.raw;

  // The old secret dropped: its cookie is refused, the new one still works.
  write_file(config_, config_text(fmt::format("  require: true\n  secrets: [\"{}\"]", kOtherSecret)));
  server->reload();
  ASSERT_TRUE(server->wait_for_log("reload.ok", 2));
  EXPECT_EQ(dig(server->port(), "www.shapes.test", "A", {"+cookie=" + cookie, "+nobadcookie"}).status, "BADCOOKIE");
  EXPECT_EQ(dig(server->port(), "www.shapes.test", "A", {"+cookie=" + replaced}).status, "NOERROR");
  EXPECT_EQ(server->stop(), 0);
}

TEST_F(CookiesTest, CookiesOffIgnoresTheOption) {
  auto server = start("  enabled: false");
  auto reply = dig(server->port(), "www.shapes.test", "A", {"+cookie"});
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  EXPECT_EQ(printed_cookie(reply), "") << reply.raw;  // no COOKIE option in the answer
}

class ExtendedErrorsTest : public OneServerSuite {
 protected:
  static void SetUpTestSuite() { start_server({{"shapes.test.", "shapes.zone"}}); }
};

TEST_F(ExtendedErrorsTest, RefusalsAndNotImpSayWhyToDigAndKdig) {
  auto outside = dig(port(), "www.elsewhere.example", "A");
  EXPECT_EQ(outside.status, "REFUSED") << outside.raw;
  EXPECT_NE(outside.raw.find("EDE: 20 (Not Authoritative): (not in a zone served here)"), std::string::npos)
      << outside.raw;
  auto by_kdig = kdig(port(), "www.elsewhere.example", "A", {"+edns"});
  EXPECT_NE(by_kdig.raw.find("EDE: 20 (Not Authoritative)"), std::string::npos) << by_kdig.raw;
  auto maila = dig(port(), "www.shapes.test", "MAILA");
  EXPECT_EQ(maila.status, "NOTIMP") << maila.raw;
  EXPECT_NE(maila.raw.find("EDE: 21 (Not Supported)"), std::string::npos) << maila.raw;
  auto transfer = dig(port(), "shapes.test", "AXFR");
  EXPECT_NE(transfer.raw.find("Transfer failed"), std::string::npos) << transfer.raw;
  auto chaos = dig(port(), "version.bind", "TXT", {"-c", "CH"});
  EXPECT_EQ(chaos.status, "REFUSED") << chaos.raw;
  EXPECT_NE(chaos.raw.find("EDE: 20 (Not Authoritative): (only class IN is served)"), std::string::npos) << chaos.raw;
  // No OPT in the query: none in the answer.
  auto plain = dig(port(), "www.elsewhere.example", "A", {"+noedns"});
  EXPECT_FALSE(plain.edns) << plain.raw;
}

}  // namespace
}  // namespace cutover::testing
