// JSON written as it is produced, in the text nlohmann-json's dump(indent) gives for the same document:
// objects with their keys in sorted order, scalars formatted by nlohmann-json itself. For outputs with
// one entry per processor, which as a JSON tree cost more than the planning (a map per entry).
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace hetlb::io::detail {

// Writes `doc` (an object) as doc.dump(indent) would, except that the members named in `streamed` are
// written by their function instead of from `doc` (where they stand as placeholders, so that they come
// in their sorted place). Each function writes its member's value at nesting level 1, through `pad`:
// the line break and the indentation of a given nesting level.
struct StreamedMember {
  using Pad = std::function<std::string(int level)>;
  std::function<void(std::ostream& out, const Pad& pad)> write;
};
void write_json_streamed(std::ostream& out, const nlohmann::json& doc, int indent,
                         const std::map<std::string, StreamedMember>& streamed);

// `value` dumped as at nesting `level` of a document dumped with `indent`.
std::string dump_at(const nlohmann::json& value, int indent, int level);

}  // namespace hetlb::io::detail
