// Shared set-up for the write-path integration tests: a zone, a config with a journal and
// the control API on a kernel-chosen port, the real server, and a small JSON API client.
#pragma once

#include <httplib.h>

#include <map>
#include <memory>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {

inline constexpr const char* kWritesZone = R"($ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1
www IN A 192.0.2.10
)";

struct ApiResult {
  int status = 0;
  nlohmann::json body;
};

// One request to the control API on 127.0.0.1:`port`; status 0 when there was no reply.
// Each thread keeps one connection per port open: a new connection per request would leave
// thousands of TIME-WAIT sockets, and ephemeral ports then collide with port-0 binds.
inline std::map<int, std::unique_ptr<httplib::Client>>& api_clients() {
  thread_local std::map<int, std::unique_ptr<httplib::Client>> clients;
  return clients;
}

inline ApiResult api(int port, const std::string& method, const std::string& path, const nlohmann::json& body) {
  auto& slot = api_clients()[port];
  if (!slot) {
    slot = std::make_unique<httplib::Client>("127.0.0.1", port);
    slot->set_keep_alive(true);
    slot->set_connection_timeout(2);
    slot->set_read_timeout(10);
  }
  httplib::Client& client = *slot;
  auto result = method == "GET" ? client.Get(path) : client.Post(path, body.is_null() ? "{}" : body.dump(), "application/json");
  if (!result) return {};
  return {result->status, nlohmann::json::parse(result->body, nullptr, false)};
}

class WritesFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("cutover-writes");
    write_file(dir_ + "/zone.db", kWritesZone);
    write_file(dir_ + "/config.yaml", "control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\n"
                                      "zones:\n  - origin: example.test\n    file: zone.db\n"
                                      "    allow-transfer: [127.0.0.1]\n");
  }

  // Closes this thread's API connections first, so the server's shutdown does not wait for them.
  void TearDown() override { api_clients().clear(); }

  void start() {
    server_ = std::make_unique<CutoverServer>(ServerSpec{.config = dir_ + "/config.yaml"});
    ASSERT_TRUE(server_->wait_for_log("control.listen"));
    control_port_ = server_->control_port();
  }

  ApiResult call(const std::string& method, const std::string& path, const nlohmann::json& body = nullptr) const {
    return api(control_port_, method, path, body);
  }

  std::string dir_;
  std::unique_ptr<CutoverServer> server_;
  int control_port_ = 0;
};

}  // namespace cutover::testing
