// Per-item weights for the weighted scatter (hetlb/scatter/weighted.hpp), from a file:
//  - text: one number >= 0 per item, in item order, separated by spaces or newlines; '#' starts a comment;
//  - a JSON array of numbers (the work of each item);
//  - a JSON object {"work": [...], "size": [...]} ("size" optional: the data of each item, in the
//    platform's comm unit; absent, the comm cost counts items).
// Errors are one line naming the file, the item (and its line in a text file) and the value.
#pragma once
#include <string>

#include "hetlb/scatter/weighted.hpp"

namespace hetlb::io {

inline constexpr std::size_t kMaxWeightedItems = std::size_t{1} << 27;  // 134 million items

scatter::WeightedItems parse_weights(const std::string& text, const std::string& source);
scatter::WeightedItems load_weights_file(const std::string& path);

}  // namespace hetlb::io
