// Tests of Zone::build from master-file text: grouping into nodes and RRsets without regard
// to case, duplicate removal on canonical rdata, the lowest-TTL rule and the name index.
#include "zone/zone.h"

#include <gtest/gtest.h>

#include "zone/parse_test_support.h"
#include "zone/record_index.h"

namespace cutover::zone {
namespace {

constexpr const char* kApex =
    "$TTL 300\n"
    "@ SOA ns hostmaster 1 3600 600 86400 300\n"
    "@ NS ns\n"
    "ns A 192.0.2.1\n";

std::vector<dns::ResourceRecord> records_of(const std::string& text) {
  auto parsed = test::parse(std::string(kApex) + text);
  EXPECT_TRUE(parsed.diagnostics.empty());
  std::vector<dns::ResourceRecord> records;
  for (auto& parsed_record : parsed.records) records.push_back(parsed_record.record);
  return records;
}

std::shared_ptr<const Zone> build(const std::string& text) {
  auto zone = Zone::build(test::test_origin(), records_of(text));
  EXPECT_TRUE(zone) << zone.error().message;
  return zone ? *zone : nullptr;
}

const RRset& rrset(const Zone& zone, const char* owner, dns::RRType type) {
  const Node* node = zone.find(*dns::Name::from_text(owner));
  EXPECT_NE(node, nullptr) << owner;
  static const RRset kNone;
  const RRset* found = node != nullptr ? node->find(type) : nullptr;
  return found != nullptr ? *found : kNone;
}

TEST(ZoneBuild, OwnersDifferingOnlyInCaseShareOneNode) {
  auto zone = build("www A 192.0.2.2\nWWW A 192.0.2.3\nWww AAAA 2001:db8::1\n");
  EXPECT_EQ(zone->node_count(), 3u);  // apex, ns, www
  EXPECT_EQ(rrset(*zone, "wWw.example.test.", dns::RRType::A).rdatas.size(), 2u);
  EXPECT_EQ(rrset(*zone, "www.example.test.", dns::RRType::AAAA).rdatas.size(), 1u);
}

TEST(ZoneBuild, DuplicatesDifferingInNameCaseOrEscapesAreDropped) {
  auto zone = build(
      "www MX 10 Mail.Example.Test.\nwww MX 10 mail.example.test.\nwww MX 20 mail.example.test.\n"
      "www TXT \"abc\"\nwww TXT a\\098c\nwww TXT \"ABC\"\n"
      "www A 192.0.2.9\nwww A 192.0.2.9\n");
  const RRset& mx = rrset(*zone, "www.example.test.", dns::RRType::MX);
  ASSERT_EQ(mx.rdatas.size(), 2u);
  // The first spelling is the one kept.
  EXPECT_EQ(dns::rdata_to_text(dns::RRType::MX, mx.rdatas[0]), "10 Mail.Example.Test.");
  // TXT keeps its case: "ABC" is different data.
  EXPECT_EQ(rrset(*zone, "www.example.test.", dns::RRType::TXT).rdatas.size(), 2u);
  EXPECT_EQ(rrset(*zone, "www.example.test.", dns::RRType::A).rdatas.size(), 1u);
  EXPECT_EQ(zone->record_count(), 3u + 2u + 2u + 1u);  // SOA, NS and ns A, then the distinct ones above
}

// The compact layout (docs/architecture.md, "Zone layout"): records of one RRset scattered
// through the file end up side by side, in file order, read in place from the zone's arena;
// a node's RRsets are in order of first appearance; owners keep the file's spelling.
TEST(ZoneBuild, InterleavedRecordsAreGroupedInFileOrderAndReadInPlace) {
  auto zone = build("Mix A 192.0.2.1\nother A 192.0.2.9\nmix TXT \"t\"\nmix A 192.0.2.2\nmIx A 192.0.2.3\n");
  const Node* node = zone->find(*dns::Name::from_text("mix.example.test."));
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(zone->owner(*node).to_text(), "Mix.example.test.");
  ASSERT_EQ(node->rrsets().size(), 2u);
  EXPECT_EQ(node->rrsets()[0].type, dns::RRType::A);
  EXPECT_EQ(node->rrsets()[1].type, dns::RRType::TXT);
  const RRset& a = node->rrsets()[0];
  EXPECT_FALSE(a.rdatas.owned());
  std::vector<std::string> texts;
  for (auto rdata : a.rdatas) texts.push_back(dns::rdata_to_text(dns::RRType::A, rdata));
  EXPECT_EQ(texts, (std::vector<std::string>{"192.0.2.1", "192.0.2.2", "192.0.2.3"}));
  // Copying an RRset out of the zone (as a pool answer does) keeps reading the same bytes.
  RRset copy = a;
  EXPECT_EQ(copy.rdatas, a.rdatas);
  EXPECT_EQ(zone->records().size(), zone->record_count());
}

TEST(ZoneBuild, LowestTtlOfAnRRsetWins) {
  auto zone = build("www 600 A 192.0.2.2\nwww 60 A 192.0.2.3\nwww 900 A 192.0.2.3\n");
  const RRset& a = rrset(*zone, "www.example.test.", dns::RRType::A);
  EXPECT_EQ(a.ttl, 60u);
  EXPECT_EQ(a.rdatas.size(), 2u);
}

TEST(ZoneBuild, TakingRecordsLeavesTheVectorEmptyAndGivesTheSameZone) {
  auto records = records_of("www A 192.0.2.2\na.b.c A 192.0.2.4\n");
  auto copied = Zone::build(test::test_origin(), static_cast<const std::vector<dns::ResourceRecord>&>(records));
  auto taken = Zone::build(test::test_origin(), std::move(records));
  ASSERT_TRUE(copied);
  ASSERT_TRUE(taken);
  EXPECT_TRUE(records.empty());  // NOLINT(bugprone-use-after-move): the documented postcondition
  EXPECT_EQ((*copied)->records().size(), (*taken)->records().size());
  EXPECT_EQ((*taken)->empty_non_terminals().size(), 2u);  // c and b.c
  EXPECT_TRUE((*taken)->has_descendants(*dns::Name::from_text("C.example.test.")));
  EXPECT_NE((*taken)->find(*dns::Name::from_text("A.B.C.example.test.")), nullptr);
}

TEST(ZoneBuild, NeedsTheApexSoaWhateverItsCase) {
  auto records = records_of("");
  records.front().owner = *dns::Name::from_text("EXAMPLE.Test.");
  auto zone = Zone::build(test::test_origin(), records);
  ASSERT_TRUE(zone);
  EXPECT_EQ((*zone)->soa_fields().serial, 1u);
  records.erase(records.begin());
  EXPECT_FALSE(Zone::build(test::test_origin(), records));
}

TEST(ZoneBuild, TheChecksOwnerNumberingGivesTheSameZone) {
  auto parsed = test::parse(std::string(kApex) + "www A 192.0.2.2\na.b.c A 192.0.2.4\nWWW AAAA 2001:db8::1\n");
  OwnerNumbering numbering = RecordIndex(test::test_origin(), parsed.records).take_numbering();
  std::vector<dns::ResourceRecord> records;
  for (auto& parsed_record : parsed.records) records.push_back(parsed_record.record);
  auto plain = Zone::build(test::test_origin(), records);
  auto numbered = Zone::build(test::test_origin(), std::move(records), std::move(numbering));
  ASSERT_TRUE(plain);
  ASSERT_TRUE(numbered);
  ASSERT_EQ((*plain)->node_count(), (*numbered)->node_count());
  for (std::size_t i = 0; i < (*plain)->node_count(); ++i) {
    EXPECT_EQ((*plain)->owner((*plain)->built_nodes()[i]), (*numbered)->owner((*numbered)->built_nodes()[i]));
  }
  auto expected = (*plain)->records();
  auto actual = (*numbered)->records();
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(expected[i].owner, actual[i].owner);
    EXPECT_EQ(expected[i].type, actual[i].type);
    EXPECT_EQ(expected[i].rdata, actual[i].rdata);
  }
}

// The owner numbering's table becomes the zone's index; it is rebuilt when the empty
// non-terminals would overfill it. Both ways every name must be found with its flags.
TEST(ZoneBuild, IndexFindsNodesAndEmptyNonTerminalsWhetherReusedOrRebuilt) {
  std::string many_records;
  for (int i = 0; i < 40; ++i) many_records += fmt::format("www TXT \"{}\"\n", i);
  for (const std::string& extra : {std::string(), many_records}) {
    auto zone = build("a.b.c.d.e A 192.0.2.4\n" + extra);
    ASSERT_NE(zone, nullptr);
    EXPECT_EQ(zone->empty_non_terminals().size(), 4u);
    for (const char* empty : {"e.example.test.", "D.e.example.test.", "c.d.e.example.test.", "b.c.d.e.example.test."}) {
      auto found = zone->lookup(LowerName(*dns::Name::from_text(empty)).all());
      EXPECT_TRUE(found.exists) << empty;
      EXPECT_TRUE(found.has_descendants) << empty;
      EXPECT_EQ(found.node, nullptr) << empty;
    }
    auto leaf = zone->lookup(LowerName(*dns::Name::from_text("a.b.c.d.e.example.test.")).all());
    ASSERT_NE(leaf.node, nullptr);
    EXPECT_FALSE(leaf.has_descendants);
    EXPECT_TRUE(zone->has_descendants(zone->origin()));
    EXPECT_FALSE(zone->has_descendants(*dns::Name::from_text("ns.example.test.")));
    EXPECT_FALSE(zone->lookup(LowerName(*dns::Name::from_text("x.e.example.test.")).all()).exists);
  }
}

// The answer fast path keeps its data per name in an array indexed by the zone's index values
// (auth::FastIndex): nodes first, in built_nodes() order, then the empty non-terminals.
TEST(ZoneBuild, IndexViewNumbersNodesThenEmptyNonTerminals) {
  auto zone = build("a.b.c A 192.0.2.1\nwww A 192.0.2.2\nx.y A 192.0.2.3\n");
  ASSERT_NE(zone, nullptr);
  auto nodes = zone->built_nodes();
  auto empties = zone->built_empty_non_terminals();
  ASSERT_EQ(empties.size(), 3u);  // c, b.c, y
  NameIndex::View view = zone->index_view();
  auto value_of = [&](std::span<const std::uint8_t> wire) {
    LowerName lower(wire);
    return view.find(hash_lower_wire(lower.all()), [&](std::uint32_t value) {
      if (value < nodes.size()) return zone->owns_name(nodes[value], lower.all());
      return value - nodes.size() < empties.size() && same_name(empties[value - nodes.size()], lower.all());
    });
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(value_of(zone->owner_wire(nodes[i]).all()), std::optional<std::uint32_t>(i)) << zone->owner(nodes[i]).to_text();
  }
  for (std::size_t j = 0; j < empties.size(); ++j) {
    EXPECT_EQ(value_of(empties[j].wire()), std::optional<std::uint32_t>(nodes.size() + j)) << empties[j].to_text();
  }
  EXPECT_EQ(value_of(LowerName(*dns::Name::from_text("nowhere.example.test.")).all()), std::nullopt);
}

// The owner numbering's table is sized, and its values limited, for the records; a zone
// whose empty non-terminals far outnumber them gets a table of its own (Zone::index_names),
// and every name is found in it.
TEST(ZoneBuild, ManyEmptyNonTerminalsOutnumberingTheRecords) {
  std::string deep;
  for (char label = 'a'; label <= 'z'; ++label) deep += std::string(1, label) + ".";
  auto zone = build(deep + "l1.l2.l3.l4.l5.l6 A 192.0.2.1\n");
  ASSERT_NE(zone, nullptr);
  EXPECT_GE(zone->built_empty_non_terminals().size(), 31u);
  auto name = *dns::Name::from_text(deep + "l1.l2.l3.l4.l5.l6.example.test.");
  EXPECT_NE(zone->find(name), nullptr);
  for (auto above = name.parent(); above.label_count() > zone->origin().label_count(); above = above.parent()) {
    EXPECT_TRUE(zone->lookup(LowerName(above).all()).exists) << above.to_text();
  }
  EXPECT_FALSE(zone->lookup(LowerName(*dns::Name::from_text("q.example.test.")).all()).exists);
}

// A node keeps its owner's labels below the origin; the zone gives the whole name back, and
// matches it in any case against a lowercase wire name.
TEST(ZoneBuild, NodesKeepTheirOwnersBelowTheOrigin) {
  auto zone = build("Www.Deep A 192.0.2.2\n");
  ASSERT_NE(zone, nullptr);
  const Node* node = zone->find(*dns::Name::from_text("www.deep.example.test."));
  ASSERT_NE(node, nullptr);
  auto relative = node->relative_wire();
  EXPECT_EQ(std::string(relative.begin(), relative.end()), std::string("\3Www\4Deep", 9));
  EXPECT_TRUE(zone->apex().relative_wire().empty());
  EXPECT_EQ(zone->owner(*node).to_text(), "Www.Deep.example.test.");
  EXPECT_EQ(zone->owner(zone->apex()), test::test_origin());
  LowerName lower(*dns::Name::from_text("WWW.deep.EXAMPLE.test."));
  EXPECT_TRUE(zone->owns_name(*node, lower.all()));
  EXPECT_FALSE(zone->owns_name(*node, LowerName(*dns::Name::from_text("www.deep.example.other.")).all()));
  EXPECT_FALSE(zone->owns_name(*node, LowerName(*dns::Name::from_text("www.example.test.")).all()));
}

// A Node keeps a pointer and a count for its RRsets (24 bytes, static_assert in zone.h).
TEST(ZoneBuild, NodeReadsItsRRsetsFromTheZonesArray) {
  auto zone = build("www A 192.0.2.2\nwww TXT \"t\"\n");
  ASSERT_NE(zone, nullptr);
  const Node* node = zone->find(*dns::Name::from_text("www.example.test."));
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->rrsets().size(), 2u);
  EXPECT_EQ(node->find(dns::RRType::TXT), &node->rrsets()[1]);
  EXPECT_FALSE(node->empty());
}

}  // namespace
}  // namespace cutover::zone
