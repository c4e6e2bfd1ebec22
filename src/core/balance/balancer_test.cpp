// The balancers' names (balancer.hpp) and the balancer global's rule (HybridTrigger::decide_global):
// a step whenever the plan shortens the iteration, at most one every min_interval iterations, none on
// a balanced load.
#include <gtest/gtest.h>

#include <string>

#include "hetlb/balance/balancer.hpp"
#include "hetlb/balance/hybrid_trigger.hpp"
#include "hetlb/error.hpp"

namespace hetlb::balance {
namespace {

TEST(Balancer, NamesRoundTripAndABadOneIsNamed) {
  for (Balancer b : {Balancer::diffusion, Balancer::global, Balancer::hybrid})
    EXPECT_EQ(parse_balancer(to_string(b)), b);
  try {
    parse_balancer("zoltan");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--balancer \"zoltan\": unknown; expected diffusion, global or hybrid");
  }
  EXPECT_THROW(parse_balancer("Global", "\"balancer\""), Error);
}

TEST(Balancer, GlobalStepsWheneverThePlanShortensTheIterationAndDue) {
  HybridTrigger trigger(4, 0.1);
  TriggerInputs in;
  in.iteration_seconds = 1;
  in.iterations_left = 0;  // no gain at all: global steps anyway
  in.collective_seconds = 1;
  const GlobalStep loaded = plan_global_step({100, 0, 0, 0}, {1, 1, 1, 1});
  const TriggerDecision first = trigger.decide_global(0, loaded, in);
  EXPECT_TRUE(first.step);
  EXPECT_EQ(first.cost, 1);  // evaluated, for the metrics
  EXPECT_FALSE(trigger.decide_global(3, loaded, in).step);  // not due
  EXPECT_TRUE(trigger.decide_global(4, loaded, in).step);
  EXPECT_FALSE(trigger.decide_global(100, plan_global_step({25, 25, 25, 25}, {1, 1, 1, 1}), in).step);  // balanced
}

}  // namespace
}  // namespace hetlb::balance
