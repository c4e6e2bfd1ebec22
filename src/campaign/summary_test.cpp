// The comparison on hand-made results: ranks per configuration with non-converged runs last, wins
// per ratio, paired effects, counter-examples; nothing averaged across ratios.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "campaign.hpp"
#include "hetlb/error.hpp"
#include "summary.hpp"

namespace hetlb::campaign {
namespace {

Spec two_ratios() {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_spec.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "besteffort:2", "makhoul"],
    "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["line"], "initial": ["single"], "ratios": [10, 0.1]})";
  return read_spec(path);
}

// Rows with a convergence date per variant and ratio; NaN: not converged.
std::map<std::string, Row> results(const Spec& spec, double (*date)(const std::string& variant, const std::string& ratio)) {
  std::map<std::string, Row> rows;
  for (const auto& s : spec.settings) {
    std::string variant = s.value("strategy") + (s.value("strategy") == "besteffort" ? " k=" + s.value("k") : "") +
                          (s.value("virtual_load") == "true" ? " +virtual" : "");
    const double d = date(variant, s.value("ratio"));
    Row r;
    r.cells["status"] = "ok";
    r.cells["converged"] = std::isnan(d) ? "0" : "1";
    r.cells["max_convergence_date"] = std::isnan(d) ? "" : std::to_string(d);
    rows[s.key] = r;
  }
  return rows;
}

const Entry& entry(const Comparison& c, const std::string& ratio, const std::string& variant) {
  for (const auto& conf : c.configurations)
    if (conf.ratio == ratio)
      for (const auto& e : conf.entries)
        if (e.variant == variant) return e;
  throw std::runtime_error("no entry " + variant);
}

TEST(CampaignSummary, RanksPerConfigurationWithNonConvergedLast) {
  const Spec spec = two_ratios();
  const Comparison c = compare(spec, results(spec, [](const std::string& v, const std::string& ratio) {
    if (ratio == "10") return v == "makhoul" ? 5.0 : v == "besteffort k=1" ? 3.0 : v == "besteffort k=2" ? 3.0 : 4.0;
    return v == "makhoul" ? std::nan("") : v == "besteffort k=1 +virtual" ? 1.0 : 2.0;  // ratio 0.1: makhoul fails
  }));
  ASSERT_EQ(c.configurations.size(), 2u);
  EXPECT_EQ(entry(c, "10", "besteffort k=1").rank, 1);  // tied first
  EXPECT_EQ(entry(c, "10", "besteffort k=2").rank, 1);
  EXPECT_EQ(entry(c, "10", "besteffort k=1 +virtual").rank, 3);
  EXPECT_EQ(entry(c, "10", "makhoul").rank, 6);
  EXPECT_EQ(entry(c, "0.1", "besteffort k=1 +virtual").rank, 1);
  EXPECT_EQ(entry(c, "0.1", "makhoul").status, "not converged");
  EXPECT_EQ(entry(c, "0.1", "makhoul").rank, 6);  // after the 5 converged ones
  std::ostringstream out;
  print_summary(out, c);
  EXPECT_NE(out.str().find("| makhoul | 2 | 1 | 1 | 0 | 0 | 0 |"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("| besteffort k=1 | 1/1 | 1 | 0/1 | 2 |"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0 of 4 compared"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Only best effort valid (converged) in 1 of 4"), std::string::npos) << out.str();
  // Virtual load for makhoul at ratio 0.1: converged only with it.
  EXPECT_NE(out.str().find("| 0.1 | makhoul | 1 | 0 | 0 | 0 | 1 | 0 | 0 | - |"), std::string::npos) << out.str();
  // k=2 against k=1 at ratio 10: equal.
  EXPECT_NE(out.str().find("| 10 | k=2 vs k=1 | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 1 |"), std::string::npos) << out.str();
}

// The spec names the comparison: first-order diffusion against Makhoul, best effort left out of the
// duels; the tables and counter-examples name the groups by their registry labels.
TEST(CampaignSummary, TheSpecSetsTheComparison) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_compare.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "makhoul", "first_order"],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["line"], "initial": ["single"], "ratios": [10],
    "compare": {"subject": ["first_order"], "against": ["makhoul"]}})";
  const Spec spec = read_spec(path);
  EXPECT_EQ(spec.compare.subject_label, "first-order diffusion");
  EXPECT_EQ(spec.compare.against_label, "Makhoul");
  // Best effort is the fastest, but not in the duel: Makhoul beats first-order diffusion.
  const Comparison c = compare(spec, results(spec, [](const std::string& v, const std::string&) {
    return v == "besteffort k=1" ? 1.0 : v == "makhoul" ? 2.0 : 3.0;
  }));
  std::ostringstream out;
  print_summary(out, c);
  EXPECT_NE(out.str().find("First-order diffusion against Makhoul, per configuration"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("where first-order diffusion is not the best by more than 1 % (1 of 1 compared"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("| makhoul | 2 | 3 (first_order) |"), std::string::npos) << out.str();
  // Names outside "strategies" are refused.
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["makhoul"], "compare": {"subject": ["simple"]}})";
  EXPECT_THROW(read_spec(path), Error);
  // A baseline not listed (a typo), or a strategy in two groups, is refused naming it.
  const auto refusal = [&](const std::string& compare) {
    std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort", "makhoul", "simple"], "compare": )"
                        << compare << "}";
    try {
      read_spec(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(R"({"baseline": "bestefort"})"),
            "campaign \"" + path + R"(": "compare" = "bestefort"; expected "baseline": the name of a strategy listed in "strategies")");
  EXPECT_EQ(refusal(R"({"subject": ["makhoul"], "against": ["simple", "makhoul"]})"),
            "campaign \"" + path + R"(": "compare" = "makhoul"; expected "against": strategies not in "subject")");
  EXPECT_EQ(refusal(R"({"subject": ["makhoul"], "baseline": "makhoul"})"),
            "campaign \"" + path + R"(": "compare" = "makhoul"; expected "baseline": a strategy in neither "subject" nor "against")");
  EXPECT_EQ(refusal(R"({"subject": ["makhoul"], "against": ["besteffort"], "baseline": "simple"})"), "accepted");
}

// By the load spread left when the runs stop, a run that did not converge (stopped at the time limit)
// compares too: where nothing converges, the ranking says which variant came closest. By any other
// metric it stays after the converged runs.
TEST(CampaignSummary, LoadSpreadComparesRunsThatDidNotConverge) {
  const Spec spec = two_ratios();
  auto rows = results(spec, [](const std::string& v, const std::string& ratio) {
    return ratio == "0.1" || v == "makhoul" ? std::nan("") : 1.0;  // ratio 0.1: nothing converges
  });
  for (const auto& s : spec.settings) {
    Row& r = rows.at(s.key);
    // Spreads: makhoul 0.5 (the closest), best effort k=1 2, the others 4; idle time the same.
    const double spread = s.value("strategy") == "makhoul" ? 0.5 : s.value("k") == "1" ? 2.0 : 4.0;
    r.cells["load_spread_percent"] = r.cells["avg_idle_time"] = std::to_string(spread);
  }
  const Comparison spread = compare(spec, rows, "load_spread_percent");
  EXPECT_TRUE(entry(spread, "0.1", "makhoul").valid);
  EXPECT_EQ(entry(spread, "0.1", "makhoul").status, "not converged");
  EXPECT_EQ(entry(spread, "0.1", "makhoul").rank, 1);
  EXPECT_EQ(entry(spread, "0.1", "makhoul +virtual").rank, 1);
  EXPECT_EQ(entry(spread, "0.1", "besteffort k=1").rank, 3);
  EXPECT_EQ(entry(spread, "0.1", "besteffort k=2 +virtual").rank, 5);
  EXPECT_EQ(entry(spread, "10", "makhoul").rank, 1);  // not converged, but balanced best
  std::ostringstream out;
  print_summary(out, spread);
  EXPECT_NE(out.str().find("runs that did not converge compare too"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Only best effort valid (finished) in 0 of 4"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Counter-examples: configurations where best effort is not the best by more than 1 % (4 of 4"),
            std::string::npos)
      << out.str();
  const Comparison idle = compare(spec, rows, "avg_idle_time");
  EXPECT_FALSE(entry(idle, "0.1", "makhoul").valid);
  EXPECT_EQ(entry(idle, "0.1", "makhoul").rank, 1);  // nothing valid: every run ranks after the (no) valid ones
  EXPECT_EQ(entry(idle, "10", "makhoul").rank, 6);   // after the 5 converged runs
  print_summary(out, idle);
  EXPECT_EQ(out.str().find("runs that did not converge compare too", out.str().find("avg_idle_time")),
            std::string::npos);
}

TEST(CampaignSummary, ListsCounterExamplesWithTheirSettings) {
  const Spec spec = two_ratios();
  const Comparison c = compare(spec, results(spec, [](const std::string& v, const std::string& ratio) {
    if (ratio == "0.1" && v == "makhoul +virtual") return 0.5;  // faster than every best effort
    if (ratio == "0.1" && v == "makhoul") return 0.995;           // faster, but within 1 %: a tie
    if (ratio == "10" && v.find("besteffort") == 0 && v.find("virtual") == std::string::npos) return std::nan("");
    return v.find("besteffort") == 0 ? 1.0 : 2.0;  // ratio 10, no virtual load: only makhoul converges
  }));
  std::ostringstream out;
  print_summary(out, c);
  const std::string s = out.str();
  EXPECT_NE(s.find("(2 of 4 compared; 1 more within 1 %)"), std::string::npos) << s;
  EXPECT_NE(s.find("| ratio=0.1 virtual | makhoul +virtual | 0.5 | 1 (besteffort k=1 +virtual) | 50.0 % |"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("| ratio=0.1 | makhoul |"), std::string::npos) << s;
  EXPECT_NE(s.find("| ratio=10 | makhoul | 2 | none valid |"), std::string::npos) << s;
  EXPECT_NE(s.find("`hetlb simulate diffusion --strategy makhoul --k 1"), std::string::npos) << s;
}

// A counter-example's command pastes into a shell and stays in its table cell whatever the file names:
// a word with a space, a quote or a '|' is single-quoted, and the '|' escaped for the table.
TEST(CampaignSummary, CounterExampleCommandsAreQuotedForTheShell) {
  const std::string edges = std::string(HETLB_BINARY_DIR) + "/summary ring|it's.edges";
  std::ofstream(edges) << "0 1\n1 0\n1 2\n2 1\n2 3\n3 2\n3 0\n0 3\n";
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_quoted.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "makhoul"],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [4], "initial": ["single"],
    "ratios": [1], "topologies": [")" << edges << R"("]})";
  const Spec spec = read_spec(path);
  const Comparison c = compare(spec, results(spec, [](const std::string& v, const std::string&) {
    return v == "makhoul" ? 1.0 : 2.0;  // makhoul first: a counter-example
  }));
  std::ostringstream out;
  print_summary(out, c);
  const std::string quoted = "--topology '" + std::string(HETLB_BINARY_DIR) + "/summary ring\\|it'\\''s.edges' ";
  EXPECT_NE(out.str().find(quoted), std::string::npos) << out.str();
}

// The no-balancing baseline beating best effort is not a counter-example (only Makhoul or simple are).
TEST(CampaignSummary, TheBaselineIsNoCounterExample) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_baseline.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "makhoul", "none"],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["line"], "initial": ["single"], "ratios": [1]})";
  const Spec spec = read_spec(path);
  const Comparison c = compare(spec, results(spec, [](const std::string& v, const std::string&) {
    return v == "none" ? 1.0 : v == "makhoul" ? 3.0 : 2.0;  // none first, then best effort, then makhoul
  }));
  std::ostringstream out;
  print_summary(out, c);
  EXPECT_NE(out.str().find("Counter-examples: configurations where best effort is not the best by more than 1 % (0 of 1"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("| ratio=1 | none |"), std::string::npos) << out.str();
}

// Wins split by a parameter that varies: best effort wins on the line, makhoul on the torus.
TEST(CampaignSummary, WinsPerTopology) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_topologies.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "makhoul"],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["line", "torus"], "initial": ["single"], "ratios": [1]})";
  const Spec spec = read_spec(path);
  std::map<std::string, Row> rows;
  for (const auto& st : spec.settings) {
    const bool be = st.value("strategy") == "besteffort", line = st.value("topology") == "line";
    Row r;
    r.cells["status"] = "ok";
    r.cells["converged"] = "1";
    r.cells["max_convergence_date"] = be == line ? "1" : "2";
    rows[st.key] = r;
  }
  std::ostringstream out;
  print_summary(out, compare(spec, rows));
  const std::string s = out.str();
  EXPECT_NE(s.find("| variant | topology line, ratio 1 | topology torus, ratio 1 |"), std::string::npos) << s;
  EXPECT_NE(s.find("| besteffort k=1 | 1/1 | 0/1 |"), std::string::npos) << s;
  EXPECT_NE(s.find("| makhoul | 0/1 | 1/1 |"), std::string::npos) << s;
  EXPECT_EQ(s.find("per ratio and platform"), std::string::npos) << s;  // one platform: no table
}


// Question 1 in one table: every outcome of best effort's best against the others' best, per ratio
// and topology, with the lead (others / best effort for dates; inverted for a metric where higher is
// better, so that the same runs give the same leads).
TEST(CampaignSummary, DuelsPerRatioAndTopology) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_summary_duels.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "besteffort:2", "makhoul", "simple"],
    "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["line", "torus", "hypercube"], "initial": ["single"], "ratios": [10, 0.1]})";
  const Spec spec = read_spec(path);
  const auto date = [](const Setting& st) {
    const bool be = st.value("strategy") == "besteffort", virt = st.value("virtual_load") == "true";
    const std::string t = st.value("topology");
    if (st.value("ratio") == "0.1") return be ? 1.0 : 4.0;                      // best effort first, lead 4
    if (t == "line") return be ? (st.value("k") == "1" ? 2.0 : 3.0) : virt ? 1.99 : 3.01;  // lead 0.995, 1.505
    if (t == "torus") return be ? (virt ? NAN : 2.0) : 1.0;  // others first (lead 0.5); only others valid
    return be && !virt ? 1.0 : NAN;                           // hypercube: only best effort valid; none valid
  };
  std::map<std::string, Row> rows;
  for (const auto& st : spec.settings) {
    const double d = date(st);
    Row r;
    r.cells["status"] = "ok";
    r.cells["converged"] = std::isnan(d) ? "0" : "1";
    r.cells["max_convergence_date"] = std::isnan(d) ? "" : std::to_string(d);
    r.cells["computed_load"] = std::isnan(d) ? "" : std::to_string(1 / d);
    rows[st.key] = r;
  }
  for (const char* metric : {"max_convergence_date", "computed_load"}) {
    std::ostringstream out;
    print_summary(out, compare(spec, rows, metric));
    const std::string s = out.str();
    EXPECT_NE(s.find(metric == std::string("computed_load")
                         ? "(lead: best effort's best computed_load over the others' best; above 1 when"
                         : "(lead: the others' best max_convergence_date over best effort's best; above 1 when"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("| 10 | line | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 1.25 | 0.995 | 1.505 |"), std::string::npos) << s;
    EXPECT_NE(s.find("| 10 | torus | 2 | 0 | 0 | 1 | 0 | 1 | 0 | 0.5 | 0.5 | 0.5 |"), std::string::npos) << s;
    EXPECT_NE(s.find("| 10 | hypercube | 2 | 0 | 0 | 0 | 1 | 0 | 1 | - | - | - |"), std::string::npos) << s;
    EXPECT_NE(s.find("| 10 | all | 6 | 1 | 1 | 1 | 1 | 1 | 1 | 0.995 | 0.5 | 1.505 |"), std::string::npos) << s;
    EXPECT_NE(s.find("| 0.1 | all | 6 | 6 | 0 | 0 | 0 | 0 | 0 | 4 | 4 | 4 |"), std::string::npos) << s;
    // The counter-examples are the duels the others win, valid or alone.
    EXPECT_NE(s.find("(2 of 12 compared; 1 more within 1 %)"), std::string::npos) << s;
  }
}

}  // namespace

// A partial local campaign holds complete comparisons: fewest nodes first, then the smallest
// diameter (the cheapest runs: the torus before the line), variants together.
TEST(CampaignOrder, SmallestFirstKeepsVariantsTogether) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_order_spec.json";
  std::ofstream(path) << R"({"spec_version": "s", "strategies": ["besteffort:1", "makhoul"],
    "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [64, 16],
    "topologies": ["line", "torus"], "initial": ["single"], "ratios": [1]})";
  const Spec spec = read_spec(path);
  std::vector<std::size_t> all(spec.settings.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  EXPECT_EQ(spec.settings[all.front()].nodes, 64);  // the spec's own order: longest first
  const auto order = smallest_first(spec, all);
  ASSERT_EQ(order.size(), all.size());
  auto configuration = [&](std::size_t i) {
    return spec.settings[i].value("nodes") + "," + spec.settings[i].value("topology");
  };
  std::set<std::string> closed;  // configurations already left behind
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0) continue;
    EXPECT_LE(spec.settings[order[k - 1]].nodes, spec.settings[order[k]].nodes);
    if (spec.settings[order[k - 1]].nodes == spec.settings[order[k]].nodes) {  // torus (diameter 4 or 8) before line
      EXPECT_FALSE(spec.settings[order[k - 1]].value("topology") == "line" &&
                   spec.settings[order[k]].value("topology") == "torus");
    }
    if (configuration(order[k - 1]) != configuration(order[k])) {
      EXPECT_TRUE(closed.insert(configuration(order[k - 1])).second);
      EXPECT_FALSE(closed.count(configuration(order[k])));
    }
  }
  EXPECT_EQ(closed.size(), 3u);  // four configurations, each in one block
  EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), all.size());
  // --max-nodes 16 keeps the 16-node half only.
  Options o;
  o.max_nodes = 16;
  const auto small = select(spec, all, o);
  EXPECT_EQ(small.size(), all.size() / 2);
  for (std::size_t i : small) EXPECT_EQ(spec.settings[i].nodes, 16);
  // --min-nodes 17 the other half; both bounds at one size: that size alone.
  Options large;
  large.min_nodes = 17;
  const auto big = select(spec, all, large);
  EXPECT_EQ(big.size(), all.size() / 2);
  for (std::size_t i : big) EXPECT_GT(spec.settings[i].nodes, 16);
  Options one;
  one.min_nodes = one.max_nodes = 16;
  EXPECT_EQ(select(spec, all, one), small);
  EXPECT_EQ(selection_text(one), " (16 nodes)");
  // --only: the settings whose column holds one of the values, with the node bounds.
  one.only["topology"] = {"line"};
  const auto lines = select(spec, all, one);
  EXPECT_EQ(lines.size(), small.size() / 2);
  for (std::size_t i : lines) {
    EXPECT_EQ(spec.settings[i].value("topology"), "line");
    EXPECT_EQ(spec.settings[i].nodes, 16);
  }
  EXPECT_EQ(selection_text(one), " (16 nodes; topology=line)");
  Options any;
  any.only["topology"] = {"line", "torus"};
  EXPECT_EQ(select(spec, all, any).size(), all.size());
  EXPECT_EQ(selection_text(any), " (topology=line,torus)");
}

}  // namespace hetlb::campaign
