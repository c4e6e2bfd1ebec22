// End-of-run check of hetlb-diffuse (verify.hpp): (id, payload hash, result, times) of every item
// gathered on rank 0 and compared with freshly made items.
#include "verify.hpp"

#include <fmt/format.h>

namespace diffuse {

namespace {
struct Record {
  std::uint64_t id, hash, times;
  double result;
};
}  // namespace

std::string verify(hetlb::mpi::Diffusion& lb, const std::function<const void*(std::size_t)>& item_of, std::size_t item_bytes, std::uint64_t total,
                   const std::vector<seismic::Ray>& rays, const std::vector<seismic::Layer>* model, double flops,
                   MPI_Comm comm, std::uint64_t expected_times) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<Record> mine;
  for (std::size_t i = 0; i < lb.size(); ++i) {
    const auto* h = static_cast<const ItemHeader*>(item_of(i));
    mine.push_back({lb.id(i), payload_hash(h, item_bytes), h->times, h->result});
  }
  const int bytes = static_cast<int>(mine.size() * sizeof(Record));
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  long long all = 0;
  for (int r = 0; r < size; ++r) {
    displs[static_cast<std::size_t>(r)] = static_cast<int>(all);
    all += counts[static_cast<std::size_t>(r)];
  }
  std::vector<Record> records(rank == 0 ? static_cast<std::size_t>(all) / sizeof(Record) : 0);
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, records.data(), counts.data(), displs.data(), MPI_BYTE, 0, comm);
  std::string problem;
  if (rank == 0) {
    std::vector<int> seen(total, 0);
    std::vector<unsigned char> item(item_bytes);
    if (records.size() != total) problem = fmt::format("conservation: {} items at the end, {} at the start", records.size(), total);
    for (const Record& r : records) {
      if (!problem.empty()) break;
      if (r.id >= total) problem = fmt::format("item id {}: out of [0, {})", r.id, total);
      else if (seen[r.id]++) problem = fmt::format("item id {}: held twice", r.id);
      else {
        make_item(r.id, rays, item.data(), item_bytes);
        const auto* h = reinterpret_cast<const ItemHeader*>(item.data());
        if (expected_times > 0 && r.times != expected_times)
          problem = fmt::format("item id {}: processed {} times; expected --work {}", r.id, r.times, expected_times);
        else if (payload_hash(item.data(), item_bytes) != r.hash) problem = fmt::format("item id {}: payload checksum differs", r.id);
        else if (r.times > 0 && compute(*h, r.id, model, flops) != r.result)
          problem = fmt::format("item id {}: result differs from the kernel's", r.id);
      }
    }
  }
  int length = static_cast<int>(problem.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  problem.resize(static_cast<std::size_t>(length));
  MPI_Bcast(problem.data(), length, MPI_CHAR, 0, comm);
  return problem;
}

}  // namespace diffuse
