// Starting `cutover serve` for integration tests and waiting until it answers.
#include "support/server.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "support/dig.h"

namespace cutover::testing {
namespace {

using Clock = std::chrono::steady_clock;

// The server logs the address it bound, with the port the kernel picked for port 0. The
// leading space keeps "control.listen address=..." (the HTTP API) from matching.
constexpr const char* kListenLogPrefix = " listen address=127.0.0.1:";
constexpr const char* kControlListenLogPrefix = "control.listen address=127.0.0.1:";

std::vector<std::string> serve_argv(const ServerSpec& spec, std::uint16_t port) {
  std::vector<std::string> argv = {CUTOVER_BINARY, "serve", "--listen", "127.0.0.1:" + std::to_string(port)};
  for (const auto& address : spec.extra_listen) argv.insert(argv.end(), {"--listen", address});
  if (!spec.config.empty()) argv.insert(argv.end(), {"--config", spec.config});
  for (const auto& [origin, file] : spec.zones) argv.insert(argv.end(), {"--zone", origin + "=" + file});
  argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
  return argv;
}

std::string probe_for(const ServerSpec& spec) {
  if (!spec.probe_name.empty()) return spec.probe_name;
  if (!spec.zones.empty()) return spec.zones.front().first;
  return "example.test.";
}

}  // namespace

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  if (needle.empty()) return 0;
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

CutoverServer::CutoverServer(ServerSpec spec) : CutoverServer(std::move(spec), true) {}

std::unique_ptr<CutoverServer> CutoverServer::launch(ServerSpec spec) {
  return std::unique_ptr<CutoverServer>(new CutoverServer(std::move(spec), false));
}

CutoverServer::CutoverServer(ServerSpec spec, bool wait_ready) : port_(spec.port) {
  process_ = std::make_unique<ChildProcess>(serve_argv(spec, port_));
  if (wait_ready) wait_until_ready(probe_for(spec));
}

std::uint16_t CutoverServer::port_from_log() const {
  std::string text = log();
  auto at = text.find(kListenLogPrefix);
  if (at == std::string::npos) return 0;
  return static_cast<std::uint16_t>(std::strtoul(text.c_str() + at + std::strlen(kListenLogPrefix), nullptr, 10));
}

std::uint16_t CutoverServer::control_port() const {
  std::string text = log();
  auto at = text.rfind(kControlListenLogPrefix);
  if (at == std::string::npos) return 0;
  return static_cast<std::uint16_t>(std::strtoul(text.c_str() + at + std::strlen(kControlListenLogPrefix), nullptr, 10));
}

void CutoverServer::wait_until_ready(const std::string& probe_name) {
  auto deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < deadline) {
    if (!process_->running()) {
      throw std::runtime_error("cutover serve exited with status " + std::to_string(process_->stop()) +
                               " before answering; log:\n" + log());
    }
    if (port_ == 0) port_ = port_from_log();
    if (port_ != 0 && !dig(port_, probe_name, "SOA", {"+time=1"}).no_reply) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  process_->stop();
  throw std::runtime_error("cutover serve did not answer " + probe_name + " SOA within 10 s; log:\n" + log());
}

bool CutoverServer::wait_for_log(const std::string& needle, std::size_t occurrences,
                                 std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (count_occurrences(log(), needle) < occurrences) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace cutover::testing
