// The items of hetlb-diffuse: a seismic ray (examples/seismic) or a synthetic work unit, its result,
// and filler bytes derived from its id, so that the payload of every item is checkable at the end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "earth_model.hpp"  // examples/seismic, on the include path
#include "ray.hpp"

namespace diffuse {

struct ItemHeader {
  seismic::Ray ray{};       // the ray (seismic kernel) or unused
  double result = 0;        // last computed travel time / synthetic value
  std::uint64_t times = 0;  // how often the item was computed
};
inline constexpr std::size_t kMinItemBytes = sizeof(ItemHeader);

// Fills `item` (item_bytes) for `id`: header from `rays` (may be empty), filler from the id.
void make_item(std::uint64_t id, const std::vector<seismic::Ray>& rays, void* item, std::size_t item_bytes);

// Hash of the parts that never change (ray and filler).
std::uint64_t payload_hash(const void* item, std::size_t item_bytes);

// The value computing `item` gives (the seismic travel time, or a synthetic value of `flops` flops).
double compute(const ItemHeader& item, std::uint64_t id, const std::vector<seismic::Layer>* model, double flops);

}  // namespace diffuse
