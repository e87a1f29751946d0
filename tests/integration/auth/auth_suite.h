// Shared by the auth integration tests: where their zone files are, and a suite base that
// starts one `cutover serve` for all the tests of a suite, with the zones the suite names,
// and stops it after them. Test-only; suites run one after another, so one slot serves all.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/server.h"

namespace cutover::testing {

inline std::string data_file(const std::string& name) {
  return std::string(CUTOVER_SOURCE_DIR) + "/tests/integration/auth/data/" + name;
}

class OneServerSuite : public ::testing::Test {
 protected:
  // Call from the suite's SetUpTestSuite: ORIGIN and a file under data/ for each zone.
  static void start_server(const std::vector<std::pair<std::string, std::string>>& zones) {
    ServerSpec spec;
    for (const auto& [origin, file] : zones) spec.zones.emplace_back(origin, data_file(file));
    server_ = std::make_unique<CutoverServer>(spec);
  }
  static void TearDownTestSuite() { server_.reset(); }
  static std::uint16_t port() { return server_->port(); }

 private:
  static inline std::unique_ptr<CutoverServer> server_;
};

}  // namespace cutover::testing
