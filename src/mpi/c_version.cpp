// The C interface's --version (include/hetlb/mpi/version.h): hetlb's build identity.
#include "hetlb/mpi/version.h"

#include <string>

#include "hetlb/build_info.hpp"

extern "C" int hetlb_mpi_print_version_if_asked(int argc, char** argv) {
  std::string name = argc > 0 && argv[0] ? argv[0] : "hetlb_mpi";
  if (const auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  return hetlb::print_version_if_asked(argc, argv, name) ? 1 : 0;
}
