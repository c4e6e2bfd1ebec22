// A valid schedule for any flow: one contiguous block of items per used link, each starting as
// early as the sender's holdings (own items, then arrivals) and the one-port model allow.
#pragma once
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

// flow[i]: net items over link i -> i+1 (negative: P_{i+1} sends -flow[i] items to P_i), conserving
// (flow[i] - flow[i-1] = delta_i) and not circulating (some link has flow <= 0 and some >= 0).
// Right-going paths start at their source at time 0; on a processor that sends both ways the
// left-going block follows the right-going one, and on a processor that receives from both sides the
// block from the right follows the block from the left. A block of x items on link c, fed by a block
// of y items on link c' starting at s', starts at the earliest s >= 0 with
// s + (k-1) c >= s' + (k-L) c' for every send k > L (L = the sender's own items): only k = L+1 and
// k = x need checking since both sides are linear in k.
std::vector<Transfer> block_schedule(const Ring& ring, const std::vector<Count>& flow);

// Lemma 10: the flow on one link fixes all others: flow[i] = theta + F_i (F the prefix unbalances;
// theta is the flow over link n-1 -> 0).
std::vector<Count> flow_from_theta(const std::vector<Count>& prefix, Count theta);

}  // namespace hetlb::ring

namespace hetlb::ring {

// A schedule for any non-circulating flow on a bidirectional ring, built from Algorithm 2: every
// maximal path of right-going links is planned as a unidirectional ring of its own (its source only
// sends, its sink only receives, so Lemma 5 applies to it when its forwarders hold an item before and
// after), starting at 0; every left-going path likewise, delayed as a whole until its source has
// finished sending right and its sink has finished receiving from the left (only the end points of a
// path can be shared with the other direction). At most max_transfers transfers for the item-by-item
// forwarding in all; `capped` tells whether the limit was reached somewhere.
std::vector<Transfer> path_schedule(const Ring& ring, const std::vector<Count>& flow, std::size_t max_transfers,
                                    bool* capped = nullptr);

}  // namespace hetlb::ring
