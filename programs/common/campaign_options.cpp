// Command-line options shared by `hetlb campaign` and `hetlb-campaign`.
#include "number_checks.hpp"
#include "campaign_options.hpp"

#include <limits>

#include <fmt/format.h>

namespace hetlb::campaign {

using cli::non_negative;
using cli::positive;
using cli::whole_number;

void add_options(CLI::App& app, Options& o) {
  app.add_option("spec", o.spec,
                 "campaign JSON: spec_version, mode (convergence, fixed_duration, short), lists strategies, "
                 "virtual_load, integer, estimates, platforms, nodes, topologies, initial, ratios, seeds, "
                 "load_per_node, iterations, time_limit or time_limit_tau, min_comp_iter, min_lb_iter; "
                 "timeout_seconds; results (docs/simulation.md)")
      ->required();
  app.add_option("--results", o.results, "results CSV (default: the spec's \"results\", else SPEC.json.csv)");
  app.add_option("--timeout", o.timeout, "wall seconds per run, then recorded as timeout (0: none; default: the spec's)")
      ->check(non_negative());
  app.add_flag("--yes", o.yes, fmt::format("run more than {} settings", kConfirmAbove));
  app.add_flag("--retry", o.retry, "rerun the settings recorded as timeout or failed");
  app.add_flag("--allow-mixed-builds", o.allow_mixed_builds,
               "add rows to a results file that holds rows of another build (another commit, uncommitted changes, "
               "or rows without a build: \"unrecorded\"); the summary then names the builds");
  app.add_option("--max-runs", o.max_runs,
                 "start at most this many runs (0: all), then stop: a piece; run again to resume")
      ->check(whole_number<long>(0, std::numeric_limits<long>::max()));
  app.add_option("--budget", o.budget,
                 "start no run after this many wall seconds (0: no limit): a piece; run again to resume")
      ->check(non_negative());
  app.add_flag("--smallest-first", o.smallest_first,
               "run the fewest nodes first, then the smallest topology diameter (the cheapest), each configuration's "
               "variants together (partial results compare)");
  app.add_option("--max-nodes", o.max_nodes,
                 "run and summarise only the settings with at most this many nodes")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--min-nodes", o.min_nodes, "run and summarise only the settings with at least this many nodes")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option_function<std::vector<std::string>>(
         "--only",
         [&o](const std::vector<std::string>& items) {
           for (const auto& item : items) {
             const auto eq = item.find('=');
             // An empty value is the default parameters' only (params=: the variants with no parameter set).
             const bool may_be_empty = eq != std::string::npos && item.substr(0, eq) == "params";
             if (eq == std::string::npos || eq == 0 || (eq + 1 == item.size() && !may_be_empty))
               throw CLI::ValidationError("--only", item + ": expected COLUMN=VALUE[,VALUE...], e.g. topology=line");
             auto& values = o.only[item.substr(0, eq)];
             for (std::size_t start = eq + 1;;) {
               const auto comma = item.find(',', start);
               const std::string v = item.substr(start, comma == std::string::npos ? comma : comma - start);
               if (v.empty() && !may_be_empty)
                 throw CLI::ValidationError("--only", item + ": an empty value; expected COLUMN=VALUE[,VALUE...]");
               values.insert(v);
               if (comma == std::string::npos) break;
               start = comma + 1;
             }
           }
         },
         "run and summarise only the settings whose COLUMN (a results key column: platform, topology, ratio, "
         "strategy, ...) is one of the VALUES: COLUMN=VALUE[,VALUE...]; repeatable: a column given twice takes both "
         "lists, settings must match every column given")
      ->allow_extra_args(false);
  app.add_option("--metric", o.metric,
                 "rank by this result column (default: max_convergence_date, or computed_load in fixed-duration "
                 "mode; also avg_convergence_date, avg_idle_time, data_transfer_amount, data_messages, "
                 "ctrl_messages, load_spread_percent)");
  app.add_flag("--report", o.report_only, "run nothing: the summary (and --ranks, --plot) of the results so far");
  app.add_option("--ranks", o.ranks, "write every configuration's ranking (CSV)");
  app.add_option("--plot", o.plot,
                 "figures FILE, FILE-virtual, FILE-k, FILE-lead (.png or .svg): wins per ratio, paired effects, "
                 "best effort against the others");
}

}  // namespace hetlb::campaign
