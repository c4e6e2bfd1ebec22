// hetlb::mpi::Diffusion: the public face of the diffusion runtime (runtime.hpp), and its metrics as JSON.
#include "hetlb/mpi/diffusion.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "hetlb/diffusion/strategy.hpp"
#include "runtime.hpp"

namespace hetlb::mpi {

using detail::DiffusionRuntime;

Diffusion::Diffusion(MPI_Comm comm, const DiffusionOptions& options, std::size_t item_bytes)
    : impl_(std::make_unique<DiffusionRuntime>(comm, options, item_bytes, ItemCallbacks{}, false)) {}

Diffusion::Diffusion(MPI_Comm comm, const DiffusionOptions& options, ItemCallbacks callbacks)
    : impl_(std::make_unique<DiffusionRuntime>(comm, options, 0, std::move(callbacks), true)) {}

Diffusion::~Diffusion() = default;

void Diffusion::add(std::uint64_t id, const void* payload) { impl_->add(id, payload); }
void Diffusion::start() { impl_->start(); }
std::size_t Diffusion::size() const { return impl_->store.size(); }
std::uint64_t Diffusion::id(std::size_t i) const { return impl_->store.id(i); }
void* Diffusion::item(std::size_t i) {
  if (!impl_->store.owns_bytes()) throw Error(HETLB_DIFFUSION_ERR_STATE, "item(): the application owns the items");
  return impl_->store.item(i);
}
bool Diffusion::iteration_done() { return impl_->iteration_done(); }
void Diffusion::progress() { impl_->progress(); }
void Diffusion::stop() { impl_->stop(); }
bool Diffusion::finished() const { return impl_->finished(); }
bool Diffusion::threaded() const { return impl_->threaded; }
const std::string& Diffusion::notice() const { return impl_->notice; }
MPI_Comm Diffusion::graph() const { return impl_->hood.graph; }
int Diffusion::degree() const { return static_cast<int>(impl_->hood.neighbours.size()); }
double Diffusion::average_load() const { return impl_->average; }
diffusion::Metrics Diffusion::metrics() { return impl_->metrics(); }

std::string Diffusion::metrics_json() {
  const diffusion::Metrics m = metrics();
  const auto number = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  const DiffusionOptions& o = impl_->options;
  int size = 0;
  MPI_Comm_size(impl_->hood.graph, &size);
  const nlohmann::json j = {
      {"nodes", size},
      {"topology", impl_->hood.name},
      {"strategy", diffusion::to_string(diffusion::parse_strategy(o.strategy))},
      {"k", o.k},
      {"virtual_load", o.virtual_load},
      {"integer", o.integer},
      {"iterations", o.iterations},
      {"progress", impl_->threaded ? "thread" : "calls"},
      {"min_balancing_period", o.min_balancing_period},
      {"converged", m.converged},
      {"converged_nodes", m.converged_nodes},
      {"avg_idle_time", number(m.avg_idle_time)},
      {"avg_convergence_date", number(m.avg_convergence_date)},
      {"max_convergence_date", number(m.max_convergence_date)},
      {"data_transfer_amount", number(m.data_transfer_amount)},
      {"initial_total_load", m.initial_total_load},
      {"final_total_load", m.final_total_load},
      {"load_spread_percent", number(m.load_spread_percent)},
      {"final_min_load", m.final_min_load},
      {"final_max_load", m.final_max_load},
      {"ctrl_messages", m.ctrl_messages},
      {"ctrl_messages_skipped", m.ctrl_messages_skipped},
      {"data_messages", m.data_messages},
      {"computing_iterations", m.computing_iterations},
      {"balancing_iterations", m.balancing_iterations},
      {"end_date", m.simulated_time},
      {"termination_latency", number(impl_->termination_latency)},
      {"termination_latency_periods", number(impl_->termination_latency / o.min_balancing_period)},
  };
  return j.dump(2);
}

}  // namespace hetlb::mpi
