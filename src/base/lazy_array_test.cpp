// LazyArray constructs only what ensure() asks for, runs member initialisers as `T t;` does,
// and destroys exactly what it constructed.
#include "base/lazy_array.h"

#include <gtest/gtest.h>

#include <string>

namespace cutover::base {
namespace {

int live = 0;
int built = 0;

struct Counted {
  Counted() {
    ++live;
    ++built;
  }
  ~Counted() { --live; }
  int value = 7;
  std::string text = "heap-owning member, so leaks would show under the sanitizers";
};

TEST(LazyArray, ConstructsOnlyWhatIsEnsuredAndDestroysIt) {
  live = built = 0;
  {
    LazyArray<Counted, 32> items;
    EXPECT_EQ(built, 0);
    items.ensure(1);
    EXPECT_EQ(built, 1);
    EXPECT_EQ(items[0].value, 7);
    items[0].value = 9;
    items.ensure(3);  // only the two new ones; the first keeps its value
    EXPECT_EQ(built, 3);
    EXPECT_EQ(items[0].value, 9);
    EXPECT_EQ(items[2].text.substr(0, 4), "heap");
    items.ensure(2);  // never fewer
    EXPECT_EQ(items.constructed(), 3u);
    EXPECT_EQ(live, 3);
  }
  EXPECT_EQ(live, 0);
}

struct Plain {
  int set = 5;
  int unset;  // no initialiser: left as it is, which the callers rely on for speed
};

TEST(LazyArray, RunsMemberInitialisersLikeADefaultInitialisedObject) {
  LazyArray<Plain, 4> items;
  items.ensure(4);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(items[i].set, 5);
  static_assert(LazyArray<Plain, 4>::capacity() == 4);
}

}  // namespace
}  // namespace cutover::base
