// Why a user's input file cannot be read (input_file.hpp).
#include "hetlb/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hetlb {

std::string unreadable_reason(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found || path.empty()) return "no such file";
  if (status.type() == std::filesystem::file_type::directory) return "is a directory";
  // Devices (/dev/zero never ends) and sockets; named pipes are read, as files are.
  if (status.type() == std::filesystem::file_type::character || status.type() == std::filesystem::file_type::block ||
      status.type() == std::filesystem::file_type::socket)
    return "is not a regular file";
  errno = 0;
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return std::string("cannot be read (") + std::strerror(errno ? errno : EACCES) + ")";
  return "";
}

}  // namespace hetlb
