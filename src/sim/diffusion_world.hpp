// State shared by the simulated activities of one diffusion run (private to hetlb_sim).
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim::detail {

// Payload of both kinds of messages. `slot`: the sender's index in the receiver's neighbour list.
struct Message {
  int slot = 0;
  double load = 0;    // control: sender's load after its balancing step
  double amount = 0;  // control: announced transfer (virtual load); data: load carried
};

struct Node {
  int id = 0;
  simgrid::s4u::Host* host = nullptr;
  simgrid::s4u::Mailbox* ctrl_box = nullptr;
  simgrid::s4u::Mailbox* data_box = nullptr;
  std::vector<int> neighbours;     // node ids
  std::vector<int> slot_at;        // slot_at[p]: our index in neighbour p's list
  std::vector<double> known;       // last load announced by each neighbour (+inf until heard of)
  std::vector<double> owed;        // decided transfers not yet sent as data
  std::vector<double> last_sent;   // load told to each neighbour by the last control message (NaN: none)
  double real = 0;                 // load held (includes what is owed but not yet sent)
  double virtual_load = 0;         // virtual-load view: real + announced incoming - decided outgoing
  std::deque<Message> ctrl_fifo, data_fifo;
  std::vector<simgrid::s4u::CommPtr> ctrl_sends, data_sends;  // our sends, possibly in flight
  simgrid::s4u::MutexPtr mutex;
  simgrid::s4u::ConditionVariablePtr data_cv;  // the computing activity waits here without load
  double idle_time = 0;
  bool waiting = false;
  double wait_start = 0;
  std::uint64_t comp_iterations = 0, lb_iterations = 0;
};

struct World {
  DiffusionConfig config;
  double tau = 0, min_comp = 0, min_lb = 0, time_limit = 0;
  std::vector<Node> nodes;
  diffusion::ConvergenceTracker tracker{0, 0, 1};
  // Message payloads live here, so messages still in flight at the end leak nothing.
  std::deque<Message> pool;
  std::vector<Message*> free_list;
  bool finished = false;
  double finish_date = 0;
  std::uint64_t in_flight = 0;  // data messages sent and not yet received
  simgrid::s4u::ConditionVariablePtr drained;
  simgrid::s4u::MutexPtr drain_mutex;
  std::uint64_t ctrl_messages = 0, data_messages = 0, ctrl_skipped = 0;
  double moved = 0;
  std::vector<LoadSample> trace;
  double wall_start = 0, last_progress = 0;

  Message* make(const Message& m);
  void release(Message* m) { free_list.push_back(m); }
  void finish();
};

// Actor bodies (diffusion_activities.cpp).
void receiving_activity(World& w, Node& n);
void computing_activity(World& w, Node& n);
void balancing_activity(World& w, Node& n);
void timer_activity(World& w);
void drain_activity(World& w);
void trace_activity(World& w);

}  // namespace hetlb::sim::detail
