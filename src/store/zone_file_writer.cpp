// Master-file output and atomic replacement of a zone file.
#include "store/zone_file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace cutover::store {

std::string zone_to_text(const ZoneData& data) {
  std::string text = fmt::format("; zone {} written by cutover journal compact\n", data.origin().to_text());
  auto records = data.records();
  // SOA first: readers expect it at the top.
  std::stable_partition(records.begin(), records.end(), [](const auto& r) { return r.type == dns::RRType::SOA; });
  for (const auto& record : records) {
    text += fmt::format("{} {} IN {} {}\n", record.owner.to_text(), record.ttl, dns::type_to_text(record.type),
                        dns::rdata_to_text(record.type, record.rdata));
  }
  return text;
}

namespace {

base::Error io_error(const std::string& path, std::string_view what) {
  return base::make_error(base::ErrorCode::kIo, fmt::format("{}: {}: {}", path, what, std::strerror(errno)));
}

}  // namespace

base::Status write_zone_file(const std::string& path, const ZoneData& data) {
  std::string text = zone_to_text(data);
  std::string temp = path + ".cutover-tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(temp, "open");
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return io_error(temp, "write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return io_error(temp, "fsync");
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) return io_error(path, "rename");
  auto directory = std::filesystem::path(path).parent_path();
  int dir_fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return {};
}

}  // namespace cutover::store
