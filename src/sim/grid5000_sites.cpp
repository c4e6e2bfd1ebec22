// Facts of SimGrid's g5k.xml (the Grid'5000 description the study took its subset from): sites,
// clusters with their host counts and speeds (flop/s, the `speed` of each cluster tag), and the
// backbone between sites. A cluster split in g5k.xml into
// sub-clusters behind switches (nancy's graphene 39+35+30+40 and griffon 32+28+32, orsay's gdx in
// 11 groups) is one cluster here. A test compares this table with g5k.xml when that file is at hand.
#include "hetlb/sim/grid5000.hpp"

#include <numeric>

namespace hetlb::sim::grid5000 {

namespace {
constexpr Cluster kBordeaux[] = {{"bordeplage", 51, 5.2297e9}, {"bordereau", 93, 8.8925e9}, {"borderline", 10, 13.357e9}};
constexpr Cluster kGrenoble[] = {{"adonis", 12, 23.681e9}, {"edel", 72, 23.492e9}, {"genepi", 34, 21.175e9}};
constexpr Cluster kLille[] = {{"chicon", 26, 8.9618e9}, {"chimint", 20, 23.531e9}, {"chinqchint", 46, 22.270e9}, {"chirloute", 8, 24.473e9}};
constexpr Cluster kLyon[] = {{"capricorne", 56, 4.7233e9}, {"sagittaire", 79, 5.6693e9}};
constexpr Cluster kNancy[] = {{"graphene", 144, 16.673e9}, {"griffon", 92, 20.678e9}};
constexpr Cluster kOrsay[] = {{"gdx", 310, 4.7153e9}, {"netgdx", 30, 4.7144e9}};
constexpr Cluster kRennes[] = {{"paradent", 64, 21.496e9}, {"paramount", 33, 12.910e9}, {"parapide", 25, 30.130e9}, {"parapluie", 40, 27.391e9}};
constexpr Cluster kSophia[] = {{"helios", 56, 7.7318e9}, {"sol", 50, 8.9388e9}, {"suno", 45, 23.530e9}};
constexpr Cluster kToulouse[] = {{"pastel", 80, 9.5674e9}, {"violette", 52, 5.1143e9}};

// Each site's gateway reaches the backbone router of its city; orsay's reaches paris.
const Site kSites[] = {
    {"bordeaux", "bordeaux", kBordeaux}, {"grenoble", "grenoble", kGrenoble}, {"lille", "lille", kLille},
    {"lyon", "lyon", kLyon},             {"nancy", "nancy", kNancy},          {"orsay", "paris", kOrsay},
    {"rennes", "rennes", kRennes},       {"sophia", "sophia", kSophia},       {"toulouse", "toulouse", kToulouse},
};

constexpr std::string_view kRouters[] = {"lille",    "paris",    "nancy",     "rennes",   "lyon",
                                         "bordeaux", "grenoble", "marseille", "toulouse", "sophia"};

// g5k.xml's links Lille_Paris, Paris_Nancy, ... (1.25 GB/s, 100 us there; 2.25 GB/s, 500 us normalised).
constexpr BackboneLink kBackbone[] = {{"lille", "paris"},     {"paris", "nancy"},      {"paris", "rennes"},
                                      {"paris", "lyon"},      {"bordeaux", "lyon"},    {"lyon", "grenoble"},
                                      {"lyon", "marseille"},  {"marseille", "sophia"}, {"marseille", "toulouse"}};
}  // namespace

int Site::hosts() const {
  return std::accumulate(clusters.begin(), clusters.end(), 0, [](int s, const Cluster& c) { return s + c.hosts; });
}

std::span<const Site> sites() { return kSites; }
std::span<const std::string_view> routers() { return kRouters; }
std::span<const BackboneLink> backbone() { return kBackbone; }

int total_hosts() {
  int n = 0;
  for (const Site& s : kSites) n += s.hosts();
  return n;
}

}  // namespace hetlb::sim::grid5000
