// Running a launcher (mpirun) as a child that a signal always ends: `hetlb calibrate` used to replace
// itself with mpirun, and an mpirun whose ranks were still starting ignored SIGTERM for minutes.
#pragma once
#include <string>
#include <vector>

namespace hetlb::cli {

// Runs argv[0] (looked up in PATH) with argv in its own process group and waits for it. SIGINT,
// SIGTERM and SIGHUP received meanwhile are passed on to that group; when it has not ended
// `grace_seconds` later, the child and every process below it are killed (SIGKILL). Returns the
// child's exit code, or 128 + the signal that ended it or this process. Throws hetlb::Error naming
// argv[0] when it cannot be started.
int run_supervised(const std::vector<std::string>& argv, double grace_seconds = 3.0);

}  // namespace hetlb::cli
