// Whether a path names a file hetlb can read, and why not: every reader of a user's file (platforms,
// topologies, initial loads, campaign specs, factors) names the same reasons.
#pragma once

#include <string>

namespace hetlb {

// "" when `path` is a readable regular file (or the process's own standard input, /dev/stdin), else "no
// such file", "is a directory", "is not a regular file" (a device, a named pipe or a socket) or "cannot
// be read (<the system's reason>)".
std::string unreadable_reason(const std::string& path);

}  // namespace hetlb
