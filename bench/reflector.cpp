// cutover_reflector: the benchmark's floor. Sends every UDP datagram straight back with the
// QR bit set, using the same recvmmsg/sendmmsg batching as a real server but no DNS work,
// so its CPU per query is what the kernel alone costs. One thread per SO_REUSEPORT socket.
// Usage: cutover_reflector ADDRESS PORT [THREADS]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr unsigned kBatch = 32;
constexpr std::size_t kMaxDatagram = 4096;
constexpr int kReceiveBuffer = 4 << 20;

int open_socket(const sockaddr_in& address) {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kReceiveBuffer, sizeof kReceiveBuffer);
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    std::perror("cutover_reflector: bind");
    std::exit(1);
  }
  return fd;
}

void reflect(int fd) {
  std::vector<unsigned char> storage(kBatch * kMaxDatagram);
  std::array<iovec, kBatch> iov{};
  std::array<sockaddr_storage, kBatch> peers{};
  std::array<mmsghdr, kBatch> messages{};
  // Only the entries the last receive used are set up again (all of them the first time), as
  // cutover's listener does: at a low rate a receive takes one datagram, and re-preparing the
  // whole batch for it would make the floor higher than the servers it is the floor for.
  int used = static_cast<int>(kBatch);
  while (true) {
    for (unsigned i = 0; i < static_cast<unsigned>(used); ++i) {
      iov[i] = {storage.data() + i * kMaxDatagram, kMaxDatagram};
      messages[i] = {};
      messages[i].msg_hdr.msg_name = &peers[i];
      messages[i].msg_hdr.msg_namelen = sizeof peers[i];
      messages[i].msg_hdr.msg_iov = &iov[i];
      messages[i].msg_hdr.msg_iovlen = 1;
    }
    // Block for the first datagram, then take whatever else is queued.
    int received = ::recvmmsg(fd, messages.data(), kBatch, MSG_WAITFORONE, nullptr);
    used = received > 0 ? received : 0;
    if (received <= 0) continue;
    for (int i = 0; i < received; ++i) {
      iov[i].iov_len = messages[i].msg_len;
      if (messages[i].msg_len > 2) storage[i * kMaxDatagram + 2] |= 0x80;  // QR: a response
    }
    int sent = 0;
    while (sent < received) {
      int n = ::sendmmsg(fd, messages.data() + sent, static_cast<unsigned>(received - sent), 0);
      sent += n > 0 ? n : 1;  // a refused datagram is dropped, like a real server would
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::puts("cutover_reflector 1");
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: cutover_reflector ADDRESS PORT [THREADS]\n");
    return 2;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(std::atoi(argv[2])));
  if (::inet_pton(AF_INET, argv[1], &address.sin_addr) != 1) {
    std::fprintf(stderr, "cutover_reflector: bad IPv4 address %s\n", argv[1]);
    return 2;
  }
  int threads = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) workers.emplace_back(reflect, open_socket(address));
  for (auto& worker : workers) worker.join();
}
