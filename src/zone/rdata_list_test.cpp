#include "zone/rdata_list.h"

#include <gtest/gtest.h>

namespace cutover::zone {
namespace {

std::vector<dns::Rdata> sample() { return {{192, 0, 2, 1}, {}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}; }

TEST(RdataListTest, ReadsBackEveryItemInOrderWithItsLength) {
  RdataList list(sample());
  EXPECT_TRUE(list.owned());
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list.to_vector(), sample());
  EXPECT_TRUE(list[1].empty());  // an empty rdata (as RFC 3597 allows) keeps its place
  EXPECT_EQ(list[2].size(), 16u);
  EXPECT_EQ(list.front()[3], 1);
  EXPECT_EQ(list.block_size(), 2u + 4 + 2 + 0 + 2 + 16);
  std::size_t seen = 0;
  for (auto item : list) seen += item.size();
  EXPECT_EQ(seen, 20u);
}

TEST(RdataListTest, ACopyOfAnOwnedListOwnsItsOwnBlock) {
  RdataList original(sample());
  RdataList copy = original;
  EXPECT_TRUE(copy.owned());
  EXPECT_NE(copy.block(), original.block());
  EXPECT_EQ(copy, original);
  original.push_back(std::vector<std::uint8_t>{9});
  EXPECT_EQ(original.size(), 4u);
  EXPECT_EQ(copy.size(), 3u);
  EXPECT_FALSE(copy == original);
}

TEST(RdataListTest, ABorrowedListReadsTheBlockInPlaceAndSoDoItsCopies) {
  std::vector<std::uint8_t> arena;
  for (const auto& rdata : sample()) RdataList::append_item(arena, rdata);
  RdataList borrowed = RdataList::borrowed(arena.data(), 3);
  EXPECT_FALSE(borrowed.owned());
  EXPECT_EQ(borrowed.block(), arena.data());
  EXPECT_EQ(borrowed, sample());
  RdataList copy = borrowed;
  EXPECT_EQ(copy.block(), arena.data());
  // Appending to a borrowed list copies it first: the arena is never written.
  copy.push_back(std::vector<std::uint8_t>{7, 7});
  EXPECT_TRUE(copy.owned());
  EXPECT_EQ(copy.size(), 4u);
  EXPECT_EQ(borrowed.size(), 3u);
  EXPECT_EQ(arena.size(), 26u);
}

TEST(RdataListTest, MovingLeavesTheSourceEmpty) {
  RdataList source(sample());
  const std::uint8_t* block = source.block();
  RdataList target = std::move(source);
  EXPECT_EQ(target.block(), block);
  EXPECT_TRUE(source.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  target.clear();
  EXPECT_TRUE(target.empty());
  EXPECT_EQ(target.begin(), target.end());
}

}  // namespace
}  // namespace cutover::zone
