// Progress lines of the long computations (hetlb/progress.hpp).
#include "hetlb/progress.hpp"

#include <atomic>
#include <chrono>

namespace hetlb {

namespace {
ProgressSink& sink() {
  static ProgressSink s;
  return s;
}
std::atomic<double> last_line{0.0};
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

void set_progress_sink(ProgressSink s) {
  sink() = std::move(s);
  last_line = now();
}

bool progress_wanted() { return static_cast<bool>(sink()); }

void report_progress(const std::function<std::string()>& line) {
  if (!sink()) return;
  const double t = now();
  if (t - last_line < kProgressPeriod) return;
  last_line = t;
  sink()(line());
}

}  // namespace hetlb
