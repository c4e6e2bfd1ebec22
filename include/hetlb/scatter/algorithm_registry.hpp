// The registry of scatter planners (RR-4770, Sections 3-4): every algorithm `hetlb scatter`, `hetlb
// simulate scatter`, `hetlb compare`, the Python binding and the MPI plans accept, with its name, its
// one-line summary and its entry point. Everything that lists, parses or runs an algorithm reads it;
// adding one is a line in algorithm_registry.cpp, an enumerator below and the algorithm's own file.
#pragma once
#include <string>
#include <vector>

#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

enum class Algorithm { Uniform, DpBasic, Dp, Exact, Lp, ClosedForm };

struct AlgorithmEntry {
  Algorithm id;
  std::string name;          // as given to --algorithm, in plans and in JSON
  std::string summary;       // what it computes, and the paper's algorithm it implements
  bool compared_by_default;  // a row of `hetlb compare` without --algorithms (the dynamic programs take
                             // minutes on large item counts: opt-in rows)
  Plan (*run)(const Problem& problem, const ExactOptions& exact);
};

// The algorithms, in the order listed in help texts and tables.
const std::vector<AlgorithmEntry>& scatter_algorithms();
// The entry of `id` (every enumerator has one: checked by a unit test).
const AlgorithmEntry& algorithm_entry(Algorithm id);
// The entry named `name`; hetlb::Error "algorithm 'x': expected uniform, dp-basic, ... or closed-form".
const AlgorithmEntry& find_algorithm(const std::string& name);
// Every name, in order (for the command line's choices).
std::vector<std::string> algorithm_names();
// The names `hetlb compare` runs without --algorithms.
std::vector<std::string> default_compared_algorithms();
// "uniform, dp-basic, dp, exact, lp or closed-form" for messages and help texts.
std::string algorithm_choices();

}  // namespace hetlb::scatter
