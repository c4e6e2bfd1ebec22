#include "hetlb/input_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

TEST(InputFile, NamesWhyAPathCannotBeRead) {
  const auto dir = std::filesystem::temp_directory_path() / ("hetlb-input-file-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "loads.txt";
  std::ofstream(file) << "1 2 3\n";
  EXPECT_EQ(hetlb::unreadable_reason(file.string()), "");
  EXPECT_EQ(hetlb::unreadable_reason(dir.string()), "is a directory");
  EXPECT_EQ(hetlb::unreadable_reason((dir / "missing.txt").string()), "no such file");
  EXPECT_EQ(hetlb::unreadable_reason(""), "no such file");
  EXPECT_EQ(hetlb::unreadable_reason("/dev/zero"), "is not a regular file");  // would never end
  EXPECT_EQ(hetlb::unreadable_reason((file / "below-a-file").string()), "no such file");
  std::filesystem::remove_all(dir);
}

}  // namespace
