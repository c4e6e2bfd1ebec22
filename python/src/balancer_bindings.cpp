// hetlb._hetlb_mpi._Balancer: Couturier & Giersch's asynchronous iterative load balancing (the
// diffusion runtime, hetlb/mpi/diffusion.hpp) moving the records of a numpy array between the ranks of
// an mpi4py communicator. The records live in a RecordStore that numpy views; the runtime moves them
// through its item callbacks (the Zoltan migration style), which touch no Python object, so every
// blocking call runs without the GIL. Ids are conserved and checked (check_conservation).
#include "balancer_bindings.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "record_store.hpp"

namespace py = pybind11;

namespace hetlb::python {

namespace {

// Options as the Python layer passed them (already checked there for what the runtime does not check).
struct BalancerOptions {
  std::string topology, strategy, balance, speeds_file;
  double k = 1;
  bool virtual_load = false, integer = false, bulk_synchronous = false, progress_thread = false;
  bool wait_for_load = false, end_on_convergence = true;
  std::vector<double> speeds;
  long iterations = 20, sync_interval = 0;
  std::string balancer = mpi::DiffusionOptions{}.balancer;  // "diffusion", "global" or "hybrid"
  long total_iterations = 0;
  double tolerance = 0.01, time_limit = 0, min_balancing_period = 1e-3, min_computing_period = 0;
};

mpi::DiffusionOptions runtime_options(const BalancerOptions& b) {
  mpi::DiffusionOptions o;
  o.topology = b.topology;
  o.strategy = b.strategy;
  o.k = b.k;
  o.virtual_load = b.virtual_load;
  o.integer = b.integer;
  o.balance = b.balance;
  o.speeds = b.speeds;
  o.speeds_file = b.speeds_file;
  o.bulk_synchronous = b.bulk_synchronous;
  o.progress_thread = b.progress_thread;
  o.wait_for_load = b.wait_for_load;
  o.end_on_convergence = b.end_on_convergence;
  o.iterations = b.iterations;
  o.sync_interval = b.sync_interval;
  o.tolerance = b.tolerance;
  o.time_limit = b.time_limit;
  o.min_balancing_period = b.min_balancing_period;
  o.balancer = b.balancer;
  o.total_iterations = b.total_iterations;
  o.min_computing_period = b.min_computing_period;
  return o;
}

// Count and the two id sums over every rank (conservation by id).
struct IdCensus {
  std::uint64_t values[4] = {0, 0, 0, 0};  // records, sum of mix a, sum of mix b, anomalies
};

IdCensus census(const RecordStore& store, MPI_Comm comm) {
  IdCensus local;
  local.values[0] = store.size();
  for (std::size_t i = 0; i < store.size(); ++i) {
    local.values[1] += id_mix_a(store.ids()[i]);
    local.values[2] += id_mix_b(store.ids()[i]);
  }
  local.values[3] = store.anomalies();
  IdCensus all;
  MPI_Allreduce(local.values, all.values, 4, MPI_UINT64_T, MPI_SUM, comm);
  return all;
}

template <class T>
py::capsule keeper(const std::shared_ptr<T>& block) {
  return py::capsule(new std::shared_ptr<T>(block), [](void* p) { delete static_cast<std::shared_ptr<T>*>(p); });
}

class Balancer {
 public:
  Balancer(py::object comm, MPI_Comm handle, py::buffer records, py::array_t<std::uint64_t, py::array::c_style> ids,
           std::size_t item_bytes, py::dtype dtype, std::vector<py::ssize_t> item_shape, const BalancerOptions& o,
           const std::vector<double>& costs)
      : comm_(std::move(comm)), dtype_(std::move(dtype)), item_shape_(std::move(item_shape)),
        store_(std::make_shared<RecordStore>(item_bytes)) {
    const py::buffer_info info = records.request();
    const auto count = static_cast<std::size_t>(ids.size());
    if (static_cast<std::size_t>(info.size * info.itemsize) != count * item_bytes)
      throw Error(fmt::format("items: {} bytes for {} ids of {}-byte records: expected one record per id",
                              info.size * info.itemsize, count, item_bytes));
    store_->append(static_cast<const std::byte*>(info.ptr), ids.data(), count);
    std::shared_ptr<RecordStore> store = store_;
    mpi::ItemCallbacks callbacks;
    callbacks.size = [store](std::uint64_t) { return store->item_bytes(); };
    callbacks.pack = [store](std::uint64_t id, void* buffer) { store->pack(id, buffer); };
    callbacks.unpack = [store](std::uint64_t id, const void* buffer, std::size_t bytes) {
      store->unpack(id, buffer, bytes);
    };
    const mpi::DiffusionOptions options = runtime_options(o);
    py::gil_scoped_release release;
    MPI_Comm_dup(handle, &census_comm_);
    try {
      lb_ = std::make_unique<mpi::Diffusion>(handle, options, std::move(callbacks));
      for (std::size_t i = 0; i < count; ++i) lb_->add(store_->ids()[i]);
      if (!costs.empty()) lb_->set_costs(costs);  // the records' order (checked by the Python layer)
      lb_->start();  // refuses an id held twice, on every rank
    } catch (...) {
      lb_.reset();
      MPI_Comm_free(&census_comm_);
      throw;
    }
    initial_ = census(*store_, census_comm_);
  }

  Balancer(const Balancer&) = delete;
  Balancer& operator=(const Balancer&) = delete;
  ~Balancer() {  // after MPI_Finalize (interpreter exit) nothing MPI may be freed: left to the process end
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) {
      static_cast<void>(lb_.release());
      return;
    }
    free_now();
  }

  py::array items() {
    Call call(*this, "items", false);  // the records stay readable after free()
    std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(store_->size())};
    shape.insert(shape.end(), item_shape_.begin(), item_shape_.end());
    if (!store_->bytes()) return py::array(dtype_, shape);
    return py::array(dtype_, shape, store_->bytes().get(), keeper(store_->bytes()));
  }

  py::array_t<std::uint64_t> ids() {
    Call call(*this, "ids", false);
    const auto n = static_cast<py::ssize_t>(store_->size());
    py::array_t<std::uint64_t> a =
        store_->ids() ? py::array_t<std::uint64_t>(n, store_->ids().get(), keeper(store_->ids()))
                      : py::array_t<std::uint64_t>(n);
    a.attr("setflags")(py::arg("write") = false);
    return a;
  }

  std::size_t size() const { return store_->size(); }

  // compute_seconds: None (the time since the previous call is the iteration's) or this rank's
  // computing seconds in the iteration (the runtime checks them).
  bool iteration_done(const py::object& compute_seconds) {
    Call call(*this, "iteration_done");
    const bool timed = !compute_seconds.is_none();
    const double seconds = timed ? compute_seconds.cast<double>() : 0.0;
    py::gil_scoped_release release;
    return timed ? lb_->iteration_done(seconds) : lb_->iteration_done();
  }

  void progress() {
    Call call(*this, "progress");
    py::gil_scoped_release release;
    lb_->progress();
  }

  void stop() {
    Call call(*this, "stop");
    py::gil_scoped_release release;
    lb_->stop();
  }

  // Collective: the records and ids held now, over every rank, against start()'s.
  std::uint64_t check_conservation() {
    Call call(*this, "check_conservation");
    IdCensus now;
    {
      py::gil_scoped_release release;
      now = census(*store_, census_comm_);
    }
    const std::uint64_t* a = initial_.values;
    const std::uint64_t* b = now.values;
    if (b[3] != 0)
      throw Error(fmt::format("items: {} record(s) arrived at a rank already holding their id or with the wrong "
                              "size: expected every id held by exactly one rank",
                              b[3]));
    if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2])
      throw Error(fmt::format("items: {} records at the start, {} now, and not the same ids: expected every id "
                              "held by exactly one rank",
                              a[0], b[0]));
    return b[0];
  }

  // Collective: (the runtime's metrics JSON, every rank's record count, every rank's speed).
  py::tuple metrics() {
    Call call(*this, "metrics");
    std::string json;
    std::vector<long long> loads;
    std::vector<double> speeds;
    {
      py::gil_scoped_release release;
      json = lb_->metrics_json();
      int ranks = 0;
      MPI_Comm_size(census_comm_, &ranks);
      loads.resize(static_cast<std::size_t>(ranks));
      speeds.resize(static_cast<std::size_t>(ranks));
      long long mine = static_cast<long long>(store_->size());
      double speed = lb_->speed();
      MPI_Allgather(&mine, 1, MPI_LONG_LONG, loads.data(), 1, MPI_LONG_LONG, census_comm_);
      MPI_Allgather(&speed, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, census_comm_);
    }
    return py::make_tuple(json, loads, speeds);
  }

  // Item costs, in the records' order (lb.ids), which is not the runtime's item order.
  void set_cost(std::uint64_t id, double cost) {
    Call call(*this, "set_cost");
    lb_->set_cost(id, cost);
  }
  void set_costs(py::array_t<double, py::array::c_style | py::array::forcecast> costs) {
    Call call(*this, "set_costs");
    if (static_cast<std::size_t>(costs.size()) != store_->size() || costs.ndim() != 1)
      throw Error(fmt::format("set_costs: {} costs for {} records: expected one per record, in the order of ids",
                              costs.size(), store_->size()));
    const std::vector<std::size_t> slots = slots_in_runtime_order();
    std::vector<double> ordered(slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i) ordered[i] = costs.data()[slots[i]];
    lb_->set_costs(ordered);
  }
  py::array_t<double> costs() {
    Call call(*this, "costs");
    const std::vector<std::size_t> slots = slots_in_runtime_order();
    py::array_t<double> out(static_cast<py::ssize_t>(slots.size()));
    for (std::size_t i = 0; i < slots.size(); ++i) out.mutable_data()[slots[i]] = lb_->cost(i);
    return out;
  }
  double load() { return runtime("load").load(); }
  std::size_t total_items() { return runtime("total_items").total_items(); }

  // Collective (checked by the Python layer): `local` holds this rank's rows in the records' order;
  // the runtime takes them in its item order.
  void gather_by_id(const py::buffer& local, std::size_t row_bytes, const py::object& out, const py::object& ids_out,
                    int root) {
    Call call(*this, "gather_by_id");
    const py::buffer_info in = local.request();
    const std::vector<std::size_t> slots = slots_in_runtime_order();
    std::vector<std::byte> ordered(slots.size() * row_bytes);
    for (std::size_t i = 0; i < slots.size(); ++i)
      std::memcpy(ordered.data() + i * row_bytes, static_cast<const std::byte*>(in.ptr) + slots[i] * row_bytes,
                  row_bytes);
    void* into = out.is_none() ? nullptr : out.cast<py::buffer>().request(true).ptr;
    auto* ids = ids_out.is_none() ? nullptr : static_cast<std::uint64_t*>(ids_out.cast<py::buffer>().request(true).ptr);
    py::gil_scoped_release release;
    lb_->gather_by_id(ordered.data(), row_bytes, into, root, ids);
  }
  void scatter_by_id(const py::object& root_in, std::size_t row_bytes, const py::buffer& local, int root) {
    Call call(*this, "scatter_by_id");
    const py::buffer_info to = local.request(true);
    const std::vector<std::size_t> slots = slots_in_runtime_order();
    std::vector<std::byte> ordered(slots.size() * row_bytes);
    const void* from = root_in.is_none() ? nullptr : root_in.cast<py::buffer>().request().ptr;
    {
      py::gil_scoped_release release;
      lb_->scatter_by_id(from, row_bytes, ordered.data(), root);
    }
    for (std::size_t i = 0; i < slots.size(); ++i)
      std::memcpy(static_cast<std::byte*>(to.ptr) + slots[i] * row_bytes, ordered.data() + i * row_bytes, row_bytes);
  }

  bool finished() const { return lb_ && lb_->finished(); }
  double speed() { return runtime("speed").speed(); }
  std::string topology() { return runtime("topology").topology(); }
  bool threaded() { return runtime("threaded").threaded(); }
  std::string notice() { return runtime("notice").notice(); }
  int degree() { return runtime("degree").degree(); }
  double average_load() { return runtime("average_load").average_load(); }
  py::object comm() const { return comm_; }

  void free() {
    if (busy_) throw Error("free(): the balancer is in a call from another thread: expected one call at a time");
    py::gil_scoped_release release;
    free_now();
  }

 private:
  // One call at a time (a second Python thread would otherwise race with a call running without the
  // GIL); set and tested with the GIL held.
  struct Call {
    Balancer& b;
    Call(Balancer& balancer, const char* name, bool needs_runtime = true) : b(balancer) {
      if (needs_runtime && !b.lb_) throw Error(fmt::format("{}(): the balancer was freed: create another", name));
      if (b.busy_)
        throw Error(fmt::format("{}(): the balancer is in a call from another thread: expected one call at a time",
                                name));
      b.busy_ = true;
    }
    ~Call() { b.busy_ = false; }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
  };

  // Where each of the runtime's items (its order: id(0), id(1), ...) is among the records.
  std::vector<std::size_t> slots_in_runtime_order() const {
    std::vector<std::size_t> slots(lb_->size());
    for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = store_->slot(lb_->id(i));
    return slots;
  }

  mpi::Diffusion& runtime(const char* name) {
    if (!lb_) throw Error(fmt::format("{}: the balancer was freed: create another", name));
    return *lb_;
  }

  void free_now() {
    lb_.reset();
    if (census_comm_ != MPI_COMM_NULL) MPI_Comm_free(&census_comm_);
  }

  py::object comm_;  // the mpi4py communicator (kept alive)
  py::dtype dtype_;
  std::vector<py::ssize_t> item_shape_;
  std::shared_ptr<RecordStore> store_;
  std::unique_ptr<mpi::Diffusion> lb_;
  MPI_Comm census_comm_ = MPI_COMM_NULL;
  IdCensus initial_;
  bool busy_ = false;
};

// Relative speeds of a platform (hetlb.mpi.calibrate's dict, a hetlb.Platform): 1 / compute cost per
// item, processors in rank order, as read_speeds reads hetlb-calibrate's file.
std::vector<double> speeds_of_platform(const std::string& json, const std::string& source) {
  const Platform p = io::parse_platform_json(json, source);
  std::vector<double> speeds;
  for (const Processor& proc : p.processors) {
    const double per_item = proc.compute.asymptotic_slope();
    if (!(per_item > 0) || !std::isfinite(per_item))
      throw Error(fmt::format("{}: processor {}: compute cost per item {}; expected > 0 (speed = 1 / cost)", source,
                              proc.name, per_item));
    speeds.push_back(1 / per_item);
  }
  return speeds;
}

}  // namespace

void bind_balancer(py::module_& m, MPI_Comm (*comm_of)(py::handle)) {
  py::class_<Balancer>(m, "_Balancer", "The diffusion runtime over an mpi4py communicator; use hetlb.mpi.Balancer.")
      .def_property_readonly("items", &Balancer::items)
      .def_property_readonly("ids", &Balancer::ids)
      .def("__len__", &Balancer::size)
      .def("iteration_done", &Balancer::iteration_done, py::arg("compute_seconds") = py::none())
      .def("progress", &Balancer::progress)
      .def("stop", &Balancer::stop)
      .def("check_conservation", &Balancer::check_conservation)
      .def("_metrics", &Balancer::metrics)
      .def_property_readonly("finished", &Balancer::finished)
      .def_property_readonly("speed", &Balancer::speed)
      .def_property_readonly("topology", &Balancer::topology)
      .def_property_readonly("threaded", &Balancer::threaded)
      .def_property_readonly("notice", &Balancer::notice)
      .def_property_readonly("degree", &Balancer::degree)
      .def_property_readonly("average_load", &Balancer::average_load)
      .def_property_readonly("comm", &Balancer::comm)
      .def("set_cost", &Balancer::set_cost, py::arg("id"), py::arg("cost"))
      .def("set_costs", &Balancer::set_costs, py::arg("costs"))
      .def_property_readonly("costs", &Balancer::costs)
      .def_property_readonly("load", &Balancer::load)
      .def_property_readonly("total_items", &Balancer::total_items)
      .def("_gather_by_id", &Balancer::gather_by_id, py::arg("local"), py::arg("row_bytes"), py::arg("out"),
           py::arg("ids_out"), py::arg("root"))
      .def("_scatter_by_id", &Balancer::scatter_by_id, py::arg("root_in"), py::arg("row_bytes"), py::arg("local"),
           py::arg("root"))
      .def("free", &Balancer::free);
  // Made by this factory only (hetlb.mpi.Balancer): the class has no constructor and refuses __new__
  // (python/hetlb/balancer.py), so no instance without a runtime exists to crash the interpreter.
  m.def("_make_balancer", [comm_of](py::object comm, py::buffer records, py::array_t<std::uint64_t, py::array::c_style> ids,
                              std::size_t item_bytes, py::dtype dtype, std::vector<py::ssize_t> item_shape,
                              std::string topology, std::string strategy, double k, bool virtual_load, bool integer,
                              std::string balance, std::vector<double> speeds, std::string speeds_file,
                              bool bulk_synchronous, long iterations, double tolerance, double time_limit,
                              double min_balancing_period, double min_computing_period, bool progress_thread,
                              bool wait_for_load, bool end_on_convergence, long sync_interval,
                              std::vector<double> costs, std::string balancer, long total_iterations) {
             BalancerOptions o;
             o.topology = std::move(topology);
             o.strategy = std::move(strategy);
             o.k = k;
             o.virtual_load = virtual_load;
             o.integer = integer;
             o.balance = std::move(balance);
             o.speeds = std::move(speeds);
             o.speeds_file = std::move(speeds_file);
             o.bulk_synchronous = bulk_synchronous;
             o.iterations = iterations;
             o.tolerance = tolerance;
             o.time_limit = time_limit;
             o.min_balancing_period = min_balancing_period;
             o.min_computing_period = min_computing_period;
             o.progress_thread = progress_thread;
             o.wait_for_load = wait_for_load;
             o.end_on_convergence = end_on_convergence;
             o.sync_interval = sync_interval;
             o.balancer = std::move(balancer);
             o.total_iterations = total_iterations;
             const MPI_Comm handle = comm_of(comm);
             return std::make_unique<Balancer>(std::move(comm), handle, std::move(records), std::move(ids), item_bytes,
                                               std::move(dtype), std::move(item_shape), o, costs);
           },
           py::arg("comm"), py::arg("records"), py::arg("ids"), py::arg("item_bytes"), py::arg("dtype"),
           py::arg("item_shape"), py::arg("topology"), py::arg("strategy"), py::arg("k"), py::arg("virtual_load"),
           py::arg("integer"), py::arg("balance"), py::arg("speeds"), py::arg("speeds_file"),
           py::arg("bulk_synchronous"), py::arg("iterations"), py::arg("tolerance"), py::arg("time_limit"),
           py::arg("min_balancing_period"), py::arg("min_computing_period"), py::arg("progress_thread"),
           py::arg("wait_for_load"), py::arg("end_on_convergence"), py::arg("sync_interval"),
           py::arg("costs") = std::vector<double>{}, py::arg("balancer") = mpi::DiffusionOptions{}.balancer,
           py::arg("total_iterations") = 0);
  m.def("_speeds_of_platform", &speeds_of_platform, py::arg("json"), py::arg("source"));
  m.attr("_default_balancer") = mpi::DiffusionOptions{}.balancer;  // the C++ runtime's defaults
  m.attr("_default_balance") = mpi::DiffusionOptions{}.balance;
  m.attr("_default_topology") = mpi::DiffusionOptions{}.topology;
}

}  // namespace hetlb::python
