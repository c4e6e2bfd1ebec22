// Ring redistribution files (JSON).
// Problem: {"loads": [L_0, ...], "targets": [T_0, ...] or "unbalance": [delta_0, ...],
//           "succ_cost": c or [c_{0,1}, ..., c_{n-1,0}], "pred_cost": c or [c_{0,n-1}, ..., c_{n-1,n-2}]}
// Extra fields are allowed. Without pred_cost the ring is unidirectional unless `bidirectional`, in
// which case each link costs the same both ways (c_{i+1,i} = c_{i,i+1}).
// Plan / schedule: {"algorithm": ..., "time": t, "lower_bound": lb, "optimal": b,
//           "transfers": [{"from": i, "to": j, "items": k, "start": s, "end": e, "direction": "succ"|"pred"}],
//           "final_loads": [...]}; "direction" is optional on input (deduced from from/to when n > 2).
#pragma once
#include <string>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::io {

// Errors are hetlb::Error with one line "<source>: <field path>: <what was expected>".
ring::Ring parse_ring_json(const std::string& text, const std::string& source = "ring", bool bidirectional = false);
ring::Ring load_ring_file(const std::string& path, bool bidirectional = false);

struct RingSchedule {
  std::vector<ring::Transfer> transfers;
  double time = 0;
};
// Reads the "transfers" and "time" of a plan file (as written by ring_plan_json) for `ring`.
RingSchedule parse_ring_schedule_json(const std::string& text, const ring::Ring& ring, const std::string& source = "schedule");
RingSchedule load_ring_schedule_file(const std::string& path, const ring::Ring& ring);

// The plan as JSON (the shape above, plus method, gap, bounds and the ring's kind).
std::string ring_plan_json(const ring::Ring& ring, const ring::Plan& plan, bool verified);

}  // namespace hetlb::io
