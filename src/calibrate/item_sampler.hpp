// Which items a calibration times. A program's first items need not cost what its average item does
// (the first rows of a fractal are nearly empty), so each timing of `size` items starts at a first item
// drawn uniformly in [0, range - size] by a seeded generator (splitmix64: the same sequence on every
// machine); with range <= size, at item 0. Header-only: a few integer operations per draw.
#pragma once
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace hetlb::calibrate {

class ItemSampler {
 public:
  ItemSampler(long long range, std::uint64_t seed) : range_(range), seed_(seed), state_(seed) {}

  long long next_first(long long size) {
    if (range_ <= size) return 0;
    const auto span = static_cast<std::uint64_t>(range_ - size) + 1;
    return static_cast<long long>(next() % span);  // the bias of % is below span / 2^64
  }
  // As the platform file states it.
  std::string describe() const {
    return range_ > 0 ? fmt::format("each timing starts at a random item of 0..{} - size (seed {})", range_, seed_)
                      : std::string("items 0..size-1 (give --sample-range N to time items across the range)");
  }

 private:
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  long long range_;
  std::uint64_t seed_, state_;
};

}  // namespace hetlb::calibrate
