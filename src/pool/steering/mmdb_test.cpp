// MaxMind DB networks files: databases written by MaxMind's own writer (testdata/write_mmdb.pl,
// Debian's libmaxmind-db-writer-perl) read into the table steering looks up: IPv4 and IPv6
// networks, the IPv4 aliases read once, field paths and value maps, and errors that name the
// file and say why nothing matched.
#include "pool/steering/mmdb.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace cutover::pool {
namespace {

std::vector<std::uint8_t> address(const char* text) {
  std::vector<std::uint8_t> bytes(16);
  if (::inet_pton(AF_INET, text, bytes.data()) == 1) {
    bytes.resize(4);
  } else {
    EXPECT_EQ(::inet_pton(AF_INET6, text, bytes.data()), 1) << text;
  }
  return bytes;
}

class Mmdb : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mmdb_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `networks` (write_mmdb.pl's input lines) to NAME.mmdb and returns its path.
  std::string write(const std::string& name, const std::string& networks, const std::string& mode = "") const {
    std::string input = (dir_ / (name + ".txt")).string();
    std::ofstream(input) << networks;
    std::string out = (dir_ / (name + ".mmdb")).string();
    std::string command = std::string(CUTOVER_SOURCE_DIR) + "/src/pool/steering/testdata/write_mmdb.pl " + out + " " +
                          mode + " < " + input;
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return out;
  }

  // The region name a client address gets, "-" when no prefix covers it; and its scope.
  static std::string region_of(const base::NetworkTable& table, const char* client, unsigned* scope = nullptr) {
    auto match = table.lookup(address(client));
    if (scope != nullptr) *scope = match.scope;
    return match.found ? kRegions.at(match.value).name : "-";
  }

  static inline const std::vector<RegionSpec> kRegions = default_region_orders({"eu", "us", "ap"});
  std::filesystem::path dir_;
};

constexpr const char* kWorld =
    "# prefix           country continent asn\n"
    "127.0.0.185/32     DE      EU        64500\n"
    "127.0.0.186/32     US      NA        64501\n"
    "198.51.100.0/24    US      NA\n"
    "203.0.113.0/25     FR      EU\n"
    "203.0.113.128/25   BR      SA\n"
    "2001:db8:1::/48    FR      EU\n"
    "2001:db8:2::/48    JP      AS\n"
    "2001:db8:3::/48    -       -         64502\n";

TEST_F(Mmdb, CountryCodesThroughAMapGiveRegionsAndScopes) {
  MmdbNetworks source{write("world", kWorld), {"country", "iso_code"}, {{"DE", "eu"}, {"FR", "eu"}, {"US", "us"}, {"JP", "ap"}}};
  MmdbSummary summary;
  auto table = load_mmdb_networks(source, kRegions, &summary);
  ASSERT_TRUE(table) << table.error().message;
  unsigned scope = 0;
  EXPECT_EQ(region_of(*table, "127.0.0.185", &scope), "eu");
  EXPECT_EQ(scope, 32u);
  EXPECT_EQ(region_of(*table, "127.0.0.186"), "us");
  EXPECT_EQ(region_of(*table, "198.51.100.77", &scope), "us");
  EXPECT_EQ(scope, 24u);  // a resolver may cache this answer for the whole /24 (RFC 7871 §7.2.1)
  EXPECT_EQ(region_of(*table, "203.0.113.5", &scope), "eu");
  EXPECT_EQ(scope, 25u);
  EXPECT_EQ(region_of(*table, "203.0.113.200"), "-");  // BR maps to no region: the default region's
  EXPECT_EQ(region_of(*table, "192.0.2.1"), "-");      // in no network of the database
  EXPECT_EQ(region_of(*table, "2001:db8:1::99", &scope), "eu");
  EXPECT_EQ(scope, 48u);
  EXPECT_EQ(region_of(*table, "2001:db8:2:ffff::1"), "ap");
  EXPECT_EQ(region_of(*table, "2001:db8:3::1"), "-");  // no country at all
  EXPECT_EQ(region_of(*table, "::ffff:198.51.100.1"), "us");  // IPv4-mapped: looked up as IPv4
  // Eight networks in the file; MaxMind's aliases of the IPv4 tree (::ffff:0:0/96, 2002::/16)
  // are not read again as IPv6 networks.
  EXPECT_EQ(summary.networks, 8u);
  EXPECT_EQ(summary.mapped, 6u);
  EXPECT_EQ(table->size(), 6u);
}

TEST_F(Mmdb, AnotherFieldAndValuesThatNameTheirRegionDirectly) {
  std::string path = write("world", kWorld);
  // Continent codes as region names, no map.
  std::vector<RegionSpec> continents = default_region_orders({"EU", "NA", "AS"});
  auto table = load_mmdb_networks(MmdbNetworks{path, {"continent", "code"}, {}}, continents);
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(table->lookup(address("203.0.113.1")).value, 0u);   // EU
  EXPECT_EQ(table->lookup(address("127.0.0.186")).value, 1u);   // NA
  EXPECT_EQ(table->lookup(address("2001:db8:2::1")).value, 2u); // AS
  EXPECT_FALSE(table->lookup(address("203.0.113.129")).found);  // SA: no such region
  // A number (an ASN database's autonomous_system_number) maps as its decimal text.
  auto by_asn = load_mmdb_networks(MmdbNetworks{path, {"autonomous_system_number"}, {{"64500", "eu"}, {"64502", "ap"}}}, kRegions);
  ASSERT_TRUE(by_asn) << by_asn.error().message;
  EXPECT_EQ(region_of(*by_asn, "127.0.0.185"), "eu");
  EXPECT_EQ(region_of(*by_asn, "2001:db8:3::7"), "ap");
  EXPECT_EQ(by_asn->size(), 2u);
}

TEST_F(Mmdb, AnIpv4OnlyDatabaseReadsAsIpv4) {
  std::string path = write("v4", "127.0.0.0/30 DE EU\n10.0.0.0/8 US NA\n", "ipv4-only");
  auto table = load_mmdb_networks(MmdbNetworks{path, {"country", "iso_code"}, {{"DE", "eu"}, {"US", "us"}}}, kRegions);
  ASSERT_TRUE(table) << table.error().message;
  unsigned scope = 0;
  EXPECT_EQ(region_of(*table, "127.0.0.3", &scope), "eu");
  EXPECT_EQ(scope, 30u);
  EXPECT_EQ(region_of(*table, "10.200.1.1"), "us");
  EXPECT_EQ(table->size(), 2u);
}

// Neighbouring networks whose values map to one region become one prefix of the table, so the
// scope sent back is the shortest the regions allow: DE and FR side by side are one eu /24.
TEST_F(Mmdb, NeighboursOfOneRegionShareAPrefix) {
  std::string path = write("neighbours", "10.0.0.0/25 DE EU\n10.0.0.128/26 FR EU\n10.0.0.192/26 NL EU\n10.0.1.0/24 US NA\n");
  MmdbSummary summary;
  auto table = load_mmdb_networks(MmdbNetworks{path, {"country", "iso_code"}, {{"DE", "eu"}, {"FR", "eu"}, {"NL", "eu"}, {"US", "us"}}},
                                  kRegions, &summary);
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(summary.networks, 4u);
  EXPECT_EQ(summary.mapped, 4u);
  EXPECT_EQ(table->size(), 2u);  // 10.0.0.0/24 eu, 10.0.1.0/24 us
  unsigned scope = 0;
  EXPECT_EQ(region_of(*table, "10.0.0.200", &scope), "eu");
  EXPECT_EQ(scope, 24u);
  EXPECT_EQ(region_of(*table, "10.0.1.9", &scope), "us");
  EXPECT_EQ(scope, 24u);
  // Mapped apart, they stay apart.
  auto apart = load_mmdb_networks(MmdbNetworks{path, {"country", "iso_code"}, {{"DE", "eu"}, {"FR", "ap"}, {"NL", "eu"}}}, kRegions);
  ASSERT_TRUE(apart);
  EXPECT_EQ(apart->size(), 3u);
  EXPECT_EQ(region_of(*apart, "10.0.0.130", &scope), "ap");
  EXPECT_EQ(scope, 26u);
}

// Whole address spaces in one record: every IPv4 client in one network of an IPv6 database,
// and the whole IPv6 tree.
TEST_F(Mmdb, WholeSpacesInOneRecord) {
  MmdbNetworks source{write("all-v4", "0.0.0.0/0 US NA\n"), {"country", "iso_code"}, {{"US", "us"}, {"DE", "eu"}}};
  auto v4 = load_mmdb_networks(source, kRegions);
  ASSERT_TRUE(v4) << v4.error().message;
  unsigned scope = 99;
  EXPECT_EQ(region_of(*v4, "198.51.100.1", &scope), "us");
  EXPECT_EQ(scope, 0u);
  EXPECT_EQ(region_of(*v4, "2001:db8::1"), "-");
  source.path = write("all", "::/0 DE EU\n");
  auto all = load_mmdb_networks(source, kRegions);
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(region_of(*all, "2001:db8::1"), "eu");
  EXPECT_EQ(region_of(*all, "192.0.2.1"), "eu");  // ::/96 holds the IPv4 clients
}

TEST_F(Mmdb, ErrorsNameTheFileAndSayWhy) {
  std::string path = write("world", kWorld);
  // A field no record has, and values that name no region: nothing would ever be steered.
  auto wrong_field = load_mmdb_networks(MmdbNetworks{path, {"country", "names", "en"}, {}}, kRegions);
  ASSERT_FALSE(wrong_field);
  EXPECT_EQ(wrong_field.error().message,
            path + ": no network's country.names.en maps to a region of the pool (8 networks read; no record has it)");
  auto unnamed = load_mmdb_networks(MmdbNetworks{path, {"country", "iso_code"}, {}}, kRegions);
  ASSERT_FALSE(unnamed);
  EXPECT_NE(unnamed.error().message.find("values like 'DE' name no region"), std::string::npos) << unnamed.error().message;

  std::string text = (dir_ / "plain.txt").string();
  std::ofstream(text) << "127.0.0.1 eu\n";
  auto not_mmdb = load_mmdb_networks(MmdbNetworks{text, {"country", "iso_code"}, {}}, kRegions);
  ASSERT_FALSE(not_mmdb);
  EXPECT_EQ(not_mmdb.error().message.rfind(text + ": cannot read it as a MaxMind DB: ", 0), 0u) << not_mmdb.error().message;
  auto missing = load_mmdb_networks(MmdbNetworks{(dir_ / "none.mmdb").string(), {"country", "iso_code"}, {}}, kRegions);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("none.mmdb: cannot read it as a MaxMind DB"), std::string::npos);

  // A database cut short (a copy interrupted mid-way) is refused, never half read.
  std::string cut = (dir_ / "cut.mmdb").string();
  std::filesystem::copy_file(path, cut);
  std::filesystem::resize_file(cut, std::filesystem::file_size(path) / 2);
  EXPECT_FALSE(load_mmdb_networks(MmdbNetworks{cut, {"country", "iso_code"}, {}}, kRegions));
}

TEST(MmdbField, DottedPathsSplitIntoMapKeys) {
  EXPECT_EQ(*parse_mmdb_field("country.iso_code"), (std::vector<std::string>{"country", "iso_code"}));
  EXPECT_EQ(*parse_mmdb_field("autonomous_system_number"), (std::vector<std::string>{"autonomous_system_number"}));
  EXPECT_FALSE(parse_mmdb_field(""));
  EXPECT_FALSE(parse_mmdb_field("country..iso_code"));
  EXPECT_FALSE(parse_mmdb_field("country."));
}

}  // namespace
}  // namespace cutover::pool
