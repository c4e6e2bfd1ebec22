// The Grid'5000 fact table and the host-picking rule, without SimGrid: the table's shape, and at
// every size from 1 to 1528 hosts a selection that is a Sainte-Lague apportionment (checked by the
// divisor-method criterion, not by re-running the algorithm), contains the previous size's, and
// names its hosts site by site in natural order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "hetlb/error.hpp"
#include "hetlb/sim/grid5000.hpp"
#include "hetlb/sim/platform.hpp"

namespace hetlb::sim::grid5000 {
namespace {

int sum(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0); }

std::vector<int> per_site(const std::vector<std::vector<int>>& picked) {
  std::vector<int> out;
  for (const auto& s : picked) out.push_back(sum(s));
  return out;
}

// Divisor-method criterion of Sainte-Lague with capacities: every entry holding a seat deserves it at
// least as much as any entry not full deserves one more: size_i / (2 t_i - 1) >= size_j / (2 t_j + 1).
::testing::AssertionResult is_sainte_lague(const std::vector<int>& sizes, const std::vector<int>& taken) {
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (taken[i] < 0 || taken[i] > sizes[i]) return ::testing::AssertionFailure() << "entry " << i << " over size";
    if (taken[i] == 0) continue;
    for (std::size_t j = 0; j < sizes.size(); ++j)
      if (j != i && taken[j] < sizes[j] &&
          static_cast<long>(sizes[i]) * (2 * taken[j] + 1) < static_cast<long>(sizes[j]) * (2 * taken[i] - 1))
        return ::testing::AssertionFailure() << "entry " << j << " deserves a seat of entry " << i;
  }
  return ::testing::AssertionSuccess();
}

TEST(Grid5000, TableHasG5ksSitesAndBackbone) {
  EXPECT_EQ(sites().size(), 9u);
  EXPECT_EQ(total_hosts(), 1528);
  EXPECT_EQ(routers().size(), 10u);
  EXPECT_EQ(backbone().size(), 9u);  // a tree over the 10 routers
  std::set<std::string_view> names;
  for (const Site& s : sites()) {
    EXPECT_NE(std::find(routers().begin(), routers().end(), s.router), routers().end()) << s.name;
    EXPECT_TRUE(names.insert(s.name).second);
    EXPECT_TRUE(std::is_sorted(s.clusters.begin(), s.clusters.end(),
                               [](const Cluster& a, const Cluster& b) { return a.name < b.name; }));
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(sites()[5].name, "orsay");
  EXPECT_EQ(sites()[5].router, "paris");
  EXPECT_EQ(sites()[4].hosts(), 236);  // nancy: graphene 144 + griffon 92
}

TEST(Grid5000, BackbonePathsFollowTheTree) {
  const auto index = [](std::string_view name) {
    for (std::size_t s = 0; s < sites().size(); ++s)
      if (sites()[s].name == name) return s;
    throw Error("no site");
  };
  const auto hops = [&](std::string_view a, std::string_view b) {
    std::vector<std::string> out;
    for (const BackboneLink& l : backbone_path(index(a), index(b))) out.push_back(std::string(l.a) + "-" + std::string(l.b));
    return out;
  };
  EXPECT_EQ(hops("nancy", "nancy"), std::vector<std::string>{});
  EXPECT_EQ(hops("orsay", "lille"), (std::vector<std::string>{"lille-paris"}));
  EXPECT_EQ(hops("nancy", "toulouse"),
            (std::vector<std::string>{"paris-nancy", "paris-lyon", "lyon-marseille", "marseille-toulouse"}));
  for (std::size_t a = 0; a < sites().size(); ++a)
    for (std::size_t b = 0; b < sites().size(); ++b) EXPECT_EQ(backbone_path(a, b).size(), backbone_path(b, a).size());
}

TEST(Grid5000, EverySizeIsASainteLagueApportionmentContainingTheSmallerOnes) {
  std::vector<int> site_sizes;
  for (const Site& s : sites()) site_sizes.push_back(s.hosts());
  std::vector<std::vector<int>> previous(sites().size(), std::vector<int>(0));
  for (std::size_t s = 0; s < sites().size(); ++s) previous[s].assign(sites()[s].clusters.size(), 0);
  for (int n = 1; n <= total_hosts(); ++n) {
    const auto picked = select_hosts(n);
    ASSERT_EQ(sum(per_site(picked)), n);
    ASSERT_TRUE(is_sainte_lague(site_sizes, per_site(picked))) << n << " hosts";
    for (std::size_t s = 0; s < sites().size(); ++s) {
      std::vector<int> cluster_sizes;
      for (const Cluster& c : sites()[s].clusters) cluster_sizes.push_back(c.hosts);
      ASSERT_TRUE(is_sainte_lague(cluster_sizes, picked[s])) << n << " hosts, site " << sites()[s].name;
      for (std::size_t c = 0; c < picked[s].size(); ++c) ASSERT_GE(picked[s][c], previous[s][c]) << n;
    }
    previous = picked;
  }
  EXPECT_THROW(select_hosts(0), Error);
  EXPECT_THROW(select_hosts(1529), Error);
}

TEST(Grid5000, TheStudysSizesFollowTheSitesProportions) {
  // bordeaux grenoble lille lyon nancy orsay rennes sophia toulouse (docs/simulation.md's table)
  EXPECT_EQ(per_site(select_hosts(16)), (std::vector<int>{2, 1, 1, 1, 2, 4, 2, 2, 1}));
  EXPECT_EQ(per_site(select_hosts(64)), (std::vector<int>{6, 5, 4, 6, 10, 14, 7, 6, 6}));
  for (int n : {16, 64, 256, 1024}) {
    const std::vector<int> got = per_site(select_hosts(n));
    for (std::size_t s = 0; s < sites().size(); ++s)
      EXPECT_LT(std::abs(got[s] - double(n) * sites()[s].hosts() / total_hosts()), 1.0) << n << " " << sites()[s].name;
  }
}

TEST(Grid5000, HostNamesSaySiteAndClusterInNodeOrder) {
  for (int n : {1, 16, 64, 256, 1024, 1528}) {
    const std::vector<std::string> names = host_names(n);
    ASSERT_EQ(names.size(), static_cast<std::size_t>(n));
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end(), natural_less)) << n;
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
    int site_changes = 0, used_sites = 0;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (i > 0 && names[i].substr(0, names[i].find('-')) != names[i - 1].substr(0, names[i - 1].find('-')))
        ++site_changes;
    for (int k : per_site(select_hosts(n))) used_sites += k > 0;
    EXPECT_EQ(site_changes, used_sites - 1) << n;  // each site's hosts are contiguous
  }
  EXPECT_EQ(host_names(1), std::vector<std::string>{"orsay-gdx-1"});
}

TEST(Grid5000, XmlJoinsPickedClustersThroughTheBackbone) {
  const std::string xml = platform_xml(16);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto p = xml.find(what); p != std::string::npos; p = xml.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("bandwidth=\"2.25GBps\" latency=\"500us\""), 9u);
  EXPECT_EQ(count("<route "), 9u);
  EXPECT_EQ(count("dst=\"backbone\""), 9u);  // every site has a host at 16
  EXPECT_EQ(count("speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\""), count("<cluster "));
  EXPECT_NE(xml.find("gw_src=\"orsay-gateway\" gw_dst=\"paris\""), std::string::npos);
  EXPECT_EQ(platform_xml(1).find("nancy-site"), std::string::npos);  // sites without hosts are left out
}

}  // namespace
}  // namespace hetlb::sim::grid5000
