// Shared by the libFuzzer targets in fuzz/: a consistency check that aborts (so libFuzzer
// reports the input like a crash) and the rdata text round trip. Header-only; thread-safe.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "dns/message.h"
#include "dns/rdata.h"
#include "dns/test_tokens.h"

namespace cutover::fuzz {

inline void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "consistency failure: %s\n", what);
  std::abort();
}

// rdata_to_text must print text that rdata_from_text reads back to the same bytes.
inline void check_text_round_trip(dns::RRType type, const dns::Rdata& rdata) {
  std::string text = dns::rdata_to_text(type, rdata);
  auto tokens = dns::testing::tokenize(text);
  auto reparsed = dns::rdata_from_text(type, tokens, dns::Name());
  if (!reparsed.ok() || *reparsed != rdata) {
    std::fprintf(stderr, "text round trip of %s: %s\n", dns::type_to_text(type).c_str(), text.c_str());
    check(false, "rdata text round trip");
  }
}

}  // namespace cutover::fuzz
