// Emulated unlike ranks of hetlb-diffuse (emulation.hpp).
#include "emulation.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <mpi.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "hetlb/number_text.hpp"

#ifdef HETLB_SMPI
#include <smpi/smpi.h>
#else
#include <chrono>
#include <thread>
#endif

namespace diffuse {

namespace {
double number(const std::string& text, const std::string& what) {
  const std::optional<double> v = hetlb::number_of(text);
  if (!v) throw hetlb::Error(fmt::format("{}: \"{}\" is not a number", what, text));
  return *v;
}

void check(const std::vector<double>& speeds, int ranks, const std::string& what) {
  if (speeds.size() != static_cast<std::size_t>(ranks))
    throw hetlb::Error(fmt::format("{}: {} speeds for {} ranks; expected one speed per rank", what, speeds.size(), ranks));
  for (std::size_t r = 0; r < speeds.size(); ++r)
    if (!(speeds[r] > 0) || !std::isfinite(speeds[r]))
      throw hetlb::Error(fmt::format("{}: speed {} of rank {}: expected a finite speed > 0", what, speeds[r], r));
}
}  // namespace

std::vector<double> parse_speeds(const std::string& arg, int ranks) {
  // A list unless a file of that name exists (never opened here: a named pipe would block).
  const bool list = !arg.empty() && arg.find_first_not_of("0123456789.,eE+-naifNAIF ") == std::string::npos &&
                    hetlb::unreadable_reason(arg) == "no such file";
  std::vector<double> speeds;
  if (list) {
    speeds = hetlb::numbers_of(arg, fmt::format("--speeds {}", arg));
    check(speeds, ranks, fmt::format("--speeds {}", arg));
    return speeds;
  }
  if (const std::string why = hetlb::unreadable_reason(arg); !why.empty())
    throw hetlb::Error(fmt::format("--speeds {}: {}; expected a list such as 1,1,2,4 or a file", arg, why));
  const std::string what = fmt::format("--speeds {}", arg);
  try {
    speeds = hetlb::mpi::read_speeds(arg);  // hetlb-calibrate's platform file, or numbers
  } catch (const std::exception& e) {
    throw hetlb::Error(fmt::format("--speeds: {}", e.what()));
  }
  check(speeds, ranks, what);
  return speeds;
}

Slowdown parse_slowdown(const std::string& arg, int ranks) {
  const std::string what = fmt::format("--slowdown {}", arg);
  std::vector<std::string> parts;
  std::stringstream in(arg);
  for (std::string p; std::getline(in, p, ':');) parts.push_back(p);
  if (parts.size() != 4) throw hetlb::Error(what + ": expected RANK:FACTOR:START:END");
  Slowdown s;
  const double rank = number(parts[0], what);
  if (!(rank >= 0 && rank < ranks) || rank != std::floor(rank))
    throw hetlb::Error(fmt::format("{}: rank {} out of range; expected 0 to {}", what, parts[0], ranks - 1));
  s.rank = static_cast<int>(rank);
  s.factor = number(parts[1], what);
  s.start = number(parts[2], what);
  s.end = number(parts[3], what);
  if (!(s.factor > 0 && s.factor <= kMaxSlowdownFactor))
    throw hetlb::Error(fmt::format("{}: factor {}: expected a finite factor > 0, at most {:g}", what, parts[1],
                                   kMaxSlowdownFactor));
  if (!(s.start >= 0) || !std::isfinite(s.start))
    throw hetlb::Error(fmt::format("{}: start {}: expected a non-negative number of seconds", what, parts[2]));
  if (!(s.end > s.start) || !std::isfinite(s.end))
    throw hetlb::Error(fmt::format("{}: end {} before its start {}; expected START < END", what, parts[3], parts[2]));
  return s;
}

void check_slowdowns(const std::vector<Slowdown>& slowdowns) {
  for (std::size_t i = 0; i < slowdowns.size(); ++i)
    for (std::size_t j = i + 1; j < slowdowns.size(); ++j) {
      const Slowdown& a = slowdowns[i];
      const Slowdown& b = slowdowns[j];
      if (a.rank == b.rank && a.start < b.end && b.start < a.end)
        throw hetlb::Error(fmt::format("--slowdown: intervals {}-{} s and {}-{} s of rank {} overlap; expected "
                                       "disjoint intervals on one rank",
                                       a.start, a.end, b.start, b.end, a.rank));
    }
}

Emulation::Emulation(std::vector<double> speeds, std::vector<Slowdown> slowdowns, int rank, double unit)
    : active_(true) {
  const double slowest = *std::min_element(speeds.begin(), speeds.end());
  base_ = unit * slowest / speeds[static_cast<std::size_t>(rank)];
  for (const Slowdown& s : slowdowns)
    if (s.rank == rank) mine_.push_back(s);
}

double Emulation::cost(double elapsed) const {
  for (const Slowdown& s : mine_)
    if (elapsed >= s.start && elapsed < s.end) return base_ * s.factor;
  return base_;
}

// A slowdown's factor holds within its window only: work begun in it at the slowed cost goes on at the
// next cost from the window's end (and a window that begins meanwhile slows the rest).
double Emulation::done_at(double elapsed, double items) const {
  double t = elapsed, left = items;
  for (;;) {
    const double c = cost(t);
    double next = std::numeric_limits<double>::infinity();
    for (const Slowdown& s : mine_) {
      if (s.start > t) next = std::min(next, s.start);
      if (s.start <= t && s.end > t) next = std::min(next, s.end);
    }
    if (t + left * c <= next) return t + left * c;
    left -= (next - t) / c;
    t = next;
  }
}

void Emulation::spend(double from, double start, double items) const {
  const double until = start + done_at(from - start, items);
  for (double left = until - MPI_Wtime(); left > 0; left = until - MPI_Wtime()) {
#ifdef HETLB_SMPI
    smpi_usleep(static_cast<useconds_t>(left * 1e6 + 0.5));
#else
    std::this_thread::sleep_for(std::chrono::duration<double>(left));
#endif
  }
}

}  // namespace diffuse
