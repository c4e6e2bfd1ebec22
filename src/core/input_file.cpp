// Why a user's input file cannot be read (input_file.hpp).
#include "hetlb/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hetlb {

namespace {
bool is_standard_input(const std::string& path) {
  struct stat named {}, in {};
  return ::stat(path.c_str(), &named) == 0 && ::fstat(STDIN_FILENO, &in) == 0 && named.st_dev == in.st_dev &&
         named.st_ino == in.st_ino && (S_ISFIFO(in.st_mode) || S_ISREG(in.st_mode));
}
}  // namespace

std::string unreadable_reason(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found || path.empty()) return "no such file";
  if (status.type() == std::filesystem::file_type::directory) return "is a directory";
  // Devices (/dev/zero never ends), sockets and named pipes (a FIFO blocks until a writer comes); the
  // process's own standard input is read, as a pipe the user chose (`... | hetlb scatter /dev/stdin`).
  if (status.type() != std::filesystem::file_type::regular && !is_standard_input(path)) return "is not a regular file";
  errno = 0;
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return std::string("cannot be read (") + std::strerror(errno ? errno : EACCES) + ")";
  return "";
}

}  // namespace hetlb
