// A replayed scatter plan on a platform without contention matches the planner's prediction.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/sim/scatter_replay.hpp"

namespace hetlb::sim {
namespace {

// Runs the replay in a forked child (one SimGrid engine per process); returns finish dates and the
// makespan last, or an empty vector on failure.
std::vector<double> replay_in_child(const scatter::Problem& problem, const std::vector<Count>& items) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    std::vector<double> out;
    try {
      const ScatterReplay r = replay_scatter(problem, items);
      for (const auto& s : r.shares) out.push_back(s.finish);
      out.push_back(r.makespan);
    } catch (const std::exception& e) {
      fprintf(stderr, "replay failed: %s\n", e.what());
    }
    const auto bytes = static_cast<ssize_t>(out.size() * sizeof(double));
    if (write(fd[1], out.data(), static_cast<std::size_t>(bytes)) != bytes) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  std::vector<double> got;
  double x;
  while (read(fd[0], &x, sizeof x) == static_cast<ssize_t>(sizeof x)) got.push_back(x);
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  return got;
}

TEST(ScatterReplay, MatchesThePredictionWithoutContention) {
  const Platform platform = io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  scatter::Request req;
  req.items = 20000;
  const scatter::Result plan = scatter::plan_scatter(platform, req);
  const std::vector<double> sim = replay_in_child(plan.problem, plan.plan.items);
  ASSERT_EQ(sim.size(), plan.problem.size() + 1);
  for (std::size_t i = 0; i < plan.problem.size(); ++i)
    EXPECT_NEAR(sim[i], plan.schedule.shares[i].finish, 1e-6 * plan.schedule.makespan) << plan.problem.names[i];
  EXPECT_NEAR(sim.back(), plan.schedule.makespan, 1e-6 * plan.schedule.makespan);
}

TEST(ScatterReplay, FromASimGridXmlPlatform) {
  const std::string xml = std::string(HETLB_SOURCE_DIR) + "/../shared/platforms/small_platform.xml";
  if (!std::ifstream(xml)) GTEST_SKIP() << xml << " absent";
  int fd[2];
  ASSERT_EQ(pipe(fd), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    double out[3] = {-1, -1, -1};
    try {
      scatter::Request req;
      req.items = 1000;
      const XmlScatter x = replay_scatter_xml(xml, "Tremblay", 1e6, 1e4, req);
      out[0] = x.plan.schedule.makespan;
      out[1] = x.replay.makespan;
      out[2] = static_cast<double>(x.replay.shares.size());
    } catch (const std::exception& e) {
      fprintf(stderr, "replay failed: %s\n", e.what());
    }
    if (write(fd[1], out, sizeof out) != static_cast<ssize_t>(sizeof out)) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  double got[3] = {0, 0, 0};
  ASSERT_EQ(read(fd[0], got, sizeof got), static_cast<ssize_t>(sizeof got));
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  EXPECT_GT(got[0], 0);
  EXPECT_NEAR(got[1], got[0], 1e-6 * got[0]);  // single port: no contention, the replay matches
  EXPECT_EQ(got[2], 7);
}

TEST(ScatterReplay, PlatformReproducesTheCosts) {
  const Platform platform = io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  const scatter::Result plan = scatter::plan_scatter(platform, {});
  const std::string xml = scatter_platform_xml(plan.problem);
  EXPECT_NE(xml.find("<host id=\"p0\" speed=\"1f\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<route src=\"p15\" dst=\"p0\">"), std::string::npos);
  scatter::Problem table = plan.problem;
  table.comm[0] = CostFunction::table({{1, 1.0}, {2, 3.0}});
  EXPECT_THROW(scatter_platform_xml(table), Error);
}

}  // namespace
}  // namespace hetlb::sim
