// The Grid'5000 subset of Couturier & Giersch's study (Section "Platforms"): the sites, clusters and
// backbone of SimGrid's g5k.xml kept as a fact table, the rule that picks N hosts from it, and the
// normalised SimGrid platform (1 Gflop/s hosts; 125 MB/s, 50 us links inside a site; 2.25 GB/s,
// 500 us backbone links between sites), and the real one (each cluster's speed, g5k.xml's links).
// No file outside hetlb is read.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hetlb::sim::grid5000 {

struct Cluster {
  std::string_view name;  // g5k.xml's host prefix ("graphene"), sub-clusters of one switch merged
  int hosts;
  double speed;  // flop/s of each host, g5k.xml's `speed` (4.7144e9 to 30.13e9)
};

struct Site {
  std::string_view name;    // "nancy"
  std::string_view router;  // backbone router the site's gateway attaches to ("paris" for orsay)
  std::span<const Cluster> clusters;
  int hosts() const;
};

struct BackboneLink {
  std::string_view a, b;  // two backbone routers
};

// The 9 sites in g5k.xml's (alphabetical) order, clusters in file (alphabetical) order.
std::span<const Site> sites();
// The 10 backbone routers and the 9 links between them (a tree).
std::span<const std::string_view> routers();
std::span<const BackboneLink> backbone();
// g5k.xml's links, in B/s and s: each host's private link (the cluster tags' bw, lat), each
// cluster's backbone (bb_bw, bb_lat), a cluster's uplink to its site's other clusters and gateway
// (link_CLUSTER), a site's gateway link to the backbone (link_gw_SITE), and the backbone links between
// routers (Lille_Paris, ...). The 500 us switch links between the groups of one split cluster are not
// kept: such a cluster is one cluster here.
inline constexpr double kHostLinkBandwidth = 1.25e8, kHostLinkLatency = 1e-4;
inline constexpr double kClusterBackboneBandwidth = 1.25e9, kClusterBackboneLatency = 1e-4;
inline constexpr double kUplinkBandwidth = 1.25e9, kUplinkLatency = 1e-4;
inline constexpr double kGatewayBandwidth = 1.25e9, kGatewayLatency = 1e-4;
inline constexpr double kBackboneBandwidth = 1.25e9, kBackboneLatency = 1e-4;

// The study's normalised subset (every host 1 Gflop/s, the draft's links) or the real one.
enum class Variant { normalised, real };

// 1528 hosts in all.
int total_hosts();

// Backbone links crossed from site a's router to site b's (site indices; empty for one router).
std::vector<BackboneLink> backbone_path(std::size_t a, std::size_t b);

// Hosts picked at each size: [site][cluster] counts summing to `hosts` (1..total_hosts()), by the
// Sainte-Lague (Webster) divisor method, first over sites by their host counts, then over the
// clusters of each site; seats are handed out one at a time to the highest size / (2 seats + 1),
// ties to the earlier site or cluster, never beyond a site's or cluster's size. Each size's
// selection contains the previous one's. Throws hetlb::Error outside 1..total_hosts().
std::vector<std::vector<int>> select_hosts(int hosts);

// Host names of the subset of `hosts` hosts, "SITE-CLUSTER-I" with I from 1, in natural order
// (site by site, cluster by cluster, as the simulator maps nodes onto them).
std::vector<std::string> host_names(int hosts);

// Host speeds (flop/s) of the real subset of `hosts` hosts, in host_names() order.
std::vector<double> host_speeds(int hosts);

// The SimGrid XML platform of `hosts` hosts (see docs/simulation.md, "The Grid'5000 subset"):
// normalised (the study's) or real (each cluster's speed and g5k.xml's links, same hosts and routes).
std::string platform_xml(int hosts, Variant variant = Variant::normalised);

}  // namespace hetlb::sim::grid5000
