// Pre-signed zones served by `cutover serve`, judged by real validators rather than by our
// own code (docs/dnssec.md): BIND's `delv`, Unbound and Knot Resolver, each with the zone's own KSK as its
// trust anchor, resolve every answer shape (positive, NODATA, NXDOMAIN, wildcard answer and
// NODATA, empty non-terminal, CNAME, DNAME, DS of secure and insecure delegations) through
// cutover as the authority and must call it secure. The zones are tests/zones/signed-*.test.zone
// (NSEC, NSEC3 with salt and iterations, NSEC3 opt-out), made by
// tests/fixtures/make_signed_zones.sh. Everything runs on 127.0.0.1: Unbound's root is a stub
// pointing at cutover too, and Knot Resolver refuses every name but the three zones, so no
// query can leave the machine.
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/dig.h"
#include "dnssec/signed_zones.h"
#include "support/process.h"
#include "support/server.h"
#include "support/unbound.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string>& kZones = kSignedZones;

enum class Verdict { kSecure, kSecureNoData, kSecureNxDomain, kInsecure };
enum class Validator { kDelv, kResolver };

struct Shape {
  std::string name;  // relative to the zone; "@" for the apex
  std::string type;
  Verdict verdict;  // in the NSEC and NSEC3 zones, by every validator
  // In the opt-out zone the proof rests on an NSEC3 with the opt-out flag that covers the
  // next closer name, which cannot rule out an unsigned delegation there (RFC 5155 §9.2):
  // Unbound and Knot Resolver call every such answer insecure, BIND's delv only a wildcard
  // answer (its negative answers stay secure).
  bool optout_cover = false;
  // Answered through a DNAME: delv shows (and validates) the DNAME alone, a resolver follows it.
  bool dname = false;
};

const std::vector<Shape> kShapes = {
    {"www", "A", Verdict::kSecure},
    {"@", "MX", Verdict::kSecure},
    {"@", "DNSKEY", Verdict::kSecure},
    {"txt", "TXT", Verdict::kSecure},
    {"www", "MX", Verdict::kSecureNoData},
    {"nx", "A", Verdict::kSecureNxDomain, true},
    {"a.b.nx", "AAAA", Verdict::kSecureNxDomain, true},
    {"a.wild", "A", Verdict::kSecure, true},
    {"x.y.wild", "TXT", Verdict::kSecure, true},
    {"a.wild", "MX", Verdict::kSecureNoData, true},
    {"deep.ent", "A", Verdict::kSecureNoData},
    {"ent", "TXT", Verdict::kSecureNoData},
    {"alias", "A", Verdict::kSecure},
    {"wcname.wild", "A", Verdict::kSecure},
    {"www.old", "A", Verdict::kSecure, false, true},
    {"x.old", "A", Verdict::kSecureNxDomain, true, true},
    {"secure", "DS", Verdict::kSecure},
    {"insecure", "DS", Verdict::kSecureNoData, true},
};

std::string verdict_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSecure: return "secure";
    case Verdict::kSecureNoData: return "secure NODATA";
    case Verdict::kSecureNxDomain: return "secure NXDOMAIN";
    case Verdict::kInsecure: return "insecure";
  }
  return "?";
}

std::string absolute(const Shape& shape, const std::string& zone) {
  return shape.name == "@" ? zone : shape.name + "." + zone;
}

Verdict expected(const Shape& shape, const std::string& zone, Validator validator) {
  if (validator == Validator::kDelv && shape.dname) return Verdict::kSecure;
  if (zone != "signed-optout.test." || !shape.optout_cover) return shape.verdict;
  if (validator == Validator::kResolver || shape.verdict == Verdict::kSecure) return Verdict::kInsecure;
  return shape.verdict;
}
// Asks the validating resolver on `port` every shape in every zone: the rcode, the answer and
// the AD flag (set exactly where the verdict is secure).
void expect_resolver_validates(std::uint16_t port, const std::function<std::string()>& resolver_log) {
  for (const auto& zone : kZones) {
    for (const auto& shape : kShapes) {
      std::string name = absolute(shape, zone);
      auto reply = dig(port, name, shape.type, {"+dnssec", "+rec", "+time=5"});
      Verdict want = expected(shape, zone, Validator::kResolver);
      std::string where = fmt::format("{} {}: want {}\n{}", name, shape.type, verdict_text(want), reply.raw);
      ASSERT_FALSE(reply.no_reply) << where << resolver_log();
      EXPECT_EQ(reply.status, shape.verdict == Verdict::kSecureNxDomain ? "NXDOMAIN" : "NOERROR") << where;
      EXPECT_EQ(reply.has_flag("ad"), want != Verdict::kInsecure) << where;
      if (want == Verdict::kSecure) {
        EXPECT_FALSE(reply.answer.empty()) << where;
      }
      if (shape.verdict == Verdict::kSecureNoData) {
        bool answered = std::any_of(reply.answer.begin(), reply.answer.end(),
                                    [&](const DigRecord& record) { return record.type == shape.type; });
        EXPECT_FALSE(answered) << where;
      }
    }
  }
}

class ValidationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A config rather than --zone: each zone may be transferred to 127.0.0.1 (the AXFR test).
    std::string dir = make_temp_dir("cutover-dnssec-serve");
    std::string config = "zones:\n";
    for (const auto& zone : kZones) {
      config += fmt::format("  - origin: {}\n    file: {}\n    allow-transfer: [127.0.0.1]\n", zone,
                            signed_zone_file(zone));
    }
    write_file(dir + "/cutover.yaml", config);
    ServerSpec spec;
    spec.config = dir + "/cutover.yaml";
    spec.probe_name = kZones.front();
    server_ = std::make_unique<CutoverServer>(spec);
    // Each zone's KSK (DNSKEY flags 257) as cutover serves it: the trust anchor.
    for (const auto& zone : kZones) {
      auto keys = dig(server_->port(), zone, "DNSKEY", {"+norec"});
      for (const auto& rdata : DigResult::rdatas(keys.answer, "DNSKEY")) {
        std::istringstream fields(rdata);
        std::string flags, protocol, algorithm, part, key;
        fields >> flags >> protocol >> algorithm;
        while (fields >> part) key += part;
        if (flags == "257") ksks_.push_back({zone, algorithm, key});
      }
    }
  }
  static void TearDownTestSuite() { server_.reset(); }

  struct Ksk {
    std::string zone, algorithm, key;
  };
  static inline std::unique_ptr<CutoverServer> server_;
  static inline std::vector<Ksk> ksks_;
};

TEST_F(ValidationTest, EveryZoneHasOneKsk) { ASSERT_EQ(ksks_.size(), kZones.size()); }

// delv does its own validation with the given trust anchor, asking cutover directly.
TEST_F(ValidationTest, DelvValidatesEveryShape) {
  if (!have_program("delv")) GTEST_SKIP() << "delv (bind9-dnsutils) is not installed";
  std::string dir = make_temp_dir("cutover-delv");
  for (const auto& ksk : ksks_) {
    std::string anchors = dir + "/" + ksk.zone + "anchor";
    write_file(anchors, fmt::format("trust-anchors {{ \"{}\" static-key 257 3 {} \"{}\"; }};\n", ksk.zone,
                                    ksk.algorithm, ksk.key));
    for (const auto& shape : kShapes) {
      auto result = run_command({"delv", "@127.0.0.1", "-p", std::to_string(server_->port()), "-a", anchors,
                                 "+root=" + ksk.zone, absolute(shape, ksk.zone), shape.type},
                                20s);
      std::string output = result.out + result.err;
      Verdict want = expected(shape, ksk.zone, Validator::kDelv);
      std::string needle = want == Verdict::kSecure           ? "; fully validated"
                           : want == Verdict::kInsecure       ? "; unsigned answer"
                                                              : "; negative response, fully validated";
      EXPECT_NE(output.find(needle), std::string::npos)
          << absolute(shape, ksk.zone) << " " << shape.type << ": want " << verdict_text(want) << "\n" << output;
      if (want == Verdict::kSecureNxDomain) {
        EXPECT_NE(output.find("nxdomain"), std::string::npos) << output;
      }
      if (want == Verdict::kSecureNoData) {
        EXPECT_NE(output.find("nxrrset"), std::string::npos) << output;
      }
    }
  }
}

// Unbound as a validating resolver with cutover as the authority of the three zones: every
// answer has the AD flag (or, where the zone cannot prove it, not) and the right rcode.
TEST_F(ValidationTest, UnboundValidatesEveryShape) {
  if (!have_program("unbound")) GTEST_SKIP() << "unbound is not installed";
  std::string options = "  module-config: \"validator iterator\"\n  val-log-level: 2\n  verbosity: 1\n";
  for (const auto& ksk : ksks_) {
    options += fmt::format("  trust-anchor: \"{} DNSKEY 257 3 {} {}\"\n", ksk.zone, ksk.algorithm, ksk.key);
  }
  // The root too is a stub at cutover (which refuses it): nothing is asked beyond loopback.
  std::vector<std::pair<std::string, std::uint16_t>> stubs = {{".", server_->port()}};
  for (const auto& zone : kZones) stubs.emplace_back(zone, server_->port());
  UnboundResolver unbound(make_temp_dir("cutover-unbound-dnssec"), stubs, options);
  ASSERT_TRUE(unbound.ready()) << unbound.log();
  expect_resolver_validates(unbound.port(), [&] { return unbound.log(); });
}

// The zone as a secondary gets it (AXFR) is a whole, valid signed zone: BIND's dnssec-verify
// and ldns-verify-zone check every signature and the NSEC/NSEC3 chain.
TEST_F(ValidationTest, TheTransferredZoneVerifies) {
  std::string dir = make_temp_dir("cutover-dnssec-axfr");
  for (const auto& zone : kZones) {
    auto transfer = run_command({"dig", "@127.0.0.1", "-p", std::to_string(server_->port()), zone, "AXFR", "+nocmd",
                                 "+nostats", "+nocomments", "+time=5", "+tries=1"},
                                20s);
    ASSERT_EQ(transfer.exit_code, 0) << transfer.err;
    std::string file = dir + "/" + zone + "axfr";
    write_file(file, transfer.out);
    ASSERT_NE(transfer.out.find("NSEC"), std::string::npos) << transfer.out;
    if (have_program("dnssec-verify")) {
      auto verified = run_command({"dnssec-verify", "-o", zone, file}, 30s);
      EXPECT_EQ(verified.exit_code, 0) << zone << "\n" << verified.out << verified.err;
      EXPECT_NE((verified.out + verified.err).find("Zone fully signed"), std::string::npos)
          << verified.out << verified.err;
    }
    if (have_program("ldns-verify-zone")) {
      auto verified = run_command({"ldns-verify-zone", file}, 30s);
      EXPECT_EQ(verified.exit_code, 0) << zone << "\n" << verified.out << verified.err;
      EXPECT_NE((verified.out + verified.err).find("Zone is verified and complete"), std::string::npos)
          << verified.out << verified.err;
    }
  }
}

// Knot Resolver forwarding the three zones to cutover (policy.FORWARD validates; STUB would
// not), with the KSKs as trust anchors and the root's removed; everything else is refused.
TEST_F(ValidationTest, KnotResolverValidatesEveryShape) {
  if (!have_program("kresd")) GTEST_SKIP() << "kresd (knot-resolver) is not installed";
  std::string dir = make_temp_dir("cutover-kresd-dnssec");
  std::uint16_t port = free_port();
  std::string conf = fmt::format(
      "net.listen('127.0.0.1', {}, {{ kind = 'dns' }})\n"
      "pcall(function() trust_anchors.remove('.') end)\n"
      "cache.open(16 * MB, 'lmdb://{}/cache')\n"
      "policy.add(policy.all(policy.FLAGS({{'ALLOW_LOCAL'}})))\n",
      port, dir);
  std::string zones;
  for (const auto& ksk : ksks_) {
    conf += fmt::format("trust_anchors.add('{} DNSKEY 257 3 {} {}')\n", ksk.zone, ksk.algorithm, ksk.key);
  }
  for (const auto& zone : kZones) zones += (zones.empty() ? "" : ", ") + fmt::format("todname('{}')", zone);
  conf += fmt::format("policy.add(policy.suffix(policy.FORWARD({{'127.0.0.1@{}'}}), {{{}}}))\n", server_->port(),
                      zones);
  conf += "policy.add(policy.all(policy.DENY))\n";
  write_file(dir + "/kresd.conf", conf);
  ChildProcess kresd({"kresd", "-n", "-c", dir + "/kresd.conf", dir}, dir + "/kresd.log");
  ASSERT_TRUE(eventually([&] { return !dig(port, kZones.front(), "SOA").no_reply || !kresd.running(); }, 15s))
      << kresd.log();
  ASSERT_TRUE(kresd.running()) << kresd.log();
  expect_resolver_validates(port, [&] { return kresd.log(); });
  kresd.stop();
}

}  // namespace
}  // namespace cutover::testing
