#include "hetlb/io/platform_json.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/error.hpp"
#include "json_input.hpp"
#include "platform_json_direct.hpp"

namespace hetlb::io {

namespace {

using nlohmann::json;

struct PlatformReader {
  std::string source;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    detail::fail_field(source, path, what);
  }

  double number(const json& v, const std::string& path, bool positive = false) const {
    if (!v.is_number()) fail(path, fmt::format("expected a number, got {}", detail::excerpt(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(path, "expected a finite number");
    if (positive ? x <= 0 : x < 0)
      fail(path, fmt::format("value {} is {}; expected {}", detail::excerpt(v), x <= 0 && positive ? "not positive" : "negative",
                             positive ? "> 0" : ">= 0"));
    return x;
  }

  long long integer(const json& v, const std::string& path, long long max) const {
    if (!v.is_number()) fail(path, fmt::format("expected a positive integer, got {}", detail::excerpt(v)));
    const std::optional<std::int64_t> x = detail::whole_number(v);
    if (!x || *x < 1 || *x > max)
      fail(path, fmt::format("value {}: expected an integer between 1 and {}{}", detail::excerpt(v), max,
                             v.is_number_float() && !x ? detail::kWholeFloatHint : ""));
    return *x;
  }

  CostFunction cost(const json& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "expected an object with per_item, latency + per_item, or table");
    const bool has_table = v.contains("table");
    const bool has_per_item = v.contains("per_item");
    const bool has_latency = v.contains("latency");
    if (has_table) {
      if (has_per_item || has_latency) fail(path, "expected either table or per_item/latency, not both");
      const json& t = v["table"];
      if (!t.is_array() || t.empty()) fail(path + ".table", "expected a non-empty array of [x, time] pairs");
      std::vector<std::pair<double, double>> pts;
      double prev_x = 0, prev_t = 0;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const std::string at = fmt::format("{}.table[{}]", path, k);
        if (!t[k].is_array() || t[k].size() != 2) fail(at, fmt::format("expected a pair [x, time], got {}", detail::excerpt(t[k])));
        const double x = number(t[k][0], at + "[0]", true);
        const double tm = number(t[k][1], at + "[1]");
        if (x <= prev_x) fail(at, fmt::format("x = {} after {}: expected increasing x", x, prev_x));
        if (tm < prev_t) fail(at, fmt::format("time = {} after {}: expected non-decreasing times", tm, prev_t));
        prev_x = x;
        prev_t = tm;
        pts.emplace_back(x, tm);
      }
      return CostFunction::table(std::move(pts));
    }
    if (!has_per_item) fail(path, "expected per_item (with optional latency) or table");
    const double a = number(v["per_item"], path + ".per_item");
    if (!has_latency) return CostFunction::linear(a);
    return CostFunction::affine(number(v["latency"], path + ".latency"), a);
  }

  std::string text(const json& v, const std::string& path) const {
    if (!v.is_string() || v.get<std::string>().empty()) fail(path, fmt::format("expected a non-empty string, got {}", detail::excerpt(v)));
    return v.get<std::string>();
  }
};

}  // namespace

Platform parse_platform_json(const std::string& input, const std::string& source) {
  if (std::optional<Platform> direct = detail::read_platform_direct(input)) return std::move(*direct);
  return detail::read_platform_tree(input, source);
}

Platform detail::read_platform_tree(const std::string& input, const std::string& source) {
  PlatformReader r{source};
  const json doc = detail::parse_json_object(input, source);
  Platform pf;
  if (doc.contains("name")) pf.name = r.text(doc["name"], "name");
  if (doc.contains("items")) pf.items = r.integer(doc["items"], "items", 1LL << 62);
  if (!doc.contains("processors")) r.fail("processors", "missing; expected an array of processors");
  const json& procs = doc["processors"];
  if (!procs.is_array() || procs.empty()) r.fail("processors", "expected a non-empty array");
  long long total = 0;
  std::set<std::string> names;
  for (std::size_t i = 0; i < procs.size(); ++i) {
    const std::string at = fmt::format("processors[{}]", i);
    const json& p = procs[i];
    if (!p.is_object()) r.fail(at, "expected an object");
    if (!p.contains("name")) r.fail(at + ".name", "missing");
    const std::string name = r.text(p["name"], at + ".name");
    for (unsigned char c : name)
      if (c < 0x20 || c == 0x7f) r.fail(at + ".name", fmt::format("{}: expected a name without control characters", printable(name)));
    const long long count = p.contains("count") ? r.integer(p["count"], at + ".count", kMaxProcessors) : 0;
    if (!p.contains("compute")) r.fail(at + ".compute", "missing; expected a cost model");
    if (!p.contains("comm")) r.fail(at + ".comm", "missing; expected a cost model");
    Processor proto;
    proto.compute = r.cost(p["compute"], at + ".compute");
    proto.comm = r.cost(p["comm"], at + ".comm");
    if (p.contains("transfer")) proto.transfer = r.cost(p["transfer"], at + ".transfer");
    total += count > 0 ? count : 1;
    if (total > kMaxProcessors) r.fail(at + ".count", fmt::format("more than {} processors in all", kMaxProcessors));
    for (long long k = 1; k <= std::max(1LL, count); ++k) {
      Processor q = proto;
      q.name = count > 0 ? fmt::format("{}-{}", name, k) : name;
      if (!names.insert(q.name).second) r.fail(at + ".name", fmt::format("duplicate processor name {}", printable(q.name)));
      pf.processors.push_back(std::move(q));
    }
  }
  if (doc.contains("root")) {
    const std::string root = r.text(doc["root"], "root");
    bool found = false;
    for (std::size_t i = 0; i < pf.processors.size() && !found; ++i)
      if (pf.processors[i].name == root) {
        pf.root = i;
        found = true;
      }
    if (!found) r.fail("root", fmt::format("{} is not a processor name", printable(root)));
  }
  return pf;
}

Platform load_platform_file(const std::string& path) {
  return parse_platform_json(detail::read_text_file(path, "platform"), path);
}

}  // namespace hetlb::io
