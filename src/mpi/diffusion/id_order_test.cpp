// The root's placement of gathered items by id (id_order.hpp): examples and properties.
#include "id_order.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace hetlb::mpi::detail {
namespace {

TEST(IdOrder, DenseIdsGoToTheirOwnPlace) {
  std::vector<std::size_t> position;
  std::vector<std::uint64_t> ordered;
  ASSERT_TRUE(order_by_id({2, 0, 3, 1}, position, ordered));
  EXPECT_EQ(position, (std::vector<std::size_t>{2, 0, 3, 1}));
  EXPECT_EQ(ordered, (std::vector<std::uint64_t>{0, 1, 2, 3}));
}

TEST(IdOrder, SparseIdsGoInAscendingOrder) {
  std::vector<std::size_t> position;
  std::vector<std::uint64_t> ordered;
  ASSERT_TRUE(order_by_id({70, 7, 1000000, 8}, position, ordered));
  EXPECT_EQ(position, (std::vector<std::size_t>{2, 0, 3, 1}));
  EXPECT_EQ(ordered, (std::vector<std::uint64_t>{7, 8, 70, 1000000}));
}

TEST(IdOrder, AnIdTwiceIsRefused) {
  std::vector<std::size_t> position;
  std::vector<std::uint64_t> ordered;
  EXPECT_FALSE(order_by_id({1, 0, 1}, position, ordered));   // dense range, one id missing
  EXPECT_FALSE(order_by_id({9, 5, 9}, position, ordered));   // sorted path
  EXPECT_TRUE(order_by_id({}, position, ordered));
}

// Any set of distinct ids in any (seeded) order: the positions are a permutation that sorts the ids.
RC_GTEST_PROP(IdOrder, PositionsSortTheIds, (std::vector<std::uint64_t> ids, bool dense, unsigned seed)) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (dense)
    for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = k;
  std::vector<std::uint64_t> gathered = ids;
  std::shuffle(gathered.begin(), gathered.end(), std::mt19937(seed));
  std::vector<std::size_t> position;
  std::vector<std::uint64_t> ordered;
  RC_ASSERT(order_by_id(gathered, position, ordered));
  RC_ASSERT(ordered == ids);
  for (std::size_t k = 0; k < gathered.size(); ++k) RC_ASSERT(ordered[position[k]] == gathered[k]);
  if (!gathered.empty()) {  // a duplicate is always refused
    gathered.push_back(gathered[seed % gathered.size()]);
    RC_ASSERT(!order_by_id(gathered, position, ordered));
  }
}

}  // namespace
}  // namespace hetlb::mpi::detail
