// Plans the paper's experiment through the installed library and prints the makespan.
#include <cstdio>

#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/solve.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const hetlb::Platform platform = hetlb::io::load_platform_file(argv[1]);
  const hetlb::scatter::Result r = hetlb::scatter::plan_scatter(platform, {});
  std::printf("%.3f\n", r.schedule.makespan);
  return r.plan.optimal ? 0 : 1;
}
