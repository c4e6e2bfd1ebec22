// Exclusive temporary files beside a target (temp_file.hpp).
#include "hetlb/temp_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <streambuf>
#include <string>
#include <system_error>
#include <vector>

namespace hetlb {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(int err) { throw std::system_error(err ? err : EIO, std::generic_category()); }

// What open(O_CREAT, 0666) would give a new file: 0666 less the umask (read once: umask() sets it too).
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// Writes all of [data, data + size) to fd, through EINTR; errno on failure.
int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace

// A stream buffer over the descriptor: the first failed write is kept (errno), later ones dropped.
class TempFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(1 << 16) { setp(data_.data(), data_.data() + data_.size()); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const auto size = static_cast<std::size_t>(pptr() - pbase());
    setp(data_.data(), data_.data() + data_.size());
    if (error_ == 0) error_ = write_all(fd_, data_.data(), size);
    return error_ == 0 ? 0 : -1;
  }

 private:
  int fd_;
  int error_ = 0;
  std::vector<char> data_;
};

TempFile::TempFile(const fs::path& target) {
  // The target's name, cut so that the temporary name stays within NAME_MAX (255).
  const std::string name = target.filename().string().substr(0, 200);
  std::string pattern = (target.parent_path() / ("." + name + ".XXXXXX")).string();
  fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd_ < 0) fail(errno);
  path_ = pattern;
}

TempFile::~TempFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!kept_ && !path_.empty()) ::unlink(path_.c_str());
}

std::ostream& TempFile::stream() {
  if (!stream_) {
    buffer_ = std::make_unique<Buffer>(fd_);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
  }
  return *stream_;
}

void TempFile::close() {
  if (fd_ < 0) return;
  int err = 0;
  if (stream_) {
    stream_->flush();
    err = buffer_->error();
  }
  if (err == 0 && ::fchmod(fd_, new_file_mode()) != 0) err = errno;
  if (err == 0 && ::fsync(fd_) != 0) err = errno;
  if (::close(fd_) != 0 && err == 0) err = errno;
  fd_ = -1;
  if (err != 0) fail(err);
}

void TempFile::rename_over(const fs::path& target) {
  close();
  if (::rename(path_.c_str(), target.c_str()) != 0) fail(errno);
  kept_ = true;
}

fs::path TempFile::release() {
  close();
  kept_ = true;
  return path_;
}

}  // namespace hetlb
