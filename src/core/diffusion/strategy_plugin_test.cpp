// Strategy plug-ins (include/hetlb/strategy_plugin.h): the example first-order plug-in decides bit for
// bit as the built-in rule, by load and by time; faulty libraries are refused when loaded, faulty
// decisions end with an error naming the library, the node and the date.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

const std::string kDir = HETLB_PLUGIN_DIR;
const std::string kFirstOrder = "plugin:" + kDir + "/libfirst_order.so";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(StrategyPlugin, DescribesItself) {
  const Rule& r = find_rule(kFirstOrder);
  EXPECT_EQ(r.label, "first-order diffusion (plug-in)");
  ASSERT_EQ(r.params.size(), 1u);
  EXPECT_EQ(r.params[0].name, "alpha");
  EXPECT_EQ(&find_rule(kFirstOrder), &r);  // loaded once
  Strategy s(kFirstOrder);
  EXPECT_EQ(s.param("alpha"), 1.0);
  EXPECT_NE(error_of([&] { s.set("alpha=0"); }).find("parameter alpha = 0; expected a finite real number in [1e-06, 1]"),
            std::string::npos)
      << error_of([&] { s.set("alpha=0"); });
  EXPECT_NE(error_of([&] { s.set("beta=1"); }).find("unknown parameter \"beta\"; expected alpha"), std::string::npos);
  s.set("alpha=0.5");
  EXPECT_EQ(balance(s, 10, {2}), (std::vector<double>{2}));
}

RC_GTEST_PROP(StrategyPlugin, DecidesAsTheBuiltInRule, ()) {
  const bool integer = *rc::gen::arbitrary<bool>();
  const Strategy plugin(kFirstOrder, 1, integer), builtin("first_order", 1, integer);
  const double load = *rc::gen::inRange(0, 3000) / (integer ? 1.0 : 7.0);
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 3000)));
  std::vector<double> nb, speeds;
  for (int x : raw) {
    nb.push_back(x / (integer ? 1.0 : 7.0));
    speeds.push_back(*rc::gen::element(1.0, 0.5, 2.0, 6.4));
  }
  RC_ASSERT(balance(plugin, load, nb) == balance(builtin, load, nb));
  RC_ASSERT(balance_time(plugin, load, 1.5, nb, speeds) == balance_time(builtin, load, 1.5, nb, speeds));
}

TEST(StrategyPlugin, RefusesWhatIsNotAPlugin) {
  EXPECT_NE(error_of([] { find_rule("plugin:" + kDir + "/missing.so"); })
                .find("strategy plug-in " + kDir + "/missing.so: no such file; expected a shared library"),
            std::string::npos);
  // A device is named as such (it was called "no such file").
  EXPECT_NE(error_of([] { find_rule("plugin:/dev/null"); })
                .find("strategy plug-in /dev/null: is not a regular file; expected a shared library"),
            std::string::npos);
  const std::string text = HETLB_NOT_A_LIBRARY;
  EXPECT_NE(error_of([&] { find_rule("plugin:" + text); }).find("strategy plug-in " + text + ": not a loadable shared library"),
            std::string::npos);
  EXPECT_NE(error_of([] { find_rule("plugin:" + kDir + "/libhetlb_strategy_no_entry.so"); })
                .find("no entry point hetlb_strategy_entry"),
            std::string::npos);
  EXPECT_NE(error_of([] { find_rule("plugin:" + kDir + "/libhetlb_strategy_faulty_1.so"); })
                .find("libhetlb_strategy_faulty_1.so: interface version 2; expected 1"),
            std::string::npos);
  EXPECT_NE(error_of([] { find_rule("plug:x"); }).find("unknown; expected none, simple"), std::string::npos);
  EXPECT_EQ(error_of([] { find_rule("plugin:" + kDir); }),
            "strategy plug-in " + kDir + ": a directory; expected a shared library");
  EXPECT_EQ(error_of([] { find_rule("plugin:" + kDir + "/libhetlb_strategy_faulty_6.so"); }),
            "strategy plug-in " + kDir + "/libhetlb_strategy_faulty_6.so: parameter alpha declared twice; expected distinct names");
  EXPECT_EQ(error_of([] { find_rule("plugin:" + kDir + "/libhetlb_strategy_faulty_7.so"); }),
            "strategy plug-in " + kDir +
                "/libhetlb_strategy_faulty_7.so: parameter \"a=b\": expected a name of letters, digits and '_'");
}

TEST(StrategyPlugin, FaultyDecisionsNameTheLibraryTheNodeAndTheDate) {
  const std::vector<std::pair<int, std::string>> faults{{2, "transfer to neighbour 0 = -1"},
                                                        {3, "transfer to neighbour 0 = nan"},
                                                        {4, "transfers sum to 20, more than the load 10"},
                                                        {5, "decide() returned 7; expected 0"}};
  for (const auto& [fault, what] : faults) {
    const std::string path = kDir + "/libhetlb_strategy_faulty_" + std::to_string(fault) + ".so";
    const Strategy s("plugin:" + path);
    const std::string e = error_of([&] { balance(s, 10, {2, 3}, {3, 1.5}); });
    EXPECT_NE(e.find("strategy plug-in " + path + ": node 3 at date 1.5: " + what), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace hetlb::diffusion
