// --version of both matrix-vector programs: hetlb's build identity (include/hetlb/build_info.hpp),
// callable from their C mains, before MPI starts.
#include <string>

#include "hetlb/build_info.hpp"

extern "C" int matvec_print_version_if_asked(int argc, char** argv) {
  std::string name = argc > 0 ? argv[0] : "hetlb-matvec";
  if (const auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  return hetlb::print_version_if_asked(argc, argv, name) ? 1 : 0;
}
