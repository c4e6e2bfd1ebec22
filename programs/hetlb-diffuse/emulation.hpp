// Unlike ranks, emulated (hetlb-diffuse --speeds, --slowdown): rank r's kernel takes 1/s_r as long as
// the slowest rank's, and a slowdown multiplies a rank's cost by FACTOR from START to END (seconds after
// start()). The cost is spent by waiting, not by spinning, so that a run with more ranks than cores
// measures the balancing and not each rank's CPU share.
#pragma once
#include <string>
#include <vector>

namespace diffuse {

// "1,1,2,4" (one relative speed per rank) or a file: hetlb-calibrate's platform JSON (speed = 1 / its
// per-item compute cost, processors in rank order) or whitespace/comma-separated numbers. Throws
// hetlb::Error "--speeds ...: ..." for a wrong count or a speed that is not finite and > 0.
std::vector<double> parse_speeds(const std::string& arg, int ranks);

struct Slowdown {
  int rank = 0;
  double factor = 1, start = 0, end = 0;
};

// "RANK:FACTOR:START:END"; throws hetlb::Error "--slowdown ...: ..." for a rank out of range, a factor
// <= 0 or above kMaxSlowdownFactor (or not finite), START < 0 or END <= START.
constexpr double kMaxSlowdownFactor = 1e6;
Slowdown parse_slowdown(const std::string& arg, int ranks);
// Throws hetlb::Error when two slowdowns of one rank overlap.
void check_slowdowns(const std::vector<Slowdown>& slowdowns);

class Emulation {
 public:
  Emulation() = default;
  // unit: seconds per item on the slowest rank at full speed.
  Emulation(std::vector<double> speeds, std::vector<Slowdown> slowdowns, int rank, double unit);
  bool active() const { return active_; }
  // Seconds per item of this rank at `elapsed` seconds after start.
  double cost(double elapsed) const;
  // The date (s after start) at which `items` begun at `elapsed` are done, each cost over its window.
  double done_at(double elapsed, double items) const;
  // Waits (sleeps) until those items begun at `from` are done, MPI_Wtime dates.
  void spend(double from, double start, double items) const;

 private:
  bool active_ = false;
  double base_ = 0;  // this rank's seconds per item
  std::vector<Slowdown> mine_;
};

}  // namespace diffuse
