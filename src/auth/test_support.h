// Helpers for the auth unit tests: build a zone from one-line records and make queries.
// Test-only; header-only so it adds nothing to the library.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "auth/engine.h"
#include "dns/message.h"

namespace cutover::auth::testing {

// Each line is "OWNER TTL TYPE RDATA..." with absolute names and no quoted strings.
inline std::shared_ptr<const zone::Zone> make_zone(const std::string& origin_text, const std::vector<std::string>& lines,
                                                   const zone::OrderPolicy& order = {}) {
  auto origin = dns::Name::from_text(origin_text);
  EXPECT_TRUE(origin.ok());
  std::vector<dns::ResourceRecord> records;
  for (const auto& line : lines) {
    std::istringstream in(line);
    std::string owner, ttl, type;
    in >> owner >> ttl >> type;
    std::vector<dns::TextToken> tokens;
    for (std::string word; in >> word;) tokens.push_back(dns::TextToken{word, false, 1, 1});
    auto name = dns::Name::from_text(owner, &*origin);
    auto rrtype = dns::type_from_text(type);
    EXPECT_TRUE(name.ok() && rrtype.has_value()) << line;
    auto rdata = dns::rdata_from_text(*rrtype, tokens, *origin);
    EXPECT_TRUE(rdata.ok()) << line << ": " << (rdata.ok() ? "" : rdata.error().message);
    if (!name.ok() || !rrtype || !rdata.ok()) continue;
    records.push_back(dns::ResourceRecord{*name, *rrtype, dns::RRClass::IN, static_cast<std::uint32_t>(std::stoul(ttl)),
                                          *rdata});
  }
  auto zone = zone::Zone::build(*origin, records, order);
  EXPECT_TRUE(zone.ok()) << (zone.ok() ? "" : zone.error().message);
  return zone.ok() ? *zone : nullptr;
}

inline std::vector<std::uint8_t> make_query(const std::string& name, dns::RRType type, bool with_edns = false,
                                            std::uint16_t udp_size = 1232, bool dnssec_ok = false) {
  dns::Message query;
  query.header.id = 0x1234;
  query.header.rd = true;
  query.questions.push_back(dns::Question{*dns::Name::from_text(name), type, dns::RRClass::IN});
  if (with_edns) {
    dns::Edns edns;
    edns.udp_size = udp_size;
    edns.dnssec_ok = dnssec_ok;
    query.edns = edns;
  }
  return dns::encode_message(query);
}

// A query with an OPT holding `options`, in order.
inline std::vector<std::uint8_t> query_with_options(const std::string& name, dns::RRType type,
                                                    std::vector<dns::EdnsOption> options) {
  auto parsed = dns::parse_message(make_query(name, type, true));
  EXPECT_TRUE(parsed.ok());
  parsed->edns->options = std::move(options);
  return dns::encode_message(*parsed);
}

// The first EDNS option of `code` in `message`, or nullptr.
inline const dns::EdnsOption* find_option(const dns::Message& message, std::uint16_t code) {
  if (!message.edns) return nullptr;
  for (const auto& option : message.edns->options) {
    if (option.code == code) return &option;
  }
  return nullptr;
}

// Answers `query` and parses the response, failing the test if it does not parse.
inline dns::Message ask(const ZoneSet& zones, const std::vector<std::uint8_t>& query,
                        Transport transport = Transport::kUdp) {
  std::vector<std::uint8_t> response;
  auto outcome = answer_query(zones, query, transport, response);
  EXPECT_TRUE(outcome.respond);
  auto parsed = dns::parse_message(response);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
  return parsed.ok() ? *parsed : dns::Message{};
}

inline std::vector<std::string> texts(const std::vector<dns::ResourceRecord>& records) {
  std::vector<std::string> out;
  for (const auto& rr : records) {
    out.push_back(rr.owner.to_text() + " " + std::to_string(rr.ttl) + " " + dns::type_to_text(rr.type) + " " +
                  dns::rdata_to_text(rr.type, rr.rdata));
  }
  return out;
}

}  // namespace cutover::auth::testing
