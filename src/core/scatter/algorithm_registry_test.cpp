// The scatter registry: one entry per algorithm, names unique, parse and print agree, and every entry
// runs and gives a plan of its own name that places every item.
#include <set>

#include <gtest/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/algorithm_registry.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {
namespace {

TEST(AlgorithmRegistry, EveryEnumeratorHasOneEntryAndNamesAreUnique) {
  std::set<std::string> names;
  std::set<Algorithm> ids;
  for (const AlgorithmEntry& e : scatter_algorithms()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    EXPECT_TRUE(ids.insert(e.id).second) << e.name;
    EXPECT_FALSE(e.summary.empty()) << e.name;
    EXPECT_NE(e.run, nullptr) << e.name;
    EXPECT_EQ(parse_algorithm(e.name), e.id);
    EXPECT_EQ(to_string(e.id), e.name);
  }
  for (Algorithm a : {Algorithm::Uniform, Algorithm::DpBasic, Algorithm::Dp, Algorithm::Exact, Algorithm::Lp,
                      Algorithm::ClosedForm})
    EXPECT_EQ(ids.count(a), 1u) << static_cast<int>(a);
  EXPECT_EQ(all_algorithms().size(), scatter_algorithms().size());
}

TEST(AlgorithmRegistry, AnUnknownNameIsRefusedNamingEveryChoice) {
  try {
    parse_algorithm("dp2");
    FAIL() << "dp2 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "algorithm 'dp2': expected uniform, dp-basic, dp, exact, lp or closed-form");
  }
  EXPECT_EQ(default_compared_algorithms(), (std::vector<std::string>{"uniform", "exact", "lp", "closed-form"}));
}

TEST(AlgorithmRegistry, EveryEntryPlansEveryItemUnderItsOwnName) {
  Problem pb;
  pb.names = {"a", "b", "root"};
  pb.platform_index = {0, 1, 2};
  pb.comm = {CostFunction::linear(1), CostFunction::linear(2), CostFunction::linear(0)};
  pb.compute = {CostFunction::linear(3), CostFunction::linear(2), CostFunction::linear(4)};
  pb.items = 20;
  for (const AlgorithmEntry& e : scatter_algorithms()) {
    const Plan plan = run_algorithm(e.id, pb);
    EXPECT_EQ(plan.algorithm, e.name);
    Count total = 0;
    for (Count n : plan.items) total += n;
    EXPECT_EQ(total, pb.items) << e.name;
  }
}

}  // namespace
}  // namespace hetlb::scatter
