#include "hetlb/plot/gnuplot.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"

namespace hetlb::plot {

namespace fs = std::filesystem;

namespace {

std::string unknown_format(const std::string& path) {
  return fmt::format("unknown figure format '{}': expected a .png or .svg file name", fs::path(path).extension().string());
}

// The extensions terminal_for() has a terminal for.
bool is_figure_format(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".png" || ext == ".svg";
}

}  // namespace

std::string terminal_for(const std::string& path, int width, int height) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".png") return fmt::format("pngcairo size {},{} font 'sans,10'", width, height);
  if (ext == ".svg") return fmt::format("svg size {},{} font 'sans,10' background rgb 'white'", width, height);
  throw Error(fmt::format("{}: {}", path, unknown_format(path)));
}

void check_figure_path(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  if (!is_figure_format(path)) throw Error(fmt::format("{} \"{}\": {}", option, path, unknown_format(path)));
  check_writable(option, path);
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

namespace {
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The first line of gnuplot's log that says something (its error, after the echoed script line).
std::string first_message(const fs::path& log) {
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(" \t^");
    if (start != std::string::npos && line.find("line ") != std::string::npos) return line.substr(start);
  }
  return "";
}
}  // namespace

void render(const std::string& script, const std::string& path) {
  if (!is_figure_format(path)) throw Error(fmt::format("{}: {}", path, unknown_format(path)));
  if (const std::string why = unwritable_reason(path); !why.empty()) throw Error(fmt::format("{}: {}", path, why));
  const fs::path target = output_target(path);  // a symbolic link is drawn through
  const fs::path tmp = target.parent_path() / fmt::format(".{}.{}.tmp{}", target.filename().string(), ::getpid(),
                                                           target.extension().string());
  std::string text = script;
  const std::string ph = kOutputPlaceholder;
  for (std::size_t at = text.find(ph); at != std::string::npos; at = text.find(ph, at))
    text.replace(at, ph.size(), quote(tmp.string()));
  // gnuplot's messages go to a log beside the figure, never to our standard output (where a summary
  // may be going): its first line is quoted if the figure fails, warnings are dropped otherwise.
  const fs::path log = tmp.string() + ".log";
  FILE* pipe = ::popen(("gnuplot >" + shell_quote(log.string()) + " 2>&1").c_str(), "w");
  if (!pipe) throw Error("gnuplot: cannot start it (is gnuplot installed? make deps installs it)");
  std::fwrite(text.data(), 1, text.size(), pipe);
  const int status = ::pclose(pipe);
  const std::string said = first_message(log);
  std::error_code ec;
  fs::remove(log, ec);
  if (status != 0 || !fs::exists(tmp, ec) || fs::file_size(tmp, ec) == 0) {
    fs::remove(tmp, ec);
    throw Error(fmt::format("{}: gnuplot failed to draw the figure (exit status {}{}; is gnuplot installed?)", path,
                            status, said.empty() ? "" : ": " + said));
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot write the figure", path));
  }
}

}  // namespace hetlb::plot
