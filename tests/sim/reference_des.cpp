// The diffusion model as a plain discrete-event simulation (test support, see reference_des.hpp).
// Written from the model's description (docs/simulation.md, "Simulation model"; the bookkeeping of
// include/hetlb/diffusion/node_state.hpp's header comment), not from the SimGrid activities: events
// are popped in date order (insertion order on equal dates), and each node is a handful of numbers.
#include "reference_des.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetlb/diffusion/balancing_phase.hpp"
#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"

namespace hetlb::sim::testing {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTie = 1e-9;  // seconds: dates this close are treated as equal by the tie detector

// What node i knows of, owes to and was told by one neighbour.
struct Peer {
  int node = 0;               // the neighbour's id
  int my_slot_there = 0;      // our index in the neighbour's list
  double reported = kInf;     // the load of its last control message (unknown: infinitely loaded)
  double its_ack = 0;         // how much of what we decided for it that message counted
  double decided = 0;         // all we decided to give it so far
  double counted = 0;         // all it gave us that our own view counts (announced or arrived)
  double owed = 0;            // decided and not yet sent
  double last_decision = 0;   // our last decision for it (announced with virtual load)
  bool told = false;          // a control message was sent to it
  double told_load = 0, told_counted = 0;  // the last one
};

struct Message {
  int to = 0, slot = 0;  // receiver and the sender's index in the receiver's list
  bool data = false;
  double amount = 0;                            // data
  double load = 0, announced = 0, counted = 0;  // control
  double duration = 0, sent = 0;
};

struct Channel {
  bool busy = false;
  double last_sent = -1;
  int last_sent_from = -1;
  std::deque<int> waiting;  // messages sent and not started (one_at_a_time)
};

struct Node {
  double held = 0;     // real load, computed on
  double arrived = 0;  // data arrived, not yet taken in
  double virt = 0;     // virtual load
  std::vector<Peer> peers;
  std::deque<int> ctrl_box;  // arrived control messages, read by the next balancing iteration
  Channel ctrl, data;
  bool waiting = false;
  double wait_since = 0, idle = 0;
  double iteration_start = 0;
  long streak = 0;
  double streak_start = 0;
  std::uint64_t comp_iterations = 0, lb_iterations = 0;
  double last_comp_start = -1, last_transfer_decision = -1, last_balance = -1, last_arrival = -1;
};

enum Kind { kComputeFrom, kComputed, kBalance, kArrive, kTimeLimit };

struct Event {
  double date;
  std::uint64_t seq;
  Kind kind;
  int who;  // node, or message index for kArrive
  bool operator>(const Event& o) const { return date != o.date ? date > o.date : seq > o.seq; }
};

class Reference {
 public:
  Reference(const DiffusionConfig& c, const StarPlatform& p, Delivery d) : c_(c), p_(p), delivery_(d) {}

  ReferenceResult run();

 private:
  void at(double date, Kind kind, int who) { queue_.push(Event{date, seq_++, kind, who}); }
  double view(const Node& n) const;
  double transit(int from, int to, double bytes) const;
  void send(int from, int peer, Message m);
  void start_transfer(int message);
  void arrive(int message);
  void compute_from(int i);  // the computing activity goes on at `now_`
  void computed(int i);
  void balance(int i);
  void finish();
  bool all_converged() const;
  bool rounding_depends_on_order(const Node& n) const;

  const DiffusionConfig& c_;
  const StarPlatform& p_;
  Delivery delivery_;
  std::vector<Node> nodes_;
  std::vector<Message> messages_;
  std::vector<double> in_transit_;  // data sent to each node and not arrived
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
  std::uint64_t seq_ = 0;
  double now_ = 0, average_ = 0, tau_ = 0, min_comp_ = 0, min_lb_ = 0, limit_ = 0, flops_ = 0;
  bool over_ = false;
  ReferenceResult r_;
  double moved_ = 0;
};

double Reference::view(const Node& n) const {
  if (c_.virtual_load) return std::max(0.0, n.virt);
  double owed = 0;
  for (const Peer& q : n.peers) owed += q.owed;
  return std::max(0.0, n.held + n.arrived - owed);
}

double Reference::transit(int from, int to, double bytes) const {
  return p_.latency[from] + p_.latency[to] + bytes / std::min(p_.bandwidth[from], p_.bandwidth[to]);
}

void Reference::send(int from, int peer, Message m) {
  const Peer& q = nodes_[from].peers[peer];
  m.to = q.node;
  m.slot = q.my_slot_there;
  // Message sizes are whole bytes (as SimGrid's): a load unit is kUnitBytes, at least one byte.
  const double bytes = m.data ? std::floor(std::max(1.0, m.amount * kUnitBytes)) : kControlBytes;
  m.duration = transit(from, q.node, bytes);
  m.sent = now_;
  messages_.push_back(m);
  const int id = static_cast<int>(messages_.size()) - 1;
  if (m.data) in_transit_[m.to] += m.amount;
  if (delivery_ == Delivery::per_message) {
    at(now_ + m.duration, kArrive, id);
    return;
  }
  Channel& ch = m.data ? nodes_[m.to].data : nodes_[m.to].ctrl;
  // Data sent to one node at the same date by two neighbours queues in an order of the engine's choice.
  if (m.data && ch.last_sent_from != from && std::abs(now_ - ch.last_sent) < kTie) ++r_.event_ties;
  ch.last_sent = now_;
  ch.last_sent_from = from;
  if (ch.busy) {
    ch.waiting.push_back(id);
  } else {
    ch.busy = true;
    start_transfer(id);
  }
}

void Reference::start_transfer(int message) { at(now_ + messages_[message].duration, kArrive, message); }

void Reference::arrive(int message) {
  const Message m = messages_[message];
  Node& n = nodes_[m.to];
  if (delivery_ == Delivery::one_at_a_time) {
    Channel& ch = m.data ? n.data : n.ctrl;
    if (ch.waiting.empty()) {
      ch.busy = false;
    } else {
      start_transfer(ch.waiting.front());
      ch.waiting.pop_front();
    }
  }
  if (std::abs(now_ - n.last_balance) < kTie) ++r_.event_ties;
  n.last_arrival = now_;
  if (!m.data) {
    n.ctrl_box.push_back(message);
    return;
  }
  in_transit_[m.to] -= m.amount;
  n.arrived += m.amount;
  if (!c_.virtual_load) n.peers[m.slot].counted += m.amount;
  if (std::abs(now_ - n.last_comp_start) < kTie && !n.waiting) ++r_.event_ties;
  if (n.waiting) {
    n.waiting = false;
    n.idle += now_ - n.wait_since;
    at(now_, kComputeFrom, m.to);
  }
}

// Algorithm 2: with nothing held or arrived, wait for data; otherwise take in what arrived, send what
// is owed (as far as held), compute on what is held.
void Reference::compute_from(int i) {
  Node& n = nodes_[i];
  if (n.held <= 0 && n.arrived <= 0) {
    n.waiting = true;
    n.wait_since = now_;
    return;
  }
  n.iteration_start = now_;
  n.last_comp_start = now_;
  if (std::abs(now_ - n.last_transfer_decision) < kTie) ++r_.event_ties;
  n.held += n.arrived;
  n.arrived = 0;
  for (std::size_t p = 0; p < n.peers.size(); ++p) {
    Peer& q = n.peers[p];
    const double a = std::min(q.owed, n.held);
    if (!(a > 0)) continue;
    n.held -= a;
    q.owed -= a;
    moved_ += a;
    ++r_.data_messages;
    Message m;
    m.data = true;
    m.amount = a;
    send(i, static_cast<int>(p), m);
  }
  if (n.held > 0)
    at(now_ + n.held * flops_ / p_.speed[i], kComputed, i);
  else
    computed(i);
}

// Announcements sent at the same date by several neighbours reach a node in an order that is the
// engine's choice; when adding them in the opposite order rounds differently, the virtual load (and
// what follows) may differ in its last bit between engines.
bool Reference::rounding_depends_on_order(const Node& n) const {
  std::vector<const Message*> read;
  for (int id : n.ctrl_box)
    if (messages_[id].announced > 0) read.push_back(&messages_[id]);
  for (std::size_t a = 0; a + 1 < read.size(); ++a)
    for (std::size_t b = a + 1; b < read.size(); ++b)
      if (std::abs(read[a]->sent - read[b]->sent) < kTie) {
        double forward = n.virt, backward = n.virt;
        for (const Message* m : read) forward += m->announced;
        for (auto m = read.rbegin(); m != read.rend(); ++m) backward += (*m)->announced;
        return forward != backward;
      }
  return false;
}

bool Reference::all_converged() const {
  return std::all_of(nodes_.begin(), nodes_.end(), [&](const Node& n) { return n.streak >= c_.convergence_iterations; });
}

void Reference::computed(int i) {
  Node& n = nodes_[i];
  ++n.comp_iterations;
  if (std::abs(n.held - average_) <= 0.01 * average_) {
    if (n.streak == 0) n.streak_start = now_;
    ++n.streak;
  } else {
    n.streak = 0;
  }
  if (all_converged()) {
    finish();
    return;
  }
  const double next = n.iteration_start + min_comp_;
  if (next > now_)
    at(next, kComputeFrom, i);
  else
    compute_from(i);
}

// Algorithm 3: read the control messages, decide, tell every neighbour (unless the message would
// repeat the previous one to it), come back one minimum iteration later.
void Reference::balance(int i) {
  Node& n = nodes_[i];
  if (std::abs(now_ - n.last_arrival) < kTie) ++r_.event_ties;
  n.last_balance = now_;
  for (int id : n.ctrl_box) {
    const Message& m = messages_[id];
    Peer& q = n.peers[m.slot];
    q.reported = m.load;
    q.its_ack = m.counted;
    if (c_.virtual_load && m.announced > 0) {
      n.virt += m.announced;
      q.counted += m.announced;
    }
  }
  if (c_.virtual_load && rounding_depends_on_order(n)) ++r_.rounding_ties;
  n.ctrl_box.clear();
  std::vector<double> believed;
  for (const Peer& q : n.peers)
    believed.push_back(c_.estimates == diffusion::Estimates::reported ? q.reported : q.reported + (q.decided - q.its_ack));
  const double before = view(n);
  const std::vector<double> t = diffusion::balance(c_.strategy, before, believed, {i, now_});
  bool transfers = false;
  for (std::size_t p = 0; p < n.peers.size(); ++p) {
    Peer& q = n.peers[p];
    q.last_decision = t[p];
    if (!(t[p] > 0)) continue;
    transfers = true;
    q.owed += t[p];
    q.decided += t[p];
    if (c_.virtual_load) n.virt -= t[p];
  }
  if (transfers) {
    if (std::abs(now_ - n.last_comp_start) < kTie) ++r_.event_ties;
    n.last_transfer_decision = now_;
  }
  const double load = view(n);
  if (c_.on_decision) {
    DecisionEvent e;
    e.node = i;
    e.date = now_;
    e.own_before = before;
    e.own_after = load;
    e.estimates_before = believed;
    e.transfers = t;
    c_.on_decision(e);
  }
  for (std::size_t p = 0; p < n.peers.size(); ++p) {
    Peer& q = n.peers[p];
    Message m;
    m.load = load;
    m.announced = c_.virtual_load ? q.last_decision : 0.0;
    m.counted = q.counted;
    if (q.told && m.announced == 0 && m.load == q.told_load && m.counted == q.told_counted) {
      ++r_.ctrl_skipped;
      continue;
    }
    q.told = true;
    q.told_load = m.load;
    q.told_counted = m.counted;
    ++r_.ctrl_messages;
    send(i, static_cast<int>(p), m);
  }
  ++n.lb_iterations;
  at(now_ + min_lb_, kBalance, i);
}

void Reference::finish() {
  over_ = true;
  r_.finish_date = now_;
}

ReferenceResult Reference::run() {
  const diffusion::Topology topology = diffusion::make_topology(c_.topology, c_.nodes);
  const int count = topology.size();
  const std::vector<double> initial =
      diffusion::make_initial_load(c_.initial, count, c_.load_per_node, c_.strategy.integer, c_.seed);
  if (static_cast<int>(p_.speed.size()) < count) throw Error("reference: fewer hosts than nodes");
  double total = 0;
  for (double x : initial) total += x;
  average_ = total / count;
  tau_ = average_ * c_.ratio * 1e-3;
  min_comp_ = c_.min_comp_iter >= 0 ? c_.min_comp_iter : tau_ / 10;
  min_lb_ = c_.min_lb_iter >= 0 ? c_.min_lb_iter : tau_;
  limit_ = c_.time_limit > 0 ? c_.time_limit : 10.0 * c_.convergence_iterations * tau_;
  flops_ = c_.ratio * kUnitFlopsPerRatio;
  nodes_.resize(count);
  in_transit_.assign(count, 0.0);
  for (int i = 0; i < count; ++i) {
    Node& n = nodes_[i];
    n.held = n.virt = initial[i];
    for (int j : topology.neighbours[i]) {
      Peer q;
      q.node = j;
      const auto& back = topology.neighbours[j];
      q.my_slot_there = static_cast<int>(std::find(back.begin(), back.end(), i) - back.begin());
      n.peers.push_back(q);
    }
  }
  const std::vector<double> phases = diffusion::balancing_phases(c_.lb_phase, count, c_.seed);
  for (int i = 0; i < count; ++i) {
    at(0, kComputeFrom, i);
    at(min_lb_ > 0 ? phases[static_cast<std::size_t>(i)] * min_lb_ : 0.0, kBalance, i);
  }
  at(limit_, kTimeLimit, 0);
  while (!over_ && !queue_.empty()) {
    const Event e = queue_.top();
    queue_.pop();
    now_ = e.date;
    switch (e.kind) {
      case kComputeFrom: compute_from(e.who); break;
      case kComputed: computed(e.who); break;
      case kBalance: balance(e.who); break;
      case kArrive: arrive(e.who); break;
      case kTimeLimit: finish(); break;
    }
  }
  // The end: idle nodes stop waiting, data in transit is delivered, metrics as the product defines them.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double idle = 0, dates = 0, latest = 0;
  for (int i = 0; i < count; ++i) {
    Node& n = nodes_[i];
    if (n.waiting) n.idle += r_.finish_date - n.wait_since;
    idle += n.idle;
    r_.final_loads.push_back(n.held + n.arrived + in_transit_[i]);
    const bool done = n.streak >= c_.convergence_iterations;
    r_.convergence_dates.push_back(done ? n.streak_start : nan);
    if (done) {
      ++r_.converged_nodes;
      dates += n.streak_start;
      latest = std::max(latest, n.streak_start);
    }
    r_.computing_iterations += n.comp_iterations;
    r_.balancing_iterations += n.lb_iterations;
  }
  r_.converged = r_.converged_nodes == count;
  r_.avg_convergence_date = r_.converged_nodes > 0 ? dates / r_.converged_nodes : nan;
  r_.max_convergence_date = r_.converged ? latest : nan;
  r_.avg_idle_time = idle / count;
  r_.data_transfer_amount = moved_ / total;
  double final_total = 0;
  for (double x : r_.final_loads) final_total += x;
  if (!(std::abs(final_total - total) <= (c_.strategy.integer ? 0.0 : 1e-9 * total)))
    throw Error(fmt::format("reference: final total load {:.17g} != initial {:.17g}", final_total, total));
  return r_;
}

}  // namespace

ReferenceResult run_reference(const DiffusionConfig& config, const StarPlatform& platform, Delivery delivery) {
  return Reference(config, platform, delivery).run();
}

}  // namespace hetlb::sim::testing
