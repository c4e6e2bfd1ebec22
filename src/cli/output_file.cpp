#include "output_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::cli {

void write_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    std::ofstream out(path);
    if (!out || !(out << text) || !out.flush()) throw Error(fmt::format("{}: cannot write the file", path));
    return;
  }
  const fs::path target = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec) throw Error(fmt::format("{}: cannot write the file", path));
  const fs::path tmp = target.parent_path() / fmt::format(".{}.{}.tmp", target.filename().string(), ::getpid());
  {
    std::ofstream out(tmp);
    if (!out || !(out << text) || !out.flush()) {
      fs::remove(tmp, ec);
      throw Error(fmt::format("{}: cannot write the file", path));
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot write the file", path));
  }
}

}  // namespace hetlb::cli
