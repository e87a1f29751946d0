// HttpThread: exclusive bind, and a stop() that cannot race the listening thread's start.
#include "control/http_thread.h"

#include <sys/socket.h>

#include <chrono>

#include <fmt/format.h>

namespace cutover::control {

HttpThread::HttpThread(httplib::Server& http) : http_(http) {
  http_.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
}

HttpThread::~HttpThread() { stop(); }

base::Result<std::uint16_t> HttpThread::bind(const std::string& address, std::uint16_t port) {
  int bound = port == 0 ? http_.bind_to_any_port(address.c_str())
                        : (http_.bind_to_port(address.c_str(), port) ? port : -1);
  if (bound <= 0) {
    return base::make_error(base::ErrorCode::kIo, fmt::format("cannot listen on {}:{}: the address is taken or "
                                                              "not local",
                                                              address, port));
  }
  return static_cast<std::uint16_t>(bound);
}

void HttpThread::start() {
  thread_ = std::thread([this] {
    http_.listen_after_bind();
    returned_ = true;
  });
}

void HttpThread::stop() {
  if (!thread_.joinable()) return;
  // listen_after_bind() marks the server running as its first step (or returns at once when
  // the socket is gone), so this waits microseconds. Server::stop() is called once only: a
  // second call on a server still running asserts inside cpp-httplib.
  while (!returned_ && !http_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  http_.stop();
  thread_.join();
}

}  // namespace cutover::control
