// The start-up agreement of the options across ranks (hetlb/mpi/option_agreement.hpp).
#include "hetlb/mpi/option_agreement.hpp"

#include <cstdint>
#include <cstdio>

#include <fmt/format.h>

namespace hetlb::mpi {

namespace {

constexpr std::size_t kShownValue = 80;  // bytes of a value quoted in the message

std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return (h ^ 0xffU) * 1099511628211ULL;  // a separator: ("ab", "c") and ("a", "bc") differ
}

std::uint64_t option_hash(const AgreedOption& o) { return fnv1a(fnv1a(1469598103934665603ULL, o.name), o.value); }

// "0-2, 5, 7-8"
std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? std::to_string(ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[j]);
    i = j + 1;
  }
  return out;
}

std::string shown(const std::string& value) {
  std::string v = value.size() > kShownValue ? value.substr(0, kShownValue) + "..." : value;
  for (char& c : v)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';  // one line
  return "\"" + v + "\"";
}

}  // namespace

AgreedOption::AgreedOption(std::string n, double v) : name(std::move(n)), value(fmt::format("{}", v)) {}

AgreedOption::AgreedOption(std::string n, const std::vector<long long>& v) : name(std::move(n)) {
  for (std::size_t i = 0; i < v.size(); ++i) value += (i ? "," : "") + std::to_string(v[i]);
}

std::string options_disagreement(MPI_Comm comm, const std::vector<AgreedOption>& options) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<std::uint64_t> mine;
  std::uint64_t all = 1469598103934665603ULL;
  for (const AgreedOption& o : options) {
    mine.push_back(option_hash(o));
    all = (all ^ mine.back()) * 1099511628211ULL;
  }
  const std::uint64_t count = options.size();
  // Minimum of (h, ~h, n, ~n): the minimum and the maximum of the hash and of the option count.
  std::uint64_t local[4] = {all, ~all, count, ~count}, least[4];
  MPI_Allreduce(local, least, 4, MPI_UINT64_T, MPI_MIN, comm);
  const bool same_count = least[2] == ~least[3];
  if (same_count && least[0] == ~least[1]) return "";
  if (!same_count && least[2] == 0)
    return "some ranks could not read their command line (their own line says why); expected the same options on "
           "every rank";
  if (!same_count)
    return fmt::format("the ranks compare {} to {} options: expected the same program (and version) on every rank",
                       least[2], ~least[3]);
  std::vector<std::uint64_t> hashes(mine.size() * static_cast<std::size_t>(size));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, hashes.data(), static_cast<int>(mine.size()),
                MPI_UINT64_T, comm);
  std::vector<std::size_t> differing;
  for (std::size_t k = 0; k < mine.size(); ++k)
    for (int r = 1; r < size; ++r)
      if (hashes[static_cast<std::size_t>(r) * mine.size() + k] != hashes[k]) {
        differing.push_back(k);
        break;
      }
  if (differing.empty()) return "";  // a collision of the combined hash only (not of any option's)
  // The first differing option's values, each cut to a short excerpt, from every rank.
  const AgreedOption& first = options[differing.front()];
  std::string text = first.value.substr(0, kShownValue + 1);
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) offsets[static_cast<std::size_t>(r)] = total, total += lengths[static_cast<std::size_t>(r)];
  std::string values(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(text.data(), length, MPI_CHAR, values.data(), lengths.data(), offsets.data(), MPI_CHAR, comm);
  // Ranks grouped by value, in the order of the first rank of each group.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int r = 0; r < size; ++r) {
    const std::string v = values.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                                        static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)]));
    auto it = groups.begin();
    while (it != groups.end() && it->first != v) ++it;
    if (it == groups.end()) groups.push_back({v, {r}});
    else it->second.push_back(r);
  }
  std::string where;
  for (const auto& [v, ranks] : groups)
    where += fmt::format("{}{} on rank{} {}", where.empty() ? "" : ", ", shown(v), ranks.size() > 1 ? "s" : "",
                         rank_list(ranks));
  std::string others;
  for (std::size_t i = 1; i < differing.size(); ++i) others += (i > 1 ? ", " : "") + options[differing[i]].name;
  return fmt::format("{} differs between ranks: {}{}; expected the same options on every rank", first.name, where,
                     others.empty() ? "" : fmt::format(" (also differing: {})", others));
}

bool check_options_agree(MPI_Comm comm, const char* program, const std::vector<AgreedOption>& options) {
  const std::string message = options_disagreement(comm, options);
  if (message.empty()) return true;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::fprintf(stderr, "%s: rank %d of %d: %s\n", program, rank, size, message.c_str());
  std::fflush(stderr);
  return false;
}

}  // namespace hetlb::mpi
