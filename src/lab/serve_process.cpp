// Starting a lab fixture's `cutover serve` and waiting until it answers.
#include "lab/serve_process.h"

#include <thread>

#include "base/clock.h"
#include "client/query.h"

namespace cutover::lab {
namespace {

constexpr int kStartAttempts = 4;
constexpr std::int64_t kStartTimeoutNs = 10'000'000'000;

}  // namespace

base::Result<ServeProcess> start_cutover_serve(const std::string& cutover_binary, const std::string& dir,
                                               const std::string& log_path, const std::vector<std::string>& extra_args,
                                               const std::string& probe, dns::RRType type, const std::string& what) {
  auto name = dns::Name::from_text(probe);
  if (!name) return name.error();
  std::string last_error = "not started";
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    auto port = free_port();
    if (!port) return port.error();
    std::string listen = "127.0.0.1:" + std::to_string(*port);
    std::vector<std::string> argv = {cutover_binary, "serve", "--config", dir + "/cutover.yaml", "--listen", listen};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    auto child = ChildProcess::start(argv, log_path, dir);
    if (!child) return child.error();
    ServeProcess started{std::move(*child), *port};
    auto address = client::parse_server(listen);
    if (!address) return address.error();
    client::QueryOptions options;
    options.timeout = std::chrono::milliseconds(300);
    std::int64_t deadline = base::monotonic_ns() + kStartTimeoutNs;
    while (base::monotonic_ns() < deadline && started.process.running()) {
      if (client::query(*address, *name, type, options)) return started;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    last_error = "cutover serve (" + what + ") on " + listen + " did not start:\n" + log_tail(log_path);
    started.process.stop();
  }
  return base::make_error(base::ErrorCode::kIo, last_error);
}

}  // namespace cutover::lab
