// ControlServer over real loopback HTTP: routing, bearer token, loopback-only rule.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>

#include "control/control_server.h"

namespace cutover::control {
namespace {

TEST(ControlServer, ServesRoutesOnLoopback) {
  ControlServer server({});
  server.get("/hello", [](const httplib::Request&, httplib::Response& response) {
    reply_json(response, 200, R"({"hello":true})");
  });
  ASSERT_TRUE(server.start().ok());
  httplib::Client client("127.0.0.1", server.port());
  auto result = client.Get("/hello");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->body, R"({"hello":true})");
  EXPECT_EQ(client.Get("/missing")->status, 404);
}

// cpp-httplib's default SO_REUSEPORT would let a second server bind the same port and take
// half its connections; the second start() must fail and the first keep every request.
TEST(ControlServer, ASecondServerCannotTakeATakenPort) {
  ControlServer first({});
  first.get("/who", [](const httplib::Request&, httplib::Response& response) { reply_json(response, 200, "first"); });
  ASSERT_TRUE(first.start().ok());
  ControlOptions same;
  same.port = first.port();
  ControlServer second(same);
  second.get("/who", [](const httplib::Request&, httplib::Response& response) { reply_json(response, 200, "second"); });
  auto started = second.start();
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.error().message.find(std::to_string(first.port())), std::string::npos) << started.error().message;
  for (int i = 0; i < 20; ++i) {
    httplib::Client client("127.0.0.1", first.port());
    auto result = client.Get("/who");
    ASSERT_TRUE(result);
    EXPECT_EQ(result->body, "first");
  }
}

// stop() right after start() must not wait for ever (cpp-httplib ignores a stop() that comes
// before its thread has begun listening).
TEST(ControlServer, StopsRightAfterStarting) {
  for (int i = 0; i < 50; ++i) {
    ControlServer server({});
    ASSERT_TRUE(server.start().ok());
    server.stop();
  }
}

TEST(ControlServer, RequiresTheBearerTokenWhenSet) {
  ControlOptions options;
  options.bearer_token = "s3cret";
  ControlServer server(options);
  server.get("/status", [](const httplib::Request&, httplib::Response& response) { reply_json(response, 200, "{}"); });
  ASSERT_TRUE(server.start().ok());
  httplib::Client client("127.0.0.1", server.port());
  EXPECT_EQ(client.Get("/status")->status, 401);
  EXPECT_EQ(client.Get("/status", {{"Authorization", "Bearer wrong"}})->status, 401);
  EXPECT_EQ(client.Get("/status", {{"Authorization", "Bearer s3cret"}})->status, 200);
}

TEST(ControlServer, RefusesNonLoopbackWithoutToken) {
  ControlOptions options;
  options.address = "0.0.0.0";
  ControlServer server(options);
  EXPECT_FALSE(server.start().ok());
  EXPECT_TRUE(is_loopback_address("127.0.0.2"));
  EXPECT_TRUE(is_loopback_address("::1"));
  EXPECT_FALSE(is_loopback_address("192.0.2.1"));
}

// The access rule, table-driven: every peer and method with and without a token, so the
// non-loopback cases need no non-loopback peer.
TEST(ControlServer, AccessRuleByPeerMethodAndToken) {
  std::set<std::string, std::less<>> public_paths = {"/"};
  ControlOptions closed;
  closed.bearer_token = "s3cret";
  ControlOptions open_reads = closed;
  open_reads.open_loopback_reads = true;
  ControlOptions remote = open_reads;
  remote.remote_writes = true;
  ControlOptions tokenless;
  struct Case {
    const char* what;
    const ControlOptions& options;
    AccessRequest request;
    Access expected;
  };
  const Case cases[] = {
      {"no token: loopback write", tokenless, {"POST", "/act", "127.0.0.1", ""}, Access::kAllow},
      {"no token: remote write", tokenless, {"POST", "/act", "192.0.2.1", ""}, Access::kNotFromThisPeer},
      {"closed: loopback read without token", closed, {"GET", "/status", "127.0.0.1", ""}, Access::kNeedsToken},
      {"closed: public page", closed, {"GET", "/", "192.0.2.1", ""}, Access::kAllow},
      {"closed: public path is not public for writes", closed, {"POST", "/", "127.0.0.1", ""}, Access::kNeedsToken},
      {"closed: read with token", closed, {"GET", "/status", "192.0.2.1", "Bearer s3cret"}, Access::kAllow},
      {"open reads: loopback read", open_reads, {"GET", "/status", "127.0.0.1", ""}, Access::kAllow},
      {"open reads: IPv6 loopback read", open_reads, {"HEAD", "/status", "::1", ""}, Access::kAllow},
      {"open reads: remote read needs the token", open_reads, {"GET", "/status", "192.0.2.1", ""}, Access::kNeedsToken},
      {"open reads: loopback write without token", open_reads, {"POST", "/act", "127.0.0.1", ""}, Access::kNeedsToken},
      {"open reads: loopback write, wrong token", open_reads, {"POST", "/act", "127.0.0.1", "Bearer wrong"},
       Access::kNeedsToken},
      {"open reads: loopback write with token", open_reads, {"POST", "/act", "127.0.0.1", "Bearer s3cret"},
       Access::kAllow},
      {"open reads: remote write with token", open_reads, {"POST", "/act", "192.0.2.1", "Bearer s3cret"},
       Access::kNotFromThisPeer},
      {"open reads: remote DELETE with token", open_reads, {"DELETE", "/pools/web", "2001:db8::1", "Bearer s3cret"},
       Access::kNotFromThisPeer},
      {"remote writes: remote write with token", remote, {"PUT", "/act", "192.0.2.1", "Bearer s3cret"}, Access::kAllow},
      {"remote writes: remote write without token", remote, {"POST", "/act", "192.0.2.1", ""}, Access::kNeedsToken},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(access_of(c.options, public_paths, c.request), c.expected) << c.what;
  }
}

TEST(ControlServer, LoopbackWriteWithoutTheTokenGets401AndNoHandlerRuns) {
  ControlOptions options;
  options.bearer_token = "s3cret";
  options.open_loopback_reads = true;
  ControlServer server(options);
  std::atomic<int> calls{0};
  server.post("/act", [&calls](const httplib::Request&, httplib::Response& response) {
    ++calls;
    reply_json(response, 200, "{}");
  });
  ASSERT_TRUE(server.start().ok());
  httplib::Client client("127.0.0.1", server.port());
  EXPECT_EQ(client.Post("/act", "", "application/json")->status, 401);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(client.Post("/act", {{"Authorization", "Bearer s3cret"}}, "", "application/json")->status, 200);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace cutover::control
