// The build's identity (include/hetlb/build_info.hpp): the commit and its mark come from a source
// generated at every build (cmake/build_commit.cmake), the versions from the configuration.
#include "hetlb/build_info.hpp"

#include <cstdio>
#include <cstring>

namespace hetlb {

namespace detail {
extern const char* const kBuildCommit;
extern const bool kBuildDirty;
}  // namespace detail

const BuildInfo& build_info() {
  static const BuildInfo info{HETLB_VERSION, detail::kBuildCommit, detail::kBuildDirty, HETLB_SIMGRID_VERSION,
                              HETLB_MPI_VERSION, HETLB_GLPK_VERSION};
  return info;
}

std::string build_id() {
  const BuildInfo& b = build_info();
  if (b.commit == "unknown") return "unknown";
  return b.commit.substr(0, 12) + (b.dirty ? "-dirty" : "");
}

std::string version_text(const std::string& program) {
  const BuildInfo& b = build_info();
  return program + " " + b.version + " (commit " + b.commit + (b.dirty ? ", uncommitted changes" : "") +
         ")\nbuilt with SimGrid " + b.simgrid + ", " + (b.mpi == "unknown" ? "MPI unknown" : b.mpi) + ", GLPK " + b.glpk;
}

bool print_version_if_asked(int argc, char** argv, const std::string& program) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("%s\n", version_text(program).c_str());
      return true;
    }
  return false;
}

}  // namespace hetlb
