#include "hetlb/output_path.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "hetlb/error.hpp"

namespace {

TEST(OutputPath, NamesWhyAPathCannotBeWritten) {
  const auto dir = std::filesystem::temp_directory_path() / ("hetlb-output-file-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "ranks.csv";
  EXPECT_EQ(hetlb::unwritable_reason(file.string()), "");  // created
  std::ofstream(file) << "old\n";
  EXPECT_EQ(hetlb::unwritable_reason(file.string()), "");  // replaced
  EXPECT_EQ(hetlb::unwritable_reason(dir.string()), "is a directory");
  EXPECT_EQ(hetlb::unwritable_reason((dir / "missing" / "x.svg").string()), "its folder does not exist");
  EXPECT_EQ(hetlb::unwritable_reason((file / "below-a-file.svg").string()), "its folder is not a directory");
  EXPECT_EQ(hetlb::unwritable_reason(""), "no file name");
  EXPECT_EQ(hetlb::unwritable_reason("/dev/null"), "");  // written as it is
  EXPECT_EQ(hetlb::unwritable_reason("relative-name.csv"), "");  // the working folder
  try {
    hetlb::check_writable("--ranks", dir.string());
    ADD_FAILURE() << "a directory was accepted";
  } catch (const hetlb::Error& e) {
    EXPECT_EQ(std::string(e.what()), "--ranks \"" + dir.string() + "\": is a directory; expected a writable path");
  }
  std::filesystem::remove_all(dir);
}

TEST(OutputPath, AFolderWithoutWritePermission) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes in any folder";
  const auto dir = std::filesystem::temp_directory_path() / ("hetlb-output-ro-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  EXPECT_EQ(hetlb::unwritable_reason((dir / "x.csv").string()).rfind("cannot write in its folder", 0), 0u);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
  std::filesystem::remove_all(dir);
}

}  // namespace
