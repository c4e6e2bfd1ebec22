// Output files of the CLI commands.
#pragma once
#include <string>

namespace hetlb::cli {

// Writes through a temporary file renamed into place: no partial file on failure. A symbolic link is
// followed (the file it names is replaced, not the link); a device or pipe (/dev/stdout) is written
// directly, as it cannot be replaced. Throws hetlb::Error naming the path.
void write_file(const std::string& path, const std::string& text);

}  // namespace hetlb::cli
