// The one SimGrid engine of a process (private to hetlb_sim).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

namespace hetlb::sim::detail {

// Creates the engine with hetlb's settings: SimGrid's own logging limited to errors, and thread
// contexts under AddressSanitizer (whose stack checks do not follow SimGrid's fast context
// switches). Throws hetlb::Error when an engine was already created in this process.
std::unique_ptr<simgrid::s4u::Engine> make_engine(const std::vector<std::string>& extra = {});

// Runs the simulation to its end. Throws hetlb::Error naming `what` and the date when SimGrid finds
// a deadlock (actors that can never resume): the run's results would be those of a truncated run.
void run_engine(simgrid::s4u::Engine& engine, const std::string& what);

}  // namespace hetlb::sim::detail
