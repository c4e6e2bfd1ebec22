// A scatter platform: processors with their cost models, the processor that holds the data
// (the root of RR-4770, Section 3.1) and the default number of items.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb {

struct Processor {
  std::string name;
  CostFunction compute;  // Tcomp(i, x)
  CostFunction comm;     // Tcomm(i, x): time to receive x items from the root
  // Optional cost of moving the whole data set from its holder to this processor when it is
  // chosen as root (RR-4770, Section 3.4). Absent: the comm model is used.
  std::optional<CostFunction> transfer;
};

struct Platform {
  std::string name;
  Count items = 0;
  std::size_t root = 0;  // index into processors
  std::vector<Processor> processors;

  std::size_t index_of(const std::string& name) const;  // throws hetlb::Error when unknown
};

}  // namespace hetlb
