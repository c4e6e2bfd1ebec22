// hetlb::mpi::Diffusion: the public face of the diffusion runtime (runtime.hpp), and its metrics as JSON.
#include "hetlb/mpi/diffusion.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/io/diffusion_metrics_json.hpp"
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
void Diffusion::set_balancer(const std::string& balancer, long total_iterations) {
  impl_->set_balancer(balancer, total_iterations);
}
void Diffusion::set_cost(std::uint64_t id, double cost) { impl_->set_cost(id, cost); }
void Diffusion::set_costs(std::span<const double> costs) { impl_->set_costs(costs.data(), costs.size()); }
double Diffusion::load() const { return impl_->store.total_cost(); }
std::size_t Diffusion::size() const { return impl_->store.size(); }
namespace {
void check_index(std::size_t i, std::size_t size, const char* call) {
  if (i >= size)
    throw Error(HETLB_DIFFUSION_ERR_ARG,
                fmt::format("{}({}): index out of range; expected an index below size() = {}", call, i, size));
}
}  // namespace

std::uint64_t Diffusion::id(std::size_t i) const {
  check_index(i, impl_->store.size(), "id");
  return impl_->store.id(i);
}
double Diffusion::cost(std::size_t i) const {
  check_index(i, impl_->store.size(), "cost");
  return impl_->store.cost(i);
}
void* Diffusion::item(std::size_t i) {
  if (!impl_->store.owns_bytes()) throw Error(HETLB_DIFFUSION_ERR_STATE, "item(): the application owns the items");
  check_index(i, impl_->store.size(), "item");
  return impl_->store.item(i);
}
bool Diffusion::iteration_done() { return impl_->iteration_done(); }
bool Diffusion::iteration_done(double compute_seconds) {
  if (!(compute_seconds >= 0) || !std::isfinite(compute_seconds))
    throw Error(HETLB_DIFFUSION_ERR_ARG,
                fmt::format("iteration_done({}): expected a non-negative number of seconds", compute_seconds));
  return impl_->iteration_done(compute_seconds);
}
void Diffusion::progress() { impl_->progress(); }
void Diffusion::stop() { impl_->stop(); }
bool Diffusion::finished() const { return impl_->finished(); }
bool Diffusion::threaded() const { return impl_->threaded; }
bool Diffusion::application_items() const { return !impl_->store.owns_bytes(); }
double Diffusion::speed() const { return impl_->speed(); }
const std::string& Diffusion::topology() const { return impl_->hood.name; }
const std::string& Diffusion::notice() const { return impl_->notice; }
MPI_Comm Diffusion::graph() const { return impl_->hood.graph; }
int Diffusion::degree() const { return static_cast<int>(impl_->hood.neighbours.size()); }
double Diffusion::average_load() const { return impl_->average; }
diffusion::Metrics Diffusion::metrics() { return impl_->metrics(); }

std::string Diffusion::metrics_json() {
  const diffusion::Metrics m = metrics();
  const DiffusionOptions& o = impl_->options;
  int size = 0;
  MPI_Comm_size(impl_->hood.graph, &size);
  nlohmann::json j = {
      {"nodes", size},
      {"topology", impl_->hood.name},
      {"strategy", o.strategy},
      {"k", o.k},
      {"virtual_load", o.virtual_load},
      {"integer", o.integer},
      {"iterations", o.iterations},
      {"progress", impl_->threaded ? "thread" : "calls"},
      {"mode", o.bulk_synchronous ? "bulk-synchronous" : "asynchronous"},
      {"balance", o.balance},
      {"speeds", o.speeds.empty() ? "measured" : "given"},
      {"min_balancing_period", o.min_balancing_period},
      {"end_date", m.simulated_time},
      {"termination_latency", io::finite_or_null(impl_->termination_latency)},
      {"termination_latency_periods", io::finite_or_null(impl_->termination_latency / o.min_balancing_period)},
  };
  io::add_diffusion_metrics(j, m);
  j["balancer"] = o.balancer;
  j["total_iterations"] = o.total_iterations;  // declared calls, 0: unknown (the hybrid's horizon)
  j["agreements"] = impl_->agreements();       // bulk-synchronous agreement calls, 0 asynchronous
  nlohmann::json steps = nlohmann::json::array();
  for (const diffusion::GlobalStepRecord& g : m.global_steps)
    steps.push_back({{"call", g.call}, {"date", g.date}, {"gain", g.gain}, {"cost", g.cost}, {"work", g.work},
                     {"items", g.items}});
  j["global_steps"] = steps;
  return j.dump(2);
}

}  // namespace hetlb::mpi
