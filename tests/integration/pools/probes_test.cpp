// Probe failures against real endpoints on 127.0.0.x: each bad endpoint leaves the answer
// with a precise reason in /status, while a good endpoint in the same all-healthy pool
// keeps answering.
#include <unistd.h>

#include "pool_fixture.h"

namespace cutover::testing {
namespace {

std::string all_healthy_pool(const std::string& check, const std::string& endpoints) {
  return fmt::format("  web:\n    name: web.pool.test\n    shape: all-healthy\n    check: {}\n    endpoints:\n{}", check,
                     endpoints);
}

// Runs a pool of `good` plus one bad endpoint and expects the bad one down for `reason`.
void expect_down_for(const std::string& bad_address, std::uint16_t bad_port, const std::string& reason,
                     const std::string& check = kFastHttpCheck) {
  HttpEndpoint good("127.0.0.21");
  PoolDir dir;
  dir.write_config(all_healthy_pool(check, endpoint_yaml(good) + fmt::format("      - {{address: {}, port: {}}}\n",
                                                                              bad_address, bad_port)));
  PoolServer server(dir);
  EXPECT_TRUE(server.wait_for_answer("web.pool.test", {"127.0.0.21"})) << server.server().log();
  EXPECT_TRUE(server.wait_for_status(reason)) << server.get("/status").body;
  EXPECT_NE(server.server().log().find("health.transition pool=web endpoint=" + bad_address), std::string::npos);
}

TEST(PoolProbes, RefusedEndpointIsDownWithReason) {
  std::uint16_t port = 0;
  {
    HttpEndpoint closed("127.0.0.22");
    port = closed.port();
  }  // closed again: the port now refuses
  expect_down_for("127.0.0.22", port, "Connection refused");
}

TEST(PoolProbes, Http500IsDown) {
  HttpEndpoint bad("127.0.0.23");
  bad.set_reply(500, "boom");
  expect_down_for("127.0.0.23", bad.port(), "unexpected HTTP status 500");
}

TEST(PoolProbes, WrongBodyIsDown) {
  HttpEndpoint bad("127.0.0.24");
  bad.set_reply(200, "maintenance");
  expect_down_for("127.0.0.24", bad.port(), "body lacks \\\"ok\\\"",
                  "{type: http, path: /health, body-contains: ok, interval: 200ms, timeout: 150ms, fall: 2, rise: 1}");
}

TEST(PoolProbes, GarbageSpeakingEndpointIsDown) {
  HttpEndpoint bad("127.0.0.25");
  bad.set_garbage();
  expect_down_for("127.0.0.25", bad.port(), "\"result\": \"fail\"");
}

TEST(PoolProbes, SilentEndpointTimesOut) {
  // Accepts (the kernel completes the handshake) but never answers: the probe must give up
  // at its timeout, not hang the checker.
  HttpEndpoint silent("127.0.0.26", 0, true);
  expect_down_for("127.0.0.26", silent.port(), "Timeout was reached");
}

// A real SYN blackhole: a veth pair into a network namespace that has no such address, with
// a static neighbour entry, so SYNs leave and nothing ever answers. Needs root.
class Blackhole {
 public:
  static constexpr const char* kAddress = "198.18.77.2";
  Blackhole() {
    if (::geteuid() != 0) return;
    name_ = fmt::format("cutbh{}", ::getpid() % 100000);
    ok_ = ip({"netns", "add", name_}) && ip({"link", "add", name_ + "a", "type", "veth", "peer", "name", name_ + "b",
                                            "netns", name_}) &&
          ip({"addr", "add", "198.18.77.1/30", "dev", name_ + "a"}) && ip({"link", "set", name_ + "a", "up"}) &&
          ip({"netns", "exec", name_, "ip", "link", "set", name_ + "b", "up"});
    if (!ok_) return;
    auto mac = run_command({"ip", "netns", "exec", name_, "cat", "/sys/class/net/" + name_ + "b/address"},
                           std::chrono::seconds(5));
    std::string address = mac.out.substr(0, mac.out.find('\n'));
    ok_ = ip({"neigh", "replace", kAddress, "lladdr", address, "dev", name_ + "a", "nud", "permanent"});
  }
  ~Blackhole() {
    if (name_.empty()) return;
    ip({"link", "del", name_ + "a"});
    ip({"netns", "del", name_});
  }
  bool ok() const { return ok_; }

 private:
  static bool ip(std::vector<std::string> args) {
    args.insert(args.begin(), "ip");
    return run_command(args, std::chrono::seconds(5)).exit_code == 0;
  }
  std::string name_;
  bool ok_ = false;
};

TEST(PoolProbes, BlackholedEndpointTimesOutWithReason) {
  Blackhole blackhole;
  if (!blackhole.ok()) GTEST_SKIP() << "needs root and network namespaces (SilentEndpointTimesOut covers the rest)";
  expect_down_for(Blackhole::kAddress, 80, "connect timed out after 150 ms (no reply to SYN)",
                  "{type: tcp, interval: 200ms, timeout: 150ms, fall: 2, rise: 1}");
}

// A throwaway CA and a server certificate for app.pool.test signed by it, made with the
// openssl CLI, plus a self-signed certificate for the same name that the CA did not sign.
struct TestPki {
  std::string dir = make_temp_dir("cutover-pki");
  bool ok = false;
  TestPki() {
    auto run = [&](std::vector<std::string> argv) {
      return run_command(std::move(argv), std::chrono::seconds(30)).exit_code == 0;
    };
    std::string d = dir + "/";
    write_file(d + "san.ext", "subjectAltName=DNS:app.pool.test\n");
    ok = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "ca.key", "-out", d + "ca.pem",
              "-days", "2", "-subj", "/CN=cutover test CA"}) &&
         run({"openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "server.key", "-out", d + "server.csr",
              "-subj", "/CN=app.pool.test"}) &&
         run({"openssl", "x509", "-req", "-in", d + "server.csr", "-CA", d + "ca.pem", "-CAkey", d + "ca.key",
              "-CAcreateserial", "-out", d + "server.pem", "-days", "30", "-extfile", d + "san.ext"}) &&
         run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d + "rogue.key", "-out",
              d + "rogue.pem", "-days", "30", "-subj", "/CN=app.pool.test", "-addext", "subjectAltName=DNS:app.pool.test"});
  }
};

// `openssl s_server -www` answers any GET with a 200 status page.
std::unique_ptr<ChildProcess> tls_server(const std::string& address, std::uint16_t port, const std::string& cert,
                                         const std::string& key) {
  return std::make_unique<ChildProcess>(std::vector<std::string>{
      "openssl", "s_server", "-accept", address + ":" + std::to_string(port), "-cert", cert, "-key", key, "-www", "-quiet"});
}

TEST(PoolProbes, HttpsValidAndInvalidCertificates) {
  TestPki pki;
  ASSERT_TRUE(pki.ok) << "openssl could not make the test certificates";
  std::uint16_t port = free_port();
  auto valid = tls_server("127.0.0.27", port, pki.dir + "/server.pem", pki.dir + "/server.key");
  auto rogue = tls_server("127.0.0.28", port, pki.dir + "/rogue.pem", pki.dir + "/rogue.key");
  PoolDir dir;
  dir.write_config(all_healthy_pool(
      fmt::format("{{type: https, host: app.pool.test, ca-file: {}/ca.pem, interval: 500ms, timeout: 400ms, fall: 2, "
                  "rise: 1}}",
                  pki.dir),
      fmt::format("      - {{address: 127.0.0.27, port: {0}}}\n      - {{address: 127.0.0.28, port: {0}}}\n", port)));
  PoolServer server(dir);
  EXPECT_TRUE(server.wait_for_answer("web.pool.test", {"127.0.0.27"}, std::chrono::seconds(15)))
      << server.get("/status").body << valid->log();
  std::string status = server.get("/status").body;
  EXPECT_NE(status.find("\"cert_days_left\": 29"), std::string::npos) << status;
  EXPECT_TRUE(server.wait_for_status("SSL peer certificate or SSH remote key was not OK")) << server.get("/status").body;
}

}  // namespace
}  // namespace cutover::testing
