// The one way hetlb creates the temporary file of an output it replaces (output_path.hpp, figures,
// campaign results): beside the target, under a name no other process can predict or plant a link at.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>

namespace hetlb {

// A new file ".NAME.XXXXXX" (mkstemp: created exclusively, mode 0600, never through a symbolic link)
// in the folder of `target` (NAME: the target's name), written through its own descriptor. close()
// gives it the mode a new file would have (0666 less the umask) and syncs it; rename_over() or
// release() then hands it on. The destructor removes a file not handed on.
class TempFile {
 public:
  // Throws std::system_error when the folder takes no new file.
  explicit TempFile(const std::filesystem::path& target);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }  // -1 once closed
  // Buffered writes to fd(); a failed write is kept and reported by close().
  std::ostream& stream();
  // Flushes, sets the mode, syncs and closes (once); throws std::system_error naming the first failure.
  void close();
  // close(), then renames the file over `target` at once; throws std::system_error (the file removed).
  void rename_over(const std::filesystem::path& target);
  // close(), then hands the file over to the caller (not removed any more): its path.
  std::filesystem::path release();

 private:
  class Buffer;
  std::filesystem::path path_;
  int fd_ = -1;
  bool kept_ = false;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

}  // namespace hetlb
