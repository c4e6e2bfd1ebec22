// hetlb campaign SPEC.json [-j JOBS]: a matrix of diffusion simulations run as parallel
// `hetlb simulate diffusion` processes (src/campaign): resumable, per-run timeout, pieces, and a
// per-configuration comparison of the strategies on stdout.
#include <memory>

#include "campaign.hpp"
#include "commands.hpp"
#include "campaign_options.hpp"

namespace hetlb::cli {

void add_campaign_command(CLI::App& app) {
  auto o = std::make_shared<campaign::Options>();
  CLI::App* sub = app.add_subcommand("campaign", "Run a matrix of diffusion simulations (resumable, parallel)");
  campaign::add_options(*sub, *o);
  sub->add_option("-j,--jobs", o->jobs, "parallel simulations")->check(CLI::Range(1, 256))->capture_default_str();
  sub->footer(
      "SIGINT (Ctrl-C) or SIGTERM stops the campaign: no run starts any more, the runs in progress are killed and "
      "not recorded, the rows written stay whole; one line on stderr, no summary, exit status 130 (SIGINT) or 143 "
      "(SIGTERM). The same command resumes it.");
  sub->callback([o] {
    o->hetlb = "/proc/self/exe";  // each run: this hetlb, `simulate diffusion`
    campaign::run_local(*o);
  });
}

}  // namespace hetlb::cli
