// Published<T>: a reader thread's copy follows each publish, and forget() lets a replaced
// value go while the thread idles (the UDP workers call it when their receive times out).
#include "base/published.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

namespace cutover::base {
namespace {

struct Value {
  int number = 0;
};

TEST(Published, ReadFollowsEachPublish) {
  Published<Value> published;
  EXPECT_EQ(published.read(), nullptr);
  published.publish(std::make_shared<const Value>(Value{1}));
  EXPECT_EQ(published.read()->number, 1);
  published.publish(std::make_shared<const Value>(Value{2}));
  EXPECT_EQ(published.read()->number, 2);
}

TEST(Published, ForgetReleasesTheThreadsCopyOfAReplacedValue) {
  Published<Value> published;
  auto first = std::make_shared<const Value>(Value{1});
  std::weak_ptr<const Value> watch = first;
  published.publish(std::move(first));
  EXPECT_EQ(published.read()->number, 1);  // this thread now holds a copy

  published.publish(std::make_shared<const Value>(Value{2}));
  EXPECT_FALSE(watch.expired()) << "the copy keeps the replaced value until the thread reads or forgets";
  published.forget();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(published.read()->number, 2);
}

TEST(Published, ForgetLeavesAnotherPublishedsCopy) {
  Published<Value> one;
  Published<Value> other;
  auto value = std::make_shared<const Value>(Value{7});
  std::weak_ptr<const Value> watch = value;
  one.publish(std::move(value));
  EXPECT_EQ(one.read()->number, 7);
  one.publish(nullptr);
  other.forget();  // not the Published this thread's copy came from
  EXPECT_FALSE(watch.expired());
  one.forget();
  EXPECT_TRUE(watch.expired());
}

TEST(Published, EachThreadKeepsItsOwnCopy) {
  Published<Value> published;
  auto first = std::make_shared<const Value>(Value{1});
  std::weak_ptr<const Value> watch = first;
  published.publish(std::move(first));
  EXPECT_EQ(published.read()->number, 1);
  published.publish(std::make_shared<const Value>(Value{2}));
  int seen = 0;
  std::thread reader([&] {
    seen = published.read()->number;
    published.forget();  // this thread's copy only
  });
  reader.join();
  EXPECT_EQ(seen, 2);
  EXPECT_FALSE(watch.expired()) << "the main thread's copy is its own";
  published.forget();
  EXPECT_TRUE(watch.expired());
}

}  // namespace
}  // namespace cutover::base
