// hetlb-peers-model: the model makespans (RR-4770, equation 2, hetlb's evaluator) of equal counts,
// Zoltan's BLOCK and RCB partitions with part sizes from speeds, and hetlb's lp and exact plans, for
// one platform file or for random platforms at one ratio of communication to computation. One CSV
// row per instance and policy on stdout. Runs as one MPI rank (Zoltan needs MPI): Zoltan computes
// NUM_GLOBAL_PARTS = processors parts on it. Every distribution is checked by id (each item exactly
// one owner); --check also checks exact <= lp <= LP (3)'s optimum + equation (4).
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "earth_model.hpp"
#include "hetlb/io/platform_json.hpp"
#include "number_checks.hpp"
#include "plan_policy.hpp"
#include "random_platform.hpp"
#include "ray.hpp"

namespace {

struct Options {
  std::string platform;
  std::size_t processors = 16;
  double ratio = 0;
  int instances = 1;
  std::uint64_t seed = 1;
  long long items = 0;
  std::string policies = "mpi-scatter,divmod,zoltan-block,zoltan-rcb,hetlb-lp,hetlb-exact";
  bool check = false;
  bool header = false;
  bool counts = false;
};

// RCB's coordinates: the seismic example's rays (source depth, epicentral offset), drawn from `seed`.
peers::Objects ray_objects(hetlb::Count n, std::uint64_t seed) {
  static const std::vector<seismic::Layer> model = seismic::earth_model();
  const std::vector<seismic::Ray> rays = seismic::generate_rays(n, seed, model);
  peers::Objects objects;
  for (const seismic::Ray& r : rays) {
    objects.ids.push_back(static_cast<ZOLTAN_ID_TYPE>(r.id));
    objects.xy.push_back(r.source_depth);
    objects.xy.push_back(r.offset);
  }
  return objects;
}

// Rows for one instance; returns false (with a line on stderr) when --check fails.
bool run_instance(const Options& o, const hetlb::Platform& platform, const std::string& name, double ratio,
                  long long instance, std::uint64_t seed) {
  const hetlb::Count n = platform.items;
  const peers::Objects objects = ray_objects(n, seed);
  std::vector<peers::Outcome> outcomes;
  for (peers::Policy policy : peers::parse_policies(o.policies))
    outcomes.push_back(peers::plan(policy, platform, n, objects, MPI_COMM_SELF));
  double best = std::numeric_limits<double>::infinity(), exact = NAN, lp = NAN, lp_bound = NAN;
  for (const peers::Outcome& out : outcomes) {
    best = std::min(best, out.makespan);
    if (out.policy == peers::Policy::HetlbExact) exact = out.makespan;
    if (out.policy == peers::Policy::HetlbLp) lp = out.makespan, lp_bound = out.lp_bound.value_or(NAN);
  }
  for (const peers::Outcome& out : outcomes) {
    std::size_t used = 0;
    for (hetlb::Count c : out.counts) used += c > 0 ? 1 : 0;
    std::printf("%s,%zu,%.6g,%lld,%lld,%s,%.9g,%.9g,%.9g,%zu,%.6f", name.c_str(), platform.processors.size(), ratio,
                instance, static_cast<long long>(n), peers::to_string(out.policy).c_str(), out.makespan,
                out.makespan / best, std::isnan(exact) ? NAN : out.makespan / exact, used, out.seconds);
    if (o.counts) {
      std::string shares;
      for (hetlb::Count c : out.counts) shares += (shares.empty() ? "" : " ") + std::to_string(c);
      std::printf(",%s", shares.c_str());
    }
    std::printf("\n");
  }
  if (o.check && !std::isnan(exact) && !std::isnan(lp)) {
    const double tolerance = 1e-9 * std::max(1.0, lp_bound);
    if (!(exact <= lp + tolerance) || !(lp <= lp_bound + tolerance)) {
      std::fprintf(stderr, "hetlb-peers-model: %s instance %lld: expected exact <= lp <= LP optimum + equation (4), got %.9g, %.9g, %.9g\n",
                   name.c_str(), instance, exact, lp, lp_bound);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-model")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  CLI::App app{"Model makespans (RR-4770 equation 2) of equal counts, Zoltan BLOCK/RCB and hetlb lp/exact"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.add_option("--platform", o.platform, "hetlb platform JSON (else random platforms)");
  app.add_option("--processors", o.processors, "random platforms: processors")->check(CLI::Range(2, 100000));
  app.add_option("--ratio", o.ratio, "random platforms: mean per-item comm cost / per-item compute cost at mean speed")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--instances", o.instances, "random platforms: how many")->check(CLI::Range(1, 1000000));
  app.add_option("--seed", o.seed, "seed of the random platforms and of the rays")
      ->check(hetlb::cli::whole_number<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()));
  app.add_option("--items", o.items, "items (default: the platform's, or 100000)")->check(CLI::Range(1LL, 100'000'000LL));
  app.add_option("--policies", o.policies, "comma-separated: mpi-scatter, divmod, zoltan-block, zoltan-rcb, hetlb-lp, hetlb-exact");
  app.add_flag("--check", o.check, "fail unless exact <= lp <= LP (3) optimum + equation (4) on every instance");
  app.add_flag("--header", o.header, "print the CSV header first");
  app.add_flag("--counts", o.counts, "add a column: each processor's items, file (rank) order, space-separated");
  int code = 0;
  try {
    app.parse(argc, argv);
    peers::parse_policies(o.policies);  // an unknown policy: one line, before any work
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    code = -1;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::fprintf(stderr, "hetlb-peers-model: %s (see hetlb-peers-model --help)\n", e.what());
    code = 2;
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "hetlb-peers-model: --policies: %s\n", e.what());
    code = 2;
  }
  if (code != 0 || rank != 0) {  // the work is rank 0's alone (Zoltan on MPI_COMM_SELF)
    MPI_Finalize();
    return code < 0 ? 0 : code;
  }
  if (o.header)
    std::printf("platform,processors,ratio,instance,items,policy,makespan,relative_to_best,relative_to_exact,used,seconds%s\n",
                o.counts ? ",counts" : "");
  bool ok = true;
  try {
    if (!o.platform.empty()) {
      hetlb::Platform platform = hetlb::io::load_platform_file(o.platform);
      if (o.items > 0) platform.items = o.items;
      if (platform.items <= 0) platform.items = 100000;
      ok = run_instance(o, platform, platform.name, NAN, 0, o.seed);
    } else {
      for (int i = 0; i < o.instances && ok; ++i) {
        const hetlb::Platform platform =
            peers::random_platform(o.processors, o.ratio, o.seed, static_cast<std::uint64_t>(i), o.items > 0 ? o.items : 100000);
        ok = run_instance(o, platform, "random", o.ratio, i, o.seed * 1000003 + static_cast<std::uint64_t>(i));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-peers-model: %s\n", e.what());
    ok = false;
  }
  std::fflush(stdout);
  MPI_Finalize();
  return ok ? 0 : 1;
}
