// The kernel timed by the calibration: a user library's hetlb_kernel, or the built-in synthetic one.
#pragma once
#include <functional>
#include <string>

namespace hetlb::calibrate {

using Kernel = std::function<int(long long first, long long count)>;

// dlopen()s `path` and returns its hetlb_kernel; throws hetlb::Error naming the path and the cause.
Kernel load_kernel(const std::string& path);

// A synthetic kernel doing `work` floating-point iterations per item (deterministic arithmetic);
// in the SMPI build, `work` simulated flops per item.
Kernel synthetic_kernel(long long work);

}  // namespace hetlb::calibrate
