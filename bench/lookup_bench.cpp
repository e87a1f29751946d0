// Micro-benchmarks of the lookup stage: planning hits, NODATA and NXDOMAIN answers in a
// 100k-name zone, with the queried name varying so caches behave as under real load.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "auth/lookup.h"
#include "bench_zone.h"

namespace cutover::bench {
namespace {

std::vector<dns::Name> names(const std::string& prefix, std::size_t count) {
  std::vector<dns::Name> out;
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(*dns::Name::from_text(fmt::format("{}{}.bench.test.", prefix, i * 7919 % kBenchNames)));
  }
  return out;
}

void plan_loop(benchmark::State& state, const std::vector<dns::Name>& qnames, dns::RRType type) {
  const zone::Zone& zone = *bench_zone();
  std::size_t i = 0;
  for (auto _ : state) {
    auto plan = auth::plan_answer(zone, qnames[i++ % qnames.size()], type, true);
    benchmark::DoNotOptimize(plan);
  }
}

void BM_LookupHit(benchmark::State& state) { plan_loop(state, names("h", 4096), dns::RRType::A); }
BENCHMARK(BM_LookupHit);

void BM_LookupNoData(benchmark::State& state) { plan_loop(state, names("h", 4096), dns::RRType::AAAA); }
BENCHMARK(BM_LookupNoData);

void BM_LookupNxDomain(benchmark::State& state) { plan_loop(state, names("nx", 4096), dns::RRType::A); }
BENCHMARK(BM_LookupNxDomain);

void BM_ZoneFind(benchmark::State& state) {
  auto qnames = names("h", 4096);
  const zone::Zone& zone = *bench_zone();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(zone.find(qnames[i++ % qnames.size()]));
}
BENCHMARK(BM_ZoneFind);

}  // namespace
}  // namespace cutover::bench
