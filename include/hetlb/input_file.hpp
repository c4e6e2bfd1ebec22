// Whether a path names a file hetlb can read, and why not: every reader of a user's file (platforms,
// topologies, initial loads, campaign specs, factors) names the same reasons.
#pragma once

#include <string>

namespace hetlb {

// "" when `path` is a readable regular file (or a pipe of the process's own: /dev/stdin, a shell's
// process substitution /dev/fd/N), else "no such file", "is a directory", "is not a regular file" (a
// device, a named pipe or a socket) or "cannot be read (<the system's reason>)". A file it accepts is an
// input of the command (register_input, output_path.hpp): it throws Error when an output claims it.
std::string unreadable_reason(const std::string& path);

}  // namespace hetlb
