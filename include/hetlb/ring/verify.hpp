// An independent schedule checker (shares only the data types with the planners).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

// Checks, in this order: links (ring neighbours only; towards the successor only on a unidirectional
// ring), items >= 1, start >= 0, end - start = items * cost; one-port (a processor's sends never
// overlap, nor its receptions); holdings (when a processor starts sending an item it holds one,
// items counting as held from their arrival); final loads = targets; the reported time is the last
// arrival. Returns the first violation as one line, or nullopt. Times compare with a relative
// tolerance of 1e-9 of the schedule's span (costs are floating-point numbers). Cost independent of
// the number of items: holdings are checked at the send instants where they can be minimal.
std::optional<std::string> verify_schedule(const Ring& ring, const std::vector<Transfer>& transfers, double time);

inline constexpr double kVerifyTolerance = 1e-9;

}  // namespace hetlb::ring
