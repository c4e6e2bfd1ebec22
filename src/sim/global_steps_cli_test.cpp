// hetlb simulate diffusion --balancer global|hybrid, end to end on SimGrid: global steps balance a
// heterogeneous platform from a single loaded node sooner than diffusion does, hybrid never takes a step
// whose predicted cost exceeds its gain, every step is reported and conserves the load, the default is
// diffusion as before, and a bad balancer is refused in one line.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace {

using json = nlohmann::json;

hetlb::testing::CommandResult hetlb(const std::string& args) {
  static const auto dir = hetlb::testing::scratch_dir("global-steps-cli");  // per process: ctest -j
  return hetlb::testing::run_hetlb("simulate diffusion " + args, dir);
}

json run_json(const std::string& args) {
  const auto r = hetlb(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// 16 nodes of the cluster at 1 to 4 Gflop/s, balanced by time, everything on node 0.
constexpr const char* kHeterogeneous =
    "--nodes 16 --topology torus --speeds 1,2,3,4,1,2,3,4,1,2,3,4,1,2,3,4 --balance time --initial single "
    "--load-per-node 100 --ratio 1 --iterations 20";

void expect_steps_reported_and_conserving(const json& j) {
  EXPECT_EQ(j.at("final_total_load").get<double>(), j.at("initial_total_load").get<double>());
  EXPECT_EQ(j.at("global_step_count").get<std::size_t>(), j.at("global_steps").size());
  EXPECT_GE(j.at("global_considered").get<std::size_t>(), j.at("global_steps").size());
  double last = -1;
  for (const json& g : j.at("global_steps")) {
    EXPECT_GT(g.at("date").get<double>(), last);
    last = g.at("date").get<double>();
    EXPECT_GT(g.at("load").get<double>(), 0);
    EXPECT_GE(g.at("transfers").get<int>(), 1);
    EXPECT_GT(g.at("collective_seconds").get<double>(), 0);
    EXPECT_GT(g.at("transfer_seconds").get<double>(), 0);
  }
}

TEST(SimulateGlobalSteps, GlobalBalancesAHeterogeneousPlatformSoonerThanDiffusion) {
  const json diffusion = run_json(kHeterogeneous);
  const json global = run_json(std::string(kHeterogeneous) + " --balancer global");
  ASSERT_TRUE(diffusion.at("converged").get<bool>());
  ASSERT_TRUE(global.at("converged").get<bool>());
  EXPECT_EQ(diffusion.at("balancer"), "diffusion");
  EXPECT_EQ(global.at("balancer"), "global");
  EXPECT_EQ(diffusion.at("global_steps").size(), 0u);
  ASSERT_GE(global.at("global_steps").size(), 1u);
  expect_steps_reported_and_conserving(global);
  // One step moves every unit above a share once: 15/16 of the load at most, less than diffusion's
  // hops through the torus.
  EXPECT_LT(global.at("max_convergence_date").get<double>(), diffusion.at("max_convergence_date").get<double>());
  EXPECT_LE(global.at("data_transfer_amount").get<double>(), 1.0);
  EXPECT_LT(global.at("data_transfer_amount").get<double>(), diffusion.at("data_transfer_amount").get<double>());
  EXPECT_EQ(global.at("ctrl_messages").get<int>(), 0);  // no diffusion at all
  EXPECT_LT(global.at("final_time_imbalance").get<double>(), 1.02);
}

// The rule's basic property, on the simulated measured quantities: every step taken was predicted to
// gain more than it costs, and steps are at least kGlobalMinInterval (2) balancing periods apart.
TEST(SimulateGlobalSteps, HybridNeverTakesAStepCostingMoreThanItsGain) {
  for (const std::string& run : {std::string(kHeterogeneous) + " --balancer hybrid",
                                std::string("--nodes 16 --topology ring --initial random --seed 5 --load-per-node 100 "
                                            "--ratio 0.1 --iterations 20 --balancer hybrid --balance time "
                                            "--slowdown 3:4:0.05:1")}) {
    const json j = run_json(run);
    expect_steps_reported_and_conserving(j);
    long last = -100;
    for (const json& g : j.at("global_steps")) {
      EXPECT_GT(g.at("gain").get<double>(), g.at("cost").get<double>()) << run;
      EXPECT_GE(g.at("period").get<long>() - last, 2) << run;  // kGlobalMinInterval
      last = g.at("period").get<long>();
    }
    EXPECT_TRUE(j.at("converged").get<bool>()) << run;
  }
  // From a single loaded node the first step pays at once.
  EXPECT_GE(run_json(std::string(kHeterogeneous) + " --balancer hybrid").at("global_steps").size(), 1u);
}

// Without --balancer, diffusion exactly as before: the same run as --balancer diffusion.
TEST(SimulateGlobalSteps, DiffusionIsTheDefault) {
  const std::string run = "--nodes 8 --topology ring --initial random --seed 3 --load-per-node 100 --iterations 20";
  json plain = run_json(run), named = run_json(run + " --balancer diffusion");
  for (json* j : {&plain, &named})
    for (const char* k : {"wall_seconds", "events_per_wall_second"}) j->erase(k);
  EXPECT_EQ(plain, named);
  EXPECT_EQ(plain.at("balancer"), "diffusion");
  EXPECT_EQ(plain.at("global_considered").get<int>(), 0);
}

TEST(SimulateGlobalSteps, TheTableListsTheSteps) {
  const auto r = hetlb(std::string(kHeterogeneous) + " --balancer global");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nbalancer                 global\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nglobal_step_1            at "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("predicted gain"), std::string::npos) << r.out;
}

TEST(SimulateGlobalSteps, ABadBalancerIsRefusedInOneLine) {
  for (const char* bad : {"zoltan", "Global", ""})
    hetlb::testing::expect_refused_in_one_line(
        hetlb(std::string("--nodes 4 --topology ring --balancer '") + bad + "'"),
        std::string("--balancer \"") + bad + "\": unknown; expected diffusion, global or hybrid", bad);
}

}  // namespace
