// Temporary files of outputs: never written through a link planted under a name hetlb would use.
#include "hetlb/temp_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "hetlb/output_path.hpp"

namespace {

namespace fs = std::filesystem;

std::string temp_slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path temp_scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("hetlb-temp-file-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A link planted at the name hetlb used to write through (".NAME.PID.tmp"): the file it names is left
// alone and the output is a regular file of its own.
TEST(TempFile, APlantedLinkIsNeverWrittenThrough) {
  const fs::path dir = temp_scratch("planted");
  const fs::path victim = dir / "victim.txt", out = dir / "out.csv";
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, dir / (".out.csv." + std::to_string(::getpid()) + ".tmp"));
  hetlb::write_file("--ranks", out.string(), "a,b\n");
  EXPECT_EQ(temp_slurp(victim), "precious\n");
  EXPECT_FALSE(fs::is_symlink(out));
  EXPECT_TRUE(fs::is_regular_file(out));
  EXPECT_EQ(temp_slurp(out), "a,b\n");
  fs::remove_all(dir);
}

// The file is created in the target's folder with the mode of a new file (0666 less the umask), synced
// and renamed; not handed on, it is removed.
TEST(TempFile, TakesTheModeOfANewFileAndLeavesNothingUnlessKept) {
  const fs::path dir = temp_scratch("mode");
  const mode_t mask = ::umask(022);
  {
    hetlb::TempFile tmp(dir / "t.json");
    EXPECT_EQ(tmp.path().parent_path(), dir);
    EXPECT_EQ(tmp.path().filename().string().rfind(".t.json.", 0), 0u) << tmp.path();
    tmp.stream() << "{}\n";
    tmp.rename_over(dir / "t.json");
  }
  struct stat st {};
  ASSERT_EQ(::stat((dir / "t.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(temp_slurp(dir / "t.json"), "{}\n");
  { hetlb::TempFile dropped(dir / "u.json"); }
  ::umask(mask);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  fs::remove_all(dir);
}

}  // namespace
