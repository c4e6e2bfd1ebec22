// Zoltan called as its user guide says (Zoltan User's Guide, "Load-Balancing Functions" and
// "Migration Functions"): query callbacks give this rank's objects, their weights and, for geometric
// methods, their coordinates; Zoltan_LB_Set_Part_Sizes gives the relative part sizes (here the
// processors' computing speeds); Zoltan_LB_Partition computes the parts; Zoltan_Migrate moves the
// objects with the caller's size, pack and unpack callbacks.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>
#include <zoltan.h>

namespace peers {

// This rank's objects: global ids, weights (empty: unit weights, the scatter model's identical items;
// else one per object, its cost) and, for RCB, 2-D coordinates (x0, y0, x1, y1, ...).
struct Objects {
  std::vector<ZOLTAN_ID_TYPE> ids;
  std::vector<float> weights;
  std::vector<double> xy;
};

// The lists Zoltan_LB_Partition returns (allocated by Zoltan, freed with Zoltan_LB_Free_Part).
struct Lists {
  int count = -1;
  ZOLTAN_ID_PTR gids = nullptr, lids = nullptr;
  int* procs = nullptr;
  int* parts = nullptr;
};

// Packs and unpacks one object for Zoltan_Migrate: `size` bytes each; pack(local index, buffer),
// unpack(global id, buffer).
struct Migration {
  int size = 0;
  std::function<void(ZOLTAN_ID_TYPE lid, char* buf)> pack;
  std::function<void(ZOLTAN_ID_TYPE gid, const char* buf)> unpack;
};

class Partitioner {
 public:
  // Collective over comm. method: "BLOCK" or "RCB"; `part_sizes` (one per part, any positive scale):
  // relative sizes of the NUM_GLOBAL_PARTS = part_sizes.size() parts. `return_lists`: "PARTS" (every
  // object with its new part, for reading an assignment) or "ALL" (import and export lists, for
  // Zoltan_Migrate). Throws std::runtime_error when Zoltan refuses.
  Partitioner(MPI_Comm comm, const std::string& method, const std::vector<double>& part_sizes,
              const std::string& return_lists);
  ~Partitioner();
  Partitioner(const Partitioner&) = delete;
  Partitioner& operator=(const Partitioner&) = delete;

  // Collective: new relative part sizes for the next partition() (the same Zoltan structure reused).
  void set_part_sizes(const std::vector<double>& part_sizes);

  // Zoltan_LB_Partition over this rank's `objects` (kept by reference until migrate()); the lists of a
  // previous call are freed.
  void partition(const Objects& objects);
  const Lists& exports() const { return exports_; }
  const Lists& imports() const { return imports_; }

  // Zoltan_Migrate with the lists of partition() and `migration`'s callbacks.
  void migrate(const Migration& migration);

  // With return_lists "PARTS": the new part of each local object, by local index.
  std::vector<int> parts_by_local_index() const;

 private:
  static void check(int rc, const char* what);
  Zoltan_Struct* zz_ = nullptr;
  const Objects* objects_ = nullptr;
  const Migration* migration_ = nullptr;
  Lists imports_, exports_;
  std::string method_;

  friend struct Callbacks;
};

}  // namespace peers
