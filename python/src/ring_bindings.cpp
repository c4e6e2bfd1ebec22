// hetlb._hetlb: Ring, _plan_ring, _verify_ring_schedule. The plan's JSON is io::ring_plan_json, what
// `hetlb ring --format json` prints; the verification messages are the command line's.
#include "ring_bindings.hpp"

#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "hetlb/error.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/verify.hpp"

namespace py = pybind11;

namespace hetlb::python {

namespace {

struct RingHandle {
  std::shared_ptr<const ring::Ring> ring;
  std::string source;
};

std::string plan_ring(const RingHandle& h, long long max_transfers, bool verify) {
  if (max_transfers < 1) throw Error(fmt::format("max_transfers = {}: expected at least 1", max_transfers));
  ring::Plan p;
  {
    py::gil_scoped_release release;
    p = ring::plan_redistribution(*h.ring, ring::PlanOptions{static_cast<std::size_t>(max_transfers)});
  }
  if (verify) {
    if (const auto bad = ring::verify_schedule(*h.ring, p.transfers, p.time))
      throw Error(fmt::format("{}: the {} plan fails verification: {}", h.source, p.algorithm, *bad));
  }
  return io::ring_plan_json(*h.ring, p, verify);
}

// None for a valid schedule, else the command line's one line.
std::optional<std::string> verify_schedule(const RingHandle& h, const std::string& text, const std::string& source) {
  const io::RingSchedule s = io::parse_ring_schedule_json(text, *h.ring, source);
  if (const auto bad = ring::verify_schedule(*h.ring, s.transfers, s.time))
    return fmt::format("{}: invalid schedule: {}", source, *bad);
  return std::nullopt;
}

}  // namespace

void bind_ring(py::module_& m) {
  py::class_<RingHandle>(m, "Ring", "A redistribution problem on a processor ring. Build it with hetlb.ring().")
      .def_static(
          "from_json",
          [](const std::string& text, const std::string& source, bool bidirectional) {
            return RingHandle{std::make_shared<const ring::Ring>(io::parse_ring_json(text, source, bidirectional)), source};
          },
          py::arg("text"), py::arg("source") = "ring", py::arg("bidirectional") = false)
      .def_static(
          "from_file",
          [](const std::string& path, bool bidirectional) {
            return RingHandle{std::make_shared<const ring::Ring>(io::load_ring_file(path, bidirectional)), path};
          },
          py::arg("path"), py::arg("bidirectional") = false)
      .def_property_readonly("loads", [](const RingHandle& h) { return h.ring->loads; })
      .def_property_readonly("targets", [](const RingHandle& h) { return h.ring->targets; })
      .def_property_readonly("bidirectional", [](const RingHandle& h) { return h.ring->bidirectional(); })
      .def_property_readonly("source", [](const RingHandle& h) { return h.source; })
      .def("__len__", [](const RingHandle& h) { return h.ring->size(); })
      .def("__repr__", [](const RingHandle& h) {
        return fmt::format("<hetlb.Ring {}: {} processors, {}>", h.source, h.ring->size(),
                           h.ring->bidirectional() ? "bidirectional" : "unidirectional");
      });
  m.def("_plan_ring", &plan_ring, py::arg("ring"), py::arg("max_transfers"), py::arg("verify"));
  m.def("_verify_ring_schedule", &verify_schedule, py::arg("ring"), py::arg("schedule_json"), py::arg("source"));
}

}  // namespace hetlb::python
