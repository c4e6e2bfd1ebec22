#include "dynamic_balancers.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "hetlb/choices_text.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "hetlb/scatter/solve.hpp"
#include "zoltan_partition.hpp"

namespace peers {

namespace {

// The options a tuning study changes: the speed estimator's, the cadence's and the hybrid's.
struct OptionField {
  const char* key;
  long hetlb::mpi::DiffusionOptions::* whole;
  double hetlb::mpi::DiffusionOptions::* real;
  bool hetlb::mpi::DiffusionOptions::* flag = nullptr;
};
constexpr OptionField kOptionFields[] = {
    {"speed_window", &hetlb::mpi::DiffusionOptions::speed_window, nullptr},
    {"speed_confirm", &hetlb::mpi::DiffusionOptions::speed_confirm, nullptr},
    {"speed_time_constant", nullptr, &hetlb::mpi::DiffusionOptions::speed_time_constant},
    {"speed_hysteresis", nullptr, &hetlb::mpi::DiffusionOptions::speed_hysteresis},
    {"speed_margin_min", nullptr, &hetlb::mpi::DiffusionOptions::speed_margin_min},
    {"sync_interval", &hetlb::mpi::DiffusionOptions::sync_interval, nullptr},
    {"sync_interval_max", &hetlb::mpi::DiffusionOptions::sync_interval_max, nullptr},
    {"global_min_interval", &hetlb::mpi::DiffusionOptions::global_min_interval, nullptr},
    {"total_iterations", &hetlb::mpi::DiffusionOptions::total_iterations, nullptr},
    {"tolerance", nullptr, &hetlb::mpi::DiffusionOptions::tolerance},
    {"min_balancing_period", nullptr, &hetlb::mpi::DiffusionOptions::min_balancing_period},
    {"start_step", nullptr, nullptr, &hetlb::mpi::DiffusionOptions::start_step},
};

// Sets one KEY=VALUE into o; the runtime's constructor checks the value's range, the same on every rank.
void apply_hetlb_option(const std::string& key_value, hetlb::mpi::DiffusionOptions& o) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("--hetlb-option " + key_value + ": " + why);
  };
  const std::size_t eq = key_value.find('=');
  if (eq == std::string::npos) throw bad("expected KEY=VALUE with KEY one of " + hetlb_option_keys());
  const std::string key = key_value.substr(0, eq), value = key_value.substr(eq + 1);
  for (const OptionField& f : kOptionFields) {
    if (key != f.key) continue;
    if (f.flag) {
      if (value != "true" && value != "false") throw bad("expected true or false");
      o.*f.flag = value == "true";
      return;
    }
    std::size_t used = 0;
    try {
      if (f.whole) o.*f.whole = std::stol(value, &used);
      else o.*f.real = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (value.empty() || used != value.size())
      throw bad(f.whole ? "expected a whole number" : "expected a number");
    return;
  }
  throw bad("unknown key " + key + ": expected one of " + hetlb_option_keys());
}

}  // namespace

std::string hetlb_option_keys() {
  std::vector<std::string> keys;
  for (const OptionField& f : kOptionFields) keys.emplace_back(f.key);
  return hetlb::choices_text(keys);
}

void check_hetlb_option(const std::string& key_value) {
  hetlb::mpi::DiffusionOptions o;
  apply_hetlb_option(key_value, o);
}

BalancerChoice parse_balancer(const std::string& name) {
  BalancerChoice c;
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("--balancer " + name + ": " + why);
  };
  if (name == "none") return c;
  if (name == "static" || name == "static-equal") {
    c.kind = BalancerChoice::Kind::Static;
    c.equal_speeds = name == "static-equal";
    return c;
  }
  if (name == "hetlb" || name == "hetlb-global") {
    c.kind = BalancerChoice::Kind::Hetlb;
    c.defaults = true;
    c.hetlb_balancer = name == "hetlb" ? "hybrid" : "global";
    return c;
  }
  if (name.rfind("zoltan-imbalance:", 0) == 0) {
    const std::string t = name.substr(17);
    double threshold = 0;
    std::size_t used = 0;
    try {
      threshold = std::stod(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (t.empty() || used != t.size() || !(threshold > 1) || !(threshold < 1e6))
      throw bad("expected zoltan-imbalance:T with T > 1 (max / mean of the iteration's computing times)");
    c.kind = BalancerChoice::Kind::Zoltan;
    c.threshold = threshold;
    return c;
  }
  if (name.rfind("zoltan:", 0) == 0) {
    const std::string p = name.substr(7);
    long period = 0;
    std::size_t used = 0;
    try {
      period = std::stol(p, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (p.empty() || used != p.size() || period < 1)
      throw bad("expected zoltan:P with P a whole number of iterations >= 1");
    c.kind = BalancerChoice::Kind::Zoltan;
    c.period = period;
    return c;
  }
  std::string base = name;
  if (base.size() > 3 && base.compare(base.size() - 3, 3, "-vl") == 0) {
    c.virtual_load = true;
    base.resize(base.size() - 3);
  }
  c.kind = BalancerChoice::Kind::Hetlb;
  if (base == "besteffort1" || base == "besteffort2") {
    c.strategy = "besteffort";
    c.k = base == "besteffort1" ? 1 : 2;
  } else if (base == "makhoul") {
    c.strategy = "makhoul";
  } else {
    throw bad("expected none, static, static-equal, hetlb, hetlb-global, besteffort1, besteffort2, makhoul (each of the last "
              "three optionally with -vl), zoltan:P (P >= 1) or zoltan-imbalance:T (T > 1)");
  }
  return c;
}

namespace {

class NoBalancer : public Balancer {
 public:
  void start(ItemMap&) override {}
  void after_iteration(ItemMap&, long, double, double) override {}
  void finish(ItemMap&) override {}
};

// hetlb's static plan: the exact integer split of RR-4770 for computation costs 1 / speed (no
// communication cost), applied once by moving items in id order (MPI_Alltoallv). With item costs, rank
// r's planned fraction of the items becomes its fraction of the total cost: it gets the items whose
// cost midpoints, in the global order, fall in its range (with unit costs, exactly the plan's counts).
class StaticBalancer : public Balancer {
 public:
  StaticBalancer(const BalancerSettings& s, MPI_Comm comm) : settings_(s), comm_(comm) {}
  void start(ItemMap& items) override {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm_, &rank);
    MPI_Comm_size(comm_, &size);
    const auto p = static_cast<std::size_t>(size);
    if (settings_.speeds.size() != p) throw std::invalid_argument("--balancer static: expected --speeds (the given speeds)");
    // Current counts and the plan (every rank computes the same plan from the same numbers).
    std::uint64_t mine = items.size();
    std::vector<std::uint64_t> counts(p);
    MPI_Allgather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm_);
    const std::uint64_t n = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    hetlb::Platform platform;
    platform.name = "emulated";
    platform.items = static_cast<hetlb::Count>(n);
    for (std::size_t r = 0; r < p; ++r)
      platform.processors.push_back({"rank" + std::to_string(r), hetlb::CostFunction::linear(1.0 / settings_.speeds[r]),
                                     hetlb::CostFunction{}, std::nullopt});
    hetlb::scatter::Request request;
    request.algorithm = hetlb::scatter::Algorithm::Exact;
    request.items = static_cast<hetlb::Count>(n);
    const hetlb::scatter::Result result = hetlb::scatter::plan_scatter(platform, request);
    std::vector<std::uint64_t> target(p, 0);
    for (std::size_t k = 0; k < result.problem.platform_index.size(); ++k)
      target[result.problem.platform_index[k]] = static_cast<std::uint64_t>(result.plan.items[k]);
    // The items of the global order (rank, then id), each with its cost: an item goes to the rank whose
    // target range of cumulated cost holds the item's midpoint.
    const auto cost = [&](std::uint64_t id) { return settings_.costs.empty() ? 1.0 : settings_.costs.at(id); };
    double my_cost = 0;
    for (const auto& entry : items) my_cost += cost(entry.first);
    std::vector<double> costs(p);
    MPI_Allgather(&my_cost, 1, MPI_DOUBLE, costs.data(), 1, MPI_DOUBLE, comm_);
    double before = 0, whole = 0;
    for (std::size_t r = 0; r < p; ++r) (r < static_cast<std::size_t>(rank) ? before : whole) += costs[r];
    whole += before;
    std::vector<double> bound(p + 1, 0);
    std::uint64_t planned = 0;
    for (std::size_t r = 0; r < p; ++r) planned += target[r], bound[r + 1] = whole * static_cast<double>(planned) / static_cast<double>(n);
    bound[p] = std::numeric_limits<double>::infinity();
    const std::size_t record = sizeof(std::uint64_t) + settings_.item_bytes;
    std::vector<std::vector<unsigned char>> out(p);
    double at_cost = before;
    for (auto it = items.begin(); it != items.end();) {
      const double c = cost(it->first), middle = at_cost + c / 2;
      at_cost += c;
      const auto dest = static_cast<std::size_t>(std::upper_bound(bound.begin(), bound.end(), middle) - bound.begin() - 1);
      if (dest == static_cast<std::size_t>(rank)) {
        ++it;
        continue;
      }
      std::vector<unsigned char>& b = out[dest];
      const std::size_t at = b.size();
      b.resize(at + record);
      std::memcpy(b.data() + at, &it->first, sizeof(std::uint64_t));
      std::memcpy(b.data() + at + sizeof(std::uint64_t), it->second.data(), settings_.item_bytes);
      it = items.erase(it);
    }
    std::vector<int> send_counts(p), recv_counts(p), sdispl(p, 0), rdispl(p, 0);
    for (std::size_t r = 0; r < p; ++r) send_counts[r] = static_cast<int>(out[r].size());
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
    std::vector<unsigned char> send, recv;
    for (std::size_t r = 0; r < p; ++r) {
      sdispl[r] = static_cast<int>(send.size());
      send.insert(send.end(), out[r].begin(), out[r].end());
    }
    int total = 0;
    for (std::size_t r = 0; r < p; ++r) rdispl[r] = total, total += recv_counts[r];
    recv.resize(static_cast<std::size_t>(total));
    MPI_Alltoallv(send.data(), send_counts.data(), sdispl.data(), MPI_BYTE, recv.data(), recv_counts.data(), rdispl.data(),
                  MPI_BYTE, comm_);
    for (std::size_t at = 0; at + record <= recv.size(); at += record) {
      std::uint64_t id = 0;
      std::memcpy(&id, recv.data() + at, sizeof id);
      const unsigned char* b = recv.data() + at + sizeof id;
      items[id].assign(b, b + settings_.item_bytes);
      ++received;
    }
  }
  void after_iteration(ItemMap&, long, double, double) override {}
  void finish(ItemMap&) override {}

 private:
  BalancerSettings settings_;
  MPI_Comm comm_;
};

// hetlb's runtime, bulk-synchronous, balancing by time with measured speeds; the items stay in the
// program's map and move through the runtime's pack/unpack callbacks, each with its cost (set_cost).
// `hetlb` and `hetlb-global` set only what the program's structure asks (bulk-synchronous calls, the
// work ends the run, its number of iterations); the named variants are diffusion alone, as the papers'
// strategies, tuned to tau.
class HetlbBalancer : public Balancer {
 public:
  HetlbBalancer(const BalancerChoice& c, const BalancerSettings& s, MPI_Comm comm)
      : item_bytes_(s.item_bytes), costs_(s.costs), live_costs_(s.live_costs) {
    hetlb::mpi::DiffusionOptions o;
    o.bulk_synchronous = true;
    o.end_on_convergence = false;  // the work ends the run
    o.balancer = c.hetlb_balancer;
    if (c.defaults) {
      o.total_iterations = s.iteration_calls;  // the horizon of the hybrid's trigger
    } else {
      o.strategy = c.strategy;
      o.k = c.k;
      o.virtual_load = c.virtual_load;
      o.balance = "time";
      o.min_balancing_period = std::min(s.tau, 60.0);  // the runtime's bound (docs/limits.md)
      o.min_computing_period = o.min_balancing_period / 10;
    }
    for (const std::string& key_value : s.hetlb_options) apply_hetlb_option(key_value, o);
    callbacks_.size = [this](std::uint64_t) { return item_bytes_; };
    callbacks_.pack = [this](std::uint64_t id, void* buffer) {
      auto it = items_->find(id);
      std::memcpy(buffer, it->second.data(), it->second.size());
      items_->erase(it);
    };
    callbacks_.unpack = [this](std::uint64_t id, const void* buffer, std::size_t bytes) {
      const auto* b = static_cast<const unsigned char*>(buffer);
      (*items_)[id].assign(b, b + bytes);
      ++received;
    };
    lb_ = std::make_unique<hetlb::mpi::Diffusion>(comm, o, callbacks_);
  }
  void start(ItemMap& items) override {
    items_ = &items;
    for (const auto& entry : items) {
      lb_->add(entry.first);
      if (!costs_.empty()) lb_->set_cost(entry.first, costs_.at(entry.first));
    }
    lb_->start();
  }
  void after_iteration(ItemMap& items, long, double computed, double) override {
    if (lb_->finished()) return;
    if (live_costs_)  // the cost each item held had in the iteration just computed
      for (const auto& entry : items) lb_->set_cost(entry.first, live_costs_->at(entry.first));
    lb_->iteration_done(computed);
  }
  void finish(ItemMap&) override { lb_->stop(); }
  std::string metrics_json() override { return lb_->metrics_json(); }

 private:
  std::size_t item_bytes_;
  std::vector<double> costs_;
  const std::vector<double>* live_costs_;
  ItemMap* items_ = nullptr;
  hetlb::mpi::ItemCallbacks callbacks_;
  std::unique_ptr<hetlb::mpi::Diffusion> lb_;
};

// Zoltan every P iterations: part sizes = the speeds measured since the last repartition (cost
// processed per second of computing: items per second when every item costs 1), object weights = the
// items' costs; a rank that computed nothing since then reports none and gets the mean of the
// others'. Method BLOCK: parts are consecutive runs of the objects in (rank, local id) order, so when
// the sizes change little most items stay where they are.
class ZoltanBalancer : public Balancer {
 public:
  ZoltanBalancer(long period, double threshold, const BalancerSettings& s, MPI_Comm comm)
      : period_(period), threshold_(threshold), item_bytes_(s.item_bytes),
        costs_(s.costs), live_costs_(s.live_costs), comm_(comm) {}
  void start(ItemMap&) override {}
  void after_iteration(ItemMap& items, long iteration, double computed, double processed) override {
    seconds_ += computed;
    processed_ += processed;
    if (period_ > 0 ? (iteration - 1) % period_ != 0 : iteration > 1 && !imbalanced(computed)) return;
    int size = 0;
    MPI_Comm_size(comm_, &size);
    double mine = processed_ > 0 && seconds_ > 0 ? processed_ / seconds_ : -1;
    std::vector<double> speeds(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, comm_);
    double sum = 0, known = 0;
    for (double v : speeds)
      if (v > 0) sum += v, ++known;
    for (double& v : speeds)
      if (!(v > 0)) v = known > 0 ? sum / known : 1.0;
    seconds_ = processed_ = 0;

    if (!zoltan_) zoltan_ = std::make_unique<Partitioner>(comm_, "BLOCK", speeds, "ALL");  // created once
    else zoltan_->set_part_sizes(speeds);
    Partitioner& zoltan = *zoltan_;
    Objects objects;
    for (const auto& entry : items) {
      objects.ids.push_back(static_cast<ZOLTAN_ID_TYPE>(entry.first));
      if (live_costs_) objects.weights.push_back(static_cast<float>(live_costs_->at(entry.first)));
      else if (!costs_.empty()) objects.weights.push_back(static_cast<float>(costs_.at(entry.first)));
    }
    zoltan.partition(objects);
    std::vector<std::uint64_t> left;
    Migration m;
    m.size = static_cast<int>(item_bytes_);
    m.pack = [&](ZOLTAN_ID_TYPE lid, char* buf) {
      const std::uint64_t id = objects.ids[lid];
      std::memcpy(buf, items.at(id).data(), item_bytes_);
      left.push_back(id);
    };
    m.unpack = [&](ZOLTAN_ID_TYPE gid, const char* buf) {
      const auto* b = reinterpret_cast<const unsigned char*>(buf);
      items[gid].assign(b, b + item_bytes_);
      ++received;
    };
    zoltan.migrate(m);
    for (std::uint64_t id : left) items.erase(id);
  }
  void finish(ItemMap&) override {}

 private:
  // The iteration's computing-time imbalance (max / mean over the ranks) exceeds the threshold.
  bool imbalanced(double computed) const {
    int size = 0;
    MPI_Comm_size(comm_, &size);
    std::vector<double> all(static_cast<std::size_t>(size));
    MPI_Allgather(&computed, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm_);
    const double mean = std::accumulate(all.begin(), all.end(), 0.0) / size;
    return mean > 0 && *std::max_element(all.begin(), all.end()) > threshold_ * mean;
  }

  long period_;
  double threshold_;
  std::size_t item_bytes_;
  std::vector<double> costs_;
  const std::vector<double>* live_costs_;
  MPI_Comm comm_;
  double seconds_ = 0, processed_ = 0;
  std::unique_ptr<Partitioner> zoltan_;
};

}  // namespace

std::unique_ptr<Balancer> make_balancer(const BalancerChoice& c, const BalancerSettings& s, MPI_Comm comm) {
  switch (c.kind) {
    case BalancerChoice::Kind::None: return std::make_unique<NoBalancer>();
    case BalancerChoice::Kind::Static: {
      if (!c.equal_speeds) return std::make_unique<StaticBalancer>(s, comm);
      BalancerSettings equal = s;  // the speeds unknown beforehand: the plan given equal ones
      std::fill(equal.speeds.begin(), equal.speeds.end(), 1.0);
      return std::make_unique<StaticBalancer>(equal, comm);
    }
    case BalancerChoice::Kind::Hetlb: return std::make_unique<HetlbBalancer>(c, s, comm);
    case BalancerChoice::Kind::Zoltan: return std::make_unique<ZoltanBalancer>(c.period, c.threshold, s, comm);
  }
  return nullptr;
}

}  // namespace peers
