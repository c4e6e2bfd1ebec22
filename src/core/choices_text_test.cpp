#include "hetlb/choices_text.hpp"

#include <gtest/gtest.h>

namespace hetlb {
namespace {

TEST(ChoicesText, NamesOneTwoAndManyChoicesAsASentence) {
  EXPECT_EQ(choices_text({}), "");
  EXPECT_EQ(choices_text({"a"}), "a");
  EXPECT_EQ(choices_text({"a", "b"}), "a or b");
  EXPECT_EQ(choices_text({"a", "b", "c", "d"}), "a, b, c or d");
}

}  // namespace
}  // namespace hetlb
