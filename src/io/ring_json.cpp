// RingReader of ring redistribution files and writer of ring plans (see ring_json.hpp).
#include "hetlb/io/ring_json.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/error.hpp"
#include "json_input.hpp"

namespace hetlb::io {

namespace {

using nlohmann::json;

struct RingReader {
  std::string source;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    detail::fail_field(source, path, what);
  }

  json parse(const std::string& text) const { return detail::parse_json_object(text, source); }

  Count count(const json& v, const std::string& path, bool allow_negative) const {
    const std::optional<std::int64_t> x = detail::whole_number(v);
    const auto out_of_range = [&] {
      fail(path, fmt::format("value {} is out of range; expected |value| <= {}", detail::excerpt(v), kMaxCount));
    };
    if (!x && v.is_number_integer()) out_of_range();  // past int64
    if (!x)
      fail(path, fmt::format("expected an integer{}{}, got {}", allow_negative ? "" : " >= 0",
                             v.is_number_float() ? detail::kWholeFloatHint : "", detail::excerpt(v)));
    if (!allow_negative && *x < 0) fail(path, fmt::format("value {} is negative; expected an integer >= 0", *x));
    if (*x < -kMaxCount || *x > kMaxCount) out_of_range();
    return *x;
  }

  std::vector<Count> counts(const json& doc, const std::string& key, bool allow_negative) const {
    if (!doc.contains(key)) fail(key, "missing; expected an array of integers");
    const json& a = doc[key];
    if (!a.is_array()) fail(key, fmt::format("expected an array of integers, got {}", detail::excerpt(a)));
    std::vector<Count> v;
    for (std::size_t i = 0; i < a.size(); ++i) v.push_back(count(a[i], fmt::format("{}[{}]", key, i), allow_negative));
    return v;
  }

  double cost(const json& v, const std::string& path) const {
    if (!v.is_number()) fail(path, fmt::format("expected a number, got {}", detail::excerpt(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x <= 0) fail(path, fmt::format("value {} is not a cost; expected a finite number > 0", detail::excerpt(v)));
    return x;
  }

  std::vector<double> costs(const json& doc, const std::string& key, std::size_t n) const {
    const json& a = doc[key];
    if (a.is_number()) return std::vector<double>(n, cost(a, key));
    if (!a.is_array()) fail(key, fmt::format("expected a number or an array of {} numbers, got {}", n, detail::excerpt(a)));
    if (a.size() != n) fail(key, fmt::format("{} values for {} processors; expected {}", a.size(), n, n));
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(cost(a[i], fmt::format("{}[{}]", key, i)));
    return v;
  }

  double time(const json& v, const std::string& path) const {
    if (!v.is_number()) fail(path, fmt::format("expected a number, got {}", detail::excerpt(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(path, "expected a finite number");
    return x;
  }
};

std::string read_file(const std::string& path, const char* what) { return detail::read_text_file(path, what); }

}  // namespace

ring::Ring parse_ring_json(const std::string& text, const std::string& source, bool bidirectional) {
  const RingReader r{source};
  const json doc = r.parse(text);
  ring::Ring ring;
  ring.loads = r.counts(doc, "loads", false);
  const std::size_t n = ring.loads.size();
  if (n < 2) r.fail("loads", fmt::format("{} processor(s); expected at least 2", n));
  const bool has_t = doc.contains("targets"), has_u = doc.contains("unbalance");
  if (has_t && has_u) r.fail("targets", "both targets and unbalance given; expected one of them");
  if (!has_t && !has_u) r.fail("targets", "missing; expected targets (or unbalance)");
  Count sum_l = 0;
  for (Count x : ring.loads) {
    sum_l += x;
    if (sum_l > kMaxCount) r.fail("loads", fmt::format("more than {} items in all", kMaxCount));
  }
  if (has_t) {
    ring.targets = r.counts(doc, "targets", false);
    if (ring.targets.size() != n) r.fail("targets", fmt::format("{} values for {} loads; expected the same length", ring.targets.size(), n));
    Count sum_t = 0;
    for (Count x : ring.targets) {
      sum_t += x;
      if (sum_t > kMaxCount) r.fail("targets", fmt::format("more than {} items in all", kMaxCount));
    }
    if (sum_t != sum_l) r.fail("targets", fmt::format("sum {} differs from the loads' sum {}; expected equal sums", sum_t, sum_l));
  } else {
    const std::vector<Count> d = r.counts(doc, "unbalance", true);
    if (d.size() != n) r.fail("unbalance", fmt::format("{} values for {} loads; expected the same length", d.size(), n));
    Count sum_d = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (d[i] > ring.loads[i])
        r.fail(fmt::format("unbalance[{}]", i), fmt::format("{} exceeds loads[{}] = {}; expected a final load >= 0", d[i], i, ring.loads[i]));
      sum_d += d[i];
      ring.targets.push_back(ring.loads[i] - d[i]);
    }
    if (sum_d != 0) r.fail("unbalance", fmt::format("sum {}; expected 0 (items are conserved)", sum_d));
  }
  if (!doc.contains("succ_cost")) r.fail("succ_cost", "missing; expected a number or an array of numbers");
  ring.succ_cost = r.costs(doc, "succ_cost", n);
  if (doc.contains("pred_cost")) ring.pred_cost = r.costs(doc, "pred_cost", n);
  if (bidirectional) ring = ring::with_symmetric_links(std::move(ring));
  try {
    ring::validate(ring);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", source, e.what()));
  }
  return ring;
}

ring::Ring load_ring_file(const std::string& path, bool bidirectional) {
  return parse_ring_json(read_file(path, "ring"), path, bidirectional);
}

RingSchedule parse_ring_schedule_json(const std::string& text, const ring::Ring& ring, const std::string& source) {
  const RingReader r{source};
  const json doc = r.parse(text);
  RingSchedule s;
  if (!doc.contains("transfers")) r.fail("transfers", "missing; expected an array of transfers");
  const json& ts = doc["transfers"];
  if (!ts.is_array()) r.fail("transfers", "expected an array of transfers");
  const std::size_t n = ring.size();
  for (std::size_t k = 0; k < ts.size(); ++k) {
    const std::string at = fmt::format("transfers[{}]", k);
    const json& t = ts[k];
    if (!t.is_object()) r.fail(at, "expected an object with from, to, items, start, end");
    for (const char* key : {"from", "to", "items", "start", "end"})
      if (!t.contains(key)) r.fail(at + "." + key, "missing");
    ring::Transfer x;
    const Count from = r.count(t["from"], at + ".from", false), to = r.count(t["to"], at + ".to", false);
    if (static_cast<std::size_t>(from) >= n || static_cast<std::size_t>(to) >= n)
      r.fail(at, fmt::format("processor {} or {} does not exist; expected 0..{}", from, to, n - 1));
    x.from = static_cast<std::size_t>(from);
    x.to = static_cast<std::size_t>(to);
    x.items = r.count(t["items"], at + ".items", false);
    x.start = r.time(t["start"], at + ".start");
    x.end = r.time(t["end"], at + ".end");
    if (t.contains("direction")) {
      const json& d = t["direction"];
      if (d != "succ" && d != "pred") r.fail(at + ".direction", fmt::format("expected \"succ\" or \"pred\", got {}", detail::excerpt(d)));
      x.to_succ = d == "succ";
    } else {
      x.to_succ = x.to == (x.from + 1) % n;
    }
    s.transfers.push_back(x);
  }
  if (!doc.contains("time")) r.fail("time", "missing; expected the schedule's time");
  s.time = r.time(doc["time"], "time");
  return s;
}

RingSchedule load_ring_schedule_file(const std::string& path, const ring::Ring& ring) {
  return parse_ring_schedule_json(read_file(path, "schedule"), ring, path);
}

std::string ring_plan_json(const ring::Ring& ring, const ring::Plan& p, bool verified) {
  json j;
  j["algorithm"] = p.algorithm;
  j["method"] = p.method;
  j["time"] = p.time;
  j["lower_bound"] = p.lower_bound;
  j["optimal"] = p.optimal;
  j["gap"] = p.lower_bound > 0 ? p.time / p.lower_bound - 1 : 0.0;
  j["processors"] = ring.size();
  j["bidirectional"] = ring.bidirectional();
  j["homogeneous"] = ring::is_homogeneous(ring);
  j["paper_hypothesis"] = ring::paper_hypothesis(ring);
  json bounds = json::object();
  if (p.lemma1_bound) bounds["lemma1"] = *p.lemma1_bound;
  if (p.lemma6_bound) bounds["lemma6"] = *p.lemma6_bound;
  if (p.lemma12_bound) bounds["lemma12"] = *p.lemma12_bound;
  if (p.system6_bound) bounds["system6_integer"] = *p.system6_bound;
  if (p.system6_rational) bounds["system6_rational"] = *p.system6_rational;
  j["bounds"] = bounds;
  if (verified) j["verified"] = true;
  json ts = json::array();
  for (const ring::Transfer& t : p.transfers)
    ts.push_back({{"from", t.from}, {"to", t.to}, {"items", t.items}, {"start", t.start}, {"end", t.end},
                  {"direction", t.to_succ ? "succ" : "pred"}});
  j["transfers"] = std::move(ts);
  j["final_loads"] = p.final_loads;
  j["flow"] = p.flow;
  return j.dump(2) + "\n";
}

}  // namespace hetlb::io
