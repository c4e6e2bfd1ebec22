// The start-up check of every hetlb MPI program: the options that must be the same on every rank
// (the topology, the strategy, the items, ...) are compared before any work, so that ranks started
// with different options (an MPMD command line, a wrapper that edits one rank's arguments) end at
// once with the option named, instead of hanging, spinning or failing later for a wrong reason.
//
// One MPI_Allreduce of 32 bytes when they agree (the minimum of a 64-bit hash of every option and
// of its complement, i.e. its minimum and maximum); on a difference, one MPI_Allgather of the
// per-option hashes finds the options that differ and one MPI_Allgatherv the first one's values.
#pragma once
#include <mpi.h>

#include <string>
#include <type_traits>
#include <vector>

namespace hetlb::mpi {

struct AgreedOption {
  std::string name, value;  // value: its text as the program understood it (e.g. a parsed number)
  AgreedOption(std::string n, std::string v) : name(std::move(n)), value(std::move(v)) {}
  AgreedOption(std::string n, const char* v) : name(std::move(n)), value(v) {}
  AgreedOption(std::string n, double v);  // the shortest text that reads back as v
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  AgreedOption(std::string n, T v) : name(std::move(n)) {
    if constexpr (std::is_same_v<T, bool>) value = v ? "true" : "false";
    else value = std::to_string(v);
  }
  AgreedOption(std::string n, const std::vector<long long>& v);  // comma-separated
};

// Collective over `comm`: "" when every rank passed the same names and values, else one line naming
// the first option that differs, its values and their ranks (the same text on every rank).
std::string options_disagreement(MPI_Comm comm, const std::vector<AgreedOption>& options);

// options_disagreement(), printed on every rank's stderr as "PROGRAM: rank R of P: MESSAGE".
// Returns whether they agree; on false the caller ends cleanly (MPI_Finalize, exit code 2). A rank
// whose command line cannot be read calls it with no options: the others then stop too (an empty
// list on every rank agrees).
bool check_options_agree(MPI_Comm comm, const char* program, const std::vector<AgreedOption>& options);

}  // namespace hetlb::mpi
