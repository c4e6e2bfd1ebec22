// How the load of an iterative ring application drifts (iterative.hpp). Every drift is a pure function
// of the iteration, so a run can be replayed from any iteration (the offline optimum relies on it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hetlb/ring/iterative.hpp"

namespace hetlb::ring {

class Drift {
 public:
  virtual ~Drift() = default;
  // The change applied after iteration t (zero-sum, see apply_delta).
  virtual void delta(std::size_t t, Delta& out) const = 0;
  virtual std::string name() const = 0;
};

// Moving window (the pulse propagation the paper cites): `width` consecutive processors carry `height`
// extra items; the window advances by `speed` processors per iteration (fractional speeds advance one
// processor every 1/speed iterations): at each step its first processor loses `height` items and
// the one past its end gains them. window_initial_loads() adds the window at processors 0..width-1.
std::unique_ptr<Drift> window_drift(std::size_t n, std::size_t width, Count height, double speed);
std::vector<Count> window_initial_loads(std::vector<Count> base, std::size_t width, Count height);

// Random walk of the loads: after iteration t, u_i uniform in [-step, step] (seeded, a counter-based
// hash of (seed, t, i)) and delta_i = u_i - u_{i-1}: each load walks, the total is unchanged.
std::unique_ptr<Drift> walk_drift(std::size_t n, Count step, std::uint64_t seed);

// A trace of per-iteration loads: the change after iteration t is rows[t+1] - rows[t]; the run starts
// from rows[0]. Rows of n loads >= 0, all with the same total.
std::unique_ptr<Drift> trace_drift(std::vector<std::vector<Count>> rows);

// Reads a trace file: one row of n whitespace- or comma-separated integers per line ('#' starts a
// comment). Throws hetlb::Error "<path>: line L: ..." on a wrong count, a negative or non-integer
// load, a total that differs from the first row's, or fewer than `min_rows` rows.
std::vector<std::vector<Count>> load_trace_file(const std::string& path, std::size_t n, std::size_t min_rows);

}  // namespace hetlb::ring
