// When the bulk-synchronous mode hands items over (docs/runtime.md, "End of the run and hand-overs"):
// each rank votes at every agreement call, the votes are summed over all ranks, and every rank applies
// the same sum. Pure (no MPI), so the rule is unit-tested on NodeState values (handover_rule_test.cpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "hetlb/diffusion/node_state.hpp"

namespace hetlb::mpi::detail {

struct HandoverVote {
  bool owes_whole_item = false;  // released + owed amounts reach one item on some edge
  bool out_of_band = false;      // the real load is outside the convergence band
  bool owes_part = false;        // something is owed, perhaps less than an item (released at a hand-over)
};

// A rank's vote: `in_band` is the tracker's verdict on its real load, `carry` the released amounts not
// yet sent as whole items (per neighbour), `items` the items it holds, `smallest` their smallest cost
// (an amount owed reaches an item when that item would be sent for it: item_selection.hpp).
// `within_margin`: the hybrid's rank within the margin of its share in a run the program ends (it gives
// nothing and decides nothing: balance::handover_beyond_margin) votes as in its band, so that the
// agreements back off instead of summing at every call an excess no rank acts on.
inline HandoverVote handover_vote(const diffusion::NodeState& state, bool in_band, const std::vector<double>& carry,
                                  std::size_t items, double smallest = 1.0, bool within_margin = false) {
  HandoverVote v;
  v.out_of_band = !in_band && !within_margin;
  v.owes_part = state.owed_total() > 0;
  if (items > 0)
    for (std::size_t p = 0; p < carry.size(); ++p)
      if (carry[p] + state.owed(static_cast<int>(p)) >= smallest - 1e-9) v.owes_whole_item = true;
  return v;
}

// The agreed decision from the sums of the votes (ranks owing a whole item, ranks out of their band,
// ranks owing something). A hand-over when whole items are owed, and also when some rank is out of its
// band while some rank owes a part of an item: only a hand-over releases owed amounts into the real
// loads, and the rank owing may be in its band while the one it owes is not, so neither alone sees it.
inline bool handover_agreed(double owing_whole, double out_of_band, double owing_part) {
  return owing_whole > 0 || (out_of_band > 0 && owing_part > 0);
}

// Hybrid (balance::handover_worth): some rank owes a whole item and none of those owing one finds it
// worth its move (`giving`: the ranks owing a whole item that would give it). No hand-over then: it would
// move nothing, and the agreements may back off as when every rank is in its band.
inline bool handover_declined(double owing_whole, double giving) { return owing_whole > 0 && giving == 0; }

// Ranks out of their band, none owing anything (no whole item, no part: `owing_whole`, `owing_part`
// the sums of those votes), after a consideration that declined a global step (`step_declined`, none
// or no hand-over since): nothing acts on the excess, so the agreements may back off as when calm.
inline bool idle_out_of_band(bool step_declined, double owing_whole, double owing_part) {
  return step_declined && owing_whole == 0 && owing_part == 0;
}

// An agreement's result is calm (the agreements may back off: next_sync_interval) when nothing moved
// (no step, no hand-over) and either every rank is in its band with every share known (`out_of_band`
// the sum of those votes), or the whole items owed were declined (handover_declined: a rank holding
// nothing measures no speed until items reach it, which declined moves never do, so unknown shares do
// not count then), or the ranks out of their band are idle (idle_out_of_band).
inline bool agreement_calm(bool stepped, bool hand_over, double out_of_band, bool shares_known, bool declined,
                           bool step_declined, double owing_whole, double owing_part) {
  if (stepped || hand_over) return false;
  return (out_of_band == 0 && shares_known) || declined || idle_out_of_band(step_declined, owing_whole, owing_part);
}

// An agreement's sum is cheap when completing it made a rank wait at most this fraction of one call's
// span (the program's time between two calls). The rank that reaches the call last waits for the sum's
// messages alone, the others for that rank too, so the sums are cheap when some rank found them so.
constexpr double kCheapAgreement = 0.01;
inline bool agreement_cheap(double waited, double seconds_per_call) {
  return seconds_per_call > 0 && waited <= kCheapAgreement * seconds_per_call;
}

// Calls until the next agreement, decided from the same sums on every rank. `fixed` > 0: that many
// (sync_interval as set). 0, adaptive: 1 while anything is to be done (a hand-over now, a rank out of
// its band, the shares not known yet; parts of an item owed while every rank is in band are not), so
// items move at the call after a decision;
// once all is calm the interval doubles up to `longest`, so that a balanced run pays a wait on the sum
// every `longest` calls only (the classical exponential back-off). The caller passes calm = false
// while the sums are cheap (agreement_cheap on some rank): a back-off would save nothing and would see
// a change (a rank that slows down) up to 2 x `longest` calls late instead of at the next call.
inline long next_sync_interval(long current, long fixed, long longest, bool calm) {
  if (fixed > 0) return fixed;
  return calm ? std::min(2 * std::max(1L, current), std::max(1L, longest)) : 1;
}

}  // namespace hetlb::mpi::detail
