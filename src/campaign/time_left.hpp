// The time a campaign has left, estimated run by run from the runs' own times, so that a campaign run
// cheapest first (--smallest-first) does not promise an end its larger runs will not keep.
#pragma once
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "results_file.hpp"
#include "spec.hpp"

namespace hetlb::campaign {

// Each run left takes the mean wall time of the timed runs most like it: the same setting but its seed,
// else the same nodes, topology, platform, ratio and time limit, else the same nodes, topology and time
// limit (a run to 2,048 tau is not timed by one to 512 tau). Timed runs are
// the results file's rows (a resumed campaign's earlier pieces) and the runs finished since. A run like
// no timed one is counted apart, never guessed. The sum is shared by the jobs.
class TimeLeft {
 public:
  TimeLeft(const Spec& spec, const std::vector<std::size_t>& todo, const std::map<std::string, Row>& rows, int jobs);
  // Setting `id` of the spec finished after `wall_seconds`.
  void finished(std::size_t id, double wall_seconds);
  // "12 min so far, about 3.2 h left", "... about 3.2 h left and 40 runs unlike any timed yet",
  // "12 min so far" (nothing like the runs left is timed), "12 min in all" (none left).
  std::string text(double elapsed) const;
  // The runs left alone: "about 3.2 h left", "about 3.2 h left and 40 runs unlike any timed yet", or ""
  // (none left, or none like a timed run).
  std::string estimate() const;

 private:
  static constexpr int kLevels = 3;
  struct Mean {
    double sum = 0;
    std::size_t count = 0;
  };
  void add(std::size_t setting, double wall_seconds);
  const Spec& spec_;
  std::set<std::size_t> left_;
  std::map<std::string, Mean> means_[kLevels];
  std::vector<std::string> keys_[kLevels];  // per setting of the spec, its key at each level
  int jobs_;
};

}  // namespace hetlb::campaign
