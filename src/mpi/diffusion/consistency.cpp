// Checks that refuse, on every rank, what the ranks must agree on: the same options everywhere (at
// construction) and every item id on one rank once (at start()). See consistency.hpp.
#include "consistency.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

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

// Each id goes to rank id mod size (one MPI_Alltoallv of (id, rank) pairs), which finds the duplicates.
void check_unique_ids(const std::vector<std::uint64_t>& ids, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::vector<std::uint64_t>> out(static_cast<std::size_t>(size));
  for (std::uint64_t id : ids) {
    auto& to = out[static_cast<std::size_t>(id % static_cast<std::uint64_t>(size))];
    to.push_back(id);
    to.push_back(static_cast<std::uint64_t>(rank));
  }
  std::vector<int> send_counts(static_cast<std::size_t>(size)), recv_counts(send_counts), send_displs(send_counts),
      recv_displs(send_counts);
  std::vector<std::uint64_t> send;
  for (int r = 0; r < size; ++r) {
    send_displs[static_cast<std::size_t>(r)] = static_cast<int>(send.size());
    send_counts[static_cast<std::size_t>(r)] = static_cast<int>(out[static_cast<std::size_t>(r)].size());
    send.insert(send.end(), out[static_cast<std::size_t>(r)].begin(), out[static_cast<std::size_t>(r)].end());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    recv_displs[static_cast<std::size_t>(r)] = total;
    total += recv_counts[static_cast<std::size_t>(r)];
  }
  std::vector<std::uint64_t> recv(static_cast<std::size_t>(total));
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, recv.data(), recv_counts.data(),
                recv_displs.data(), MPI_UINT64_T, comm);
  std::string reason;
  std::unordered_map<std::uint64_t, std::uint64_t> holder;
  holder.reserve(recv.size() / 2);
  for (std::size_t i = 0; i + 1 < recv.size() && reason.empty(); i += 2) {
    const auto [it, fresh] = holder.emplace(recv[i], recv[i + 1]);
    if (!fresh)
      reason = fmt::format("item id {} added {}: expected every id on one rank, once", recv[i],
                           it->second == recv[i + 1] ? fmt::format("twice on rank {}", recv[i + 1])
                                                     : fmt::format("on ranks {} and {}", std::min(it->second, recv[i + 1]),
                                                                   std::max(it->second, recv[i + 1])));
  }
  agree(reason.empty() ? HETLB_DIFFUSION_SUCCESS : HETLB_DIFFUSION_ERR_ARG, reason, comm);
}

}  // namespace hetlb::mpi::detail
