// cutover_answer_replay: answers every query of a dnsperf query file against a zone file
// in-process, so callgrind can count the instructions of the answer path alone
// (bench/compare --profile runs it with --toggle-collect on answer_query).
// Usage: cutover_answer_replay ORIGIN ZONE_FILE QUERY_FILE [QUERIES]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "auth/engine.h"
#include "dns/message.h"
#include "zone/loader.h"

namespace {

std::vector<std::vector<std::uint8_t>> read_queries(const char* path) {
  std::vector<std::vector<std::uint8_t>> queries;
  std::ifstream in(path);
  std::string name, type;
  while (in >> name >> type) {
    auto qname = cutover::dns::Name::from_text(name);
    auto qtype = cutover::dns::type_from_text(type);
    if (!qname || !qtype) continue;
    cutover::dns::Message query;
    query.header.id = static_cast<std::uint16_t>(queries.size());
    query.questions.push_back(cutover::dns::Question{*qname, *qtype, cutover::dns::RRClass::IN});
    queries.push_back(cutover::dns::encode_message(query));
  }
  return queries;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: cutover_answer_replay ORIGIN ZONE_FILE QUERY_FILE [QUERIES]\n");
    return 2;
  }
  auto origin = cutover::dns::Name::from_text(argv[1]);
  if (!origin) return 2;
  auto load = cutover::zone::load_zone_file(*origin, argv[2]);
  if (!load.zone) {
    std::fprintf(stderr, "cutover_answer_replay: %s did not load\n", argv[2]);
    return 1;
  }
  cutover::auth::ZoneSet zones({load.zone});
  auto queries = read_queries(argv[3]);
  std::size_t count = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : queries.size();
  if (queries.empty()) return 1;
  std::map<int, std::size_t> rcodes;
  std::vector<std::uint8_t> response;
  for (std::size_t i = 0; i < count; ++i) {
    response.clear();
    auto outcome = cutover::auth::answer_query(zones, queries[i % queries.size()], cutover::auth::Transport::kUdp,
                                               response, false);
    ++rcodes[outcome.respond ? static_cast<int>(outcome.rcode) : -1];
  }
  std::printf("queries %zu", count);
  for (auto [rcode, n] : rcodes) std::printf(" rcode%d=%zu", rcode, n);
  std::printf("\n");
  return 0;
}
