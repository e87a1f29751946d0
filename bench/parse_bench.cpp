// Micro-benchmark of the parse stage: decoding a typical query packet.
#include <benchmark/benchmark.h>

#include "bench_zone.h"
#include "dns/message.h"

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

}  // namespace
}  // namespace cutover::bench
