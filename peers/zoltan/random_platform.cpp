#include "random_platform.hpp"

#include <random>
#include <string>

namespace peers {

namespace {
// A uniform double in [0, 1) from 53 bits of the generator: the same on every standard library.
double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }
}  // namespace

hetlb::Platform random_platform(std::size_t processors, double ratio, std::uint64_t seed, std::uint64_t instance,
                                hetlb::Count items) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(processors), static_cast<std::uint32_t>(instance)};
  std::mt19937_64 g(seq);
  hetlb::Platform platform;
  platform.name = "random-p" + std::to_string(processors) + "-i" + std::to_string(instance);
  platform.items = items;
  platform.root = 0;
  const double per_item = 0.01, mean_speed = 3.5;
  for (std::size_t k = 0; k < processors; ++k) {
    const double speed = 1.0 + 5.0 * unit(g);
    const double c = 0.5 + unit(g);
    hetlb::Processor p;
    p.name = "p" + std::to_string(k);
    p.compute = hetlb::CostFunction::linear(per_item / speed);
    p.comm = hetlb::CostFunction::linear(k == 0 ? 0.0 : ratio * c * per_item / mean_speed);
    platform.processors.push_back(p);
  }
  return platform;
}

}  // namespace peers
