// Drifts of an iterative ring application (drift.hpp): moving window, random walk, trace.
#include "hetlb/ring/drift.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::ring {

namespace {

class Window final : public Drift {
 public:
  Window(std::size_t n, std::size_t width, Count height, double speed) : n_(n), w_(width), h_(height), v_(speed) {}
  void delta(std::size_t t, Delta& out) const override {
    out.clear();
    const auto at = [this](std::size_t k) { return static_cast<std::size_t>(std::floor(v_ * static_cast<double>(k))); };
    for (std::size_t s = at(t); s < at(t + 1); ++s) {
      out.push_back({s % n_, -h_});
      out.push_back({(s + w_) % n_, h_});
    }
    if (out.size() <= 2) return;
    std::sort(out.begin(), out.end());  // several steps in one iteration: one entry per processor
    std::size_t k = 0;
    for (std::size_t j = 0; j < out.size(); ++j)
      if (k > 0 && out[k - 1].first == out[j].first) out[k - 1].second += out[j].second;
      else out[k++] = out[j];
    out.resize(k);
    std::erase_if(out, [](const auto& e) { return e.second == 0; });
  }
  std::string name() const override { return "window"; }

 private:
  std::size_t n_, w_;
  Count h_;
  double v_;
};

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Walk final : public Drift {
 public:
  Walk(std::size_t n, Count step, std::uint64_t seed) : n_(n), step_(step), seed_(splitmix(seed)) {}
  void delta(std::size_t t, Delta& out) const override {
    out.resize(n_);
    const auto u = [&](std::size_t i) {
      const std::uint64_t r = splitmix(seed_ ^ splitmix(t * n_ + i));
      return static_cast<Count>(r % static_cast<std::uint64_t>(2 * step_ + 1)) - step_;
    };
    const Count first = u(0);
    Count prev = u(n_ - 1);
    for (std::size_t i = 0; i < n_; ++i) {
      const Count cur = i == 0 ? first : u(i);
      out[i] = {i, cur - prev};
      prev = cur;
    }
  }
  std::string name() const override { return "walk"; }

 private:
  std::size_t n_;
  Count step_;
  std::uint64_t seed_;
};

class Trace final : public Drift {
 public:
  explicit Trace(std::vector<std::vector<Count>> rows) : rows_(std::move(rows)) {}
  void delta(std::size_t t, Delta& out) const override {
    out.clear();
    if (t + 1 >= rows_.size()) return;
    for (std::size_t i = 0; i < rows_[t].size(); ++i)
      if (rows_[t + 1][i] != rows_[t][i]) out.push_back({i, rows_[t + 1][i] - rows_[t][i]});
  }
  std::string name() const override { return "trace"; }

 private:
  std::vector<std::vector<Count>> rows_;
};

}  // namespace

std::unique_ptr<Drift> window_drift(std::size_t n, std::size_t width, Count height, double speed) {
  return std::make_unique<Window>(n, width, height, speed);
}

std::vector<Count> window_initial_loads(std::vector<Count> base, std::size_t width, Count height) {
  for (std::size_t i = 0; i < width && i < base.size(); ++i) base[i] += height;
  return base;
}

std::unique_ptr<Drift> walk_drift(std::size_t n, Count step, std::uint64_t seed) {
  return std::make_unique<Walk>(n, step, seed);
}

std::unique_ptr<Drift> trace_drift(std::vector<std::vector<Count>> rows) { return std::make_unique<Trace>(std::move(rows)); }

namespace {
constexpr Count kMaxTraceLoad = (Count{1} << 61) - 1;  // a ring file's own limit (io/ring_json)
}  // namespace

std::vector<std::vector<Count>> load_trace_file(const std::string& path, std::size_t n, std::size_t min_rows) {
  std::istringstream in(read_input_text(path, "the drift trace"));
  std::vector<std::vector<Count>> rows;
  std::string line;
  Count total = 0;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ": line " + std::to_string(number) + ": ";
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream words(line);
    std::vector<Count> row;
    std::string word;
    while (words >> word) {
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size()) throw Error(where + "load " + printable(word) + ": an integer >= 0 expected");
      if (v < 0) throw Error(where + "load " + word + ": an integer >= 0 expected (no negative load)");
      if (v > kMaxTraceLoad)
        throw Error(where + "load " + word + ": at most " + std::to_string(kMaxTraceLoad) +
                    " expected (2^61 - 1, as in a ring file)");
      row.push_back(v);
    }
    if (row.empty()) continue;
    if (row.size() != n)
      throw Error(where + std::to_string(row.size()) + " loads, expected " + std::to_string(n) +
                  " (one per processor of the ring)");
    Count sum = 0;
    for (Count v : row) {
      if (v > kMaxTraceLoad - sum)
        throw Error(where + "loads sum past " + std::to_string(kMaxTraceLoad) +
                    "; expected a total of at most 2^61 - 1 items, as in a ring file");
      sum += v;
    }
    if (rows.empty()) total = sum;
    else if (sum != total)
      throw Error(where + "loads sum to " + std::to_string(sum) + ", expected " + std::to_string(total) +
                  " (the first row's total: drift moves items, it does not create them)");
    rows.push_back(std::move(row));
  }
  if (rows.size() < min_rows)
    throw Error(path + ": " + std::to_string(rows.size()) + " rows of loads, at least " + std::to_string(min_rows) +
                " expected (one per iteration)");
  return rows;
}

}  // namespace hetlb::ring
