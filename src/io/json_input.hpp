// What every JSON reader of the product shares: whole-file reading and parsing into an object, with
// one-line errors "<source>: <what>" (internal to hetlb_io).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace hetlb::io::detail {

// The whole file; throws hetlb::Error "<path>: cannot open the <what> file".
std::string read_text_file(const std::string& path, const std::string& what);

// Parses `text` into a JSON object; throws hetlb::Error "<source>: malformed JSON: ..." (one line)
// or "<source>: (top level): expected a JSON object".
nlohmann::json parse_json_object(const std::string& text, const std::string& source);

// Throws hetlb::Error "<source>: <field path>: <what was expected>".
[[noreturn]] void fail_field(const std::string& source, const std::string& path, const std::string& what);

}  // namespace hetlb::io::detail
