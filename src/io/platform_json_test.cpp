// The platform file: the documented shape, count expansion, and one clear error per bad input.
#include <gtest/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"

namespace hetlb::io {

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_platform_json(text, "p.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
const char* kOk = R"({"name": "x", "items": 817101, "root": "dinadan", "extra": true,
  "processors": [
    {"name": "dinadan", "compute": {"per_item": 0.009288}, "comm": {"per_item": 0}},
    {"name": "leda", "count": 8, "compute": {"per_item": 0.009677}, "comm": {"latency": 0.001, "per_item": 3.53e-5}},
    {"name": "q", "compute": {"table": [[10, 0.1], [100, 1.1], [1000, 12.0]]}, "comm": {"per_item": 1e-5},
     "transfer": {"per_item": 2e-5}}]})";
}  // namespace

TEST(PlatformJson, DocumentedShape) {
  const Platform pf = parse_platform_json(kOk);
  ASSERT_EQ(pf.processors.size(), 10u);
  EXPECT_EQ(pf.items, 817101);
  EXPECT_EQ(pf.processors[pf.root].name, "dinadan");
  EXPECT_EQ(pf.processors[1].name, "leda-1");
  EXPECT_EQ(pf.processors[8].name, "leda-8");
  EXPECT_EQ(pf.processors[1].comm.kind(), CostFunction::Kind::Affine);
  EXPECT_EQ(pf.processors[9].compute.kind(), CostFunction::Kind::Table);
  EXPECT_TRUE(pf.processors[9].transfer.has_value());
}

TEST(PlatformJson, WriterRoundTrips) {
  const Platform a = parse_platform_json(kOk);
  const Platform b = parse_platform_json(platform_to_json(a));
  ASSERT_EQ(a.processors.size(), b.processors.size());
  EXPECT_EQ(a.items, b.items);
  EXPECT_EQ(a.root, b.root);
  EXPECT_EQ(a.name, b.name);
  for (std::size_t i = 0; i < a.processors.size(); ++i) {
    EXPECT_EQ(a.processors[i].name, b.processors[i].name);
    EXPECT_EQ(a.processors[i].comm.kind(), b.processors[i].comm.kind());
    EXPECT_EQ(a.processors[i].transfer.has_value(), b.processors[i].transfer.has_value());
    for (Count x : {0, 1, 7, 55, 5000}) {
      EXPECT_EQ(a.processors[i].compute(x), b.processors[i].compute(x));
      EXPECT_EQ(a.processors[i].comm(x), b.processors[i].comm(x));
    }
  }
}

// A cost object alone is the processor field's format: each kind reads back as what was written.
TEST(PlatformJson, CostObjectReadsBack) {
  const CostFunction costs[] = {CostFunction::linear(0.25), CostFunction::affine(1e-3, 0.5),
                                CostFunction::table({{10, 1.0}, {100, 4.5}})};
  EXPECT_EQ(cost_to_json(costs[0]), R"({"per_item":0.25})");
  for (const CostFunction& c : costs) {
    const std::string text =
        R"({"processors": [{"name": "p", "compute": )" + cost_to_json(c) + R"(, "comm": {"per_item": 0}}]})";
    const CostFunction back = parse_platform_json(text).processors.at(0).compute;
    EXPECT_EQ(back.kind(), c.kind()) << text;
    for (Count x : {0, 1, 10, 55, 100, 5000}) EXPECT_EQ(back(x), c(x)) << text << " at " << x;
  }
}

TEST(PlatformJson, ExampleFileLoads) {
  const Platform pf = load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  EXPECT_EQ(pf.processors.size(), 16u);
  EXPECT_EQ(pf.items, 817101);
}

// Counts written as whole floats (what Python and numpy write) are those integers.
TEST(PlatformJson, ReadsWholeNumbersWrittenAsFloats) {
  const Platform pf = parse_platform_json(
      R"({"items": 1e3, "processors": [{"name": "a", "count": 2.0, "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  EXPECT_EQ(pf.items, 1000);
  ASSERT_EQ(pf.processors.size(), 2u);
  EXPECT_EQ(pf.processors[1].name, "a-2");
}

TEST(PlatformJson, BadInputsSayWhatAndWhere) {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"{", "malformed JSON"},
      {"[]", "expected a JSON object"},
      {R"({"processors": []})", "processors: expected a non-empty array"},
      {R"({"processors": [{"name": "a", "compute": {"per_item": 1}}]})", "processors[0].comm: missing"},
      {R"({"processors": [{"name": "a", "compute": {"per_item": -1}, "comm": {"per_item": 0}}]})",
       "processors[0].compute.per_item"},
      {R"({"processors": [{"name": "a", "compute": {"per_item": "1"}, "comm": {"per_item": 0}}]})",
       "expected a number"},
      {R"({"processors": [{"name": "a", "compute": {"per_itm": 1}, "comm": {"per_item": 0}}]})",
       "expected per_item"},
      {R"({"processors": [{"name": "a", "compute": {"table": [[10, 1], [5, 2]]}, "comm": {"per_item": 0}}]})",
       "compute.table[1]: x = 5 after 10: expected increasing x"},
      {R"({"processors": [{"name": "a", "compute": {"table": [[1, 2], [5, 1]]}, "comm": {"per_item": 0}}]})",
       "expected non-decreasing times"},
      {R"({"processors": [{"name": "a", "compute": {"table": [[1, -2]]}, "comm": {"per_item": 0}}]})", "negative"},
      {R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}},
                          {"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "duplicate processor name 'a'"},
      {R"({"root": "zz", "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "root: 'zz' is not a processor name"},
      {R"({"items": 0, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "items: value 0"},
      {R"({"items": 2.5, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "items: value 2.5"},
      // Past 2^53 a float has lost digits already: 1e17 + 1 would be read as 1e17.
      {R"({"items": 1e17, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "items: value 1e+17: expected an integer between 1 and 4611686018427387904 (a float must be whole, at most 2^53)"},
      {R"({"items": 18446744073709551615, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "items: value 18446744073709551615: expected an integer between 1 and"},
      {R"({"processors": [{"name": "a", "count": 0, "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "count: value 0"},
      {R"({"processors": [{"name": "a", "compute": {"per_item": 1, "table": [[1, 1]]}, "comm": {"per_item": 0}}]})",
       "not both"},
      {R"({"root": "a\nb", "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "root: 'a\\nb' is not a processor name"},
      {R"({"processors": [{"name": "a\tb", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "expected a name without control characters"},
      // Counts past the expansion limit, alone or added up, are refused before any expansion of theirs.
      {R"({"processors": [{"name": "a", "count": 5E6, "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "processors[0].count: value 5000000.0: expected an integer between 1 and 1000000"},
      {R"({"processors": [{"name": "a", "count": 600000, "compute": {"per_item": 1}, "comm": {"per_item": 0}},
                          {"name": "b", "count": 400001, "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})",
       "processors[1].count: more than 1000000 processors in all"},
  };
  for (const Case& c : cases) {
    const std::string msg = error_of(c.text);
    EXPECT_NE(msg.find(c.expected), std::string::npos) << "input: " << c.text << "\nmessage: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind("p.json: ", 0), 0u) << msg;
  }
  // A whole float refused for its range is not told the rule for floats, which it meets.
  EXPECT_EQ(error_of(R"({"items": 0.0, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})"),
            "p.json: items: value 0.0: expected an integer between 1 and 4611686018427387904");
  EXPECT_THROW(load_platform_file("/nonexistent/platform.json"), Error);
}

// One reader for every JSON input (json_input.hpp): nesting past the limit is refused while reading,
// before anything recurses over it; a key given twice is refused; values are quoted short.
TEST(PlatformJson, DeepNestingDuplicateKeysAndLongValuesAreRefusedShort) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string nested = error_of("{\"items\": " + deep + "}");
  EXPECT_EQ(nested, "p.json: JSON nested deeper than 64 levels; expected at most 64 levels of arrays and objects");
  // 64 levels are read (and then refused for what they are, quoted short).
  const std::string at_limit = error_of("{\"items\": " + std::string(63, '[') + std::string(63, ']') + "}");
  EXPECT_NE(at_limit.find("items: expected a positive integer, got [[[["), std::string::npos) << at_limit;
  EXPECT_NE(at_limit.find("..."), std::string::npos) << at_limit;
  EXPECT_LT(at_limit.size(), 200u) << at_limit;
  EXPECT_EQ(error_of(R"({"items": 1000, "items": 5, "processors": []})"),
            "p.json: duplicate key \"items\"; expected each key once in an object");
  EXPECT_NE(error_of(R"({"processors": [{"name": "a", "name": "b", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})")
                .find("duplicate key \"name\""),
            std::string::npos);
  // The same key in two objects is no duplicate.
  EXPECT_EQ(error_of(R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}},
                                        {"name": "b", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})"),
            "");
  const std::string long_value = error_of("{\"items\": \"" + std::string(100000, 'x') + "\", \"processors\": []}");
  EXPECT_LT(long_value.size(), 200u) << long_value.substr(0, 300);
  // Names too (an unknown root of 100,000 characters).
  const std::string long_name = error_of("{\"root\": \"" + std::string(100000, 'y') +
                                         "\", \"processors\": [{\"name\": \"a\", \"compute\": {\"per_item\": 1}, "
                                         "\"comm\": {\"per_item\": 0}}]}");
  EXPECT_NE(long_name.find("root: 'yyy"), std::string::npos) << long_name.substr(0, 300);
  EXPECT_NE(long_name.find("...' is not a processor name"), std::string::npos) << long_name.substr(0, 300);
  EXPECT_LT(long_name.size(), 200u) << long_name.substr(0, 300);
}

}  // namespace hetlb::io
