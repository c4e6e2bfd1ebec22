#include "kernel_loader.hpp"

#include <dlfcn.h>
#ifdef HETLB_SMPI
#include <smpi/smpi.h>
#endif

#include <fmt/format.h>

#include "hetlb/calibrate/kernel.h"
#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"

namespace hetlb::calibrate {

Kernel load_kernel(const std::string& path) {
  register_input(path);  // no output of the command may replace it (output_path.hpp)
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Error(fmt::format("{}: cannot load the kernel library ({})", path, ::dlerror()));
  void* sym = ::dlsym(lib, "hetlb_kernel");
  if (!sym) throw Error(fmt::format("{}: no symbol hetlb_kernel: expected int hetlb_kernel(long long, long long)", path));
  auto fn = reinterpret_cast<hetlb_kernel_fn>(sym);
  return [fn](long long first, long long count) { return fn(first, count); };
}

Kernel synthetic_kernel(long long work) {
#ifdef HETLB_SMPI
  // Under SimGrid's SMPI the work is simulated: `work` flops per item on the rank's host, exactly.
  return [work](long long, long long count) {
    smpi_execute_flops(static_cast<double>(work) * static_cast<double>(count));
    return 0;
  };
#else
  return [work](long long first, long long count) {
    volatile double sink = 0;
    for (long long i = first; i < first + count; ++i) {
      double x = 1.0 + static_cast<double>(i % 7) * 1e-3;
      for (long long k = 0; k < work; ++k) x = x * 0.999999 + 1e-6;
      sink = sink + x;
    }
    return sink >= 0 ? 0 : 1;
  };
#endif
}

}  // namespace hetlb::calibrate
