// hetlb-diffuse --costs FILE (item_costs.hpp).
#include "item_costs.hpp"

#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/io/weights_file.hpp"

namespace diffuse {

std::vector<double> read_item_costs(const std::string& path, std::uint64_t items) {
  hetlb::scatter::WeightedItems w;
  try {
    w = hetlb::io::load_weights_file(path);
  } catch (const std::exception& e) {
    throw hetlb::Error(fmt::format("--costs: {}", e.what()));
  }
  if (w.work.size() != items)
    throw hetlb::Error(fmt::format("--costs {}: {} costs for {} items: expected one per item, in id order", path,
                                   w.work.size(), items));
  for (std::size_t i = 0; i < w.work.size(); ++i)
    if (!(w.work[i] > 0) || !std::isfinite(w.work[i]))
      throw hetlb::Error(fmt::format("--costs {}: item {}: cost {}: expected a finite cost > 0", path, i, w.work[i]));
  return w.work;
}

}  // namespace diffuse
