// State shared by the simulated activities of one diffusion run (private to hetlb_sim).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/imbalance_curve.hpp"
#include "hetlb/diffusion/node_state.hpp"
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim::detail {

// Payload of both kinds of messages. `slot`: the sender's index in the receiver's neighbour list.
struct Message {
  int slot = 0;
  diffusion::Report report;  // control
  double amount = 0;         // data: load carried
};

struct Node {
  // `speed`: the host's, in Gflop/s (1 on the study's platforms), the node's own when balancing by time.
  Node(int id_, int degree, double load, const DiffusionConfig& c, double speed)
      : id(id_),
        state(load, degree, c.virtual_load, c.estimates, c.balance,
              c.balance == diffusion::Balance::time ? speed : 1.0),
        last_sent(degree),
        sent_any(degree, false),
        data_in_flight_to(degree, 0) {}
  int id = 0;
  simgrid::s4u::Host* host = nullptr;
  simgrid::s4u::Mailbox* ctrl_box = nullptr;
  simgrid::s4u::Mailbox* data_box = nullptr;
  std::vector<int> neighbours;  // node ids
  std::vector<int> slot_at;     // slot_at[p]: our index in neighbour p's list
  diffusion::NodeState state;   // what the three activities share (include/hetlb/diffusion/node_state.hpp)
  std::vector<diffusion::Report> last_sent;  // last control message to each neighbour
  std::vector<bool> sent_any;
  std::vector<int> data_in_flight_to;  // our data messages to each neighbour not yet received
  std::deque<Message> ctrl_fifo;  // received control messages, read by the load-balancing activity
  std::vector<simgrid::s4u::CommPtr> ctrl_sends, data_sends;  // our sends, possibly in flight
  simgrid::s4u::MutexPtr mutex;
  simgrid::s4u::ConditionVariablePtr data_cv;  // the computing activity waits here without load
  double idle_time = 0;
  bool waiting = false;
  double wait_start = 0;
  // Where the computing activity is: start of its current iteration, and whether that iteration's
  // computation has ended (then it is sleeping until the minimum iteration time has passed).
  double iteration_start = 0;
  bool iteration_recorded = false;
  double next_balancing = 0;  // date of the next load-balancing iteration
  double lb_phase = 0;        // date of the first one (DiffusionConfig::lb_phase)
  // A load-balancing activity whose last iteration changed nothing parks (suspends) until a message
  // arrives: its iterations meanwhile would decide nothing and send nothing, and are counted instead.
  simgrid::s4u::ActorPtr balancer;
  bool news = false, parked = false;
  std::uint64_t comp_iterations = 0, lb_iterations = 0;
  double last_compute_seconds = 0;  // measured: the computation of its last computing iteration
};

struct World {
  DiffusionConfig config;
  double tau = 0, min_comp = 0, min_lb = 0, time_limit = 0, flops_per_unit = 0;
  std::vector<Node> nodes;
  diffusion::ConvergenceTracker tracker{0, 0, 1};
  // Message payloads live here, so messages still in flight at the end leak nothing.
  std::deque<Message> pool;
  std::vector<Message*> free_list;
  bool finished = false;
  bool interrupted = false;  // DiffusionConfig::stop ended the run
  double finish_date = 0;
  std::string error;  // a faulty decision (strategy plug-in): the run ends and this is reported
  std::uint64_t in_flight = 0;       // data messages sent and not yet received
  std::uint64_t max_in_flight = 0;   // the most at once
  std::uint64_t ctrl_in_flight = 0;  // control messages sent and not yet received
  bool exclusive_hosts = true;       // one node per host: computing times are load * flops / speed
  bool fast_forwarded = false;
  std::uint64_t computed_iterations = 0;  // iterations counted, not simulated (parked balancing, fast_forward)
  simgrid::s4u::ConditionVariablePtr drained;
  simgrid::s4u::MutexPtr drain_mutex;
  std::uint64_t ctrl_messages = 0, data_messages = 0, ctrl_skipped = 0;
  double moved = 0;
  double computed = 0;  // load computed by the iterations counted (Metrics::computed_load)
  std::vector<LoadSample> trace;
  std::unique_ptr<diffusion::ImbalanceCurve> curve;  // the imbalance over time, when asked
  double next_trace = 0;  // date of the trace activity's next sample
  std::vector<double> speeds;  // each node's host speed (flop/s) without slowdowns
  double slowdowns_end = 0;    // date the last slowdown ends (0: none); speeds are constant from then on
  double wall_start = 0, last_progress = 0;
  // Global steps (global_steps.cpp): while `paused`, diffusion decides and releases nothing; `quiet`
  // is notified when nothing is in flight any more, `resumed` when the pause ends.
  bool paused = false;
  simgrid::s4u::MutexPtr pause_mutex;
  simgrid::s4u::ConditionVariablePtr quiet, resumed;
  std::vector<GlobalStepEvent> global_steps;
  std::uint64_t global_considered = 0;

  Message* make(const Message& m);
  // Every node's held load and the time imbalance with the hosts' speeds now, dated `date`.
  LoadSample sample(double date) const;
  void release(Message* m) { free_list.push_back(m); }
  void finish(double date);
};

// Actor bodies (diffusion_activities.cpp).
enum class Channel { control, data };
void receiving_activity(World& w, Node& n, Channel channel);
void computing_activity(World& w, Node& n);
void balancing_activity(World& w, Node& n);
void timer_activity(World& w);
void drain_activity(World& w);
void trace_activity(World& w);
// Wakes each slowed node's balancing at the dates its speed changes (unlike_speeds.cpp).
void speed_change_activity(World& w);
// The end of the run computed instead of simulated (steady_state.cpp).
void steady_state_activity(World& w);
// Balancers global and hybrid: considers and takes global steps (global_steps.cpp).
void global_step_activity(World& w);
// Waits while a global step pauses diffusion (global_steps.cpp).
void wait_while_paused(World& w);

}  // namespace hetlb::sim::detail
