// The platform reader's fast path against its full reader, on random platform files, valid or not: what
// the fast path reads, the full reader reads the same; what it leaves, the full reader decides; plain
// files take the fast path.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "platform_json_direct.hpp"

namespace hetlb::io::detail {

namespace {

// A field "key": value, in an order the caller shuffles.
using Field = std::string;

std::string object(std::vector<Field> fields) {
  const auto order = *rc::gen::element(0, 1, 2);  // as given, reversed, rotated
  if (order == 1) std::reverse(fields.begin(), fields.end());
  if (order == 2 && !fields.empty()) std::rotate(fields.begin(), fields.begin() + 1, fields.end());
  std::string s = "{";
  for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? ", " : "") + fields[i];
  return s + "}";
}

// A cost: plain (per_item, with or without latency) or, when `odd`, anything the full reader judges.
std::string cost(bool odd) {
  const std::string per_item = *rc::gen::element<std::string>("0", "1", "0.5", "3.53e-5", "2", "1e300");
  std::vector<Field> f{"\"per_item\": " + per_item};
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"latency\": " + *rc::gen::element<std::string>("0", "0.001", "7"));
  if (odd) {
    switch (*rc::gen::inRange(0, 6)) {
      case 0: f = {"\"table\": [[10, 0.1], [100, 1.5]]"}; break;
      case 1: f.push_back("\"per_item\": 1"); break;           // a key twice
      case 2: f = {"\"per_item\": -1"}; break;
      case 3: f = {"\"latency\": 1"}; break;                   // no per_item
      case 4: f.push_back("\"note\": \"measured\""); break;    // an extra field
      default: f = {"\"per_item\": \"1\""}; break;             // a string
    }
  }
  return object(f);
}

std::string processor(bool odd) {
  std::vector<Field> f{"\"name\": \"" + *rc::gen::element<std::string>("a", "b", "c", "a-1", "leda", "n e") + "\"",
                       "\"compute\": " + cost(odd && *rc::gen::arbitrary<bool>()),
                       "\"comm\": " + cost(odd && *rc::gen::arbitrary<bool>())};
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"count\": " + *rc::gen::element<std::string>("1", "2", "3"));
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"transfer\": " + cost(false));
  if (odd) {
    switch (*rc::gen::inRange(0, 6)) {
      case 0: f.erase(f.begin()); break;                       // no name
      case 1: f.push_back("\"count\": 2.0"); break;            // a float count (and maybe a key twice)
      case 2: f.push_back("\"speed\": 3"); break;              // an extra field
      case 3: f[0] = "\"name\": \"\""; break;
      case 4: f[0] = "\"name\": \"x\\u0001\""; break;          // a control character
      default: break;
    }
  }
  return object(f);
}

std::string platform(bool odd) {
  std::vector<std::string> procs(*rc::gen::inRange<std::size_t>(odd ? 0 : 1, 5));
  for (auto& p : procs) p = processor(odd && *rc::gen::arbitrary<bool>());
  std::string list = "[";
  for (std::size_t i = 0; i < procs.size(); ++i) list += (i ? ", " : "") + procs[i];
  std::vector<Field> f{"\"processors\": " + list + "]"};
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"name\": \"grid\"");
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"items\": " + *rc::gen::element<std::string>("1", "817101", "4611686018427387904"));
  if (*rc::gen::arbitrary<bool>()) f.push_back("\"root\": \"" + *rc::gen::element<std::string>("a", "b-2", "leda", "zz") + "\"");
  if (odd && *rc::gen::arbitrary<bool>())
    f.push_back(*rc::gen::element<std::string>("\"items\": 1e6", "\"items\": 0", "\"extra\": [1, {\"a\": null}]",
                                              "\"name\": 5", "\"processors\": []"));
  std::string text = object(f);
  if (odd && *rc::gen::inRange(0, 8) == 0) text.pop_back();  // cut short
  return text;
}

std::optional<Platform> tree(const std::string& text) {
  try {
    return read_platform_tree(text, "p.json");
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

RC_GTEST_PROP(PlatformJsonDirect, ReadsWhatTheFullReaderReads, ()) {
  const std::string text = platform(*rc::gen::arbitrary<bool>());
  const std::optional<Platform> fast = read_platform_direct(text);
  RC_CLASSIFY(fast.has_value(), "fast path");
  if (!fast) return;  // the full reader decides
  const std::optional<Platform> full = tree(text);
  RC_ASSERT(full.has_value());
  RC_ASSERT(platform_to_json(*fast) == platform_to_json(*full));
  RC_ASSERT(fast->root == full->root);
  RC_ASSERT(fast->items == full->items);
  RC_ASSERT(fast->name == full->name);
}

// Files with nothing odd that the full reader accepts take the fast path: it is not a path never taken.
RC_GTEST_PROP(PlatformJsonDirect, PlainFilesTakeTheFastPath, ()) {
  const std::string text = platform(false);
  if (!tree(text)) return;  // duplicate names or an unknown root: refused, by the full reader
  RC_ASSERT(read_platform_direct(text).has_value());
}

TEST(PlatformJsonDirect, OddFilesAreLeftToTheFullReader) {
  for (const char* text : {R"([1])", R"("x")", R"({"processors": [{"name": "a", "compute": {"table": [[1, 1]]}, "comm": {"per_item": 1}}]})",
                           R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}], "x": 1})",
                           R"({"items": 2.0, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}]})",
                           R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}, {"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}]})",
                           R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}], "root": "b"})",
                           R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}]} x)"})
    EXPECT_FALSE(read_platform_direct(text).has_value()) << text;
  // ... and the whole reader still gives the one-line message.
  try {
    parse_platform_json(R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 1}}], "root": "b"})", "p.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "p.json: root: 'b' is not a processor name");
  }
}

TEST(PlatformJsonDirect, ExpandsCountsAndFindsTheRoot) {
  const std::optional<Platform> pf = read_platform_direct(
      R"({"root": "b-2", "items": 12, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"latency": 0.5, "per_item": 2}},
          {"count": 3, "name": "b", "comm": {"per_item": 1}, "compute": {"per_item": 4}, "transfer": {"per_item": 3}}]})");
  ASSERT_TRUE(pf.has_value());
  ASSERT_EQ(pf->processors.size(), 4u);
  EXPECT_EQ(pf->processors[3].name, "b-3");
  EXPECT_EQ(pf->processors[pf->root].name, "b-2");
  EXPECT_EQ(pf->items, 12);
  EXPECT_EQ(pf->processors[0].comm.kind(), CostFunction::Kind::Affine);
  EXPECT_TRUE(pf->processors[2].transfer.has_value());
  EXPECT_FALSE(pf->processors[0].transfer.has_value());
}

}  // namespace hetlb::io::detail
