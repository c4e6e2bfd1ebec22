// Why a user's input file cannot be read (input_file.hpp).
#include "hetlb/input_file.hpp"
#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hetlb {

namespace {
// A pipe the user chose: one of the process's own descriptors named by path, standard input
// (/dev/stdin) or a shell's process substitution (<(...), /dev/fd/63), when it is a pipe or a file.
bool is_own_pipe(const std::string& path) {
  int fd = -1;
  const std::filesystem::path p(path);
  if (path == "/dev/stdin") {
    fd = STDIN_FILENO;
  } else if (p.parent_path() == "/dev/fd" || p.parent_path() == "/proc/self/fd") {
    const std::string n = p.filename().string();
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) return false;
    fd = std::stoi(n);
  } else {
    return false;
  }
  struct stat named {}, own {};
  return ::stat(path.c_str(), &named) == 0 && ::fstat(fd, &own) == 0 && named.st_dev == own.st_dev &&
         named.st_ino == own.st_ino && (S_ISFIFO(own.st_mode) || S_ISREG(own.st_mode));
}
}  // namespace

std::string unreadable_reason(const std::string& path) {
  // A NUL byte ends the name for the system: "good.json\0/etc/shadow" would open good.json. Refused
  // with the name shown up to the byte (a message is a C string: the byte would cut it there).
  if (const std::size_t nul = path.find('\0'); nul != std::string::npos)
    throw Error(path.substr(0, nul) + "\\0" + std::string(path.substr(nul + 1, 40).c_str()) +
                ": a file name with a NUL byte: expected a name without one");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found || path.empty()) return "no such file";
  if (status.type() == std::filesystem::file_type::directory) return "is a directory";
  // Devices (/dev/zero never ends), sockets and named pipes (a FIFO blocks until a writer comes); the
  // process's own pipes are read, as the user chose them (`... | hetlb scatter /dev/stdin`, `<(...)`).
  if (status.type() != std::filesystem::file_type::regular && !is_own_pipe(path)) return "is not a regular file";
  errno = 0;
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return std::string("cannot be read (") + std::strerror(errno ? errno : EACCES) + ")";
  register_input(path);  // no output of the command may replace it
  return "";
}

std::string read_input_text(const std::string& path, const std::string& what, std::size_t max_bytes) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(path + ": cannot read " + what + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read " + what);
  std::string text;
  std::error_code size_error;  // the size known: one allocation (a hint only; the reading decides)
  if (const auto size = std::filesystem::file_size(path, size_error); !size_error && size <= max_bytes)
    text.reserve(static_cast<std::size_t>(size));
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw Error(path + ": " + what + " larger than " + std::to_string(max_bytes) + " bytes; expected at most " +
                  std::to_string(max_bytes) + " bytes");
  }
  return text;
}

}  // namespace hetlb
