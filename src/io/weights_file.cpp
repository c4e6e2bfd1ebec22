// Reader of per-item weights (weights_file.hpp): text or JSON, refused in one line when malformed.
#include "hetlb/io/weights_file.hpp"

#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/number_text.hpp"
#include "json_input.hpp"

namespace hetlb::io {

namespace {

void check_value(double v, const std::string& where, const std::string& text) {
  if (!std::isfinite(v) || v < 0) throw Error(fmt::format("{}: {}: expected a finite number >= 0", where, text));
}

std::vector<double> json_numbers(const nlohmann::json& a, const std::string& source, const std::string& key) {
  const std::string field = key.empty() ? std::string() : "\"" + key + "\" ";
  if (!a.is_array()) throw Error(fmt::format("{}: {}{}: expected an array of numbers", source, field, detail::excerpt(a)));
  if (a.size() > kMaxWeightedItems)
    throw Error(fmt::format("{}: {}{} items: at most {} are read", source, field, a.size(), kMaxWeightedItems));
  std::vector<double> v;
  v.reserve(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::string where = fmt::format("{}: {}item {}", source, field, k);
    if (!a[k].is_number()) throw Error(fmt::format("{}: {}: expected a number >= 0", where, detail::excerpt(a[k])));
    v.push_back(a[k].get<double>());
    check_value(v.back(), where, detail::excerpt(a[k]));
  }
  return v;
}

scatter::WeightedItems from_json(const std::string& text, const std::string& source) {
  const nlohmann::json j = detail::parse_json(text, source);
  scatter::WeightedItems it;
  if (j.is_array()) {
    it.work = json_numbers(j, source, "");
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      if (key != "work" && key != "size")
        throw Error(fmt::format("{}: unknown key \"{}\": expected \"work\" and optionally \"size\"", source, key));
    if (!j.contains("work")) throw Error(fmt::format("{}: missing \"work\": the work of each item", source));
    it.work = json_numbers(j["work"], source, "work");
    if (j.contains("size")) it.size = json_numbers(j["size"], source, "size");
  } else {
    throw Error(fmt::format("{}: (top level): expected an array of numbers or an object with \"work\"", source));
  }
  return it;
}

scatter::WeightedItems from_text(const std::string& text, const std::string& source) {
  scatter::WeightedItems it;
  std::size_t line = 1, pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '\n') {
      ++line;
      ++pos;
    } else if (c == '#') {
      while (pos < text.size() && text[pos] != '\n') ++pos;
    } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++pos;
    } else {
      std::size_t end = pos;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ',' &&
             text[end] != '#')
        ++end;
      const std::string word = text.substr(pos, end - pos);
      const std::string where = fmt::format("{}:{}: item {}", source, line, it.work.size());
      const std::optional<double> v = number_of(word);
      if (!v) throw Error(fmt::format("{}: {}: expected a number >= 0", where, detail::excerpt(word)));
      check_value(*v, where, word);
      if (it.work.size() >= kMaxWeightedItems)
        throw Error(fmt::format("{}: more than {} items", source, kMaxWeightedItems));
      it.work.push_back(*v);
      pos = end;
    }
  }
  return it;
}

}  // namespace

scatter::WeightedItems parse_weights(const std::string& text, const std::string& source) {
  std::size_t first = 0;
  while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
  scatter::WeightedItems it = first < text.size() && (text[first] == '[' || text[first] == '{')
                                  ? from_json(text, source)
                                  : from_text(text, source);
  if (it.work.empty()) throw Error(fmt::format("{}: no items: expected one weight per item", source));
  try {
    it.check();
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", source, e.what()));
  }
  return it;
}

scatter::WeightedItems load_weights_file(const std::string& path) {
  return parse_weights(detail::read_text_file(path, "weights"), path);
}

}  // namespace hetlb::io
