#include "hetlb/input_file.hpp"
#include "hetlb/error.hpp"
#include "hetlb/number_text.hpp"

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

// One bounded reader for every input: the whole text of a regular file; past the bound, or for a device
// or a named pipe, one refusal naming the file and what it is.
TEST(InputFile, ReadsWholeTextWithinItsBound) {
  const auto dir = std::filesystem::temp_directory_path() / ("hetlb-input-read-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "trace.txt";
  std::ofstream(file) << std::string(100000, 'x');
  EXPECT_EQ(hetlb::read_input_text(file.string(), "the trace").size(), 100000u);
  EXPECT_EQ(hetlb::read_input_text(file.string(), "the trace", 100000).size(), 100000u);
  try {
    (void)hetlb::read_input_text(file.string(), "the trace", 99999);
    ADD_FAILURE() << "a file past its bound was read";
  } catch (const hetlb::Error& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": the trace larger than 99999 bytes; expected at most 99999 bytes");
  }
  ASSERT_EQ(::mkfifo((dir / "ff").c_str(), 0600), 0);
  EXPECT_THROW((void)hetlb::read_input_text((dir / "ff").string(), "the trace"), hetlb::Error);
  try {
    (void)hetlb::read_input_text("/dev/zero", "the ring file");
    ADD_FAILURE() << "/dev/zero was read";
  } catch (const hetlb::Error& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: cannot read the ring file: is not a regular file");
  }
  std::filesystem::remove_all(dir);
}

// A number a double cannot hold is out of range, not "not a number".
TEST(NumberText, OutOfRangeIsNamedAsSuch) {
  EXPECT_TRUE(hetlb::number_out_of_range("1e-308"));
  EXPECT_TRUE(hetlb::number_out_of_range("1e999"));
  EXPECT_FALSE(hetlb::number_out_of_range("1e-300"));
  EXPECT_FALSE(hetlb::number_out_of_range("abc"));
  EXPECT_FALSE(hetlb::number_out_of_range("1e999x"));
  EXPECT_FALSE(hetlb::number_out_of_range(""));
  try {
    (void)hetlb::numbers_of("1, 1e-308", "--speeds");
    ADD_FAILURE() << "a subnormal was read";
  } catch (const hetlb::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--speeds: 1e-308 is out of a double's range"), std::string::npos) << e.what();
  }
}

}  // namespace
