// Reading and writing "PID\n" files.
#include "cmd/pid_file.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cutover::cmd {

base::Status write_pid_file(const std::string& path, pid_t pid) {
  std::ofstream out(path, std::ios::trunc);
  out << pid << '\n';
  out.close();
  if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write pid file " + path + ": " + std::strerror(errno));
  return {};
}

base::Result<pid_t> read_pid_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return base::make_error(base::ErrorCode::kIo, "cannot read pid file " + path + ": " + std::strerror(errno));
  std::string text;
  in >> text;
  pid_t pid = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || end != text.data() + text.size() || pid <= 1) {
    return base::make_error(base::ErrorCode::kMalformed, "pid file " + path + " does not hold a process id");
  }
  return pid;
}

}  // namespace cutover::cmd
