// Why a user's output file cannot be written (output_path.hpp).
#include "hetlb/output_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb {

std::string unwritable_reason(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "no file name";
  std::error_code ec;
  const auto status = fs::status(path, ec);  // follows a symbolic link to what it names
  if (status.type() == fs::file_type::directory) return "is a directory";
  if (fs::exists(status) && !fs::is_regular_file(status)) return "";  // a device or a pipe, written directly
  const fs::path folder = fs::absolute(path, ec).parent_path();
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

}  // namespace hetlb
