#include "platform_json_direct.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/platform_json.hpp"

namespace hetlb::io::detail {

namespace {

using nlohmann::json;

// Every callback returns false (the scan stops, the full reader takes over) at the first thing that is
// not plainly valid: the rules are those of parse_platform_json, restricted to what large files hold.
class DirectReader : public nlohmann::json_sax<json> {
 public:
  enum class Where { kTop, kProcessors, kProcessor, kCost };
  enum Field : unsigned { kNone = 0, kName = 1, kItems = 2, kProcessorsField = 4, kRoot = 8, kCount = 16,
                          kCompute = 32, kComm = 64, kTransfer = 128, kPerItem = 256, kLatency = 512 };

  bool null() override { return false; }
  bool boolean(bool) override { return false; }
  bool binary(binary_t&) override { return false; }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v), v >= 0, static_cast<std::uint64_t>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v), true, v); }
  bool number_float(number_float_t v, const string_t&) override { return number(v, false, 0); }

  bool string(string_t& s) override {
    if (s.empty() || stack_.empty()) return false;
    if (where() == Where::kTop && field_ == kName) {
      platform_.name = s;
    } else if (where() == Where::kTop && field_ == kRoot) {
      root_ = s;
    } else if (where() == Where::kProcessor && field_ == kName) {
      for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) return false;
      name_ = s;
    } else {
      return false;
    }
    return took();
  }

  bool start_object(std::size_t) override {
    if (stack_.empty()) return enter(Where::kTop);
    if (where() == Where::kProcessors) {
      name_.clear();
      count_ = 0;
      compute_.reset();
      comm_.reset();
      transfer_.reset();
      return enter(Where::kProcessor);
    }
    if (where() == Where::kProcessor && (field_ == kCompute || field_ == kComm || field_ == kTransfer)) {
      cost_field_ = field_;
      per_item_ = latency_ = -1;
      return enter(Where::kCost);
    }
    return false;
  }

  bool key(string_t& k) override {
    const Field f = field_named(k);
    if (f == kNone || (seen_.back() & f) != 0) return false;  // an extra field, or a key given twice
    seen_.back() |= f;
    field_ = f;
    return true;
  }

  bool end_object() override {
    const Where w = where();
    stack_.pop_back();
    const unsigned seen = seen_.back();
    seen_.pop_back();
    field_ = kNone;
    if (w == Where::kCost) return end_cost(seen);
    if (w == Where::kProcessor) return end_processor();
    return (seen & kProcessorsField) != 0 && !platform_.processors.empty();  // the top level
  }

  bool start_array(std::size_t) override {
    if (stack_.empty() || where() != Where::kTop || field_ != kProcessorsField) return false;
    return enter(Where::kProcessors);
  }

  bool end_array() override {
    stack_.pop_back();
    seen_.pop_back();
    return took();
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

  void reserve(std::size_t processors) { platform_.processors.reserve(processors); }

  // After a whole, successful scan: names distinct and the root known.
  std::optional<Platform> finish() {
    std::unordered_set<std::string_view> names;  // hashed: sorting 100,000 names was a tenth of the reading
    names.reserve(platform_.processors.size());
    for (const Processor& p : platform_.processors)
      if (!names.insert(p.name).second) return std::nullopt;
    if (root_) {
      const auto at = std::find_if(platform_.processors.begin(), platform_.processors.end(),
                                   [&](const Processor& p) { return p.name == *root_; });
      if (at == platform_.processors.end()) return std::nullopt;
      platform_.root = static_cast<std::size_t>(at - platform_.processors.begin());
    }
    return std::move(platform_);
  }

 private:
  Where where() const { return stack_.back(); }
  bool enter(Where w) {
    stack_.push_back(w);
    seen_.push_back(0);
    field_ = kNone;
    return true;
  }
  bool took() {  // a value of an object's field was read: the next comes after a key
    field_ = kNone;
    return true;
  }

  Field field_named(std::string_view k) const {
    switch (where()) {
      case Where::kTop:
        return k == "name" ? kName : k == "items" ? kItems : k == "processors" ? kProcessorsField : k == "root" ? kRoot : kNone;
      case Where::kProcessor:
        return k == "name" ? kName : k == "count" ? kCount : k == "compute" ? kCompute : k == "comm" ? kComm
             : k == "transfer" ? kTransfer : kNone;
      case Where::kCost:
        return k == "per_item" ? kPerItem : k == "latency" ? kLatency : kNone;
      case Where::kProcessors:
        return kNone;
    }
    return kNone;
  }

  // `whole`: the value came as a non-negative integer, `u` its value.
  bool number(double x, bool whole, std::uint64_t u) {
    if (stack_.empty()) return false;
    if (where() == Where::kTop && field_ == kItems) {
      if (!whole || u < 1 || u > (std::uint64_t{1} << 62)) return false;
      platform_.items = static_cast<Count>(u);
    } else if (where() == Where::kProcessor && field_ == kCount) {
      if (!whole || u < 1 || u > static_cast<std::uint64_t>(kMaxProcessors)) return false;
      count_ = static_cast<long long>(u);
    } else if (where() == Where::kCost && (field_ == kPerItem || field_ == kLatency)) {
      if (!std::isfinite(x) || x < 0) return false;
      (field_ == kPerItem ? per_item_ : latency_) = x;
    } else {
      return false;
    }
    return took();
  }

  bool end_cost(unsigned seen) {
    if ((seen & kPerItem) == 0) return false;
    const CostFunction cost = (seen & kLatency) != 0 ? CostFunction::affine(latency_, per_item_) : CostFunction::linear(per_item_);
    (cost_field_ == kCompute ? compute_ : cost_field_ == kComm ? comm_ : transfer_) = cost;
    return took();
  }

  bool end_processor() {
    if (name_.empty() || !compute_ || !comm_) return false;
    total_ += count_ > 0 ? count_ : 1;
    if (total_ > kMaxProcessors) return false;
    Processor proto{"", *compute_, *comm_, transfer_};
    if (count_ == 0) {
      proto.name = std::move(name_);
      platform_.processors.push_back(std::move(proto));
    }
    for (long long k = 1; k <= count_; ++k) {
      proto.name = fmt::format("{}-{}", name_, k);
      platform_.processors.push_back(proto);
    }
    return took();
  }

  Platform platform_;
  std::optional<std::string> root_;
  std::vector<Where> stack_;
  std::vector<unsigned> seen_;  // the fields given so far in each open object
  Field field_ = kNone;         // the field whose value comes next
  // The processor being read, and its cost being read.
  std::string name_;
  long long count_ = 0;
  long long total_ = 0;
  std::optional<CostFunction> compute_, comm_, transfer_;
  Field cost_field_ = kNone;
  double per_item_ = -1, latency_ = -1;
};

}  // namespace

std::optional<Platform> read_platform_direct(const std::string& text) {
  DirectReader reader;
  // One processor per "compute" key (a "count" adds more): the list is allocated once, not grown (on
  // 100,000 processors the growth's copies and page faults were a fifth of the reading).
  std::size_t computes = 0;
  for (std::size_t at = text.find("\"compute\""); at != std::string::npos; at = text.find("\"compute\"", at + 9))
    ++computes;
  reader.reserve(std::min<std::size_t>(computes, static_cast<std::size_t>(kMaxProcessors)));
  try {
    if (!json::sax_parse(text, &reader)) return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return reader.finish();
}

}  // namespace hetlb::io::detail
