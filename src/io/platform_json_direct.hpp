// The fast path of the platform reader: a well-formed platform file read straight into a Platform, as
// the JSON is scanned, without building a JSON tree (100,000 processors in a fraction of the tree's time).
#pragma once

#include <optional>
#include <string>

#include "hetlb/model/platform.hpp"

namespace hetlb::io::detail {

// The platform `text` describes when it is one the full reader (parse_platform_json) accepts without a
// question: known fields only, linear or affine costs, integer counts and items, distinct names, a known
// root. nullopt for anything else (a table cost, an extra field, a float count, any error): the full
// reader then reads it, and gives the message of an error. Never throws on bad input.
std::optional<Platform> read_platform_direct(const std::string& text);

// The full reader through a JSON tree, every rule and every message (parse_platform_json tries
// read_platform_direct first).
Platform read_platform_tree(const std::string& text, const std::string& source);

}  // namespace hetlb::io::detail
