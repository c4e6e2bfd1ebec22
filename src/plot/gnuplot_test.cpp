// plot::render: gnuplot's warnings never reach standard output (where summaries go); a failure names
// gnuplot's own message; no partial figure is left behind.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "hetlb/error.hpp"
#include "hetlb/plot/gnuplot.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hetlb_gnuplot_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string header(const fs::path& figure) {
  return "set terminal " + hetlb::plot::terminal_for(figure.string()) + "\nset output " +
         std::string(hetlb::plot::kOutputPlaceholder) + "\n";
}

TEST(Gnuplot, WarningsStayOffStandardOutput) {
  const fs::path figure = scratch("warned.svg");
  // Two series, one with no valid point: gnuplot warns ("Skipping data file with no valid points").
  const std::string script = header(figure) + "$a << EOD\n1 1\n2 4\nEOD\n$b << EOD\nx y\nEOD\n"
                                              "plot $a using 1:2 with lines, $b using 1:2 with points\n";
  testing::internal::CaptureStdout();
  hetlb::plot::render(script, figure.string());
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "");
  EXPECT_GT(fs::file_size(figure), 0u);
  for (const auto& entry : fs::directory_iterator(figure.parent_path()))
    EXPECT_EQ(entry.path(), figure) << "left behind: " << entry.path();
  fs::remove_all(figure.parent_path());
}

TEST(Gnuplot, FailureQuotesGnuplotAndLeavesNoFile) {
  const fs::path figure = scratch("broken.svg");
  testing::internal::CaptureStdout();
  try {
    hetlb::plot::render(header(figure) + "plot\n", figure.string());
    ADD_FAILURE() << "an empty plot command was accepted";
  } catch (const hetlb::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("broken.svg: gnuplot failed to draw the figure"), std::string::npos) << what;
    EXPECT_NE(what.find("function to plot expected"), std::string::npos) << what;
  }
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_TRUE(fs::is_empty(figure.parent_path()));
  fs::remove_all(figure.parent_path());
}

// Links planted at the names hetlb used for a figure and its log (".hetlb-figure.PID.N.svg[.log]"): the
// files they name are left alone, the figure is a regular file of its own.
TEST(Gnuplot, APlantedLinkIsNeverWrittenThrough) {
  const fs::path figure = scratch("planted.svg");
  const fs::path victim = figure.parent_path() / "victim.txt";
  std::ofstream(victim) << "precious\n";
  for (int n = 1; n <= 20; ++n)
    for (const char* suffix : {".svg", ".svg.log"})
      fs::create_symlink(victim, figure.parent_path() / (".hetlb-figure." + std::to_string(::getpid()) + "." +
                                                         std::to_string(n) + suffix));
  hetlb::plot::render(header(figure) + "plot x\n", figure.string());
  std::ifstream in(victim);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "precious\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(figure)));
  EXPECT_GT(fs::file_size(figure), 0u);
  fs::remove_all(figure.parent_path());
}

std::string refusal(const std::string& option, const std::string& path) {
  try {
    hetlb::plot::check_figure_path(option, path);
  } catch (const hetlb::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Gnuplot, CheckFigurePathRefusesWhatRenderWouldRefuse) {
  const fs::path folder = scratch("x.svg").parent_path();
  EXPECT_EQ(refusal("--plot", ""), "");  // no figure asked for
  EXPECT_EQ(refusal("--plot", (folder / "ok.svg").string()), "");
  EXPECT_EQ(refusal("--plot", (folder / "ok.png").string()), "");
  const std::string format = refusal("--gantt", (folder / "chart.pdf").string());
  EXPECT_EQ(format.rfind("--gantt ", 0), 0u) << format;
  EXPECT_NE(format.find("unknown figure format '.pdf': expected a .png or .svg"), std::string::npos) << format;
  const std::string folderless = refusal("--figure", (folder / "no" / "such" / "f.svg").string());
  EXPECT_EQ(folderless.rfind("--figure ", 0), 0u) << folderless;
  EXPECT_NE(folderless.find("its folder does not exist"), std::string::npos) << folderless;
  EXPECT_NE(refusal("--plot", folder.string() + "/").find("--plot"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(folder));  // checking writes nothing
  fs::remove_all(folder);
}

// Strings reach gnuplot as single-quoted strings: no `command`, no escape, no newline that would
// start a command of its own. A figure's own path never enters the script.
TEST(Gnuplot, QuotedStringsAreNeverCommands) {
  EXPECT_EQ(hetlb::plot::quote("plain"), "'plain'");
  EXPECT_EQ(hetlb::plot::quote("it's"), "'it''s'");
  EXPECT_EQ(hetlb::plot::quote("a\nb\r\x7f"), "'a?b?" "?'");
  EXPECT_EQ(hetlb::plot::quote("back\\slash \"`x`\""), "'back\\slash \"`x`\"'");
  EXPECT_EQ(hetlb::plot::quote_data("a\"b\nc"), "\"a'b?c\"");
  const fs::path folder = scratch("x").parent_path() / "odd 'folder\"\n!touch PWN0\n";
  fs::create_directories(folder);
  const fs::path figure = folder / "f`touch PWN1`'\n!touch PWN2\n.svg";
  const std::string hostile = "t`touch PWN3`' \n!touch PWN4\n\\\" system(\"touch PWN5\") @x";
  const std::string script = "set terminal " + hetlb::plot::terminal_for(figure.string()) + "\nset output " +
                             hetlb::plot::kOutputPlaceholder + "\nset title " + hetlb::plot::quote(hostile) +
                             "\n$d << EOD\n" + hetlb::plot::quote_data(hostile) + " 1\nEOD\n" +
                             "plot $d using 0:2:xtic(1) with points title " + hetlb::plot::quote(hostile) + "\n";
  hetlb::plot::render(script, figure.string());
  EXPECT_GT(fs::file_size(figure), 0u);
  for (const auto& entry : fs::recursive_directory_iterator(folder.parent_path()))
    EXPECT_EQ(entry.path().filename().string().rfind("PWN", 0), std::string::npos) << "created: " << entry.path();
  fs::remove_all(folder.parent_path());
}

}  // namespace
