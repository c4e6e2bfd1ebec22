// hetlb-diffuse --costs FILE: one cost per item, in id order (docs/runtime.md, "Item costs"), read as
// hetlb scatter --weights reads its file (text or a JSON array); every cost finite and > 0.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace diffuse {

// Throws hetlb::Error naming the option, the file and the first bad value or the count.
std::vector<double> read_item_costs(const std::string& path, std::uint64_t items);

}  // namespace diffuse
