// Real execution of ring redistribution plans (Renard, Robert, Vivien) over MPI.
#include "hetlb/mpi/ring_redistribution.hpp"

#include <algorithm>
#include <deque>
#include <limits>

#include <fmt/format.h>

#include "collective_status.hpp"
#include "hetlb/mpi/distribution.hpp"
#include "hetlb/mpi/scatter.h"

namespace hetlb::mpi {

namespace {
constexpr int kTagToSucc = 4771, kTagToPred = 4772;

int as_int(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(HETLB_MPI_E_COUNT, fmt::format("ring redistribution: a transfer of {} bytes, expected below 2^31", bytes));
  return static_cast<int>(bytes);
}
}  // namespace

std::vector<Count> net_link_flows(const ring::Ring& ring, const ring::Plan& plan) {
  std::vector<Count> flow(ring.size(), 0);
  for (const ring::Transfer& t : plan.transfers) {
    if (t.to_succ) flow[t.from] += t.items;
    else flow[t.to] -= t.items;  // P_from -> P_to = P_from - 1 goes backwards on link (to, from)
  }
  return flow;
}

std::vector<std::byte> redistribute_ring(const ring::Ring& ring, const ring::Plan& plan, std::vector<std::byte> block,
                                         std::size_t item_bytes, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t me = static_cast<std::size_t>(rank);
  // Checks every rank can make alone, agreed collectively.
  std::string why;
  if (ring.size() != static_cast<std::size_t>(size))
    why = fmt::format("ring redistribution: the ring has {} processors, but the communicator has {} ranks", ring.size(), size);
  else if (item_bytes == 0)
    why = "ring redistribution: items of 0 bytes";
  else if (block.size() != static_cast<std::size_t>(ring.loads[me]) * item_bytes)
    why = fmt::format("ring redistribution: rank {} holds {} bytes, expected L_{} = {} items of {} bytes", rank,
                      block.size(), rank, ring.loads[me], item_bytes);
  // The plan must move items between neighbours, one way per link, and balance every processor:
  // then the protocol below cannot deadlock (a rank only waits while it holds nothing and still has
  // items to pass on, which are then in flight towards it unless no item is left anywhere).
  std::vector<Count> forward(ring.size(), 0), backward(ring.size(), 0), balance(ring.loads);
  for (std::size_t k = 0; why.empty() && k < plan.transfers.size(); ++k) {
    const ring::Transfer& t = plan.transfers[k];
    if (t.from >= ring.size() || t.to != (t.to_succ ? ring.succ(t.from) : ring.pred(t.from)) || t.items < 0) {
      why = fmt::format("ring redistribution: transfer {} ({} -> {}) is not between ring neighbours", k, t.from, t.to);
      break;
    }
    (t.to_succ ? forward[t.from] : backward[t.to]) += t.items;
    balance[t.from] -= t.items;
    balance[t.to] += t.items;
  }
  for (std::size_t i = 0; why.empty() && i < ring.size(); ++i) {
    if (forward[i] > 0 && backward[i] > 0)
      why = fmt::format("ring redistribution: link {} -> {} carries items both ways; expected one net flow per link", i,
                        ring.succ(i));
    else if (balance[i] != ring.targets[i])
      why = fmt::format("ring redistribution: the plan leaves P_{} with {} items, expected T_{} = {}", i, balance[i], i,
                        ring.targets[i]);
  }
  detail::agree_all(why.empty() ? 0 : HETLB_MPI_E_COUNT, why, comm, 0);

  // The periodic 1-D Cartesian communicator (rank order kept: ranks are processors); private, so
  // only this exchange's two tags travel on it.
  MPI_Comm cart;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(comm, 1, dims, periods, 0, &cart);
  int pred = 0, succ = 0;
  MPI_Cart_shift(cart, 0, 1, &pred, &succ);

  std::deque<std::byte> held(block.begin(), block.end());
  block.clear();
  std::size_t pending_in = 0;  // bytes still to arrive
  std::vector<std::size_t> sends;
  for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
    const ring::Transfer& t = plan.transfers[k];
    if (t.from == me && t.items > 0) sends.push_back(k);
    if (t.to == me) pending_in += static_cast<std::size_t>(t.items) * item_bytes;
  }
  std::vector<std::byte> in_buf;
  auto receive_one = [&] {  // whatever arrives first; items from the predecessor come before ours
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, cart, &st);
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    in_buf.resize(static_cast<std::size_t>(bytes));
    MPI_Recv(in_buf.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, cart, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == kTagToSucc) held.insert(held.begin(), in_buf.begin(), in_buf.end());
    else held.insert(held.end(), in_buf.begin(), in_buf.end());
    pending_in -= in_buf.size();
  };
  // Sends in plan order, each transfer as soon as (and in as many pieces as) its items are held:
  // a transfer to the successor carries the last items, one to the predecessor the first items.
  std::vector<std::vector<std::byte>> out_buffers;
  std::vector<MPI_Request> out_requests;
  out_buffers.reserve(sends.size() * 2);
  for (std::size_t k : sends) {
    const ring::Transfer& t = plan.transfers[k];
    std::size_t left = static_cast<std::size_t>(t.items) * item_bytes;
    while (left > 0) {
      while (held.size() < item_bytes) receive_one();  // pending_in > 0 here (see the check above)
      const std::size_t bytes = std::min(left, held.size() / item_bytes * item_bytes);
      std::vector<std::byte> buf;
      if (t.to_succ) {
        buf.assign(held.end() - static_cast<std::ptrdiff_t>(bytes), held.end());
        held.erase(held.end() - static_cast<std::ptrdiff_t>(bytes), held.end());
      } else {
        buf.assign(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(bytes));
        held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(bytes));
      }
      out_buffers.push_back(std::move(buf));
      out_requests.push_back(MPI_REQUEST_NULL);
      MPI_Isend(out_buffers.back().data(), as_int(bytes), MPI_BYTE, t.to_succ ? succ : pred,
                t.to_succ ? kTagToSucc : kTagToPred, cart, &out_requests.back());
      left -= bytes;
    }
  }
  while (pending_in > 0) receive_one();
  MPI_Waitall(static_cast<int>(out_requests.size()), out_requests.data(), MPI_STATUSES_IGNORE);
  MPI_Comm_free(&cart);
  std::string local_error;
  if (held.size() != static_cast<std::size_t>(ring.targets[me]) * item_bytes)
    local_error = fmt::format("ring redistribution: rank {} ends with {} items, expected T_{} = {}", rank,
                              held.size() / item_bytes, rank, ring.targets[me]);
  detail::agree_all(local_error.empty() ? 0 : HETLB_MPI_E_COUNT, local_error, comm, 0);
  return {held.begin(), held.end()};
}

}  // namespace hetlb::mpi
