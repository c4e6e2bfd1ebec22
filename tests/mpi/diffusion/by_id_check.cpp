// Gather and scatter by id under mpirun (docs/runtime.md, "Gather and scatter by id"):
//   hetlb-mpi-diffusion-by-id-check --mode bsp|async --ids dense|sparse --progress calls|thread [--seed S]
// Rank 0 starts with all 600 items in a shuffled order (seeded); an item is (id, frame value). Ids are
// 0..599 (dense) or 7 + 3k (sparse). Bulk-synchronous mode, every iteration: the balancer's items are
// gathered at the root (rank 1 when there are several ranks) and checked there: every id exactly once,
// in ascending id order, each payload its id's and the frame's value; the root writes the next frame's
// values and scatters them back into the items, and each rank checks that its items carry them. A
// second array of the program's (one double per item, in item order) is gathered too. Asynchronous
// mode: refused while running (the same code on every rank), gathered and scattered after the end.
// Misuse is refused on every rank with the same code: roots that differ, a payload size of 0, the
// balancer's items with another size. At the end the items must have moved (rank 0 holds fewer than
// all). Exit 0 when every check passes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
constexpr std::uint64_t kItems = 600;

struct Item {
  std::uint64_t id;
  std::int64_t frame;  // the value of the frame that last wrote it
};

std::int64_t value_of(std::uint64_t id, long frame) { return frame * 100000 + static_cast<std::int64_t>(id); }

int fail(int rank, const std::string& what) {
  std::fprintf(stderr, "by-id-check: rank %d: %s\n", rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

// The status a call ends with on this rank (0 or the Error's), for misuse that must agree.
template <class F>
int status_of(F&& f) {
  try {
    f();
    return 0;
  } catch (const hetlb::mpi::Error& e) {
    return e.status();
  }
}

void same_everywhere(int status, int expected, int rank, const std::string& what) {
  int lo = status, hi = status;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (lo != expected || hi != expected)
    fail(rank, what + ": codes " + std::to_string(lo) + ".." + std::to_string(hi) + ", expected " +
                   std::to_string(expected) + " on every rank");
}
}  // namespace

int main(int argc, char** argv) {
  std::string mode = "bsp", ids = "dense", progress = "calls";
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--mode") mode = v;
    else if (a == "--ids") ids = v;
    else if (a == "--progress") progress = v;
    else if (a == "--seed") seed = static_cast<unsigned>(std::stoul(v));
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int root = size > 1 ? 1 : 0;
  const auto id_of = [&](std::uint64_t k) { return ids == "dense" ? k : 7 + 3 * k; };
  {
    hetlb::mpi::DiffusionOptions o;
    o.balance = "load";
    o.tolerance = 0.05;
    o.iterations = 10;
    o.time_limit = 20;
    o.bulk_synchronous = mode == "bsp";
    o.wait_for_load = mode != "bsp";
    o.progress_thread = progress == "thread";
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(Item));
    if (rank == 0) {
      std::vector<std::uint64_t> order(kItems);
      std::iota(order.begin(), order.end(), std::uint64_t{0});
      std::shuffle(order.begin(), order.end(), std::mt19937(seed));
      for (std::uint64_t k : order) {
        const Item item{id_of(k), value_of(id_of(k), 0)};
        lb.add(item.id, &item);
      }
    }
    same_everywhere(status_of([&] { lb.gather_by_id(nullptr, sizeof(Item), nullptr, root); }),
                    HETLB_DIFFUSION_ERR_STATE, rank, "gather before start()");
    lb.start();
    if (lb.total_items() != kItems) fail(rank, "total_items() " + std::to_string(lb.total_items()));
    std::vector<Item> frame(rank == root ? kItems : 0);
    std::vector<double> results(rank == root ? kItems : 0);
    std::vector<std::uint64_t> frame_ids(rank == root ? kItems : 0);
    long frames = 0;
    // Gathers the items and a second array, checks them at the root, writes frame `next` and scatters it.
    const auto exchange = [&](long current, long next) {
      std::vector<double> mine(lb.size());
      for (std::size_t i = 0; i < lb.size(); ++i) mine[i] = static_cast<double>(lb.id(i)) * 0.5;
      lb.gather_by_id(nullptr, sizeof(Item), frame.data(), root, frame_ids.data());
      lb.gather_by_id(mine.data(), sizeof(double), results.data(), root);
      if (rank == root)
        for (std::uint64_t k = 0; k < kItems; ++k) {
          if (frame[k].id != id_of(k) || frame_ids[k] != id_of(k))
            fail(rank, "position " + std::to_string(k) + " holds id " + std::to_string(frame[k].id) + ", expected " +
                           std::to_string(id_of(k)));
          if (frame[k].frame != value_of(id_of(k), current))
            fail(rank, "id " + std::to_string(id_of(k)) + ": frame value " + std::to_string(frame[k].frame) +
                           ", expected frame " + std::to_string(current) + "'s");
          if (results[k] != static_cast<double>(id_of(k)) * 0.5) fail(rank, "the second array, out of order");
          frame[k].frame = value_of(id_of(k), next);
        }
      lb.scatter_by_id(frame.data(), sizeof(Item), nullptr, root);
      for (std::size_t i = 0; i < lb.size(); ++i) {
        const Item& item = *static_cast<const Item*>(lb.item(i));
        if (item.id != lb.id(i) || item.frame != value_of(item.id, next))
          fail(rank, "after the scatter, id " + std::to_string(lb.id(i)) + " holds frame value " +
                         std::to_string(item.frame));
      }
      // The scatter into an array of the program's, in item order.
      std::vector<Item> back(lb.size());
      lb.scatter_by_id(frame.data(), sizeof(Item), back.data(), root);
      for (std::size_t i = 0; i < lb.size(); ++i)
        if (back[i].id != lb.id(i)) fail(rank, "scatter into the program's array: wrong id");
    };
    long current = 0;
    bool running = true;
    while (running) {
      if (mode == "bsp") {
        exchange(current, current + 1);
        ++current;
        ++frames;
      } else if (frames == 0) {
        same_everywhere(status_of([&] { lb.gather_by_id(nullptr, sizeof(Item), frame.data(), root); }),
                        HETLB_DIFFUSION_ERR_STATE, rank, "gather while the asynchronous run goes on");
        ++frames;
      }
      running = lb.iteration_done();
    }
    exchange(current, current + 1);
    same_everywhere(status_of([&] { lb.gather_by_id(nullptr, sizeof(Item), frame.data(), rank % 2); }),
                    size > 1 ? HETLB_DIFFUSION_ERR_ARG : 0, rank, "roots that differ");
    same_everywhere(status_of([&] { lb.gather_by_id(nullptr, 0, frame.data(), root); }), HETLB_DIFFUSION_ERR_ARG,
                    rank, "item_bytes 0");
    const std::size_t wrong = rank == 0 ? sizeof(Item) - 1 : sizeof(Item);
    same_everywhere(status_of([&] { lb.gather_by_id(nullptr, wrong, frame.data(), root); }), HETLB_DIFFUSION_ERR_ARG,
                    rank, "the items with another size");
    same_everywhere(status_of([&] { lb.gather_by_id(nullptr, sizeof(Item), nullptr, root); }),
                    HETLB_DIFFUSION_ERR_ARG, rank, "root_out = NULL at the root");
    exchange(current + 1, current + 2);  // works again after refusals
    long long held0 = rank == 0 ? static_cast<long long>(lb.size()) : 0;
    MPI_Allreduce(MPI_IN_PLACE, &held0, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (size > 1 && held0 >= static_cast<long long>(kItems)) fail(rank, "no item moved");
    lb.metrics();  // conservation
    if (rank == root)
      std::printf("by-id-check: %s, %s ids, %ld frames gathered and scattered, rank 0 holds %lld of %llu\n",
                  mode.c_str(), ids.c_str(), frames, held0, static_cast<unsigned long long>(kItems));
  }
  MPI_Finalize();
  return 0;
}
