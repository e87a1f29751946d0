// ControlServer over real loopback HTTP: routing, bearer token, loopback-only rule.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cutover::control
