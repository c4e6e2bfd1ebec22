// A std::ostream onto C's stdout through a 64 KiB buffer. std::cout, synchronised with stdio, hands every
// insertion to fwrite: writing a 100,000-processor plan made 3 million such calls. Text goes to the same
// FILE, so it keeps its place among other output, and a write error shows in ferror(stdout) as before
// (output_path.cpp reports it at exit).
#pragma once
#include <array>
#include <cstdio>
#include <ostream>
#include <streambuf>

namespace hetlb::cli {

class StdoutBuffer final : public std::streambuf {
 public:
  StdoutBuffer() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  StdoutBuffer(const StdoutBuffer&) = delete;
  StdoutBuffer& operator=(const StdoutBuffer&) = delete;
  ~StdoutBuffer() override { flush_buffer(); }

 protected:
  int_type overflow(int_type c) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return flush_buffer() && std::fflush(stdout) == 0 ? 0 : -1; }

 private:
  bool flush_buffer() {
    const auto n = static_cast<std::size_t>(pptr() - pbase());
    const bool ok = n == 0 || std::fwrite(pbase(), 1, n, stdout) == n;
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return ok;
  }
  std::array<char, 1 << 16> buffer_{};
};

// Usage: { BufferedStdout out; print(out.stream, ...); } (flushed when it goes out of scope).
struct BufferedStdout {
  StdoutBuffer buffer;
  std::ostream stream{&buffer};
};

}  // namespace hetlb::cli
