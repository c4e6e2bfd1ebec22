// What rank 0 prints at the end of a run: a table or one JSON object.
#pragma once
#include <string>
#include <vector>

namespace seismic {

struct RankTimes {
  int rank = 0;
  long long items = 0;
  double receive = 0;  // s from the common start until the rank holds its rays
  double compute = 0;  // s tracing them
  double finish = 0;   // receive + compute
};

struct RunReport {
  std::string mode;  // uniform | hetlb
  long long rays = 0;
  int root = 0;
  double makespan = 0;  // max finish
  std::vector<RankTimes> ranks;
  std::string order;                 // hetlb: the send order policy
  std::vector<int> send_order;       // hetlb: ranks in send order, root last
  double predicted_makespan = -1;    // hetlb: the planner's equation (2), platform time unit
  std::vector<int> slowdown;         // --emulate: each rank traces every ray this many times
  double calibration_seconds = -1;   // hetlb without --platform: the built-in calibration's duration
  std::string gather;                // hetlb: the results came back by the plan's gather (send|reverse order)
  double checksum = 0;               // sum of travel times in ray order
  double sequential_checksum = 0;
  bool integrity = false;
  std::string integrity_message;
};

std::string to_json(const RunReport& report);
std::string to_table(const RunReport& report);

}  // namespace seismic
