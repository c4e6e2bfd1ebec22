// A campaign's progress on stderr: each finished run with the time so far and an estimate of the time
// left, so that a study of hours says when it will end.
#pragma once
#include <cstddef>
#include <string>

namespace hetlb::campaign {

// "45 s", "12 min", "3.2 h".
std::string duration_text(double seconds);

// After `done` of `total` runs in `elapsed` wall seconds (all jobs together): "12 min so far, about 3.2 h
// left" (the mean time per finished run times the runs left), or "12 min in all" when none is left.
std::string time_left_text(double elapsed, std::size_t done, std::size_t total);

}  // namespace hetlb::campaign
