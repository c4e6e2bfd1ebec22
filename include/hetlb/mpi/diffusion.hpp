// Asynchronous iterative load balancing in MPI programs: the simulator's node model (Couturier &
// Giersch, Section "Simulation model", Algorithms 1-3) driving real items between real ranks. The
// strategies and the shared state are the core's (diffusion::balance, diffusion::NodeState).
//
//   hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, options, sizeof(Item));
//   for (...) lb.add(id, &item);                  // this rank's initial items
//   lb.start();                                   // collective
//   do {
//     for (std::size_t i = 0; i < lb.size(); ++i) compute(lb.item(i));
//   } while (lb.iteration_done());                // computing activity; false once every rank agreed
//
// Receiving and balancing run in a progress thread (options.progress_thread, MPI_THREAD_MULTIPLE) or
// in iteration_done()/progress() calls the application makes while computing. docs/mpi.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <mpi.h>

#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/mpi/diffusion.h"
#include "hetlb/mpi/distribution.hpp"  // hetlb::mpi::Error

namespace hetlb::mpi {

struct DiffusionOptions {
  std::string topology = "torus";  // line, ring, torus, hypercube, complete, or an edge-list file
  bool use_comm_graph = false;     // the communicator is the application's distributed graph
  std::string strategy = "besteffort";  // none, simple, makhoul, besteffort
  double k = 1;
  bool virtual_load = false;
  bool integer = false;
  double min_balancing_period = 1e-3;  // s (the simulator's tau)
  double min_computing_period = 0;     // s (the simulator's tau / 10)
  long iterations = 2000;              // consecutive computing iterations within `tolerance` to converge
  double tolerance = 0.01;
  double time_limit = 0;               // s after start(); 0: none
  bool progress_thread = false;        // needs MPI_THREAD_MULTIPLE, else progress() mode (see notice())
};

// Application-owned items, moved Zoltan-style: the balancer keeps their ids, calls pack when one leaves
// this rank (the application forgets it) and unpack when one arrives (in iteration_done/stop).
struct ItemCallbacks {
  std::function<std::size_t(std::uint64_t id)> size;
  std::function<void(std::uint64_t id, void* buffer)> pack;
  std::function<void(std::uint64_t id, const void* buffer, std::size_t bytes)> unpack;
};

namespace detail {
class DiffusionRuntime;
}

class Diffusion {
 public:
  // Collective. Builds the neighbourhood (MPI_Dist_graph_create_adjacent) and duplicates control, data
  // and termination communicators. Throws hetlb::mpi::Error, the same on every rank, on bad options.
  Diffusion(MPI_Comm comm, const DiffusionOptions& options, std::size_t item_bytes);
  Diffusion(MPI_Comm comm, const DiffusionOptions& options, ItemCallbacks callbacks);
  ~Diffusion();
  Diffusion(const Diffusion&) = delete;
  Diffusion& operator=(const Diffusion&) = delete;

  void add(std::uint64_t id, const void* payload = nullptr);  // before start(); payload: item_bytes
  void start();                                              // collective

  std::size_t size() const;  // items held now (valid until the next iteration_done/stop)
  std::uint64_t id(std::size_t i) const;
  void* item(std::size_t i);  // fixed-size items only

  bool iteration_done();  // the computing activity's step; false once the run has ended
  void progress();        // receiving and balancing, in progress() mode (no-op with a thread)
  void stop();            // collective: ends the run now (every rank calls it once)
  bool finished() const;

  bool threaded() const;               // a progress thread runs
  const std::string& notice() const;   // why a requested progress thread is not used ("" otherwise)
  MPI_Comm graph() const;              // the neighbourhood communicator
  int degree() const;
  double average_load() const;         // global items / ranks

  // Collective, after the end: the simulator's metrics over all ranks (dates from start(), seconds).
  diffusion::Metrics metrics();
  std::string metrics_json();  // collective; on every rank

 private:
  std::unique_ptr<detail::DiffusionRuntime> impl_;
};

}  // namespace hetlb::mpi
