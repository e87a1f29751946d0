// Micro-benchmarks of parsing: decoding a typical query packet, and reading master-file
// text shaped like bench/compare's zone (a host A record per line under $ORIGIN).
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include "bench_zone.h"
#include "dns/message.h"
#include "zone/master_parser.h"

namespace cutover::bench {
namespace {

void BM_ParseQuery(benchmark::State& state) {
  auto query = bench_query(host_name(4242), dns::RRType::A, state.range(0) != 0);
  for (auto _ : state) {
    auto message = dns::parse_message(query);
    benchmark::DoNotOptimize(message);
  }
}
BENCHMARK(BM_ParseQuery)->Arg(0)->Arg(1)->ArgName("edns");

void BM_ParseName(benchmark::State& state) {
  auto query = bench_query(host_name(4242), dns::RRType::A);
  for (auto _ : state) {
    base::ByteReader reader(query);
    (void)reader.skip(dns::kHeaderSize);
    auto name = dns::Name::from_wire(reader);
    benchmark::DoNotOptimize(name);
  }
}
BENCHMARK(BM_ParseName);

void BM_ParseMasterText(benchmark::State& state) {
  auto names = static_cast<std::size_t>(state.range(0));
  std::string text = "$ORIGIN bench.test.\n$TTL 3600\n";
  for (std::size_t i = 0; i < names; ++i) {
    text += fmt::format("h{} IN A 10.{}.{}.{}\n", i, (i >> 16) & 255, (i >> 8) & 255, i & 255);
  }
  auto origin = dns::Name::from_text("bench.test.").value();
  for (auto _ : state) {
    auto result = zone::parse_master_text(origin, text, "bench.zone");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(names));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_ParseMasterText)->Arg(10'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cutover::bench
