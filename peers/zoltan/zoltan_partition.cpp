#include "zoltan_partition.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace peers {

// The query and migration callbacks of the user guide's C interface; `data` is the Partitioner.
struct Callbacks {
  static Partitioner& self(void* data) { return *static_cast<Partitioner*>(data); }

  static int num_obj(void* data, int* ierr) {
    *ierr = ZOLTAN_OK;
    return static_cast<int>(self(data).objects_->ids.size());
  }
  static void obj_list(void* data, int, int, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim, float* weights,
                       int* ierr) {
    const Objects& o = *self(data).objects_;
    for (std::size_t i = 0; i < o.ids.size(); ++i) {
      gids[i] = o.ids[i];
      lids[i] = static_cast<ZOLTAN_ID_TYPE>(i);
      for (int w = 0; w < wdim; ++w)
        weights[i * static_cast<std::size_t>(wdim) + static_cast<std::size_t>(w)] = o.weights.empty() ? 1.0f : o.weights[i];
    }
    *ierr = ZOLTAN_OK;
  }
  static int num_geom(void*, int* ierr) {
    *ierr = ZOLTAN_OK;
    return 2;
  }
  static void geom_multi(void* data, int, int, int num_obj, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids, int num_dim,
                         double* geom, int* ierr) {
    const Objects& o = *self(data).objects_;
    for (int i = 0; i < num_obj; ++i)
      for (int d = 0; d < num_dim; ++d)
        geom[i * num_dim + d] = o.xy[2 * static_cast<std::size_t>(lids[i]) + static_cast<std::size_t>(d)];
    *ierr = ZOLTAN_OK;
  }
  static int obj_size(void* data, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int* ierr) {
    *ierr = ZOLTAN_OK;  // RCB asks for the sizes too, before any migration
    const Migration* m = self(data).migration_;
    return m != nullptr ? m->size : static_cast<int>(sizeof(ZOLTAN_ID_TYPE));
  }
  static void pack(void* data, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lid, int, int, char* buf, int* ierr) {
    self(data).migration_->pack(*lid, buf);
    *ierr = ZOLTAN_OK;
  }
  static void unpack(void* data, int, ZOLTAN_ID_PTR gid, int, char* buf, int* ierr) {
    self(data).migration_->unpack(*gid, buf);
    *ierr = ZOLTAN_OK;
  }
};

void Partitioner::check(int rc, const char* what) {
  if (rc != ZOLTAN_OK) throw std::runtime_error(std::string("Zoltan: ") + what + " returned " + std::to_string(rc));
}

Partitioner::Partitioner(MPI_Comm comm, const std::string& method, const std::vector<double>& part_sizes,
                         const std::string& return_lists)
    : method_(method) {
  float version = 0;
  check(Zoltan_Initialize(0, nullptr, &version), "Zoltan_Initialize");
  zz_ = Zoltan_Create(comm);
  if (zz_ == nullptr) throw std::runtime_error("Zoltan: Zoltan_Create failed");
  const std::string parts = std::to_string(part_sizes.size());
  const std::pair<const char*, std::string> params[] = {
      {"DEBUG_LEVEL", "0"},          {"LB_METHOD", method},        {"LB_APPROACH", "PARTITION"},
      {"NUM_GID_ENTRIES", "1"},      {"NUM_LID_ENTRIES", "1"},     {"OBJ_WEIGHT_DIM", "1"},
      {"NUM_GLOBAL_PARTS", parts},   {"RETURN_LISTS", return_lists}};
  for (const auto& [name, value] : params)
    check(Zoltan_Set_Param(zz_, name, value.c_str()), (std::string("Zoltan_Set_Param ") + name).c_str());
  Zoltan_Set_Num_Obj_Fn(zz_, &Callbacks::num_obj, this);
  Zoltan_Set_Obj_List_Fn(zz_, &Callbacks::obj_list, this);
  if (method == "RCB") {
    Zoltan_Set_Num_Geom_Fn(zz_, &Callbacks::num_geom, this);
    Zoltan_Set_Geom_Multi_Fn(zz_, &Callbacks::geom_multi, this);
  }
  Zoltan_Set_Obj_Size_Fn(zz_, &Callbacks::obj_size, this);
  Zoltan_Set_Pack_Obj_Fn(zz_, &Callbacks::pack, this);
  Zoltan_Set_Unpack_Obj_Fn(zz_, &Callbacks::unpack, this);
  set_part_sizes(part_sizes);
}

void Partitioner::set_part_sizes(const std::vector<double>& part_sizes) {
  // Part sizes from speeds: global part numbers, weight index 0, relative sizes (Zoltan normalises).
  std::vector<int> ids(part_sizes.size()), weight_index(part_sizes.size(), 0);
  std::vector<float> sizes(part_sizes.size());
  for (std::size_t k = 0; k < part_sizes.size(); ++k) ids[k] = static_cast<int>(k), sizes[k] = static_cast<float>(part_sizes[k]);
  check(Zoltan_LB_Set_Part_Sizes(zz_, 1, static_cast<int>(sizes.size()), ids.data(), weight_index.data(), sizes.data()),
        "Zoltan_LB_Set_Part_Sizes");
}

Partitioner::~Partitioner() {
  Zoltan_LB_Free_Part(&imports_.gids, &imports_.lids, &imports_.procs, &imports_.parts);
  Zoltan_LB_Free_Part(&exports_.gids, &exports_.lids, &exports_.procs, &exports_.parts);
  Zoltan_Destroy(&zz_);
}

void Partitioner::partition(const Objects& objects) {
  Zoltan_LB_Free_Part(&imports_.gids, &imports_.lids, &imports_.procs, &imports_.parts);
  Zoltan_LB_Free_Part(&exports_.gids, &exports_.lids, &exports_.procs, &exports_.parts);
  objects_ = &objects;
  int changes = 0, gid_entries = 0, lid_entries = 0;
  check(Zoltan_LB_Partition(zz_, &changes, &gid_entries, &lid_entries, &imports_.count, &imports_.gids, &imports_.lids,
                            &imports_.procs, &imports_.parts, &exports_.count, &exports_.gids, &exports_.lids,
                            &exports_.procs, &exports_.parts),
        ("Zoltan_LB_Partition (" + method_ + ")").c_str());
}

void Partitioner::migrate(const Migration& migration) {
  migration_ = &migration;
  check(Zoltan_Migrate(zz_, imports_.count, imports_.gids, imports_.lids, imports_.procs, imports_.parts,
                       exports_.count, exports_.gids, exports_.lids, exports_.procs, exports_.parts),
        "Zoltan_Migrate");
}

std::vector<int> Partitioner::parts_by_local_index() const {
  std::vector<int> parts(objects_->ids.size(), -1);
  for (int i = 0; i < exports_.count; ++i) {
    const std::size_t lid = exports_.lids[i];
    if (lid >= parts.size()) throw std::runtime_error("Zoltan: an exported object has an unknown local id");
    if (parts[lid] != -1) throw std::runtime_error("Zoltan: object " + std::to_string(exports_.gids[i]) + " listed twice");
    parts[lid] = exports_.parts[i];
  }
  return parts;
}

}  // namespace peers
