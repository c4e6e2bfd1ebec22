// A global balancing step (docs/runtime.md, "Global steps"): from every rank's work held and speed, the
// target shares of hetlb's exact planner and the transfers that reach them.
//
// Shares: the divisible optimum of RR-4770's Theorems 1 and 2 (solve_rational_linear, the closed form
// of the static plans) for linear compute costs of 1 / speed per unit of work and free links (the
// work moves between ranks that already hold it, not from a root), in whole multiples of a quantum
// (1: whole unit-cost items), rounded to the integer optimum: the least max(n_i / s_i) over whole
// counts (from the floors, each unit left to the rank that would finish it first; for unit items the
// exact optimum, checked against brute force). The paper's rounding by fractional parts (Section 3.3)
// keeps each share within one item of total x s_i / sum(s) but can give the last units to slow ranks.
// With free links every rank takes part; no rank is left out.
//
// Transfers: surplus to deficit, any to any. The ranks above their share, in rank order, send to the
// ranks below theirs, in rank order (each transfer the smaller of the two amounts left). This moves the
// least possible work (every unit above a share moves once, none moves twice) in at most p - 1
// transfers. Any-to-any rather than neighbour-only: a neighbour-only step would need as many rounds
// as the neighbourhood's diameter and would carry work through intermediate ranks; the local,
// neighbour-only moves are diffusion's, which follows small drift between global steps.
#pragma once
#include <cstddef>
#include <vector>

namespace hetlb::balance {

struct Transfer {
  std::size_t from = 0, to = 0;  // ranks
  double work = 0;               // > 0
  bool operator==(const Transfer&) const = default;
};

struct GlobalStep {
  std::vector<double> target;        // work per rank after the step; sums to the work held
  std::vector<Transfer> transfers;   // by sender, then receiver, in rank order
  double time_before = 0;            // max over ranks of work / speed
  double time_after = 0;             // max over ranks of target / speed
  double moved = 0;                  // work moved (sum of the transfers)
  double busiest = 0;                // largest work sent plus received by one rank
};

// work: per rank, >= 0 and finite; speed: per rank, > 0 and finite (work per second, or relative
// speeds: only ratios matter); quantum > 0: shares are whole multiples of it (the residue of a total
// that is not one goes to the rank with the largest share). Throws hetlb::Error on bad input.
GlobalStep plan_global_step(const std::vector<double>& work, const std::vector<double>& speed, double quantum = 1);

}  // namespace hetlb::balance
