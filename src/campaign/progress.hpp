// A campaign's progress on stderr: each finished run with the time so far and an estimate of the time
// left (time_left.hpp), so that a study of hours says when it will end.
#pragma once
#include <cstddef>
#include <string>

namespace hetlb::campaign {

// "45 s", "12 min", "3.2 h".
std::string duration_text(double seconds);

}  // namespace hetlb::campaign
