// The streamed JSON of a scatter plan is, byte for byte, the JSON tree's dump: on the paper's platform
// with every algorithm, the best order and the root's choice, and on a large generated platform.
#include <gtest/gtest.h>

#include <sstream>

#include <fmt/format.h>

#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/scatter_json.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::io {

namespace {
void expect_same_text(const scatter::Result& r, const nlohmann::json& extra) {
  nlohmann::json tree = scatter_json(r);
  for (const auto& [key, value] : extra.items()) tree[key] = value;
  for (int indent : {2, 4}) {
    std::ostringstream streamed;
    write_scatter_json(streamed, r, extra, indent);
    EXPECT_EQ(streamed.str(), tree.dump(indent));
  }
}
}  // namespace

TEST(ScatterJsonStream, IsTheTreesDumpOnThePapersPlatform) {
  const Platform pf = load_platform_file(HETLB_SOURCE_DIR "/examples/grid1999.json");
  for (scatter::Algorithm a : scatter::all_algorithms())
    for (const char* root : {"", "auto"}) {
      scatter::Request q;
      q.algorithm = a;
      q.items = 3000;  // within the basic dynamic programme's reach
      q.root = root;
      q.order = std::string(root).empty() ? scatter::OrderPolicy::Best : scatter::OrderPolicy::Bandwidth;
      expect_same_text(scatter::plan_scatter(pf, q), {{"build", {{"version", "x"}, {"id", "y\"z"}}}, {"zz", 1.5}});
    }
}

TEST(ScatterJsonStream, IsTheTreesDumpOnALargePlatform) {
  std::string text = R"({"items": 1000003, "processors": [)";
  for (int i = 0; i < 500; ++i)
    text += fmt::format(R"({}{{"name": "p{}\u00e9", "compute": {{"per_item": {}}}, "comm": {{"latency": 1e-6, "per_item": {}}}}})",
                        i ? "," : "", i, 1.0 + i * 1e-3, 0.25 + (i % 7) * 0.01);
  const Platform pf = parse_platform_json(text + "]}");
  scatter::Request q;
  q.algorithm = scatter::Algorithm::Lp;
  expect_same_text(scatter::plan_scatter(pf, q), nlohmann::json::object());
}

}  // namespace hetlb::io
