// hetlb: the command line over the hetlb library.
#include <cstdio>
#include <iostream>
#include <string>

#include "hetlb/build_info.hpp"
#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/interrupt.hpp"
#include "hetlb/output_path.hpp"

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb")) return 0;  // before MPI or any parsing
  CLI::App app{"hetlb: load balancing on heterogeneous distributed platforms"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.name("hetlb");
  app.require_subcommand(1);
  for (auto add_command : hetlb::cli::kCommands) add_command(app);
  if (argc >= 2 && argv[1][0] != '-') {  // an unknown command gets one line naming the known ones
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->get_name() == argv[1];
    }
    if (!found) {
      std::cerr << "hetlb: error: unknown command '" << argv[1] << "': expected one of " << known << "\n";
      return 2;
    }
  }
  try {
    // A command's output files appear together once it succeeds, or none (output_path.hpp); its
    // standard output is checked to the last byte (a full disk, a closed descriptor: one line, exit 1).
    hetlb::OutputTransaction outputs;
    try {
      app.parse(argc, argv);
    } catch (const hetlb::Interrupted& e) {
      // SIGINT or SIGTERM: the command stopped early and wrote what it had, marked partial (interrupt.hpp).
      hetlb::finish_standard_output();
      outputs.commit();
      std::cerr << "hetlb: " << e.what() << "\n";
      return hetlb::interrupt_exit_status();
    }
    hetlb::finish_standard_output();
    outputs.commit();
    if (hetlb::interrupted()) {  // the signal came once the work was done: the results are whole
      std::cerr << "hetlb: interrupted by " << hetlb::interrupt_signal_name()
                << " as the command ended; its results are complete\n";
      return hetlb::interrupt_exit_status();
    }
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "hetlb: error: " << e.what() << " (see hetlb --help)\n";
    return 2;
  } catch (const hetlb::Error& e) {
    std::cerr << "hetlb: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "hetlb: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
