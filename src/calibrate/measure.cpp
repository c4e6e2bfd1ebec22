#include "measure.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "item_sampler.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/model/calibration.hpp"  // fit_affine, table_from_points

namespace hetlb::calibrate {

namespace {

// A barrier that sleeps while it waits (MPI_Barrier spins, stealing the core of a measuring rank).
void quiet_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

int cores_here() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// A low quantile of the samples and the half-width of its distribution-free 95% confidence interval
// (order statistics around n q +- 1.96 sqrt(n q (1 - q))). Timings on a shared machine have one-sided
// noise (preemption, other tenants) that moves a mean, and under heavy load even a median; the fast
// end of the distribution is what the machine does when it runs the kernel undisturbed.
struct QuantileInterval {
  double value = 0, half_width = INFINITY;
};
QuantileInterval quantile_interval(std::vector<double> v, double q) {
  const double n = static_cast<double>(v.size());
  const auto at = [&](double one_based) {
    const auto i = static_cast<std::size_t>(std::clamp(std::round(one_based), 1.0, n)) - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
    return v[i];
  };
  QuantileInterval m;
  m.value = at(std::ceil(n * q));
  const double spread = 1.96 * std::sqrt(n * q * (1 - q));
  if (v.size() >= 5) m.half_width = (at(std::ceil(n * q + spread) + 1) - at(std::floor(n * q - spread))) / 2;
  return m;
}

// Times f for up to `seconds` (one round of a point), appending to `samples`: 5 calls at least unless
// the round's time runs out; ends early once the interval of the quantile over all the point's samples
// so far is within s.relative (checked at geometrically spaced counts: O(n log n) in all).
template <class F>
void time_round(std::vector<double>& samples, F&& f, const Settings& s, double seconds) {
  const double start = MPI_Wtime();
  std::size_t next_check = samples.size() + 5;  // this round's fifth call, then geometrically spaced
  while (true) {
    const double t0 = MPI_Wtime();
    f();
    samples.push_back(MPI_Wtime() - t0);
    if (MPI_Wtime() - start >= seconds) return;
    if (samples.size() >= next_check) {
      next_check = samples.size() + samples.size() / 2;
      const QuantileInterval m = quantile_interval(samples, s.quantile);
      if (m.half_width <= s.relative * m.value) return;
    }
  }
}

// A point from all its rounds' samples.
Point point_of(long long items, const std::vector<double>& samples, const Settings& s) {
  if (samples.empty()) return Point{items, 0, 0, 0, false};
  const QuantileInterval m = quantile_interval(samples, s.quantile);
  return Point{items, m.value, std::isfinite(m.half_width) ? m.half_width : m.value,
               static_cast<long long>(samples.size()), m.half_width <= s.relative * m.value};
}

double ping(std::vector<char>& buf, long long bytes, int peer, MPI_Comm comm) {
  const double t0 = MPI_Wtime();
  MPI_Send(buf.data(), static_cast<int>(bytes), MPI_CHAR, peer, 1, comm);
  MPI_Recv(buf.data(), 1, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
  return MPI_Wtime() - t0;
}

void pong(std::vector<char>& buf, int root, MPI_Comm comm) {
  while (true) {
    MPI_Status st;
    MPI_Probe(root, MPI_ANY_TAG, comm, &st);
    int len = 0;
    MPI_Get_count(&st, MPI_CHAR, &len);
    if (static_cast<std::size_t>(len) > buf.size()) buf.resize(static_cast<std::size_t>(len));
    MPI_Recv(buf.data(), len, MPI_CHAR, root, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == 2) return;
    MPI_Send(buf.data(), 1, MPI_CHAR, root, 1, comm);
  }
}

// Points of every rank gathered on rank 0 (mean, half-width, samples, converged per point).
std::vector<std::vector<Point>> gather_points(const std::vector<Point>& mine, const std::vector<long long>& sizes,
                                              int size, MPI_Comm comm) {
  std::vector<double> flat;
  for (const Point& p : mine) flat.insert(flat.end(), {p.mean, p.half_width, static_cast<double>(p.samples), p.converged ? 1.0 : 0.0});
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> all(rank == 0 ? flat.size() * static_cast<std::size_t>(size) : 0);
  MPI_Gather(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, all.data(), static_cast<int>(flat.size()),
             MPI_DOUBLE, 0, comm);
  std::vector<std::vector<Point>> out(rank == 0 ? static_cast<std::size_t>(size) : 0);
  for (std::size_t r = 0; r < out.size(); ++r)
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const double* v = &all[(r * sizes.size() + k) * 4];
      out[r].push_back(Point{sizes[k], v[0], v[1], static_cast<long long>(v[2]), v[3] > 0});
    }
  return out;
}

}  // namespace

Measurements measure(const Kernel& kernel, const Settings& s, MPI_Comm comm) {
  Measurements m;
  const double start = MPI_Wtime();
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  m.ranks = size;

  // Ranks per node against the node's cores.
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0, node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  const int cores = cores_here();
  // Oversubscribed node: its ranks take turns one at a time (all measured in the same conditions; a
  // wave of several would share the cores with whatever else runs there, unlike a lone rank).
  const int my_waves = node_size > cores ? node_size : 1;
  MPI_Allreduce(&my_waves, &m.waves, 1, MPI_INT, MPI_MAX, comm);
  const int load = node_size * 1000 / cores;  // the busiest node: most ranks per core
  int busiest = 0, found = 0;
  MPI_Allreduce(&load, &busiest, 1, MPI_INT, MPI_MAX, comm);
  const int mine_busiest = load == busiest ? node_size * 100000 + cores : 0;
  MPI_Allreduce(&mine_busiest, &found, 1, MPI_INT, MPI_MAX, comm);
  m.busiest_node_ranks = found / 100000, m.busiest_node_cores = found % 100000;

  // Tcomp: each point after a barrier, each wave of ranks in turn; every point in s.rounds rounds.
  const int rounds = std::max(1, s.rounds);
  const double round_seconds = s.max_seconds / rounds;
  std::vector<std::vector<double>> comp_samples(s.sizes.size());
  ItemSampler sampler(s.sample_range, s.seed);  // which items each timing covers
  for (int round = 0; round < rounds; ++round)
    for (std::size_t k = 0; k < s.sizes.size(); ++k)
      for (int wave = 0; wave < m.waves; ++wave) {
        quiet_barrier(comm);
        if (m.waves == 1 || node_rank == wave)
          time_round(comp_samples[k], [&] { m.kernel_failed = kernel(sampler.next_first(s.sizes[k]), s.sizes[k]) != 0 || m.kernel_failed; }, s,
                     round_seconds);
      }
  quiet_barrier(comm);
  std::vector<Point> comp;
  for (std::size_t k = 0; k < s.sizes.size(); ++k) comp.push_back(point_of(s.sizes[k], comp_samples[k], s));
  m.compute = gather_points(comp, s.sizes, size, comm);

  // Tcomm: the root and one peer at a time, the others asleep in the barrier; every peer in each round.
  long long max_items = 1;
  for (long long c : s.comm_sizes) max_items = std::max(max_items, c);
  std::vector<char> buf(static_cast<std::size_t>(std::max(1.0, s.bytes_per_item * static_cast<double>(max_items))));
  const auto peers = static_cast<std::size_t>(size);
  std::vector<std::vector<double>> answer_samples(peers);                   // one-byte round trips, per peer
  std::vector<std::vector<double>> link_samples(peers * s.comm_sizes.size());  // [peer][size]
  for (int round = 0; round < rounds; ++round)
    for (int peer = 0; peer < size; ++peer) {
      if (peer == s.root) continue;
      quiet_barrier(comm);
      const auto pu = static_cast<std::size_t>(peer);
      if (rank == s.root) {
        time_round(answer_samples[pu], [&] { ping(buf, 1, peer, comm); }, s, round_seconds);
        for (std::size_t k = 0; k < s.comm_sizes.size(); ++k) {
          const auto bytes = static_cast<long long>(s.bytes_per_item * static_cast<double>(s.comm_sizes[k]));
          time_round(link_samples[pu * s.comm_sizes.size() + k], [&] { ping(buf, bytes, peer, comm); }, s, round_seconds);
        }
        MPI_Send(buf.data(), 0, MPI_CHAR, peer, 2, comm);
      } else if (rank == peer) {
        pong(buf, s.root, comm);
      }
    }
  quiet_barrier(comm);
  // A transfer: its round trip less half of a one-byte round trip.
  std::vector<Point> root_links(peers * s.comm_sizes.size());
  if (rank == s.root)
    for (std::size_t pu = 0; pu < peers; ++pu) {
      if (answer_samples[pu].empty()) continue;
      const double answer = point_of(1, answer_samples[pu], s).mean / 2;
      for (std::size_t k = 0; k < s.comm_sizes.size(); ++k) {
        Point p = point_of(s.comm_sizes[k], link_samples[pu * s.comm_sizes.size() + k], s);
        p.mean = std::max(0.0, p.mean - answer);
        root_links[pu * s.comm_sizes.size() + k] = p;
      }
    }
  // The root's table to rank 0, as points of every rank.
  std::vector<double> flat;
  for (const Point& p : root_links) flat.insert(flat.end(), {p.mean, p.half_width, static_cast<double>(p.samples), p.converged ? 1.0 : 0.0});
  if (s.root != 0) {
    if (rank == s.root) MPI_Send(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, 3, comm);
    if (rank == 0) MPI_Recv(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, s.root, 3, comm, MPI_STATUS_IGNORE);
  }
  if (rank == 0)
    for (int r = 0; r < size; ++r) {
      m.comm.emplace_back();
      for (std::size_t k = 0; k < s.comm_sizes.size(); ++k) {
        const double* v = &flat[(static_cast<std::size_t>(r) * s.comm_sizes.size() + k) * 4];
        m.comm.back().push_back(Point{s.comm_sizes[k], v[0], v[1], static_cast<long long>(v[2]), v[3] > 0});
      }
    }
  m.seconds = MPI_Wtime() - start;
  return m;
}

Platform fit_platform(const Measurements& m, const Settings& s, const std::string& model, const std::string& name,
                      long long items) {
  Platform pf;
  pf.name = name;
  long long largest = 1;
  for (long long x : s.sizes) largest = std::max(largest, x);
  pf.items = items > 0 ? items : largest * m.ranks;
  pf.root = static_cast<std::size_t>(s.root);
  auto points = [](const std::vector<Point>& v) {
    std::vector<std::pair<double, double>> out;
    for (const Point& p : v) out.emplace_back(static_cast<double>(p.items), p.mean);
    return out;
  };
  for (int r = 0; r < m.ranks; ++r) {
    const auto ru = static_cast<std::size_t>(r);
    Processor p;
    p.name = fmt::format("rank-{}", r);
    p.compute = model == "table" ? table_from_points(points(m.compute[ru])) : fit_affine(points(m.compute[ru])).cost();
    p.comm = r == s.root ? CostFunction::linear(0)
                         : (model == "table" ? table_from_points(points(m.comm[ru])) : fit_affine(points(m.comm[ru])).cost());
    pf.processors.push_back(p);
  }
  return pf;
}

std::string platform_json_with_measurements(const Platform& platform, const Measurements& m, const Settings& s) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(io::platform_to_json(platform));
  auto table = [](const std::vector<Point>& v) {
    nlohmann::ordered_json t;
    for (const Point& p : v) {
      t["items"].push_back(p.items);
      t["seconds"].push_back(p.mean);
      t["ci95"].push_back(p.half_width);
      t["samples"].push_back(p.samples);
    }
    return t;
  };
  for (std::size_t r = 0; r < doc["processors"].size() && r < m.compute.size(); ++r) {
    nlohmann::ordered_json c;
    c["compute"] = table(m.compute[r]);
    if (static_cast<int>(r) != s.root) c["comm"] = table(m.comm[r]);
    doc["processors"][r]["calibration"] = c;
  }
  doc["calibration"] = {{"quantile", s.quantile},
                        {"relative_ci95_target", s.relative},
                        {"max_seconds_per_point", s.max_seconds},
                        {"rounds", s.rounds},
                        {"bytes_per_item", s.bytes_per_item},
                        {"items_timed", ItemSampler(s.sample_range, s.seed).describe()},
                        {"compute_turns", m.waves},
                        {"busiest_node", {{"ranks", m.busiest_node_ranks}, {"cores", m.busiest_node_cores}}},
                        {"seconds", m.seconds}};
  return doc.dump(2) + "\n";
}

}  // namespace hetlb::calibrate
