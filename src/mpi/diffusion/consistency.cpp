// Checks that refuse, on every rank, what the ranks must agree on: the same options everywhere (at
// construction) and every item id on one rank once (at start()). See consistency.hpp.
#include "consistency.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hetlb/mpi/diffusion.h"
#include "neighbourhood.hpp"

namespace hetlb::mpi::detail {

namespace {
std::string text(double v) { return fmt::format("{}", v); }
std::string text(bool v) { return v ? "true" : "false"; }

std::string bcast_string(std::string s, int root, MPI_Comm comm) {
  int n = static_cast<int>(s.size());
  MPI_Bcast(&n, 1, MPI_INT, root, comm);
  s.resize(static_cast<std::size_t>(n));
  MPI_Bcast(s.data(), n, MPI_CHAR, root, comm);
  return s;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> option_fields(const DiffusionOptions& o, std::size_t item_bytes,
                                                               bool application_items) {
  std::string speeds;
  for (double s : o.speeds) speeds += (speeds.empty() ? "" : ",") + text(s);
  return {{"topology", o.topology},
          {"use_comm_graph", text(o.use_comm_graph)},
          {"strategy", o.strategy},
          {"k", text(o.k)},
          {"strategy_params", fmt::format("{}", fmt::join(o.strategy_params, " "))},
          {"virtual_load", text(o.virtual_load)},
          {"integer", text(o.integer)},
          {"min_balancing_period", text(o.min_balancing_period)},
          {"min_computing_period", text(o.min_computing_period)},
          {"iterations", fmt::format("{}", o.iterations)},
          {"tolerance", text(o.tolerance)},
          {"time_limit", text(o.time_limit)},
          {"progress_thread", text(o.progress_thread)},
          {"bulk_synchronous", text(o.bulk_synchronous)},
          {"sync_interval", fmt::format("{}", o.sync_interval)},
          {"wait_for_load", text(o.wait_for_load)},
          {"end_on_convergence", text(o.end_on_convergence)},
          {"balance", o.balance},
          {"speeds", speeds.empty() ? "measured" : speeds},
          {"speed_time_constant", text(o.speed_time_constant)},
          {"speed_hysteresis", text(o.speed_hysteresis)},
          {"speed_margin_min", text(o.speed_margin_min)},
          {"speeds_file", o.speeds_file},
          {"speed_window", fmt::format("{}", o.speed_window)},
          {"speed_confirm", fmt::format("{}", o.speed_confirm)},
          {"sync_interval_max", fmt::format("{}", o.sync_interval_max)},
          {"stall_timeout", text(o.stall_timeout)},
          {"balancer", o.balancer},
          {"total_iterations", fmt::format("{}", o.total_iterations)},
          {"global_min_interval", fmt::format("{}", o.global_min_interval)},
          {"start_step", o.start_step ? "true" : "false"},
          {"items", application_items ? "application (pack/unpack)" : fmt::format("{} bytes", item_bytes)}};
}

void check_same_options(const DiffusionOptions& o, std::size_t item_bytes, bool application_items, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto mine = option_fields(o, item_bytes, application_items);
  std::string packed;
  for (const auto& [name, value] : mine) packed += value + '\0';
  const std::string first = bcast_string(packed, 0, comm);
  std::string reason;
  std::size_t at = 0;
  for (const auto& [name, value] : mine) {
    const std::size_t end = first.find('\0', at);
    const std::string theirs = end == std::string::npos ? std::string() : first.substr(at, end - at);
    if (theirs != value) {
      reason = fmt::format("option {} differs between ranks: \"{}\" on rank 0, \"{}\" on rank {}; expected the same "
                           "options on every rank",
                           name, theirs, value, rank);
      break;
    }
    at = end == std::string::npos ? first.size() : end + 1;
  }
  agree(reason.empty() ? HETLB_DIFFUSION_SUCCESS : HETLB_DIFFUSION_ERR_ARG, reason, comm);
}

// Each id goes to the rank owning its slice of [smallest id, largest id] (n equal slices), as (id,
// holder) pairs; every rank checks its slice. Receivers learn how many ranks send to them from one
// MPI_Reduce_scatter_block, and the pairs travel point to point: with ids in blocks per rank (the
// common case) a rank sends to one or two others, not to all (an all-to-all of 256 ranks took
// minutes under SMPI).
void check_unique_ids(const std::vector<std::uint64_t>& ids, MPI_Comm comm) {
  constexpr int kTag = 21;
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::uint64_t range[2] = {~std::uint64_t{0}, ~std::uint64_t{0}}, global[2];  // min, ~max
  for (std::uint64_t id : ids) {
    range[0] = std::min(range[0], id);
    range[1] = std::min(range[1], ~id);
  }
  MPI_Allreduce(range, global, 2, MPI_UINT64_T, MPI_MIN, comm);
  std::string reason;
  if (global[0] <= ~global[1]) {
    const std::uint64_t lo = global[0];
    const unsigned __int128 span = static_cast<unsigned __int128>(~global[1] - lo) + 1;
    std::vector<std::vector<std::uint64_t>> out(static_cast<std::size_t>(size));
    for (std::uint64_t id : ids) {
      const auto owner = static_cast<std::size_t>(static_cast<unsigned __int128>(id - lo) *
                                                  static_cast<unsigned>(size) / span);
      out[owner].push_back(id);
      out[owner].push_back(static_cast<std::uint64_t>(rank));
    }
    std::vector<int> sends(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) sends[static_cast<std::size_t>(r)] = out[static_cast<std::size_t>(r)].empty() ? 0 : 1;
    int senders = 0;
    MPI_Reduce_scatter_block(sends.data(), &senders, 1, MPI_INT, MPI_SUM, comm);
    std::vector<MPI_Request> requests;
    for (int r = 0; r < size; ++r) {
      auto& v = out[static_cast<std::size_t>(r)];
      if (v.empty()) continue;
      requests.emplace_back();
      MPI_Isend(v.data(), static_cast<int>(v.size()), MPI_UINT64_T, r, kTag, comm, &requests.back());
    }
    std::vector<std::pair<int, std::vector<std::uint64_t>>> got;  // by source rank: the same verdict every run
    for (int k = 0; k < senders; ++k) {
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, kTag, comm, &st);
      int count = 0;
      MPI_Get_count(&st, MPI_UINT64_T, &count);
      auto& [source, in] = got.emplace_back(st.MPI_SOURCE, std::vector<std::uint64_t>(static_cast<std::size_t>(count)));
      MPI_Recv(in.data(), count, MPI_UINT64_T, source, kTag, comm, MPI_STATUS_IGNORE);
    }
    std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::unordered_map<std::uint64_t, std::uint64_t> holder;
    for (const auto& [source, in] : got)
      for (std::size_t i = 0; i + 1 < in.size() && reason.empty(); i += 2) {
        const auto [it, fresh] = holder.emplace(in[i], in[i + 1]);
        if (!fresh)
          reason = fmt::format("item id {} added {}: expected every id on one rank, once", in[i],
                               it->second == in[i + 1]
                                   ? fmt::format("twice on rank {}", in[i + 1])
                                   : fmt::format("on ranks {} and {}", std::min(it->second, in[i + 1]),
                                                 std::max(it->second, in[i + 1])));
      }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  }
  agree(reason.empty() ? HETLB_DIFFUSION_SUCCESS : HETLB_DIFFUSION_ERR_ARG, reason, comm);
}

}  // namespace hetlb::mpi::detail
