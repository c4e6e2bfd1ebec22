// Whether hetlb can write a user's output file, and why not, and the one way it writes one: every
// command checks its output paths (figures, traces, rankings, hostfiles) before it works, so that a
// long run never ends on a path it cannot write, and writes them whole or not at all.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace hetlb {

// The file that writing `path` replaces: `path` made absolute, its symbolic links followed (a link
// is written through, like a shell redirection; the link stays). For a path that does not exist yet,
// its existing part is resolved and the rest kept.
std::filesystem::path output_target(const std::string& path);

// "" when a file can be written at `path` (created, or replaced in its folder), else "no file name",
// "is a directory", "its folder does not exist", "its folder is not a directory" or "cannot write in its
// folder (<the system's reason>)". Devices and pipes (/dev/stdout) are written as they are: "".
std::string unwritable_reason(const std::string& path);

// Throws Error "OPTION "PATH": REASON; expected a writable path" when unwritable_reason is not "".
void check_writable(const std::string& option, const std::string& path);

// Writes `path` through a temporary file beside output_target(path), renamed into place once whole:
// a failure leaves the old file (or none) and no temporary file. A device or pipe is written
// directly. Throws Error "OPTION "PATH": cannot write the file (<reason>)".
void write_file(const std::string& option, const std::string& path,
                const std::function<void(std::ostream&)>& write);
void write_file(const std::string& option, const std::string& path, const std::string& text);

}  // namespace hetlb
