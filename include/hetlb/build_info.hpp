// The identity of this build: hetlb's version, the git commit it was built from and whether the tree
// had uncommitted changes (computed at every build, "unknown" outside a git work tree), and the
// versions of SimGrid, MPI and GLPK it was configured with. Every program prints it for --version;
// every JSON output and campaign results row carries it.
#pragma once
#include <string>

namespace hetlb {

struct BuildInfo {
  std::string version;  // hetlb's own (the project's version)
  std::string commit;   // 40 hex digits, or "unknown"
  bool dirty = false;   // tracked files differed from the commit when it was built
  std::string simgrid, mpi, glpk;  // versions configured with ("unknown" when not found)
};

const BuildInfo& build_info();

// The build's short identity, recorded in results rows: the commit's first 12 hex digits, followed
// by "-dirty" when the tree had uncommitted changes; "unknown" (or "unknown-dirty": never) without git.
std::string build_id();

// What `PROGRAM --version` prints: one line "PROGRAM VERSION (commit C[, uncommitted changes])", then
// one line of the libraries' versions (no final newline).
std::string version_text(const std::string& program);

// For programs without an option parser of their own: prints version_text(program) on stdout and
// returns true when an argument is "--version".
bool print_version_if_asked(int argc, char** argv, const std::string& program);

}  // namespace hetlb
