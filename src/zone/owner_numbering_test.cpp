// Tests of OwnerNumberer: owners numbered by first appearance without regard to case, the
// index finding each number, and owners outside the origin marked, across more records
// than one prefetch batch.
#include "zone/owner_numbering.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace cutover::zone {
namespace {

dns::Name name(const std::string& text) { return dns::Name::from_text(text).value(); }

OwnerNumbering number(const std::vector<dns::Name>& owners) {
  OwnerNumberer numberer(name("example.test."), owners.size());
  for (const auto& owner : owners) numberer.add(owner);
  return std::move(numberer).finish();
}

std::optional<std::uint32_t> find(const OwnerNumbering& numbering, const std::vector<dns::Name>& owners,
                                  const std::string& text) {
  LowerName lower(name(text));
  return numbering.index.find(hash_lower_wire(lower.all()), [&](std::uint32_t value) {
    for (std::size_t i = 0; i < owners.size(); ++i) {
      if (numbering.owner_of[i] == value) return same_name(owners[i], lower.all());
    }
    return false;
  });
}

TEST(OwnerNumbering, NumbersOwnersByFirstAppearanceWithoutRegardToCase) {
  std::vector<dns::Name> owners;
  std::vector<std::uint32_t> expected;
  // 40 owners, each seen twice in a row and once again much later in upper case: far more
  // records than one batch, with repeats both adjacent and distant.
  for (int i = 0; i < 40; ++i) {
    owners.push_back(name(fmt::format("h{}.example.test.", i)));
    owners.push_back(name(fmt::format("h{}.example.test.", i)));
    expected.insert(expected.end(), {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i)});
  }
  for (int i = 39; i >= 0; --i) {
    owners.push_back(name(fmt::format("H{}.Example.TEST.", i)));
    expected.push_back(static_cast<std::uint32_t>(i));
  }
  auto numbering = number(owners);
  EXPECT_EQ(numbering.owners, 40u);
  EXPECT_EQ(numbering.owner_of, expected);
  EXPECT_EQ(find(numbering, owners, "h17.EXAMPLE.test."), 17u);
  EXPECT_EQ(find(numbering, owners, "h40.example.test."), std::nullopt);
}

TEST(OwnerNumbering, OwnersNotAtOrBelowTheOriginAreOutside) {
  constexpr auto kOutside = OwnerNumbering::kOutside;
  std::vector<dns::Name> owners = {name("example.test."),  name("xexample.test."), name("xexample.test."),
                                   name("test."),          name("a.EXAMPLE.test."), name("a.example.other."),
                                   name("a.example.test.")};
  auto numbering = number(owners);
  EXPECT_EQ(numbering.owner_of, (std::vector<std::uint32_t>{0, kOutside, kOutside, kOutside, 1, kOutside, 1}));
  EXPECT_EQ(numbering.owners, 2u);
}

}  // namespace
}  // namespace cutover::zone
