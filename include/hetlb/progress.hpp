// Progress of the long computations (the GLPK fallback of `lp`, the `best` order's local search): the
// core reports, a program that wants the lines (the command line, on stderr) sets a sink. Lines come
// at most every kProgressPeriod seconds; they never change a result.
#pragma once
#include <functional>
#include <string>

namespace hetlb {

inline constexpr double kProgressPeriod = 2.0;  // seconds between two lines

using ProgressSink = std::function<void(const std::string& line)>;

// Sets (or, with an empty sink, removes) where progress lines go; the first comes kProgressPeriod
// seconds after this call. Not thread-safe: set once, by the program's main thread.
void set_progress_sink(ProgressSink sink);

bool progress_wanted();  // a sink is set

// Calls the sink with line() when one is set and kProgressPeriod seconds have passed since the last line.
void report_progress(const std::function<std::string()>& line);

}  // namespace hetlb
