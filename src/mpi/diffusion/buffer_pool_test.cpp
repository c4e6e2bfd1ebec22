// The transfer buffers' pool (buffer_pool.hpp): a returned buffer's storage is handed out again, the
// smallest that fits first; the kept capacity never exceeds the limit, larger buffers displacing smaller.
#include "buffer_pool.hpp"

#include <gtest/gtest.h>

namespace hetlb::mpi::detail {
namespace {

std::vector<char> sized(std::size_t capacity) {
  std::vector<char> b;
  b.reserve(capacity);
  b.assign(capacity / 2, 'x');
  return b;
}

TEST(BufferPool, AReturnedBufferIsHandedOutAgainEmpty) {
  BufferPool pool(1000);
  std::vector<char> b = sized(100);
  const char* storage = b.data();
  pool.give(std::move(b));
  EXPECT_EQ(pool.retained(), 100u);
  std::vector<char> again = pool.take(60);
  EXPECT_EQ(again.data(), storage);
  EXPECT_TRUE(again.empty());
  EXPECT_EQ(pool.retained(), 0u);
  EXPECT_EQ(pool.count(), 0u);
}

TEST(BufferPool, TheSmallestThatFitsOrANewOne) {
  BufferPool pool(1000);
  for (std::size_t c : {300u, 100u, 200u}) pool.give(sized(c));
  EXPECT_EQ(pool.take(150).capacity(), 200u);
  EXPECT_EQ(pool.take(400).capacity(), 400u);  // none fits: a new one, the kept ones stay
  EXPECT_EQ(pool.count(), 2u);
  EXPECT_EQ(pool.retained(), 400u);
}

TEST(BufferPool, NeverKeepsMoreThanTheLimit) {
  BufferPool pool(500);
  pool.give(sized(600));  // larger than the limit: freed
  EXPECT_EQ(pool.count(), 0u);
  for (std::size_t c : {200u, 100u, 150u}) pool.give(sized(c));
  EXPECT_EQ(pool.retained(), 450u);
  pool.give(sized(300));  // displaces the smallest ones, 100 and 150
  EXPECT_EQ(pool.retained(), 500u);
  EXPECT_EQ(pool.count(), 2u);
  pool.give(sized(120));  // every kept one is larger: this one is freed
  EXPECT_EQ(pool.retained(), 500u);
  EXPECT_EQ(pool.take(250).capacity(), 300u);
  EXPECT_EQ(pool.take(150).capacity(), 200u);
  EXPECT_EQ(pool.retained(), 0u);
}

TEST(BufferPool, EmptyBuffersAreNotKept) {
  BufferPool pool(500);
  pool.give(std::vector<char>{});
  EXPECT_EQ(pool.count(), 0u);
}

}  // namespace
}  // namespace hetlb::mpi::detail
