// Why a user's output file cannot be written, and writing it whole (output_path.hpp).
#include "hetlb/output_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/temp_file.hpp"

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

namespace {

// /dev/null and the process's own standard output or error: written as they are, never replaced.
bool written_in_place(const std::string& path) {
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0) return false;
  const auto same = [&](const struct stat& other) { return named.st_dev == other.st_dev && named.st_ino == other.st_ino; };
  struct stat other {};
  if (::stat("/dev/null", &other) == 0 && same(other)) return true;
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO})
    if (::fstat(fd, &other) == 0 && same(other)) return true;
  return false;
}

// The rename of each file staged while an OutputTransaction is open.
struct Staged {
  fs::path tmp, target;
  std::string label;
};
struct Claim {
  std::string option, path;
};
// What the open OutputTransaction knows of its command.
struct Command {
  std::vector<Staged> staged;
  std::vector<std::string> inputs;
  std::vector<Claim> outputs;
};
Command* command = nullptr;
std::mutex command_mutex;  // readers of inputs may run on several threads

// One file: the same device and inode when both exist, else the same path once resolved.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const bool has_a = fs::exists(a, ec), has_b = fs::exists(b, ec);
  if (has_a && has_b) return fs::equivalent(a, b, ec) && !ec;
  return !has_a && !has_b && output_target(a) == output_target(b);
}

std::string label_of(const std::string& option, const std::string& path) {
  return option.empty() ? fmt::format("\"{}\"", path) : fmt::format("{} \"{}\"", option, path);
}

Error input_refused(const Claim& output, const std::string& input) {
  return Error(fmt::format("{}: is an input of this command{}; expected another file", label_of(output.option, output.path),
                           input == output.path ? "" : fmt::format(" (\"{}\")", input)));
}

}  // namespace

void register_input(const std::string& path) {
  const std::lock_guard lock(command_mutex);
  if (!command || path.empty()) return;
  for (const std::string& known : command->inputs)
    if (known == path) return;
  for (const Claim& output : command->outputs)
    if (same_file(output.path, path)) throw input_refused(output, path);
  command->inputs.push_back(path);
}

void claim_output(const std::string& option, const std::string& path) {
  const std::lock_guard lock(command_mutex);
  if (!command || written_in_place(path)) return;
  const Claim claim{option, path};
  for (const std::string& input : command->inputs)
    if (same_file(input, path)) throw input_refused(claim, input);
  for (const Claim& other : command->outputs) {
    if (!same_file(other.path, path)) continue;
    if (option.empty() || other.option.empty() || other.option == option) return;  // the same output
    throw Error(fmt::format("{}: is also the output of {}; expected another file", label_of(option, path),
                            label_of(other.option, other.path)));
  }
  command->outputs.push_back(claim);
}

std::string unwritable_reason(const std::string& path) {
  if (path.empty()) return "no file name";
  std::error_code ec;
  const auto status = fs::status(path, ec);  // follows a symbolic link to what it names
  if (status.type() == fs::file_type::directory) return "is a directory";
  if (written_in_place(path)) return "";
  // A device (/dev/zero, /dev/full), a named pipe (blocks until a reader comes) or a socket.
  if (fs::exists(status) && !fs::is_regular_file(status)) return "is not a regular file";
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
  claim_output(option, path);
}

void commit_output(const fs::path& tmp, const fs::path& target, const std::string& label) {
  {
    const std::lock_guard lock(command_mutex);
    if (command) {
      for (const Staged& s : command->staged)
        if (s.target == target) {
          std::error_code ec;
          fs::remove(tmp, ec);
          throw Error(fmt::format("{}: written twice by this command; expected one output per file", label));
        }
      command->staged.push_back({tmp, target, label});
      return;
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot write the file ({})", label, why));
  }
}

OutputTransaction::OutputTransaction() {
  const std::lock_guard lock(command_mutex);
  if (!command) {
    command = new Command();
    owner_ = true;
  }
  first_ = command->staged.size();
}

OutputTransaction::~OutputTransaction() {
  const std::lock_guard lock(command_mutex);
  if (!command || first_ > command->staged.size()) return;
  std::error_code ec;
  for (std::size_t k = first_; k < command->staged.size(); ++k) fs::remove(command->staged[k].tmp, ec);
  command->staged.resize(first_);
  if (owner_) {
    delete command;
    command = nullptr;
  }
}

void OutputTransaction::commit() {
  std::vector<Staged> staged;
  {
    const std::lock_guard lock(command_mutex);
    if (!command || first_ > command->staged.size()) return;
    staged.assign(command->staged.begin() + static_cast<std::ptrdiff_t>(first_), command->staged.end());
    command->staged.resize(first_);
    if (owner_) {  // the outermost: later outputs are written at once again
      delete command;
      command = nullptr;
    }
  }
  for (std::size_t k = 0; k < staged.size(); ++k) {
    try {
      std::error_code ec;
      fs::rename(staged[k].tmp, staged[k].target, ec);
      if (ec) {
        const std::string why = ec.message();
        fs::remove(staged[k].tmp, ec);
        throw Error(fmt::format("{}: cannot write the file ({})", staged[k].label, why));
      }
    } catch (...) {
      std::error_code ec;
      for (std::size_t rest = k + 1; rest < staged.size(); ++rest) fs::remove(staged[rest].tmp, ec);
      throw;
    }
  }
}

void finish_standard_output() {
  errno = 0;
  std::cout.flush();
  const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  const int err = errno;
  if (lost) throw Error(fmt::format("standard output: cannot write ({})", std::strerror(err ? err : EIO)));
  // The close itself can report a write lost on the way (a full disk over NFS); a descriptor closed
  // from the start that nothing was written to is not an error.
  if (::close(STDOUT_FILENO) != 0 && errno != EBADF)
    throw Error(fmt::format("standard output: cannot write ({})", std::strerror(errno)));
}

void write_file(const std::string& option, const std::string& path,
                const std::function<void(std::ostream&)>& write) {
  const std::string label = fmt::format("{} \"{}\"", option, path);
  const auto fail = [&](const std::string& why) { return Error(fmt::format("{}: cannot write the file ({})", label, why)); };
  if (const std::string why = unwritable_reason(path); !why.empty()) throw fail(why);
  claim_output(option, path);
  if (written_in_place(path)) {  // /dev/null, standard output (appended to: a redirection to a file is not cut)
    // Every write, the flush and the close are checked: a stream keeps its failure once it has one.
    errno = 0;
    std::ofstream out(path, std::ios::app);
    if (!out) throw fail(std::strerror(errno ? errno : EIO));
    write(out);
    errno = 0;
    if (out) out.flush();
    const bool flushed = static_cast<bool>(out);
    const int err = errno;
    out.close();
    if (!flushed || !out) throw fail(std::strerror(err ? err : errno ? errno : EIO));
    return;
  }
  const fs::path target = output_target(path);
  std::optional<TempFile> tmp;
  try {
    tmp.emplace(target);
  } catch (const std::system_error& e) {  // e.g. a folder that takes no new file (/proc)
    throw fail(std::strerror(e.code().value()));
  }
  write(tmp->stream());  // the writer's own error: the temporary file is removed with it
  try {
    tmp->close();
  } catch (const std::system_error& e) {
    throw fail(std::strerror(e.code().value()));
  }
  commit_output(tmp->release(), target, label);
}

void write_file(const std::string& option, const std::string& path, const std::string& text) {
  write_file(option, path, [&](std::ostream& out) { out << text; });
}

}  // namespace hetlb
