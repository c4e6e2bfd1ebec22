// A command's outputs never replace its inputs, nor one another (output_path.hpp's registry).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/output_path.hpp"

namespace {

namespace fs = std::filesystem;

std::string registry_slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path registry_scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("hetlb-output-registry-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string refusal(const std::string& option, const std::string& path) {
  try {
    hetlb::check_writable(option, path);
  } catch (const hetlb::Error& e) {
    return e.what();
  }
  return "";
}

TEST(OutputRegistry, AnOutputThatIsAnInputIsRefusedWhateverItsSpelling) {
  const fs::path dir = registry_scratch("input");
  const fs::path input = dir / "results.csv";
  std::ofstream(input) << "precious\n";
  fs::create_symlink(input, dir / "link.csv");
  fs::create_hard_link(input, dir / "hard.csv");
  hetlb::OutputTransaction command;
  ASSERT_EQ(hetlb::unreadable_reason(input.string()), "");  // read: an input of the command
  EXPECT_EQ(refusal("--ranks", input.string()),
            "--ranks \"" + input.string() + "\": is an input of this command; expected another file");
  for (const fs::path& other : {dir / "link.csv", dir / "hard.csv", dir / "." / "results.csv"}) {
    EXPECT_NE(refusal("--ranks", other.string()).find("is an input of this command (\"" + input.string() + "\")"),
              std::string::npos)
        << other;
    EXPECT_THROW(hetlb::write_file("--ranks", other.string(), "ranks\n"), hetlb::Error) << other;
  }
  EXPECT_EQ(refusal("--ranks", (dir / "ranks.csv").string()), "");  // another file
  // An input that does not exist yet (a campaign's new results file) is its path.
  hetlb::register_input((dir / "new.csv").string());
  EXPECT_NE(refusal("--plot", (dir / "." / "new.csv").string()).find("is an input"), std::string::npos);
  command.commit();
  EXPECT_EQ(registry_slurp(input), "precious\n");
  fs::remove_all(dir);
}

TEST(OutputRegistry, AnInputReadAfterAnOutputClaimedItIsRefused) {
  const fs::path dir = registry_scratch("late-input");
  const fs::path file = dir / "edges.txt";
  std::ofstream(file) << "0 1\n";
  hetlb::OutputTransaction command;
  hetlb::check_writable("--trace", file.string());
  try {
    hetlb::unreadable_reason(file.string());
    ADD_FAILURE() << "an input that is an output was accepted";
  } catch (const hetlb::Error& e) {
    EXPECT_EQ(std::string(e.what()), "--trace \"" + file.string() + "\": is an input of this command; expected another file");
  }
  fs::remove_all(dir);
}

// Two outputs of one file: refused before anything is written; the old file stays.
TEST(OutputRegistry, TwoOutputsOfOneFileAreRefused) {
  const fs::path dir = registry_scratch("twice");
  const fs::path file = dir / "x";
  std::ofstream(file) << "old\n";
  {
    hetlb::OutputTransaction command;
    hetlb::write_file("--output", file.string(), "<platform/>\n");
    try {
      hetlb::write_file("--hostfile", (dir / "." / "x").string(), "a\nb\n");
      ADD_FAILURE() << "a second output of one file was accepted";
    } catch (const hetlb::Error& e) {
      EXPECT_EQ(std::string(e.what()), "--hostfile \"" + (dir / "." / "x").string() + "\": is also the output of --output \"" +
                                           file.string() + "\"; expected another file");
    }
  }
  EXPECT_EQ(registry_slurp(file), "old\n");
  {
    hetlb::OutputTransaction command;
    hetlb::check_writable("--output", file.string());
    EXPECT_NE(refusal("--hostfile", file.string()).find("is also the output of --output"), std::string::npos);
    hetlb::write_file("--output", file.string(), "new\n");  // the same option's own output
    hetlb::write_file("--output", "/dev/null", "");  // written in place: never refused
    hetlb::write_file("--hostfile", "/dev/null", "");
    command.commit();
  }
  EXPECT_EQ(registry_slurp(file), "new\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);  // no temporary file left
  fs::remove_all(dir);
}

}  // namespace
