// Raw TCP DNS client over blocking sockets with a receive timeout.
#include "support/wire_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>

namespace cutover::testing {

std::vector<std::uint8_t> make_query(std::uint16_t id, const std::string& name, dns::RRType type) {
  dns::Message query;
  query.header.id = id;
  auto parsed = dns::Name::from_text(name.back() == '.' ? name : name + ".");
  query.questions.push_back({parsed.ok() ? *parsed : dns::Name(), type, dns::RRClass::IN});
  query.header.qdcount = 1;
  query.edns = dns::Edns{};
  return dns::encode_message(query);
}

TcpClient::TcpClient(std::uint16_t port, const std::string& source)
    : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
  if (fd_ < 0) return;
  timeval safety{10, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
  if (!source.empty()) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    if (::inet_pton(AF_INET, source.c_str(), &local.sin_addr) != 1 ||
        ::bind(fd_, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0) {
      return;
    }
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

TcpClient::~TcpClient() {
  if (fd_ >= 0) ::close(fd_);
}

bool TcpClient::send_raw(const std::vector<std::uint8_t>& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool TcpClient::send_framed(const std::vector<std::vector<std::uint8_t>>& messages) {
  std::vector<std::uint8_t> stream;
  for (const auto& message : messages) {
    stream.push_back(static_cast<std::uint8_t>(message.size() >> 8));
    stream.push_back(static_cast<std::uint8_t>(message.size() & 0xff));
    stream.insert(stream.end(), message.begin(), message.end());
  }
  return send_raw(stream);
}

bool TcpClient::receive_exactly(std::uint8_t* out, std::size_t count) {
  std::size_t got = 0;
  while (got < count) {
    ssize_t n = ::recv(fd_, out + got, count - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<dns::Message> TcpClient::receive() {
  std::uint8_t prefix[2];
  if (!receive_exactly(prefix, 2)) return std::nullopt;
  std::vector<std::uint8_t> message((std::size_t{prefix[0]} << 8) | prefix[1]);
  if (!receive_exactly(message.data(), message.size())) return std::nullopt;
  auto parsed = dns::parse_message(message);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

bool TcpClient::closed_by_peer() {
  std::uint8_t byte;
  while (true) {
    ssize_t n = ::recv(fd_, &byte, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }
}

}  // namespace cutover::testing
