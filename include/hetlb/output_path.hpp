// Whether hetlb can write a user's output file, and why not: every command checks its output paths
// (figures, traces, rankings, hostfiles) before it works, so that a long run never ends on a path it
// cannot write.
#pragma once

#include <string>

namespace hetlb {

// "" when a file can be written at `path` (created, or replaced in its folder), else "no file name",
// "is a directory", "its folder does not exist", "its folder is not a directory" or "cannot write in its
// folder (<the system's reason>)". Devices and pipes (/dev/stdout) are written as they are: "".
std::string unwritable_reason(const std::string& path);

// Throws Error "OPTION "PATH": REASON; expected a writable path" when unwritable_reason is not "".
void check_writable(const std::string& option, const std::string& path);

}  // namespace hetlb
