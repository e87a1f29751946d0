// Helpers shared by the tests of the write path (store_test.cpp and the pool journal tests
// above it): names, A rdata and a fresh journal path. Header-only; for tests. Thread-safe.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/rdata.h"

namespace cutover::store::testing {

// A name from presentation text; the text must be valid (tests pass literals).
inline dns::Name name(const char* text) { return *dns::Name::from_text(text); }

// The rdata of an A record at `address` (dotted quad, valid).
inline dns::Rdata a_rdata(const char* address) {
  std::vector<dns::TextToken> tokens{{address, false, 1, 1}};
  return *dns::rdata_from_text(dns::RRType::A, tokens, name("."));
}

// "journal.db" in a new directory under /tmp whose name starts with `prefix`; empty when the
// directory could not be made. The directory is left for the test run to inspect.
inline std::string new_journal_path(const std::string& prefix) {
  std::string dir = "/tmp/" + prefix + ".XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) return "";
  return dir + "/journal.db";
}

}  // namespace cutover::store::testing
