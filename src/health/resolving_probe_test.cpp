// ResolvingProbe (hostname endpoints) against a real UDP DNS peer and real TCP listeners on
// 127.0.0.221-223, with the resolver's cache on a FakeClock: each address is tried until one
// passes, a name that does not resolve fails and a silent resolver is an error, the answer is
// cached for its TTL and a changed answer is followed, and the timeout bounds how many
// addresses are tried.
#include "health/resolving_probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <mutex>

#include "client/client_test_support.h"

namespace cutover::health {
namespace {

using namespace std::chrono_literals;

// A TCP listener on ADDRESS:PORT (PORT 0: the kernel's pick); handshakes complete in the
// kernel, nothing is accepted.
struct Listener {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  std::uint16_t port = 0;
  Listener(const char* address, std::uint16_t wanted) {
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in bound{};
    bound.sin_family = AF_INET;
    bound.sin_port = htons(wanted);
    ::inet_pton(AF_INET, address, &bound.sin_addr);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&bound), sizeof(bound)), 0) << address;
    EXPECT_EQ(::listen(fd, 16), 0);
    socklen_t length = sizeof(bound);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
    port = ntohs(bound.sin_port);
  }
  ~Listener() { ::close(fd); }
};

// The target zone: lb.target.test. A holds the addresses set by the test (TTL 30), no AAAA;
// every other name NXDOMAIN.
class TargetZone {
 public:
  void set(std::vector<std::array<std::uint8_t, 4>> addresses) {
    std::lock_guard lock(mutex_);
    addresses_ = std::move(addresses);
  }
  std::vector<dns::Message> answer(const dns::Message& request) const {
    dns::Message reply = client::testing::authoritative_reply(request);
    const auto& question = request.questions[0];
    dns::ResourceRecord soa_record = client::testing::soa_record("target.test.", 30, 30);
    std::lock_guard lock(mutex_);
    if (question.name == *dns::Name::from_text("lb.target.test.") && !addresses_.empty()) {
      if (question.type == dns::RRType::A) {
        for (const auto& bytes : addresses_) {
          reply.answers.push_back({question.name, dns::RRType::A, dns::RRClass::IN, 30, dns::Rdata(bytes.begin(), bytes.end())});
        }
      } else {
        reply.authorities.push_back(soa_record);
      }
    } else {
      reply.header.rcode = static_cast<std::uint8_t>(dns::Rcode::kNxDomain);
      reply.authorities.push_back(soa_record);
    }
    return {reply};
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::array<std::uint8_t, 4>> addresses_;
};

class ResolvingProbeTest : public ::testing::Test {
 protected:
  ResolvingProbeTest() : peer_([this](const dns::Message& request) { return zone_.answer(request); }) {
    register_builtin_probes(registry_);
  }

  // A tcp check's probe at the name's addresses, port `port`, through the peer.
  std::unique_ptr<ResolvingProbe> probe(std::chrono::milliseconds budget = 1000ms) {
    CheckSettings settings;
    settings.type = "tcp";
    settings.timeout = 1000ms;
    auto inner = registry_.create(settings);
    EXPECT_TRUE(inner) << inner.error().message;
    auto config = target_resolver({peer_.address()}, 1000ms);
    EXPECT_TRUE(config);
    return std::make_unique<ResolvingProbe>(std::move(*inner), *config, clock_, budget);
  }

  static Target target(const std::string& host, std::uint16_t port) {
    Target out;
    out.pool = "app";
    out.endpoint = host;
    out.address = host;
    out.host = host;
    out.port = port;
    return out;
  }

  ProbeRegistry registry_;
  base::FakeClock clock_;
  TargetZone zone_;
  client::testing::UdpDnsPeer peer_;
};

TEST_F(ResolvingProbeTest, TriesEachAddressUntilOnePasses) {
  Listener listening("127.0.0.222", 0);  // 127.0.0.221 refuses on this port
  zone_.set({{127, 0, 0, 221}, {127, 0, 0, 222}});
  ProbeResult result = probe()->run(target("lb.target.test.", listening.port));
  EXPECT_EQ(result.outcome, ProbeOutcome::kPass) << result.detail;
  EXPECT_NE(result.detail.find("(at 127.0.0.222)"), std::string::npos) << result.detail;
}

TEST_F(ResolvingProbeTest, FailsWhenNoAddressPassesAndNamesEach) {
  std::uint16_t port = 0;
  {
    Listener closed("127.0.0.221", 0);  // a port that was free a moment ago: refused now
    port = closed.port;
  }
  zone_.set({{127, 0, 0, 221}, {127, 0, 0, 223}});
  ProbeResult result = probe()->run(target("lb.target.test.", port));
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_NE(result.detail.find("127.0.0.221: connect failed"), std::string::npos) << result.detail;
  EXPECT_NE(result.detail.find("127.0.0.223: connect failed"), std::string::npos) << result.detail;
}

TEST_F(ResolvingProbeTest, ANameThatDoesNotResolveIsAFailure) {
  Listener listening("127.0.0.221", 0);
  for (const char* name : {"gone.target.test.", "lb.target.test."}) {  // lb holds no address yet
    ProbeResult result = probe()->run(target(name, listening.port));
    EXPECT_EQ(result.outcome, ProbeOutcome::kFail) << name;
    EXPECT_NE(result.detail.find(std::string(name) + " does not resolve"), std::string::npos) << result.detail;
  }
}

// A resolver that does not answer says nothing about the target: an error, not a failure.
TEST(ResolvingProbe, ASilentResolverIsAnErrorNotAFailure) {
  client::testing::UdpDnsPeer silent([](const dns::Message&) { return std::vector<dns::Message>{}; });
  ProbeRegistry registry;
  register_builtin_probes(registry);
  CheckSettings settings;
  settings.type = "tcp";
  settings.timeout = 200ms;
  auto inner = registry.create(settings);
  ASSERT_TRUE(inner);
  auto config = target_resolver({silent.address()}, 200ms);
  ASSERT_TRUE(config);
  base::FakeClock clock;
  ResolvingProbe probe(std::move(*inner), *config, clock, 200ms);
  Target target;
  target.host = "lb.target.test.";
  target.port = 80;
  ProbeResult result = probe.run(target);
  EXPECT_EQ(result.outcome, ProbeOutcome::kError) << result.detail;
  EXPECT_NE(result.detail.find("cannot resolve lb.target.test."), std::string::npos) << result.detail;
}

TEST_F(ResolvingProbeTest, TheAnswerIsCachedForItsTtlThenAChangeIsFollowed) {
  Listener first("127.0.0.221", 0);
  Listener second("127.0.0.222", first.port);
  zone_.set({{127, 0, 0, 221}});
  auto runs = probe();
  ProbeResult result = runs->run(target("lb.target.test.", first.port));
  EXPECT_NE(result.detail.find("(at 127.0.0.221)"), std::string::npos) << result.detail;
  int asked = peer_.queries();
  zone_.set({{127, 0, 0, 222}});
  clock_.advance(29s);  // within the TTL: the cached address, no question sent
  result = runs->run(target("lb.target.test.", first.port));
  EXPECT_NE(result.detail.find("(at 127.0.0.221)"), std::string::npos) << result.detail;
  EXPECT_EQ(peer_.queries(), asked);
  clock_.advance(2s);  // past it: asked again, the new address probed
  result = runs->run(target("lb.target.test.", first.port));
  EXPECT_EQ(result.outcome, ProbeOutcome::kPass) << result.detail;
  EXPECT_NE(result.detail.find("(at 127.0.0.222)"), std::string::npos) << result.detail;
  EXPECT_GT(peer_.queries(), asked);
}

TEST_F(ResolvingProbeTest, NoFurtherAddressOnceTheTimeoutIsSpent) {
  std::uint16_t port = 0;
  {
    Listener closed("127.0.0.221", 0);
    port = closed.port;
  }
  Listener late("127.0.0.222", port);
  zone_.set({{127, 0, 0, 221}, {127, 0, 0, 222}});
  // A budget of 0: the first address is tried, the second would pass but is not reached.
  ProbeResult result = probe(0ms)->run(target("lb.target.test.", port));
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_NE(result.detail.find("1 more not tried within the 0 ms timeout"), std::string::npos) << result.detail;
  EXPECT_EQ(probe()->run(target("lb.target.test.", port)).outcome, ProbeOutcome::kPass);
}

TEST(TargetResolver, ServersGivenOrTheSystemsWithOneTryEach) {
  auto given = target_resolver({"127.0.0.1:5353", "[::1]:53"}, 700ms);
  ASSERT_TRUE(given);
  ASSERT_EQ(given->nameservers.size(), 2u);
  EXPECT_EQ(net::format_address(given->nameservers[0].storage), "127.0.0.1:5353");
  EXPECT_EQ(given->timeout, 700ms);
  EXPECT_EQ(given->attempts, 1);
  EXPECT_TRUE(given->search.empty());
  auto system = target_resolver({}, 500ms);
  ASSERT_TRUE(system);
  EXPECT_FALSE(system->nameservers.empty());  // resolv.conf's, or 127.0.0.1:53 without one
  EXPECT_FALSE(target_resolver({"not an address"}, 500ms));
}

}  // namespace
}  // namespace cutover::health
