// Whether a path names a file hetlb can read, and why not: every reader of a user's file (platforms,
// topologies, initial loads, campaign specs, factors) names the same reasons.
#pragma once

#include <cstddef>
#include <string>

namespace hetlb {

// "" when `path` is a readable regular file (or a pipe of the process's own: /dev/stdin, a shell's
// process substitution /dev/fd/N), else "no such file", "is a directory", "is not a regular file" (a
// device, a named pipe or a socket) or "cannot be read (<the system's reason>)". A file it accepts is an
// input of the command (register_input, output_path.hpp): it throws Error when an output claims it, and
// for a name holding a NUL byte (the system would read the name only up to it: another file).
std::string unreadable_reason(const std::string& path);

// The most any input file may hold (1 GiB): a pipe that never ends (`cat /dev/zero |`) is refused at
// this size instead of growing without bound (docs/limits.md).
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

// The whole text of the user's file `path`, `what` naming it in refusals ("the drift trace"): hetlb::Error
// "PATH: cannot read WHAT: REASON" (unreadable_reason), or "PATH: WHAT larger than N bytes" past
// max_bytes. Never blocks on a named pipe, never reads a device.
std::string read_input_text(const std::string& path, const std::string& what, std::size_t max_bytes = kMaxInputBytes);

}  // namespace hetlb
