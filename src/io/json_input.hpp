// What every JSON reader of the product shares: whole-file reading and parsing into an object, with
// one-line errors "<source>: <what>" (internal to hetlb_io).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace hetlb::io::detail {

// The whole file (hetlb::read_input_text: regular files, at most kMaxInputBytes); throws hetlb::Error
// "<path>: cannot read the <what> file: <reason>".
std::string read_text_file(const std::string& path, const std::string& what);

// How deep arrays and objects may nest in an input file (the product's files nest 4 levels at most).
inline constexpr int kMaxJsonDepth = 64;

// Parses `text`, the one parser of every JSON input: throws hetlb::Error (one line) "<source>: malformed
// JSON: ...", "<source>: JSON nested deeper than 64 levels ..." (a deeper document is refused while it
// is read, before anything recurses over it) or "<source>: duplicate key "K" ..." (the same key twice
// in one object, where the last would silently win).
nlohmann::json parse_json(const std::string& text, const std::string& source);

// parse_json, and throws "<source>: (top level): expected a JSON object" for anything but an object.
nlohmann::json parse_json_object(const std::string& text, const std::string& source);

// A value as an error message quotes it: its JSON text cut to about 40 characters ("[1,2,3,...").
std::string excerpt(const nlohmann::json& v);
// A string cut the same way (quoted as JSON).
std::string excerpt(const std::string& s);

// The value of a JSON integer (within int64), or of a whole number written as a float (40.0, 1e3: what
// Python and numpy write) up to 2^53, where every integer is exactly a double. Empty for anything else:
// 2.5, 1e300 (the digits past 2^53 were already rounded away), "7", true.
std::optional<std::int64_t> whole_number(const nlohmann::json& v);

// What a refused float is told, after "expected an integer ...".
inline constexpr const char* kWholeFloatHint = " (a float must be whole, at most 2^53)";

// Throws hetlb::Error "<source>: <field path>: <what was expected>".
[[noreturn]] void fail_field(const std::string& source, const std::string& path, const std::string& what);

}  // namespace hetlb::io::detail
