// Renders figures with gnuplot: the script gets a terminal chosen from the output's extension
// (.png or .svg) and writes to an exclusive temporary file renamed into place on success, so a failed
// run leaves no partial figure.
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
// result to `path` (inside an OutputTransaction, at its commit). gnuplot runs without a shell, in the
// figure's folder, writing to its standard output, a temporary file hetlb created beside the figure
// (hetlb/temp_file.hpp): `path` never enters the script. Throws hetlb::Error when gnuplot is missing or
// fails, or when `path` is an input or another output of the command (claim_output).
void render(const std::string& script, const std::string& path);

inline constexpr const char* kOutputPlaceholder = "@OUTPUT@";

// The one way a string (a file or processor name, a title) enters a gnuplot script as a command's
// argument: a single-quoted string, where gnuplot reads every character as it is (no `command`
// substitution, no backslash escapes, no @macro), the quote itself doubled, and every control character
// (a newline would end the command) replaced by '?'.
std::string quote(const std::string& s);

// A string as a column of an inline data block ($data << EOD): double-quoted (gnuplot's data quoting),
// a double quote inside replaced by ' and control characters by '?', so it is one column of one line
// and never the block's end. Data lines are never run as commands.
std::string quote_data(const std::string& s);

}  // namespace hetlb::plot
