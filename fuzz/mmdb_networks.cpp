// libFuzzer target: MaxMind DB networks files (pool/steering/mmdb.*, docs/steering.md) on
// arbitrary bytes: libmaxminddb opens the file, our walk reads its search tree (node numbers,
// cycles, depth past the address, records of unknown type) and each data record's field.
// Checks: a load either fails with a message naming the file or gives a table of exactly the
// networks it says it mapped or fewer (neighbours merged), whose lookups name a region the pool has.
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_check.h"
#include "pool/steering/mmdb.h"

namespace {

using cutover::fuzz::check;
namespace pool = cutover::pool;

const std::vector<pool::RegionSpec>& regions() {
  static const auto list = pool::default_region_orders({"eu", "us", "EU", "NA"});
  return list;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // libmaxminddb opens a path: one scratch file per process, rewritten per input.
  static const std::string path = "/tmp/fuzz_mmdb_networks." + std::to_string(::getpid()) + ".mmdb";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return 0;
  std::fwrite(data, 1, size, file);
  std::fclose(file);

  // The seeds' field (testdata/write_mmdb.pl), both with a map and naming regions directly.
  for (bool mapped : {true, false}) {
    pool::MmdbNetworks source;
    source.path = path;
    source.field = mapped ? std::vector<std::string>{"country", "iso_code"} : std::vector<std::string>{"continent", "code"};
    if (mapped) source.map = {{"DE", "eu"}, {"FR", "eu"}, {"US", "us"}};
    pool::MmdbSummary summary;
    auto table = pool::load_mmdb_networks(source, regions(), &summary);
    if (!table) {
      check(table.error().message.rfind(path + ": ", 0) == 0, "an mmdb error names its file");
      continue;
    }
    check(summary.mapped > 0 && summary.mapped <= summary.networks, "a loaded table maps some networks");
    // Neighbours of one region share a prefix, so the table holds at most the mapped networks.
    check(table->size() > 0 && table->size() <= summary.mapped, "the table holds the mapped networks");
    for (const std::array<std::uint8_t, 4>& v4 : {std::array<std::uint8_t, 4>{127, 0, 0, 185}, {203, 0, 113, 9}, {0, 0, 0, 0}}) {
      auto match = table->lookup(v4);
      check(!match.found || match.value < regions().size(), "a match names a region");
      check(match.scope <= 32, "an IPv4 scope fits the address");
    }
    std::array<std::uint8_t, 16> v6{0x20, 0x01, 0x0d, 0xb8, 0, 1};
    auto match = table->lookup(v6);
    check(!match.found || match.value < regions().size(), "a v6 match names a region");
  }
  return 0;
}
