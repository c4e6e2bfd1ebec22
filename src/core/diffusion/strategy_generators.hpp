// Property tests' generator of strategies: any registered built-in, with parameters drawn within their
// declared ranges. It reads the registry, so a strategy added to it is drawn without any change here.
#pragma once
#include <rapidcheck.h>

#include <cmath>

#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::diffusion::testing {

// A value of `p`: its default, a bound, or a point inside its range.
inline double any_value(const Param& p) {
  if (p.type == ParamType::flag) return *rc::gen::element(0.0, 1.0);
  const double hi = std::isfinite(p.max) ? p.max : p.min + 3;
  std::vector<double> candidates{p.default_value, p.min, hi};
  const double mid = (p.min + hi) / 2;
  candidates.push_back(p.type == ParamType::integer ? std::floor(mid) : mid);
  if (p.min == 1 && !std::isfinite(p.max)) candidates = {1.0, 2.0, 4.0};  // a divisor such as best effort's k
  return *rc::gen::elementOf(candidates);
}

inline Strategy any_strategy(bool integer) {
  const Rule* rule = *rc::gen::elementOf(builtin_rules());
  Strategy s(*rule);
  for (const Param& p : rule->params) s.set(p.name, any_value(p));
  s.integer = integer;
  return s;
}

inline Strategy any_strategy() { return any_strategy(*rc::gen::arbitrary<bool>()); }

}  // namespace hetlb::diffusion::testing
