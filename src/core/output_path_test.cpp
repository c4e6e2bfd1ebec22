#include "hetlb/output_path.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(OutputPath, WritesWholeOrNotAtAll) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("hetlb-output-write-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto file = dir / "out.csv";
  hetlb::write_file("--ranks", file.string(), "a,b\n");
  EXPECT_EQ(slurp(file), "a,b\n");
  hetlb::write_file("--ranks", file.string(), [](std::ostream& out) { out << "c,d\n" << 1 << "\n"; });
  EXPECT_EQ(slurp(file), "c,d\n1\n");  // replaced
  // A writer that fails half-way leaves the old file and no temporary file.
  EXPECT_THROW(hetlb::write_file("--ranks", file.string(),
                                 [](std::ostream& out) {
                                   out << "partial";
                                   throw hetlb::Error("the writer failed");
                                 }),
               hetlb::Error);
  EXPECT_EQ(slurp(file), "c,d\n1\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  try {
    hetlb::write_file("--trace", (dir / "no" / "t.csv").string(), "x");
    ADD_FAILURE() << "a missing folder was accepted";
  } catch (const hetlb::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "--trace \"" + (dir / "no" / "t.csv").string() + "\": cannot write the file (its folder does not exist)");
  }
  EXPECT_THROW(hetlb::write_file("--trace", dir.string(), "x"), hetlb::Error);  // a directory
  EXPECT_TRUE(fs::is_directory(dir));
  hetlb::write_file("--output", "/dev/null", "discarded");  // a device is written as it is
  fs::remove_all(dir);
}

TEST(OutputPath, WritesThroughASymbolicLink) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("hetlb-output-link-" + std::to_string(getpid()));
  fs::create_directories(dir / "elsewhere");
  const auto target = dir / "elsewhere" / "figure-data.csv";
  const auto link = dir / "link.csv";
  fs::create_symlink(target, link);  // dangling until written
  EXPECT_EQ(hetlb::output_target(link.string()), fs::weakly_canonical(target));
  EXPECT_EQ(hetlb::unwritable_reason(link.string()), "");
  hetlb::write_file("--ranks", link.string(), "through\n");
  EXPECT_TRUE(fs::is_symlink(link));  // the link stays a link
  EXPECT_EQ(slurp(target), "through\n");
  hetlb::write_file("--ranks", link.string(), "again\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), "again\n");
  // A link into a folder that does not exist is refused before any work, naming why.
  const auto broken = dir / "broken.csv";
  fs::create_symlink(dir / "gone" / "x.csv", broken);
  EXPECT_EQ(hetlb::unwritable_reason(broken.string()), "its folder does not exist");
  fs::remove_all(dir);
}

// A command's outputs appear together at commit, or none: no file is left by a failed command.
TEST(OutputPath, ATransactionWritesAllOrNone) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("hetlb-output-transaction-" + std::to_string(getpid()));
  fs::create_directories(dir);
  {
    hetlb::OutputTransaction outputs;
    hetlb::write_file("--output", (dir / "a.xml").string(), "a");
    EXPECT_FALSE(fs::exists(dir / "a.xml"));  // not before the commit
    EXPECT_THROW(hetlb::write_file("--hostfile", (dir / "no" / "b.txt").string(), "b"), hetlb::Error);
  }  // the command failed: nothing left, not even the temporary file
  EXPECT_TRUE(fs::is_empty(dir));
  {
    hetlb::OutputTransaction outputs;
    hetlb::write_file("--output", (dir / "a.xml").string(), "a");
    hetlb::write_file("--hostfile", (dir / "b.txt").string(), "b");
    outputs.commit();
  }
  EXPECT_EQ(slurp(dir / "a.xml"), "a");
  EXPECT_EQ(slurp(dir / "b.txt"), "b");
  {  // nested: the inner part is written at its own commit, even when the command then fails
    hetlb::OutputTransaction command;
    hetlb::write_file("--trace", (dir / "late.csv").string(), "late");
    {
      hetlb::OutputTransaction report;
      hetlb::write_file("--ranks", (dir / "ranks.csv").string(), "ranks");
      report.commit();
    }
    EXPECT_EQ(slurp(dir / "ranks.csv"), "ranks");
    EXPECT_FALSE(fs::exists(dir / "late.csv"));
  }
  EXPECT_FALSE(fs::exists(dir / "late.csv"));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3u);  // a.xml, b.txt, ranks.csv: no temporary file
  hetlb::write_file("--output", (dir / "c.txt").string(), "c");  // no transaction: at once
  EXPECT_EQ(slurp(dir / "c.txt"), "c");
  fs::remove_all(dir);
}

// Outputs are regular files: a device or a FIFO is refused (/dev/zero, /dev/full, a pipe nobody reads);
// /dev/null is still written.
TEST(OutputPath, DevicesAndFifosAreRefused) {
  namespace fs = std::filesystem;
  EXPECT_EQ(hetlb::unwritable_reason("/dev/zero"), "is not a regular file");
  EXPECT_EQ(hetlb::unwritable_reason("/dev/full"), "is not a regular file");
  EXPECT_EQ(hetlb::unwritable_reason("/dev/null"), "");
  const auto fifo = fs::temp_directory_path() / ("hetlb-output-fifo-" + std::to_string(getpid()));
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(hetlb::unwritable_reason(fifo.string()), "is not a regular file");
  EXPECT_THROW(hetlb::write_file("--output", fifo.string(), "x"), hetlb::Error);  // refused, not blocked
  fs::remove(fifo);
}

}  // namespace
