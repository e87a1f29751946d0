// The cost of online signing per answer (docs/dnssec.md, "Online signing"; docs/performance.md):
// queries with the DO bit for names of the 100,000-name bench zone signed online, with a warm
// signature cache (every RRset already signed) and a cold one (a cache of 16 entries, so
// nearly every answer is signed afresh), for ECDSA P-256 and Ed25519 keys; beside them the
// same queries without DO (the fast path) and with DO against the unsigned zone.
#include <ctime>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "auth/online_signing.h"
#include "bench_zone.h"
#include "dns/message.h"

namespace cutover::bench {
namespace {

std::vector<std::vector<std::uint8_t>> do_queries(bool dnssec_ok) {
  std::vector<std::vector<std::uint8_t>> queries;
  for (std::size_t i = 0; i < 4096; ++i) {
    dns::Message query;
    query.header.id = static_cast<std::uint16_t>(i);
    query.questions.push_back(dns::Question{*dns::Name::from_text(host_name(i * 7919 % kBenchNames)), dns::RRType::A,
                                            dns::RRClass::IN});
    dns::Edns edns;
    edns.udp_size = 1232;
    edns.dnssec_ok = dnssec_ok;
    query.edns = edns;
    queries.push_back(dns::encode_message(query));
  }
  return queries;
}

// Answers the queries round and round; `online` registers a signer for bench.test. first.
void run(benchmark::State& state, bool dnssec_ok, std::uint8_t algorithm, std::size_t cache_entries, bool warm) {
  const dns::Name& origin = bench_zone()->origin();
  if (algorithm != 0) {
    auto zsk = dnssec::SigningKey::generate(origin, algorithm, 256);
    if (!zsk.ok()) {
      state.SkipWithError(zsk.error().message.c_str());
      return;
    }
    auth::OnlinePolicy policy;
    policy.cache_entries = cache_entries;
    auth::set_online_signer(origin, std::make_shared<const auth::OnlineSigner>(
                                        origin, std::vector<std::shared_ptr<const dnssec::SigningKey>>{*zsk}, policy, std::time(nullptr)));
  }
  auth::ZoneSet zones({bench_zone()});
  auto queries = do_queries(dnssec_ok);
  std::vector<std::uint8_t> response;
  if (warm) {
    for (const auto& query : queries) auth::answer_query(zones, query, auth::Transport::kUdp, response);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    response.clear();
    auto outcome = auth::answer_query(zones, queries[i++ % queries.size()], auth::Transport::kUdp, response);
    benchmark::DoNotOptimize(outcome);
    benchmark::DoNotOptimize(response.data());
  }
  auth::set_online_signer(origin, nullptr);
}

void BM_DoAnswerUnsignedZone(benchmark::State& state) { run(state, true, 0, 0, false); }
void BM_NoDoAnswerOnlineZone(benchmark::State& state) { run(state, false, dnssec::kEcdsaP256Sha256, 1 << 17, true); }
void BM_OnlineSignedEcdsaWarm(benchmark::State& state) { run(state, true, dnssec::kEcdsaP256Sha256, 1 << 17, true); }
void BM_OnlineSignedEcdsaCold(benchmark::State& state) { run(state, true, dnssec::kEcdsaP256Sha256, 16, false); }
void BM_OnlineSignedEd25519Warm(benchmark::State& state) { run(state, true, dnssec::kEd25519, 1 << 17, true); }
void BM_OnlineSignedEd25519Cold(benchmark::State& state) { run(state, true, dnssec::kEd25519, 16, false); }
BENCHMARK(BM_DoAnswerUnsignedZone);
BENCHMARK(BM_NoDoAnswerOnlineZone);
BENCHMARK(BM_OnlineSignedEcdsaWarm);
BENCHMARK(BM_OnlineSignedEcdsaCold);
BENCHMARK(BM_OnlineSignedEd25519Warm);
BENCHMARK(BM_OnlineSignedEd25519Cold);

}  // namespace
}  // namespace cutover::bench
