// Online signing (docs/dnssec.md, "Online signing"), judged by real validators: keys made by
// BIND's dnssec-keygen, an unsigned zone with every answer shape, a pool and a journal, served
// with `dnssec: {mode: online}`. delv (with the KSK as trust anchor) and Unbound must call every
// answer secure: positive, NODATA, NXDOMAIN (compact denial, RFC 9824: NOERROR with an NSEC
// that lists NXNAME), wildcard, empty non-terminal, DS of a secure and of an insecure
// delegation, DNSKEY and CDS; a pool answer and a record written through `cutover set` after
// startup too, and an answer through a DNAME; and the zone's AXFR must pass dnssec-verify and
// ldns-verify-zone.
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"
#include "support/unbound.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kZone = "online.test.";

constexpr const char* kZoneText = R"($TTL 300
@        IN SOA ns1 hostmaster 1 3600 600 86400 60
@        NS    ns1
ns1      A     127.0.0.1
www      A     192.0.2.1
www      AAAA  2001:db8::1
txt      TXT   "online"
*.wild   TXT   "wild"
a.b.ent  A     192.0.2.9
alias    CNAME www
insecure NS    ns.insecure
ns.insecure A  192.0.2.53
secure   NS    ns.secure
ns.secure A    192.0.2.54
secure   DS    12345 13 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE3C3B8DB3ECDDFB43D8B0F3D6
old      DNAME new
y.new    A     192.0.2.44
)";

enum class Verdict { kSecure, kNoData, kNxDomain };

struct Shape {
  std::string name;  // relative; "@" for the apex
  std::string type;
  Verdict verdict;
};

const std::vector<Shape> kShapes = {
    {"www", "A", Verdict::kSecure},          {"www", "AAAA", Verdict::kSecure},
    {"txt", "TXT", Verdict::kSecure},        {"@", "DNSKEY", Verdict::kSecure},
    {"@", "CDS", Verdict::kSecure},          {"@", "CDNSKEY", Verdict::kSecure},
    {"alias", "A", Verdict::kSecure},        {"x.wild", "TXT", Verdict::kSecure},
    {"a.b.wild", "TXT", Verdict::kSecure},   {"www", "MX", Verdict::kNoData},
    {"x.wild", "A", Verdict::kNoData},       {"ent", "A", Verdict::kNoData},
    {"b.ent", "TXT", Verdict::kNoData},      {"nx", "A", Verdict::kNxDomain},
    {"a.b.nx", "AAAA", Verdict::kNxDomain},  {"secure", "DS", Verdict::kSecure},
    {"insecure", "DS", Verdict::kNoData},    {"app", "A", Verdict::kSecure},
    {"y.old", "A", Verdict::kSecure},  // through the DNAME: DNAME, CNAME and A, each signed
};

constexpr const char* kUpdateSecret = "Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc=";

std::string absolute(const std::string& name) { return name == "@" ? kZone : name + "." + kZone; }

class OnlineSigningTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!have_program("dnssec-keygen")) return;
    dir_ = make_temp_dir("cutover-online");
    std::string keys = dir_ + "/keys";
    run_command({"mkdir", "-p", keys}, 5s);
    auto ksk = run_command({"dnssec-keygen", "-q", "-K", keys, "-a", "ECDSAP256SHA256", "-f", "KSK", kZone}, 30s);
    auto zsk = run_command({"dnssec-keygen", "-q", "-K", keys, "-a", "ECDSAP256SHA256", kZone}, 30s);
    ASSERT_EQ(ksk.exit_code, 0) << ksk.err;
    ASSERT_EQ(zsk.exit_code, 0) << zsk.err;
    write_file(dir_ + "/online.test.zone", kZoneText);
    // The pool's endpoints' states come from a file (the file probe): both up.
    write_file(dir_ + "/states", "192.0.2.10 = UP\n192.0.2.11 = UP\n");
    std::string config = fmt::format(
        "writes:\n  journal: {0}/journal.db\n"
        "  tsig-keys: [{{name: up, algorithm: hmac-sha256, secret: \"{2}\"}}]\n"
        "control:\n  listen: 127.0.0.1:0\n"
        "zones:\n"
        "  - origin: {1}\n    file: {0}/online.test.zone\n    allow-transfer: [127.0.0.1]\n"
        "    allow-update: [up]\n"
        "    dnssec: {{mode: online, keys: {0}/keys, signature-lifetime: 10d, refresh: 2d}}\n"
        "pools:\n  app:\n    name: app.{1}\n    shape: failover\n    ttl: 30\n"
        "    check: {{type: file, file: {0}/states, interval: 1s, timeout: 500ms}}\n"
        "    endpoints:\n      - {{address: 192.0.2.10, priority: 1}}\n      - {{address: 192.0.2.11, priority: 2}}\n",
        dir_, kZone, kUpdateSecret);
    write_file(dir_ + "/cutover.yaml", config);
    ServerSpec spec;
    spec.config = dir_ + "/cutover.yaml";
    spec.probe_name = kZone;
    server_ = std::make_unique<CutoverServer>(spec);
    // The KSK as cutover publishes it: the validators' trust anchor.
    auto keys_reply = dig(server_->port(), kZone, "DNSKEY", {"+norec"});
    for (const auto& rdata : DigResult::rdatas(keys_reply.answer, "DNSKEY")) {
      std::istringstream fields(rdata);
      std::string flags, protocol, algorithm, part, key;
      fields >> flags >> protocol >> algorithm;
      while (fields >> part) key += part;
      if (flags == "257") anchor_ = fmt::format("257 3 {} {}", algorithm, key);
    }
  }
  static void TearDownTestSuite() { server_.reset(); }

  void SetUp() override {
    if (!have_program("dnssec-keygen")) GTEST_SKIP() << "dnssec-keygen (bind9-utils) is not installed";
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(anchor_.empty()) << "no KSK in the DNSKEY answer\n" << server_->log();
  }

  // delv's verdict line for NAME TYPE, with the KSK as its only trust anchor.
  static std::string delv(const std::string& name, const std::string& type) {
    std::string anchors = dir_ + "/anchor";
    std::istringstream fields(anchor_);
    std::string flags, protocol, algorithm, key;
    fields >> flags >> protocol >> algorithm >> key;
    write_file(anchors, fmt::format("trust-anchors {{ \"{}\" static-key 257 3 {} \"{}\"; }};\n", kZone, algorithm, key));
    auto result = run_command({"delv", "@127.0.0.1", "-p", std::to_string(server_->port()), "-a", anchors,
                               "+root=" + std::string(kZone), name, type},
                              20s);
    return result.out + result.err;
  }

  static std::string needle(Verdict verdict) {
    return verdict == Verdict::kSecure ? "; fully validated" : "; negative response, fully validated";
  }

  static inline std::string dir_;
  static inline std::string anchor_;
  static inline std::unique_ptr<CutoverServer> server_;
};

TEST_F(OnlineSigningTest, DelvValidatesEveryShape) {
  if (!have_program("delv")) GTEST_SKIP() << "delv (bind9-dnsutils) is not installed";
  for (const auto& shape : kShapes) {
    std::string output = delv(absolute(shape.name), shape.type);
    EXPECT_NE(output.find(needle(shape.verdict)), std::string::npos)
        << absolute(shape.name) << " " << shape.type << "\n" << output;
  }
}

// Without the DO bit nothing changes: NXDOMAIN stays NXDOMAIN and no RRSIG is sent; with it
// the compact denial answers NOERROR with the query name's NSEC listing NXNAME (RFC 9824 §3).
TEST_F(OnlineSigningTest, NegativeAnswersAreCompactOnlyWithTheDoBit) {
  auto plain = dig(server_->port(), absolute("nx"), "A", {"+norec"});
  EXPECT_EQ(plain.status, "NXDOMAIN") << plain.raw;
  EXPECT_EQ(plain.raw.find("RRSIG"), std::string::npos) << plain.raw;
  auto with_do = dig(server_->port(), absolute("nx"), "A", {"+norec", "+dnssec"});
  EXPECT_EQ(with_do.status, "NOERROR") << with_do.raw;
  // dig 9.18 has no mnemonic for type 128 (later versions print NXNAME).
  std::string nsec = "\tIN\tNSEC\t\\000.nx.online.test. RRSIG NSEC ";
  bool listed = with_do.raw.find(nsec + "TYPE128") != std::string::npos || with_do.raw.find(nsec + "NXNAME") != std::string::npos;
  EXPECT_TRUE(listed) << with_do.raw;
  auto positive = dig(server_->port(), absolute("www"), "A", {"+norec"});
  EXPECT_EQ(positive.raw.find("RRSIG"), std::string::npos) << positive.raw;
}

// A record written after startup is signed as it is served, and so is the changed one.
TEST_F(OnlineSigningTest, WritesAreSignedAsTheyAreServed) {
  if (!have_program("delv")) GTEST_SKIP() << "delv (bind9-dnsutils) is not installed";
  std::string control = fmt::format("127.0.0.1:{}", server_->control_port());
  for (const char* address : {"198.51.100.7", "198.51.100.8"}) {
    auto set = run_command({CUTOVER_BINARY, "set", kZone, "written", "A", address, "--ttl", "60", "--control", control}, 20s);
    ASSERT_EQ(set.exit_code, 0) << set.out << set.err;
    std::string output = delv(absolute("written"), "A");
    EXPECT_NE(output.find("; fully validated"), std::string::npos) << output;
    EXPECT_NE(output.find(address), std::string::npos) << output;
  }
}

// A DNS UPDATE (nsupdate, TSIG-signed) to the zone is taken and served signed.
TEST_F(OnlineSigningTest, UpdatesAreSignedAsTheyAreServed) {
  if (!have_program("delv") || !have_program("nsupdate")) GTEST_SKIP() << "delv or nsupdate (bind9-dnsutils) missing";
  std::string script = dir_ + "/update.txt";
  write_file(script, fmt::format("server 127.0.0.1 {}\nzone {}\nupdate add updated.{} 60 A 203.0.113.9\nsend\n",
                                 server_->port(), kZone, kZone));
  auto update = run_command({"nsupdate", "-y", std::string("hmac-sha256:up:") + kUpdateSecret, script}, 20s);
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err << server_->log();
  std::string output = delv(absolute("updated"), "A");
  EXPECT_NE(output.find("; fully validated"), std::string::npos) << output;
  EXPECT_NE(output.find("203.0.113.9"), std::string::npos) << output;
}

// Rollover basics: a successor key made with a future activation is published (DNSKEY) at the
// next reload but does not sign yet; `cutover status` shows it "published".
TEST_F(OnlineSigningTest, AReloadPublishesASuccessorKeyBeforeItSigns) {
  auto made = run_command({"dnssec-keygen", "-q", "-K", dir_ + "/keys", "-a", "ECDSAP256SHA256", "-P", "now", "-A",
                           "now+30d", kZone},
                          30s);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  std::string tag = made.out.substr(made.out.rfind('+') + 1);
  while (!tag.empty() && (tag.back() == '\n' || tag.back() == '\r')) tag.pop_back();
  int successor = std::stoi(tag);
  server_->reload();
  ASSERT_TRUE(eventually([&] {
    return DigResult::rdatas(dig(server_->port(), kZone, "DNSKEY", {"+norec"}).answer, "DNSKEY").size() == 3;
  }, 15s)) << server_->log();
  // Answers are still signed by the active ZSK alone.
  auto reply = dig(server_->port(), absolute("www"), "A", {"+norec", "+dnssec"});
  auto signatures = DigResult::rdatas(reply.answer, "RRSIG");
  ASSERT_EQ(signatures.size(), 1u) << reply.raw;
  EXPECT_EQ(signatures[0].find(" " + std::to_string(successor) + " "), std::string::npos) << reply.raw;
  std::string output = delv(absolute("www"), "A");
  EXPECT_NE(output.find("; fully validated"), std::string::npos) << output;
  auto status = run_command({CUTOVER_BINARY, "status", "--control", fmt::format("127.0.0.1:{}", server_->control_port())}, 20s);
  EXPECT_NE(status.out.find(fmt::format("tag {:<5} algorithm 13  published", successor)), std::string::npos) << status.out;
}

TEST_F(OnlineSigningTest, UnboundValidatesEveryShape) {
  if (!have_program("unbound")) GTEST_SKIP() << "unbound is not installed";
  std::string options = "  module-config: \"validator iterator\"\n  val-log-level: 2\n  verbosity: 1\n";
  options += fmt::format("  trust-anchor: \"{} DNSKEY {}\"\n", kZone, anchor_);
  std::vector<std::pair<std::string, std::uint16_t>> stubs = {{".", server_->port()}, {kZone, server_->port()}};
  UnboundResolver unbound(make_temp_dir("cutover-unbound-online"), stubs, options);
  ASSERT_TRUE(unbound.ready()) << unbound.log();
  for (const auto& shape : kShapes) {
    auto reply = dig(unbound.port(), absolute(shape.name), shape.type, {"+dnssec", "+rec", "+time=5"});
    std::string where = absolute(shape.name) + " " + shape.type + "\n" + reply.raw;
    ASSERT_FALSE(reply.no_reply) << where << unbound.log();
    // Compact denial: a name that does not exist is answered NOERROR (RFC 9824 §3.2).
    EXPECT_EQ(reply.status, "NOERROR") << where;
    EXPECT_TRUE(reply.has_flag("ad")) << where;
    EXPECT_EQ(reply.answer.empty(), shape.verdict != Verdict::kSecure) << where;
  }
}

// Knot Resolver forwarding the zone to cutover, the KSK its only trust anchor.
TEST_F(OnlineSigningTest, KnotResolverValidatesEveryShape) {
  if (!have_program("kresd")) GTEST_SKIP() << "kresd (knot-resolver) is not installed";
  std::string dir = make_temp_dir("cutover-kresd-online");
  std::uint16_t port = free_port();
  std::string conf = fmt::format(
      "net.listen('127.0.0.1', {}, {{ kind = 'dns' }})\n"
      "pcall(function() trust_anchors.remove('.') end)\n"
      "cache.open(16 * MB, 'lmdb://{}/cache')\n"
      "policy.add(policy.all(policy.FLAGS({{'ALLOW_LOCAL'}})))\n"
      "trust_anchors.add('{} DNSKEY {}')\n"
      "policy.add(policy.suffix(policy.FORWARD({{'127.0.0.1@{}'}}), {{todname('{}')}}))\n"
      "policy.add(policy.all(policy.DENY))\n",
      port, dir, kZone, anchor_, server_->port(), kZone);
  write_file(dir + "/kresd.conf", conf);
  ChildProcess kresd({"kresd", "-n", "-c", dir + "/kresd.conf", dir}, dir + "/kresd.log");
  ASSERT_TRUE(eventually([&] { return !dig(port, kZone, "SOA").no_reply || !kresd.running(); }, 15s)) << kresd.log();
  ASSERT_TRUE(kresd.running()) << kresd.log();
  for (const auto& shape : kShapes) {
    auto reply = dig(port, absolute(shape.name), shape.type, {"+dnssec", "+rec", "+time=5"});
    std::string where = absolute(shape.name) + " " + shape.type + "\n" + reply.raw;
    ASSERT_FALSE(reply.no_reply) << where << kresd.log();
    EXPECT_TRUE(reply.status == "NOERROR" || (shape.verdict == Verdict::kNxDomain && reply.status == "NXDOMAIN")) << where;
    EXPECT_TRUE(reply.has_flag("ad")) << where;
    EXPECT_EQ(reply.answer.empty(), shape.verdict != Verdict::kSecure) << where;
  }
  kresd.stop();
}

// The zone a secondary gets is fully signed: every RRset's RRSIGs and an NSEC chain.
TEST_F(OnlineSigningTest, TheTransferredZoneVerifies) {
  auto transfer = run_command({"dig", "@127.0.0.1", "-p", std::to_string(server_->port()), kZone, "AXFR", "+nocmd",
                               "+nostats", "+nocomments", "+time=5", "+tries=1"},
                              20s);
  ASSERT_EQ(transfer.exit_code, 0) << transfer.err;
  std::string file = dir_ + "/online.axfr";
  write_file(file, transfer.out);
  ASSERT_NE(transfer.out.find("\tNSEC\t"), std::string::npos) << transfer.out;
  ASSERT_NE(transfer.out.find("\tRRSIG\t"), std::string::npos) << transfer.out;
  if (have_program("dnssec-verify")) {
    auto verified = run_command({"dnssec-verify", "-o", kZone, file}, 30s);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err << transfer.out;
    EXPECT_NE((verified.out + verified.err).find("Zone fully signed"), std::string::npos) << verified.out << verified.err;
  }
  if (have_program("ldns-verify-zone")) {
    auto verified = run_command({"ldns-verify-zone", file}, 30s);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    EXPECT_NE((verified.out + verified.err).find("Zone is verified and complete"), std::string::npos)
        << verified.out << verified.err;
  }
}

// cutover status names the keys, their states and the window of the signatures made now.
TEST_F(OnlineSigningTest, StatusShowsTheKeysAndTheSigningWindow) {
  std::string control = fmt::format("127.0.0.1:{}", server_->control_port());
  dig(server_->port(), absolute("www"), "A", {"+norec", "+dnssec"});
  auto status = run_command({CUTOVER_BINARY, "status", "--control", control}, 20s);
  ASSERT_EQ(status.exit_code, 0) << status.out << status.err;
  EXPECT_NE(status.out.find("dnssec online.test.  online, denial compact (RFC 9824)"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("key KSK"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("key ZSK"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("active"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("signatures made now: inception"), std::string::npos) << status.out;
}

// `cutover dnssec status --keys` reads the key files as the server does: each key's state, and
// for the KSK the DS that dnssec-dsfromkey computes; exit 0 while a key is active.
TEST_F(OnlineSigningTest, DnssecStatusShowsTheKeyFilesStatesAndTheDs) {
  auto status = run_command({CUTOVER_BINARY, "dnssec", "status", kZone, dir_ + "/online.test.zone", "--keys", dir_ + "/keys"}, 20s);
  EXPECT_EQ(status.exit_code, 0) << status.out << status.err;
  EXPECT_NE(status.out.find("online.test.: signed online with the keys in"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("ZSK"), std::string::npos) << status.out;
  auto ls = run_command({"sh", "-c", "grep -l 'DNSKEY 257' " + dir_ + "/keys/*.key"}, 5s);
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  std::string ksk_file = ls.out.substr(0, ls.out.find('\n'));
  if (have_program("dnssec-dsfromkey")) {
    auto ds = run_command({"dnssec-dsfromkey", "-2", ksk_file}, 10s);
    ASSERT_EQ(ds.exit_code, 0) << ds.err;
    std::string rdata = ds.out.substr(ds.out.find(" DS ") + 4);
    rdata = rdata.substr(0, rdata.find('\n'));
    EXPECT_NE(status.out.find("DS for the parent: online.test. IN DS " + rdata), std::string::npos)
        << status.out << "\n" << ds.out;
  }
  // A signed file is not a zone to sign online: a finding.
  auto signed_file = run_command({CUTOVER_BINARY, "dnssec", "status", "signed-nsec.test.",
                                  std::string(CUTOVER_SOURCE_DIR) + "/tests/zones/signed-nsec.test.zone", "--keys",
                                  dir_ + "/keys"},
                                 20s);
  EXPECT_EQ(signed_file.exit_code, 2) << signed_file.out << signed_file.err;  // no key of that zone in the directory
}

// Secondaries of an online zone (a cutover secondary here) serve the signed copy they transfer;
// the primary raises the serial every refresh / 2 (here 20 s and 10 s: every 5 s), NOTIFY goes
// out, and the secondary transfers again, so its copy always has fresh signatures: its serial
// follows the primary's past the first bumps, and delv validates its positive and negative
// answers (an NSEC chain, as transferred) with the primary's KSK.
TEST(OnlineSigningSecondary, SecondariesFollowTheSerialBumpsAndServeValidSignatures) {
  if (!have_program("dnssec-keygen") || !have_program("delv")) GTEST_SKIP() << "bind9-utils or delv missing";
  std::string dir = make_temp_dir("cutover-online-secondary");
  run_command({"mkdir", "-p", dir + "/keys", dir + "/secondary"}, 5s);
  ASSERT_EQ(run_command({"dnssec-keygen", "-q", "-K", dir + "/keys", "-a", "ED25519", kZone}, 30s).exit_code, 0);
  write_file(dir + "/online.test.zone", kZoneText);
  std::uint16_t secondary_port = free_port();
  write_file(dir + "/primary.yaml",
             fmt::format("writes:\n  journal: {0}/journal.db\n"
                         "zones:\n  - origin: {1}\n    file: {0}/online.test.zone\n    allow-transfer: [127.0.0.1]\n"
                         "    notify: [127.0.0.1:{2}]\n"
                         "    dnssec: {{mode: online, keys: {0}/keys, signature-lifetime: 20s, refresh: 10s}}\n",
                         dir, kZone, secondary_port));
  ServerSpec primary_spec;
  primary_spec.config = dir + "/primary.yaml";
  primary_spec.probe_name = kZone;
  CutoverServer primary(primary_spec);
  write_file(dir + "/secondary/secondary.yaml",
             fmt::format("zones:\n  - origin: {}\n    primary: 127.0.0.1:{}\n", kZone, primary.port()));
  ServerSpec secondary_spec;
  secondary_spec.config = dir + "/secondary/secondary.yaml";
  secondary_spec.probe_name = kZone;
  secondary_spec.port = secondary_port;
  CutoverServer secondary(secondary_spec);
  auto serial = [](std::uint16_t port) {
    auto soa = DigResult::rdatas(dig(port, kZone, "SOA", {"+norec"}).answer, "SOA");
    if (soa.empty()) return -1L;
    std::istringstream fields(soa.front());
    std::string mname, rname;
    long value = -1;
    fields >> mname >> rname >> value;
    return value;
  };
  long first = serial(primary.port());
  ASSERT_GT(first, 0) << primary.log();
  // Two bumps on the primary (5 s apart), and the secondary caught up with the second.
  ASSERT_TRUE(eventually([&] { return serial(primary.port()) >= first + 2 && serial(secondary_port) == serial(primary.port()); },
                         30s))
      << "primary " << serial(primary.port()) << " secondary " << serial(secondary_port) << "\n"
      << primary.log() << secondary.log();
  EXPECT_NE(primary.log().find("dnssec.resign"), std::string::npos) << primary.log();

  std::string anchor;
  for (const auto& rdata : DigResult::rdatas(dig(primary.port(), kZone, "DNSKEY", {"+norec"}).answer, "DNSKEY")) {
    std::istringstream fields(rdata);
    std::string flags, protocol, algorithm, part, key;
    fields >> flags >> protocol >> algorithm;
    while (fields >> part) key += part;
    anchor = fmt::format("trust-anchors {{ \"{}\" static-key {} 3 {} \"{}\"; }};\n", kZone, flags, algorithm, key);
  }
  write_file(dir + "/anchor", anchor);
  for (const auto& [name, needle] : std::vector<std::pair<std::string, std::string>>{
           {"www.online.test.", "; fully validated"}, {"nx.online.test.", "; negative response, fully validated"}}) {
    auto result = run_command({"delv", "@127.0.0.1", "-p", std::to_string(secondary_port), "-a", dir + "/anchor",
                               "+root=" + std::string(kZone), name, "A"},
                              20s);
    EXPECT_NE((result.out + result.err).find(needle), std::string::npos) << name << "\n" << result.out << result.err;
  }
}

// A zone signed online with no key directory to read does not load: the error names the
// directory, and the server does not start serving it unsigned.
TEST(OnlineSigningConfig, MissingKeysStopTheZoneFromLoading) {
  std::string dir = make_temp_dir("cutover-online-bad");
  write_file(dir + "/online.test.zone", kZoneText);
  write_file(dir + "/cutover.yaml", fmt::format("zones:\n  - origin: {}\n    file: {}/online.test.zone\n"
                                                "    dnssec: {{mode: online, keys: {}/nokeys}}\n",
                                                kZone, dir, dir));
  ServerSpec spec;
  spec.config = dir + "/cutover.yaml";
  auto server = CutoverServer::launch(spec);
  auto code = server->wait_for_exit(15s);
  ASSERT_TRUE(code.has_value()) << server->log();
  EXPECT_NE(*code, 0);
  EXPECT_NE(server->log().find(dir + "/nokeys: cannot list the key directory"), std::string::npos) << server->log();
}

}  // namespace
}  // namespace cutover::testing
