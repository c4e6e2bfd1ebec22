// --version of both matrix-vector programs: hetlb's build identity (include/hetlb/build_info.hpp),
// callable from their C option parser.
#include <cstdio>
#include <string>

#include "hetlb/build_info.hpp"

extern "C" void matvec_print_version(const char* program) {
  std::string name = program;
  if (const auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  std::printf("%s\n", hetlb::version_text(name).c_str());
}
