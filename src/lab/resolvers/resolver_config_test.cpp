// Unit tests: the config each resolver adapter writes for the lab's cache settings, and the
// settings each reports as not supported.
#include <gtest/gtest.h>

#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

ResolverConfig stub(CacheSettings cache = {}) {
  return {cache, {Upstream::Kind::kStub, "cutover-lab.", "127.0.0.1", 5353}};
}

std::string config_text(const std::string& resolver, const ResolverConfig& config) {
  auto adapter = make_resolver(resolver);
  LaunchPlan plan = adapter->plan("/tmp/x", 6000, config);
  std::string text;
  for (const auto& [file, content] : plan.files) text += content;
  return text;
}

TEST(ResolverConfig, LabelsNameTheKnobs) {
  EXPECT_EQ(CacheSettings{}.label(), "default");
  EXPECT_EQ(CacheSettings{.ttl_floor = 15}.label(), "floor15");
  EXPECT_EQ((CacheSettings{.ttl_cap = 8, .stale_window = 15}.label()), "cap8-stale15");
}

TEST(ResolverConfig, UnboundStubAndKnobs) {
  std::string text = config_text("unbound", stub({.ttl_floor = 15, .ttl_cap = 8, .negative_cap = 3, .stale_window = 15}));
  for (const char* line : {"port: 6000", "do-not-query-localhost: no", "module-config: \"iterator\"",
                           "qname-minimisation: no", "prefetch: no", "cache-min-ttl: 15", "cache-max-ttl: 8",
                           "cache-max-negative-ttl: 3", "serve-expired: yes", "serve-expired-ttl: 15",
                           "name: \"cutover-lab.\"", "stub-addr: 127.0.0.1@5353"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(config_text("unbound", stub()).find("cache-min-ttl"), std::string::npos);
}

TEST(ResolverConfig, BindUsesTheGlobalPortForStubs) {
  std::string text = config_text("bind", stub({.ttl_floor = 15, .negative_cap = 3, .stale_window = 15}));
  for (const char* line : {"listen-on port 6000", "port 5353;", "dnssec-validation no;", "qname-minimization off;",
                           "prefetch 0;", "min-cache-ttl 15;", "max-ncache-ttl 3;", "max-stale-ttl 15;",
                           "type static-stub; server-addresses { 127.0.0.1; }",
                           "controls { inet 127.0.0.1 port ", "keys { \"lab-rndc\"; }", "algorithm hmac-sha256;"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

TEST(ResolverConfig, BindRootHintsHasNoOutgoingPort) {
  ResolverConfig config{{}, {Upstream::Kind::kRootHints, "", "127.53.0.1", 53}};
  std::string text = config_text("bind", config);
  EXPECT_EQ(text.find("  port "), std::string::npos);
  EXPECT_NE(text.find("type hint"), std::string::npos);
  EXPECT_NE(text.find("a.root-servers.lab. 3600000 IN A 127.53.0.1"), std::string::npos);
}

// E14: a trust anchor turns each resolver's validator on with the lab root's DS as its only
// anchor; without one, validation stays off.
TEST(ResolverConfig, ATrustAnchorTurnsValidationOnWithOnlyThatAnchor) {
  ResolverConfig config{{}, {Upstream::Kind::kRootHints, "", "127.53.0.1", 53}};
  config.trust_anchor = "12345 13 2 ABCDEF0123";
  std::string unbound = config_text("unbound", config);
  EXPECT_NE(unbound.find("module-config: \"validator iterator\""), std::string::npos);
  EXPECT_NE(unbound.find("trust-anchor: \". DS 12345 13 2 ABCDEF0123\""), std::string::npos);
  std::string bind = config_text("bind", config);
  EXPECT_NE(bind.find("dnssec-validation yes;"), std::string::npos);
  EXPECT_NE(bind.find("trust-anchors { \".\" static-ds 12345 13 2 \"ABCDEF0123\"; };"), std::string::npos);
  std::string kresd = config_text("kresd", config);
  EXPECT_LT(kresd.find("trust_anchors.remove('.')"), kresd.find("trust_anchors.add('. DS 12345 13 2 ABCDEF0123')"));
  EXPECT_NE(kresd.find("trust_anchors.add("), std::string::npos);
  std::string pdns = config_text("pdns-recursor", config);
  EXPECT_NE(pdns.find("dnssec=validate"), std::string::npos);
  EXPECT_NE(pdns.find("lua-config-file=/tmp/x/recursor.lua"), std::string::npos);
  EXPECT_NE(pdns.find("clearTA('.')\naddTA('.', \"12345 13 2 ABCDEF0123\")"), std::string::npos);
  EXPECT_FALSE(make_resolver("dnsmasq")->unsupported(config).empty());
  config.trust_anchor.clear();
  EXPECT_NE(config_text("unbound", config).find("module-config: \"iterator\""), std::string::npos);
  EXPECT_NE(config_text("bind", config).find("dnssec-validation no;"), std::string::npos);
  EXPECT_NE(config_text("pdns-recursor", config).find("dnssec=off"), std::string::npos);
  EXPECT_EQ(config_text("kresd", config).find("trust_anchors.add("), std::string::npos);
}

// The PowerDNS Recursor will not start when its control socket's path does not fit in
// sun_path: a deep instance directory gets a short socket directory under /tmp instead.
TEST(ResolverConfig, PdnsRecursorKeepsItsControlSocketPathShort) {
  auto adapter = make_resolver("pdns-recursor");
  auto socket_dir_of = [&](const std::string& dir) {
    for (const auto& [file, content] : adapter->plan(dir, 6000, stub()).files) {
      auto at = content.find("socket-dir=");
      if (at != std::string::npos) return content.substr(at + 11, content.find('\n', at) - at - 11);
    }
    return std::string();
  };
  EXPECT_EQ(socket_dir_of("/tmp/x"), "/tmp/x");
  std::string deep = "/tmp/" + std::string(90, 'd');
  std::string short_dir = socket_dir_of(deep);
  EXPECT_EQ(short_dir.rfind("/tmp/cutover-rec-", 0), 0u) << short_dir;
  EXPECT_LT(short_dir.size() + 28, 108u);
  EXPECT_EQ(socket_dir_of(deep), short_dir);  // the same for introspect() later
}

TEST(ResolverConfig, KresdStubAndStaleWindow) {
  std::string text = config_text("kresd", stub({.ttl_cap = 8, .stale_window = 15}));
  EXPECT_NE(text.find("net.listen('127.0.0.1', 6000"), std::string::npos);
  EXPECT_NE(text.find("policy.STUB({'127.0.0.1@5353'})"), std::string::npos);
  EXPECT_NE(text.find("cache.max_ttl(8)"), std::string::npos);
  EXPECT_NE(text.find("ttl + 15 > 0"), std::string::npos);
  EXPECT_NE(text.find("NO_MINIMIZE"), std::string::npos);
}

TEST(ResolverConfig, PdnsRecursorForwardZone) {
  std::string text = config_text("pdns-recursor", stub({.ttl_floor = 15, .negative_cap = 3}));
  for (const char* line : {"local-port=6000", "forward-zones=cutover-lab.=127.0.0.1:5353", "dnssec=off",
                           "qname-minimization=no", "minimum-ttl-override=15", "max-negative-ttl=3", "dont-query=\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

TEST(ResolverConfig, DnsmasqServerLine) {
  std::string text = config_text("dnsmasq", stub({.ttl_floor = 15, .stale_window = 15}));
  EXPECT_NE(text.find("server=/cutover-lab/127.0.0.1#5353"), std::string::npos);
  EXPECT_NE(text.find("min-cache-ttl=15"), std::string::npos);
  EXPECT_NE(text.find("use-stale-cache=15"), std::string::npos);
}

TEST(ResolverConfig, UnsupportedSettingsSayWhy) {
  EXPECT_FALSE(make_resolver("kresd")->unsupported(stub({.negative_cap = 3})).empty());
  EXPECT_FALSE(make_resolver("dnsmasq")->unsupported(stub({.negative_cap = 3})).empty());
  EXPECT_FALSE(make_resolver("pdns-recursor")->unsupported(stub({.stale_window = 15})).empty());
  EXPECT_TRUE(make_resolver("pdns-recursor")->unsupported(stub({.stale_window = 30})).empty());
  ResolverConfig roots{{}, {Upstream::Kind::kRootHints, "", "127.53.0.1", 53}};
  EXPECT_FALSE(make_resolver("dnsmasq")->unsupported(roots).empty());
  EXPECT_TRUE(make_resolver("unbound")->unsupported(roots).empty());
  auto external = make_resolver("external:127.0.0.1:5300");
  ASSERT_NE(external, nullptr);
  EXPECT_TRUE(external->external());
  EXPECT_EQ(external->external_port(), 5300);
  EXPECT_TRUE(external->unsupported(stub()).empty());
  EXPECT_FALSE(external->unsupported(stub({.ttl_cap = 8})).empty());
  EXPECT_EQ(make_resolver("coredns"), nullptr);
}

TEST(ResolverConfig, EachKindParsesItsOwnOptions) {
  EXPECT_EQ(builtin_resolver_names(), (std::vector<std::string>{"unbound", "bind", "kresd", "pdns-recursor", "dnsmasq"}));
  EXPECT_EQ(make_resolver("pdns-recursor")->name(), "pdns-recursor");
  EXPECT_EQ(make_resolver("unbound:"), nullptr);      // unbound takes no options
  EXPECT_EQ(make_resolver("unbound:x"), nullptr);
  EXPECT_EQ(make_resolver("external"), nullptr);      // external needs its ADDR:PORT
  EXPECT_EQ(make_resolver("external:"), nullptr);
  EXPECT_EQ(make_resolver("external:nowhere"), nullptr);
  EXPECT_EQ(make_resolver("external:[::1]:5300")->external_port(), 5300);
}

TEST(ResolverOptions, ParsedAsAdapterAndLine) {
  auto option = parse_resolver_option("unbound:cache-max-ttl: 3");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->first, "unbound");
  EXPECT_EQ(option->second, "cache-max-ttl: 3");  // only the first colon separates
  EXPECT_EQ(parse_resolver_option("bind:stale-answer-client-timeout 0;")->second, "stale-answer-client-timeout 0;");
  EXPECT_FALSE(parse_resolver_option("coredns:cache 3"));
  EXPECT_FALSE(parse_resolver_option("external:x"));  // the lab does not configure it
  EXPECT_FALSE(parse_resolver_option("unbound:"));
  EXPECT_FALSE(parse_resolver_option("unbound"));
}

TEST(ResolverOptions, EachAdapterPlacesItsLinesInItsOwnSyntax) {
  auto with = [](std::vector<std::string> lines) {
    ResolverConfig config = stub();
    config.extra_lines = std::move(lines);
    return config;
  };
  std::string unbound = config_text("unbound", with({"cache-max-ttl: 3"}));
  // A server: line, before the stub-zone clause.
  EXPECT_LT(unbound.find("  cache-max-ttl: 3\n"), unbound.find("stub-zone:"));
  std::string bind = config_text("bind", with({"servfail-ttl 3;"}));
  EXPECT_LT(bind.find("  servfail-ttl 3;\n"), bind.find("};\ncontrols"));  // inside options { }
  EXPECT_NE(config_text("kresd", with({"cache.max_ttl(3)"})).find("\ncache.max_ttl(3)\n"), std::string::npos);
  EXPECT_NE(config_text("pdns-recursor", with({"max-cache-ttl=3"})).find("\nmax-cache-ttl=3\n"), std::string::npos);
  EXPECT_NE(config_text("dnsmasq", with({"max-cache-ttl=3"})).find("\nmax-cache-ttl=3\n"), std::string::npos);
  EXPECT_FALSE(make_resolver("external:127.0.0.1:5300")->unsupported(with({"x"})).empty());
}

TEST(ResolverPackages, EachAdapterNamesItsDebianPackage) {
  EXPECT_EQ(make_resolver("unbound")->package(), "unbound");
  EXPECT_EQ(make_resolver("bind")->package(), "bind9");
  EXPECT_EQ(make_resolver("kresd")->package(), "knot-resolver");
  EXPECT_EQ(make_resolver("pdns-recursor")->package(), "pdns-recursor");
  EXPECT_EQ(make_resolver("dnsmasq")->package(), "dnsmasq-base");
  EXPECT_EQ(make_resolver("external:127.0.0.1:5300")->package_version().rfind("not available: ", 0), 0u);
}

TEST(ResolverPackages, AnUnknownPackageIsNotAvailableWithDpkgsReason) {
  std::string version = debian_package_version("cutover-no-such-package");
  EXPECT_EQ(version.rfind("not available: ", 0), 0u) << version;
  EXPECT_NE(version.find("cutover-no-such-package"), std::string::npos) << version;
  // dpkg itself is always installed on Debian: its version is a full Debian version.
  std::string dpkg = debian_package_version("dpkg");
  EXPECT_EQ(dpkg.find("not available"), std::string::npos) << dpkg;
  EXPECT_NE(dpkg.find('.'), std::string::npos) << dpkg;
}

TEST(ResolverRegistry, UsageNamesEveryAdapterFromTheTable) {
  // cmd/lab.cpp's help and errors come from here, so a new adapter appears in them.
  EXPECT_EQ(resolver_usage(), "unbound,bind,kresd,pdns-recursor,dnsmasq,external:ADDR:PORT");
  EXPECT_EQ(builtin_resolver_names(), (std::vector<std::string>{"unbound", "bind", "kresd", "pdns-recursor", "dnsmasq"}));
}

}  // namespace
}  // namespace cutover::lab
