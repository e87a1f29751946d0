// Micro-benchmarks of the encode stage and of the whole answer path (answer_query: parse,
// lookup, encode), the per-query user-space work the server adds on top of the kernel.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "auth/encode.h"
#include "auth/lookup.h"
#include "bench_zone.h"

namespace cutover::bench {
namespace {

void BM_EncodeHit(benchmark::State& state) {
  auto qname = *dns::Name::from_text(host_name(4242));
  auto plan = auth::plan_answer(*bench_zone(), qname, dns::RRType::A, true);
  auth::ResponseFrame frame;
  frame.question = dns::Question{qname, dns::RRType::A, dns::RRClass::IN};
  for (auto _ : state) benchmark::DoNotOptimize(auth::encode_answer(plan, frame));
}
BENCHMARK(BM_EncodeHit);

void answer_loop(benchmark::State& state, const std::string& prefix, dns::RRType type) {
  std::vector<std::vector<std::uint8_t>> queries;
  for (std::size_t i = 0; i < 4096; ++i) {
    queries.push_back(bench_query(fmt::format("{}{}.bench.test.", prefix, i * 7919 % kBenchNames), type));
  }
  std::vector<std::uint8_t> response;
  std::size_t i = 0;
  for (auto _ : state) {
    response.clear();
    auto outcome = auth::answer_query(bench_zone_set(), queries[i++ % queries.size()], auth::Transport::kUdp, response);
    benchmark::DoNotOptimize(outcome);
    benchmark::DoNotOptimize(response.data());
  }
}

void BM_AnswerHit(benchmark::State& state) { answer_loop(state, "h", dns::RRType::A); }
BENCHMARK(BM_AnswerHit);

void BM_AnswerNoData(benchmark::State& state) { answer_loop(state, "h", dns::RRType::AAAA); }
BENCHMARK(BM_AnswerNoData);

void BM_AnswerNxDomain(benchmark::State& state) { answer_loop(state, "nx", dns::RRType::A); }
BENCHMARK(BM_AnswerNxDomain);

}  // namespace
}  // namespace cutover::bench
