// hetlb._hetlb_mpi: persistent load-balanced scatter/gather plans (hetlb::mpi::Plan, the C++ face of
// hetlb/mpi/plan.h) and the diffusion runtime (balancer_bindings.cpp) over mpi4py communicators (their
// MPI_Comm through mpi4py's C API). The buffers are raw bytes here: an item is `itemsize` contiguous
// bytes; hetlb/mpi.py checks and agrees on them.
#include <mpi.h>
#include <mpi4py/mpi4py.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "balancer_bindings.hpp"
#include "errors.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/plan.hpp"
#include "hetlb/scatter/send_order.hpp"
#include "hetlb/scatter/solve.hpp"

namespace py = pybind11;

namespace hetlb::python {

namespace {

MPI_Comm comm_of(py::handle comm) {
  MPI_Comm* c = PyMPIComm_Get(comm.ptr());
  if (c == nullptr) throw py::error_already_set();
  return *c;
}

// An item of `itemsize` bytes as one MPI datatype, freed with the guard.
struct ItemType {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  explicit ItemType(long long itemsize) {
    if (itemsize < 1 || itemsize > INT_MAX) throw Error(fmt::format("itemsize = {}: expected 1 to {} bytes", itemsize, INT_MAX));
    MPI_Type_contiguous(static_cast<int>(itemsize), MPI_BYTE, &type);
    MPI_Type_commit(&type);
  }
  ~ItemType() {
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
  }
  ItemType(const ItemType&) = delete;
  ItemType& operator=(const ItemType&) = delete;
};

const void* read_pointer(py::handle b) {
  if (b.is_none()) return nullptr;
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(b).request();
  return info.ptr;
}

void* write_pointer(py::handle b) {
  if (b.is_none()) return nullptr;
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(b).request(true);
  return info.ptr;
}

// Whether a buffer's struct format holds Python objects ('O', e.g. a numpy object array or a structured
// dtype with an object field): their pointers must not travel as bytes. Field names (":name:") skipped.
bool holds_objects(const char* format) {
  if (format == nullptr) return false;
  for (const char* c = format; *c != '\0'; ++c) {
    if (*c == ':') {
      while (c[1] != '\0' && c[1] != ':') ++c;
      if (c[1] == ':') ++c;
    } else if (*c == 'O') {
      return true;
    }
  }
  return false;
}

// A buffer's bytes held (PyObject_GetBuffer) for the length of a transfer, C-contiguous.
struct HeldBuffer {
  Py_buffer view{};
  bool held = false;
  // Holds `object` when it is a C-contiguous buffer (writable if asked) of `items` items along its
  // first axis; sets item_bytes. False (and nothing held) otherwise.
  bool hold(PyObject* object, bool writable, long long items, long long& item_bytes) {
    if (object == Py_None) return false;
    if (PyObject_GetBuffer(object, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) != 0) {
      PyErr_Clear();
      return false;
    }
    held = true;
    if (view.ndim < 1 || view.shape[0] != items || holds_objects(view.format)) return false;
    long long bytes = view.itemsize;
    for (int d = 1; d < view.ndim; ++d) bytes *= view.shape[d];
    item_bytes = bytes;
    return bytes > 0 && bytes <= INT_MAX;
  }
  // The item's type as the buffer describes it: its struct format and item shape ("" when nothing is
  // held).
  std::string signature() const {
    if (!held) return {};
    std::string s = view.format != nullptr ? view.format : "B";
    for (int d = 1; d < view.ndim; ++d) s += fmt::format(",{}", view.shape[d]);
    return s;
  }
  HeldBuffer() = default;
  HeldBuffer(const HeldBuffer&) = delete;
  HeldBuffer& operator=(const HeldBuffer&) = delete;
  ~HeldBuffer() {
    if (held) PyBuffer_Release(&view);
  }
};

struct MpiPlan {
  std::unique_ptr<mpi::Plan> plan;
  py::object comm;  // the mpi4py communicator it was created on (kept alive)
  // Agreed on every rank: the previous scatter had receive buffers everywhere and no error, so the next
  // one may go straight to the C library (scatter_fast). Set by hetlb/mpi.py after its checked path.
  bool fast = false;
  // The same for the gather: the previous gather ran on every rank after the agreement, so the next one
  // may go straight to the C library (gather_fast).
  bool gather_ready = false;
  // The item types (buffer format and item shape) of the last agreed call on this rank: the direct paths
  // take only buffers of the same types, so that the dtype agreed between the ranks still holds.
  std::string scatter_send_type, scatter_recv_type, gather_send_type, gather_recv_type;
  // free() on this rank: the plan is refused from then on, but its communicator stays until the object
  // goes, so that a direct call of the other ranks still meets this rank's failing agreement (no hang).
  bool freed = false;
  bool direct_ok = false;  // every non-root count and the total positive (set at construction)
  std::map<long long, MPI_Datatype> item_types;  // committed contiguous types, by item size

  MpiPlan() = default;
  MpiPlan(const MpiPlan&) = delete;
  MpiPlan& operator=(const MpiPlan&) = delete;
  ~MpiPlan() {  // after MPI_Finalize (interpreter exit) the communicator is gone with MPI: nothing to free
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) static_cast<void>(plan.release());
    else free_types();
  }
  void free_types() {
    for (auto& [bytes, type] : item_types) MPI_Type_free(&type);
    item_types.clear();
  }

  const mpi::Plan& get() const {
    if (freed || !plan || !plan->valid()) throw Error("the plan was freed: create another");
    return *plan;
  }

  // The item type of a buffer, as the direct paths compare it ("" for None or a non-buffer).
  static std::string type_of(py::handle b) {
    if (b.is_none()) return {};
    HeldBuffer h;
    if (PyObject_GetBuffer(b.ptr(), &h.view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      return {};
    }
    h.held = true;
    return h.signature();
  }

  MPI_Datatype item_type(long long item_bytes) {
    auto it = item_types.find(item_bytes);
    if (it != item_types.end()) return it->second;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(static_cast<int>(item_bytes), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    return item_types.emplace(item_bytes, type).first->second;
  }

  // The scatter without the Python layer's agreement (one Allreduce): each rank checks its own buffers
  // (the root's send buffer of the plan's items, this rank's receive buffer of its count), and a rank
  // whose check fails passes a null buffer, so that the C library's own agreement fails on every rank.
  // Only offered when every non-root count and the total are positive (a null buffer then always
  // fails). Returns true when the blocks moved; false on every rank when the arguments did not agree
  // (fast is then off: the caller takes the checked path, which says why).
  bool scatter_fast(py::handle sendbuf, py::handle recvbuf) {
    if (!plan || !plan->valid()) throw Error("the plan was freed: create another");
    const mpi::Plan& p = *plan;
    const bool root = p.rank() == p.distribution().root;
    HeldBuffer send, recv;
    long long send_item = 0, recv_item = 0;
    bool ok = !freed && recv.hold(recvbuf.ptr(), true, p.count(), recv_item);
    if (root && !freed) ok = send.hold(sendbuf.ptr(), false, p.distribution().total(), send_item) && ok;
    if (ok && root && send_item != recv_item) ok = false;
    if (ok && recv.signature() != scatter_recv_type) ok = false;
    if (ok && root && send.signature() != scatter_send_type) ok = false;
    const MPI_Datatype type = ok ? item_type(recv_item) : MPI_BYTE;
    const void* s = ok && root ? send.view.buf : nullptr;
    void* r = ok ? recv.view.buf : nullptr;
    try {
      py::gil_scoped_release release;
      p.scatter(s, type, r, type);
    } catch (const mpi::Error& e) {
      if (e.status() == HETLB_MPI_E_MPI) throw;  // an MPI failure is local: raised as it is
      fast = false;
      return false;
    }
    return true;
  }

  // The gather the same way: each rank's send buffer of its count, the root's receive buffer of the
  // plan's items; a misfit passes a null buffer, so that the C library's agreement fails everywhere.
  // No earlier call is needed: nothing is allocated from another rank's layout.
  bool gather_fast(py::handle sendbuf, py::handle recvbuf) {
    if (!plan || !plan->valid()) throw Error("the plan was freed: create another");
    const mpi::Plan& p = *plan;
    const bool root = p.rank() == p.distribution().root;
    HeldBuffer send, recv;
    long long send_item = 0, recv_item = 0;
    bool ok = !freed && send.hold(sendbuf.ptr(), false, p.count(), send_item) && send.signature() == gather_send_type;
    if (root && !freed)
      ok = recv.hold(recvbuf.ptr(), true, p.distribution().total(), recv_item) && ok && send_item == recv_item &&
           recv.signature() == gather_recv_type;
    const MPI_Datatype type = ok ? item_type(send_item) : MPI_BYTE;
    const void* s = ok ? send.view.buf : nullptr;
    void* r = ok && root ? recv.view.buf : nullptr;
    try {
      py::gil_scoped_release release;
      p.gather(s, type, r, type);
    } catch (const mpi::Error& e) {
      if (e.status() == HETLB_MPI_E_MPI) throw;
      gather_ready = false;
      return false;
    }
    return true;
  }

  // Whether the direct paths may be taken: a null buffer fails the C library's agreement only where
  // that rank has items to move (every non-root rank has some, and the total is positive).
  bool direct() const {
    const auto& d = plan->distribution();
    bool positive = d.total() > 0;
    for (std::size_t r = 0; r < d.counts.size(); ++r)
      positive = positive && (static_cast<int>(r) == d.root || d.counts[r] > 0);
    return positive;
  }
};

// weights: none for a plan of counts; else the items' works (a weighted plan, docs/weighted-items.md:
// blocks in send order and, with the any layout, the root's buffers permuted by the plan's scatter and
// gather), the same on every rank (only the root's count).
std::unique_ptr<MpiPlan> make_plan(py::object comm, const std::string& platform_json, const std::string& source,
                                   long long items, int root, const std::string& algorithm, const std::string& order,
                                   bool dp_fallback, std::size_t order_evaluations,
                                   std::optional<std::vector<double>> weights, const std::string& layout) {
  MPI_Comm c = comm_of(comm);
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(algorithm);
  if (scatter::is_order_policy(order)) req.order = scatter::parse_order_policy(order);
  else req.order_list = order;
  req.exact.dp_fallback = dp_fallback;
  req.search.max_evaluations = order_evaluations;
  req.search.exact = req.exact;
  const Platform pf = io::parse_platform_json(platform_json, source);
  auto p = std::make_unique<MpiPlan>();
  p->comm = comm;
  {
    py::gil_scoped_release release;
    if (weights)
      p->plan = std::make_unique<mpi::Plan>(mpi::Plan::weighted(pf, *weights, scatter::parse_layout(layout), root, c, req));
    else
      p->plan = std::make_unique<mpi::Plan>(pf, items, root, c, req);
  }
  p->direct_ok = p->direct();
  return p;
}

}  // namespace

}  // namespace hetlb::python

PYBIND11_MODULE(_hetlb_mpi, m) {
  using namespace hetlb::python;
  m.doc() = "hetlb's MPI scatter/gather plans and diffusion runtime over mpi4py communicators; use hetlb.mpi.";
  if (import_mpi4py() < 0) throw py::error_already_set();
  register_errors(m);
  py::class_<MpiPlan>(m, "MpiPlan", "A persistent plan over a duplicate of the communicator (collective).")
      .def_property_readonly("counts", [](const MpiPlan& p) { return p.get().distribution().counts; })
      .def_property_readonly("displacements", [](const MpiPlan& p) { return p.get().distribution().displs; })
      .def_property_readonly("send_order", [](const MpiPlan& p) { return p.get().distribution().send_order; })
      .def_property_readonly("gather_order", [](const MpiPlan& p) { return p.get().distribution().gather_order; })
      .def_property_readonly("root", [](const MpiPlan& p) { return p.get().distribution().root; })
      .def_property_readonly("items", [](const MpiPlan& p) { return p.get().distribution().total(); })
      .def_property_readonly("count", [](const MpiPlan& p) { return p.get().count(); })
      .def_property_readonly("offset", [](const MpiPlan& p) { return p.get().offset(); })
      .def_property_readonly("comm", [](const MpiPlan& p) { return p.comm; })
      .def_property_readonly("layout",
                             [](const MpiPlan& p) -> std::optional<std::string> {
                               const int layout = p.get().distribution().layout;
                               if (layout == HETLB_MPI_LAYOUT_COUNTS) return std::nullopt;
                               return layout == HETLB_MPI_LAYOUT_ANY ? "any" : "contiguous";
                             },
                             "\"contiguous\" or \"any\" for a plan of weighted items; None for a plan of counts.")
      .def(
          "item_ids",
          [](const MpiPlan& p) {
            const std::vector<std::int64_t>& ids = p.get().item_ids();
            py::array_t<std::int64_t> a(static_cast<py::ssize_t>(ids.size()));
            std::copy(ids.begin(), ids.end(), a.mutable_data());
            return a;
          },
          "This rank's items, in the order of its block (numpy int64): offset to offset + count unless the "
          "layout is any.")
      .def_property_readonly("predicted_makespan",
                             [](const MpiPlan& p) { return p.get().distribution().predicted_makespan; })
      .def("_scatter",
           [](MpiPlan& p, py::object sendbuf, py::object recvbuf, long long itemsize) {
             const hetlb::mpi::Plan& plan = p.get();
             p.scatter_send_type = MpiPlan::type_of(sendbuf);
             p.scatter_recv_type = MpiPlan::type_of(recvbuf);
             const void* s = read_pointer(sendbuf);
             void* r = write_pointer(recvbuf);
             ItemType t(itemsize);
             py::gil_scoped_release release;
             plan.scatter(s, t.type, r, t.type);
           })
      .def("_gather",
           [](MpiPlan& p, py::object sendbuf, py::object recvbuf, long long itemsize) {
             const hetlb::mpi::Plan& plan = p.get();
             p.gather_send_type = MpiPlan::type_of(sendbuf);
             p.gather_recv_type = MpiPlan::type_of(recvbuf);
             p.gather_ready = p.direct_ok;  // the call is agreed on every rank: the next may go direct
             const void* s = read_pointer(sendbuf);
             void* r = write_pointer(recvbuf);
             ItemType t(itemsize);
             py::gil_scoped_release release;
             plan.gather(s, t.type, r, t.type);
           })
      .def_property("_fast", [](const MpiPlan& p) { return p.fast; },
                    [](MpiPlan& p, bool on) { p.fast = on && p.direct_ok; })
      .def_property_readonly("_direct", [](const MpiPlan& p) { return p.gather_ready; })
      .def_property_readonly("_is_root", [](const MpiPlan& p) {
        return p.plan && p.plan->valid() && p.plan->rank() == p.plan->distribution().root;
      })
      .def("_scatter_fast", &MpiPlan::scatter_fast)
      .def("_gather_fast", &MpiPlan::gather_fast)
      .def("free", [](MpiPlan& p) {
        p.free_types();
        p.freed = true;
      }, "Collective: frees the plan (its communicator goes with the object; a call with the plan after free() "
         "is refused on every rank).");
  m.def("_make_plan", &make_plan, py::arg("comm"), py::arg("platform_json"), py::arg("source"), py::arg("items"),
        py::arg("root"), py::arg("algorithm"), py::arg("order"), py::arg("dp_fallback") = false,
        py::arg("order_evaluations") = 2000, py::arg("weights") = py::none(), py::arg("layout") = "contiguous");
  bind_balancer(m, &comm_of);
  m.def("_comm_handle", [](py::object comm) { return reinterpret_cast<std::uintptr_t>(comm_of(comm)); });
}
