// Renders figures with gnuplot: the script gets a terminal chosen from the output's extension
// (.png or .svg) and writes to a temporary file renamed into place on success, so a failed run
// leaves no partial figure.
#pragma once
#include <string>

namespace hetlb::plot {

// "pngcairo ..." or "svg ..." for `path`; throws hetlb::Error for other extensions.
std::string terminal_for(const std::string& path, int width = 1100, int height = 650);

// Refuses, before any work, a figure that render() would refuse after it: throws hetlb::Error
// "OPTION PATH: ..." for an extension other than .png/.svg or a path that cannot be written (see
// hetlb/output_path.hpp). Does nothing for "" (no figure asked for).
void check_figure_path(const std::string& option, const std::string& path);

// Runs gnuplot on `script` (which must `set output` to the string OUTPUT_PLACEHOLDER) and moves the
// result to `path`. Throws hetlb::Error when gnuplot is missing or fails.
void render(const std::string& script, const std::string& path);

inline constexpr const char* kOutputPlaceholder = "@OUTPUT@";

// Quotes a string for a gnuplot script.
std::string quote(const std::string& s);

}  // namespace hetlb::plot
