// The hand-over's choice of items for an amount of load (item_selection.hpp): examples and properties.
#include "item_selection.hpp"

#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace hetlb::mpi::detail {
namespace {

double total(const std::vector<double>& costs, const std::vector<std::size_t>& chosen) {
  double s = 0;
  for (std::size_t i : chosen) s += costs[i];
  return s;
}

TEST(ItemSelection, ExpensiveItemsFirstThenCheapOnesFillTheRest) {
  const std::vector<double> costs{1, 10, 1, 10, 1, 1};
  const auto chosen = select_items(costs, 13.5);
  EXPECT_EQ(chosen, (std::vector<std::size_t>{3, 5, 4, 2}));  // 10, then three of cost 1 (latest first)
  EXPECT_DOUBLE_EQ(total(costs, chosen), 13);
}

TEST(ItemSelection, AnItemThatWouldOvershootStaysAndACheaperOneGoes) {
  const std::vector<double> costs{10, 4, 3};
  EXPECT_EQ(select_items(costs, 8), (std::vector<std::size_t>{1, 2}));
  EXPECT_TRUE(select_items(costs, 2.9).empty());  // short by less than the cheapest item: stays owed
}

TEST(ItemSelection, UnitCostsSendTheLastFloorOfTheAmountAsBefore) {
  const std::vector<double> costs(7, 1.0);
  EXPECT_EQ(select_items(costs, 3.7), (std::vector<std::size_t>{6, 5, 4}));
  EXPECT_EQ(select_items(costs, 2.9999999999).size(), 3u);  // floating error on whole amounts
  EXPECT_EQ(select_items(costs, 50).size(), 7u);
  EXPECT_TRUE(select_items(costs, 0).empty());
  EXPECT_TRUE(select_items(costs, -2).empty());
}

TEST(ItemSelection, SkippedItemsAreNotChosen) {
  const std::vector<double> costs{5, 5, 1};
  const std::vector<char> skip{0, 1, 0};
  EXPECT_EQ(select_items(costs, 10, skip), (std::vector<std::size_t>{0, 2}));
}

// Never above the amount; below it by less than the cheapest item left (so within the largest cost
// of the amount, when the items hold that much); every position at most once.
RC_GTEST_PROP(ItemSelection, SentTotalMeetsTheAmountWithinTheCheapestItemLeft, ()) {
  const auto ints = *rc::gen::container<std::vector<int>>(rc::gen::inRange(1, 40));
  std::vector<double> costs;
  for (int c : ints) costs.push_back(c / 4.0);
  double held = 0, largest = 0;
  for (double c : costs) held += c, largest = std::max(largest, c);
  const double amount = *rc::gen::inRange(0, 1000) / 1000.0 * (held + 5);
  const auto chosen = select_items(costs, amount);
  RC_ASSERT(chosen.size() <= costs.size());
  RC_ASSERT(std::set<std::size_t>(chosen.begin(), chosen.end()).size() == chosen.size());
  const double sent = total(costs, chosen);
  RC_ASSERT(sent <= amount + 1e-9);
  std::vector<char> taken(costs.size(), 0);
  for (std::size_t i : chosen) taken[i] = 1;
  for (std::size_t i = 0; i < costs.size(); ++i)
    if (!taken[i]) RC_ASSERT(amount - sent < costs[i] + 1e-9);
  if (amount <= held) RC_ASSERT(amount - sent < largest + 1e-9);
}

RC_GTEST_PROP(ItemSelection, UnitCostsAgreeWithTheCount, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(0, 60);
  const double amount = *rc::gen::inRange(-100, 8000) / 100.0;
  const auto chosen = select_items(std::vector<double>(n, 1.0), amount);
  RC_ASSERT(chosen.size() == unit_count(n, amount));
  for (std::size_t k = 0; k < chosen.size(); ++k) RC_ASSERT(chosen[k] == n - 1 - k);  // the last ones, back first
}

}  // namespace
}  // namespace hetlb::mpi::detail
