#include "hetlb/input_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
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
  // A named pipe would block until a writer comes: refused like a device.
  ASSERT_EQ(::mkfifo((dir / "ff").c_str(), 0600), 0);
  EXPECT_EQ(hetlb::unreadable_reason((dir / "ff").string()), "is not a regular file");
  std::filesystem::remove_all(dir);
}

}  // namespace
