// A write's zone made by patching the served one (zone::Zone::patch through
// ZoneData::build_from) must answer every query byte for byte as the same data built whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "auth/fast_answer.h"
#include "auth/test_support.h"
#include "store/zone_data.h"

namespace cutover::store {
namespace {

using auth::testing::make_query;
using auth::testing::make_zone;
using dns::Name;
using dns::RRType;

Name name(const std::string& text) { return *Name::from_text(text); }

dns::Rdata rdata_of(RRType type, const std::string& text, const Name& origin) {
  std::vector<dns::TextToken> tokens;
  std::istringstream in(text);
  for (std::string word; in >> word;) tokens.push_back(dns::TextToken{word, false, 1, 1});
  return *dns::rdata_from_text(type, tokens, origin);
}

std::shared_ptr<const zone::Zone> shaped() {
  return make_zone("p.test.", {
      "p.test. 3600 SOA ns1.p.test. hostmaster.p.test. 1 7200 900 1209600 300",
      "p.test. 3600 NS ns1.p.test.",
      "ns1.p.test. 3600 A 192.0.2.53",
      "www.p.test. 300 A 192.0.2.1",
      "c.b.a.p.test. 300 A 192.0.2.2",
      "*.w.p.test. 300 TXT wild",
      "sub.p.test. 3600 NS ns.sub.p.test.",
      "ns.sub.p.test. 3600 A 192.0.2.54",
      "alias.p.test. 300 CNAME www.p.test.",
  });
}

// Everything two zones answer for `names` x `types` (fast path first, as served), compared.
void expect_same_answers(const auth::ZoneSet& patched, const auth::ZoneSet& whole, const std::vector<std::string>& names,
                         const std::string& label) {
  const std::vector<RRType> types = {RRType::A, RRType::AAAA, RRType::TXT, RRType::MX, RRType::NS, RRType::SOA, RRType::CNAME, RRType::ANY};
  for (const auto& qname : names) {
    for (RRType type : types) {
      for (bool edns : {false, true}) {
        auto query = make_query(qname, type, edns);
        std::vector<std::uint8_t> a;
        std::vector<std::uint8_t> b;
        auto outcome_a = auth::answer_query(patched, query, auth::Transport::kUdp, a);
        auto outcome_b = auth::answer_query(whole, query, auth::Transport::kUdp, b);
        EXPECT_EQ(outcome_a.rcode, outcome_b.rcode) << label << ": " << qname << " " << dns::type_to_text(type);
        EXPECT_EQ(a, b) << label << ": " << qname << " " << dns::type_to_text(type);
      }
    }
  }
}

std::vector<std::string> sorted_texts(const std::vector<Name>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(n.lowercased().to_text());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> record_texts(const zone::Zone& zone) {
  std::vector<std::string> out;
  for (const auto& record : zone.records()) {
    out.push_back(record.owner.to_text() + " " + std::to_string(record.ttl) + " " + dns::type_to_text(record.type) + " " +
                  std::string(record.rdata.begin(), record.rdata.end()));
  }
  return out;
}

void expect_same_zone(const zone::Zone& patched, const zone::Zone& whole, const std::string& label) {
  EXPECT_EQ(record_texts(patched), record_texts(whole)) << label;
  EXPECT_EQ(patched.node_count(), whole.node_count()) << label;
  EXPECT_EQ(patched.record_count(), whole.record_count()) << label;
  EXPECT_EQ(sorted_texts(patched.empty_non_terminals()), sorted_texts(whole.empty_non_terminals())) << label;
  std::size_t nodes = 0;
  patched.for_each_node([&](const zone::Node&) { ++nodes; });
  EXPECT_EQ(nodes, whole.node_count()) << label;
}

TEST(ZonePatch, RandomWritesAnswerExactlyAsTheSameDataBuiltWhole) {
  auto initial = shaped();
  const Name origin = initial->origin();
  ZoneData data = ZoneData::from_zone(*initial);
  std::shared_ptr<const zone::Zone> served = initial;
  auto published = std::make_shared<const auth::ZoneSet>(std::vector{served});
  // Owners a write may touch: new and existing names, deep names whose parents are empty
  // non-terminals, wildcards, glue below the cut, the cut itself and a DNAME (which force a
  // whole build), the apex.
  const std::vector<std::string> owners = {
      "www.p.test.", "a.p.test.", "b.a.p.test.", "c.b.a.p.test.", "x.y.z.p.test.", "y.z.p.test.", "z.p.test.",
      "*.w.p.test.", "q.w.p.test.", "*.b.a.p.test.", "ns.sub.p.test.", "deep.glue.sub.p.test.", "alias.p.test.",
      "p.test.", "sub.p.test.", "cut.p.test.", "d.p.test."};
  std::vector<std::string> queries = owners;
  for (const auto& extra : {"nothing.p.test.", "n.q.w.p.test.", "m.w.p.test.", "m.x.y.z.p.test.", "glue.sub.p.test.",
                            "below.cut.p.test.", "x.d.p.test.", "k.c.b.a.p.test.", "other.test.", "e.b.a.p.test."}) {
    queries.push_back(extra);
  }
  std::mt19937 random(20261206);
  int patched = 0;
  int whole_builds = 0;
  int folds = 0;  // the newer layer folded into the older
  for (int round = 0; round < 300; ++round) {
    Edit edit;
    edit.owner = name(owners[random() % owners.size()]);
    int pick = static_cast<int>(random() % 100);
    edit.op = pick < 55 ? Edit::Op::kAddRecord : pick < 75 ? Edit::Op::kDeleteName : pick < 90 ? Edit::Op::kDeleteRRset : Edit::Op::kReplaceRRset;
    int kind = static_cast<int>(random() % 20);
    edit.ttl = 60 + static_cast<std::uint32_t>(random() % 3) * 60;
    if (edit.owner == name("cut.p.test.") && kind < 10) {
      edit.type = RRType::NS;
      edit.rdatas = {rdata_of(RRType::NS, "ns.elsewhere.test.", origin)};
    } else if (edit.owner == name("d.p.test.") && kind < 10) {
      edit.type = RRType::DNAME;
      edit.rdatas = {rdata_of(RRType::DNAME, "www.p.test.", origin)};
    } else if (kind < 10) {
      edit.type = RRType::A;
      edit.rdatas = {rdata_of(RRType::A, "192.0.2." + std::to_string(random() % 8), origin)};
    } else if (kind < 14) {
      edit.type = RRType::AAAA;
      edit.rdatas = {rdata_of(RRType::AAAA, "2001:db8::" + std::to_string(random() % 4), origin)};
    } else if (kind < 18) {
      edit.type = RRType::TXT;
      edit.rdatas = {rdata_of(RRType::TXT, "t" + std::to_string(random() % 4), origin)};
    } else {
      edit.type = RRType::MX;
      edit.rdatas = {rdata_of(RRType::MX, "10 www.p.test.", origin)};
    }
    if (!data.apply(edit)) continue;
    NameSet touched{edit.owner, origin};
    auto next = data.build_from(served, touched, {});
    ASSERT_TRUE(next.ok()) << next.error().message;
    auto whole = data.build({});
    ASSERT_TRUE(whole.ok()) << whole.error().message;
    ((*next)->base() != nullptr ? patched : whole_builds)++;
    if ((*next)->base() != nullptr && served->base() != nullptr && (*next)->older_layer() != served->older_layer()) ++folds;
    std::string label = "round " + std::to_string(round) + " " + edit.owner.to_text();
    expect_same_zone(**next, **whole, label);
    auto set = std::make_shared<const auth::ZoneSet>(std::vector{*next}, published.get());
    expect_same_answers(*set, auth::ZoneSet({*whole}), queries, label);
    if (::testing::Test::HasFailure()) return;
    served = *next;
    published = set;
  }
  EXPECT_GT(patched, 150);     // most writes were patches
  EXPECT_GT(whole_builds, 3);  // a cut or a DNAME coming or going rebuilt the zone
  EXPECT_GT(folds, 0);
}

TEST(ZonePatch, ANameThatGoesTakesItsEmptyParentsWithItAndASecondWriteKeepsTheFirst) {
  auto initial = shaped();
  ZoneData data = ZoneData::from_zone(*initial);
  Edit remove{Edit::Op::kDeleteName, name("c.b.a.p.test."), RRType::A, 0, {}};
  ASSERT_TRUE(data.apply(remove).ok());
  auto first = data.build_from(initial, {remove.owner, initial->origin()}, {});
  ASSERT_TRUE(first.ok());
  ASSERT_NE((*first)->base(), nullptr);
  EXPECT_FALSE((*first)->lookup(zone::LowerName(name("b.a.p.test.")).all()).exists);
  EXPECT_FALSE((*first)->lookup(zone::LowerName(name("a.p.test.")).all()).exists);
  EXPECT_TRUE(initial->lookup(zone::LowerName(name("a.p.test.")).all()).exists);  // the base is untouched
  Edit add{Edit::Op::kAddRecord, name("new.p.test."), RRType::A, 300, {rdata_of(RRType::A, "192.0.2.77", initial->origin())}};
  ASSERT_TRUE(data.apply(add).ok());
  auto second = data.build_from(*first, {add.owner, initial->origin()}, {});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)->base(), initial);  // patches chain on the one base, never on each other
  EXPECT_NE((*second)->find(name("new.p.test.")), nullptr);
  EXPECT_FALSE((*second)->lookup(zone::LowerName(name("a.p.test.")).all()).exists);
}

TEST(ZonePatch, AFullPatchIsFoldedIntoANewBase) {
  auto initial = shaped();
  ZoneData data = ZoneData::from_zone(*initial);
  std::shared_ptr<const zone::Zone> served = initial;
  std::size_t limit = zone::Zone::patch_limit(initial->node_count() + initial->empty_non_terminals().size());
  bool rebased = false;
  for (std::size_t i = 0; i < limit + 10; ++i) {
    Edit add{Edit::Op::kAddRecord, name("n" + std::to_string(i) + ".p.test."), RRType::A, 300,
             {rdata_of(RRType::A, "192.0.2.1", initial->origin())}};
    ASSERT_TRUE(data.apply(add).ok());
    auto next = data.build_from(served, {add.owner, initial->origin()}, {});
    ASSERT_TRUE(next.ok());
    EXPECT_LE((*next)->patch_size(), limit);
    if ((*next)->base() == nullptr) rebased = true;
    served = *next;
    if (i % 50 == 0) {
      auto whole = data.build({});
      expect_same_zone(*served, **whole, "write " + std::to_string(i));
      expect_same_answers(auth::ZoneSet({served}), auth::ZoneSet({*whole}),
                          {"n0.p.test.", "n" + std::to_string(i) + ".p.test.", "www.p.test.", "x.p.test."}, "write " + std::to_string(i));
    }
  }
  EXPECT_TRUE(rebased);
  auto whole = data.build({});
  expect_same_zone(*served, **whole, "after the rebase");
  expect_same_answers(auth::ZoneSet({served}), auth::ZoneSet({*whole}), {"n0.p.test.", "n300.p.test.", "www.p.test.", "x.p.test."},
                      "after the rebase");
}

}  // namespace
}  // namespace cutover::store
