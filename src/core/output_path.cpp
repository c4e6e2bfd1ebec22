// Why a user's output file cannot be written, and writing it whole (output_path.hpp).
#include "hetlb/output_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb {

namespace fs = std::filesystem;

fs::path output_target(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return fs::path(path);
  // Links are followed by hand: weakly_canonical stops at a link that names a file not written yet.
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path named = fs::read_symlink(p, ec);
    if (ec) break;
    p = named.is_absolute() ? named : p.parent_path() / named;
  }
  const fs::path resolved = fs::weakly_canonical(p, ec);
  return ec ? p : resolved;
}

std::string unwritable_reason(const std::string& path) {
  if (path.empty()) return "no file name";
  std::error_code ec;
  const auto status = fs::status(path, ec);  // follows a symbolic link to what it names
  if (status.type() == fs::file_type::directory) return "is a directory";
  if (fs::exists(status) && !fs::is_regular_file(status)) return "";  // a device or a pipe, written directly
  const fs::path folder = output_target(path).parent_path();
  const auto folder_status = fs::status(folder, ec);
  if (!fs::exists(folder_status)) return "its folder does not exist";
  if (!fs::is_directory(folder_status)) return "its folder is not a directory";
  // Files are written beside the target and renamed into place: the folder itself must be writable.
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return std::string("cannot write in its folder (") + std::strerror(errno) + ")";
  return "";
}

void check_writable(const std::string& option, const std::string& path) {
  const std::string why = unwritable_reason(path);
  if (!why.empty()) throw Error(fmt::format("{} \"{}\": {}; expected a writable path", option, path, why));
}

void write_file(const std::string& option, const std::string& path,
                const std::function<void(std::ostream&)>& write) {
  const auto fail = [&](const std::string& why) {
    return Error(fmt::format("{} \"{}\": cannot write the file ({})", option, path, why));
  };
  if (const std::string why = unwritable_reason(path); !why.empty()) throw fail(why);
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {  // a device or a pipe
    std::ofstream out(path);
    if (out) write(out);
    if (!out || !out.flush()) throw fail(std::strerror(errno));
    return;
  }
  const fs::path target = output_target(path);
  const fs::path tmp = target.parent_path() / fmt::format(".{}.{}.tmp", target.filename().string(), ::getpid());
  {
    std::ofstream out(tmp);
    try {
      if (out) write(out);
    } catch (...) {  // the writer's own error: no temporary file is left
      out.close();
      fs::remove(tmp, ec);
      throw;
    }
    if (!out || !out.flush()) {
      const std::string why = std::strerror(errno);
      out.close();
      fs::remove(tmp, ec);
      throw fail(why);
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    throw fail(why);
  }
}

void write_file(const std::string& option, const std::string& path, const std::string& text) {
  write_file(option, path, [&](std::ostream& out) { out << text; });
}

}  // namespace hetlb
