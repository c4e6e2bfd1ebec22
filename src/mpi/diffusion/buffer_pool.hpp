// Byte buffers reused from one transfer to the next (docs/runtime.md, "Moving items"). A moved item is
// packed into a send buffer and received into another; a fresh large buffer comes from the operating
// system (glibc maps blocks over 128 KiB and unmaps them when freed), and its first touch costs a page
// fault per 4 KiB, which costs as much as the copy itself or more (about 3 ms per MiB on some virtual
// machines, where a 1 MiB item copies in 0.1 ms). The pool keeps the capacity of returned buffers, up to
// `limit` bytes in all, so a rank's steady moves touch fresh memory once.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace hetlb::mpi::detail {

class BufferPool {
 public:
  // The bytes kept at most (the largest buffers are kept first when they do not all fit).
  static constexpr std::size_t kDefaultLimit = std::size_t{64} << 20;

  explicit BufferPool(std::size_t limit = kDefaultLimit) : limit_(limit) {}

  // An empty buffer whose capacity is at least `bytes`: the smallest kept one that fits, or a new one.
  std::vector<char> take(std::size_t bytes) {
    std::size_t best = kept_.size();
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i].capacity() >= bytes && (best == kept_.size() || kept_[i].capacity() < kept_[best].capacity()))
        best = i;
    std::vector<char> b;
    if (best < kept_.size()) {
      b = std::move(kept_[best]);
      kept_[best] = std::move(kept_.back());
      kept_.pop_back();
      retained_ -= b.capacity();
    }
    b.clear();
    b.reserve(bytes);
    return b;
  }

  // Returns a buffer: kept when it fits within the limit (smaller kept buffers make room for a larger
  // one: the next large transfer needs it), freed otherwise.
  void give(std::vector<char>&& b) {
    const std::size_t c = b.capacity();
    if (c == 0 || c > limit_) return;
    while (retained_ + c > limit_) {
      std::size_t smallest = 0;
      for (std::size_t i = 1; i < kept_.size(); ++i)
        if (kept_[i].capacity() < kept_[smallest].capacity()) smallest = i;
      if (kept_.empty() || kept_[smallest].capacity() >= c) return;  // the kept ones are as large: free b
      retained_ -= kept_[smallest].capacity();
      kept_[smallest] = std::move(kept_.back());
      kept_.pop_back();
    }
    retained_ += c;
    kept_.push_back(std::move(b));
    kept_.back().clear();
  }

  std::size_t retained() const { return retained_; }  // the kept buffers' capacity, bytes
  std::size_t count() const { return kept_.size(); }

 private:
  std::size_t limit_;
  std::size_t retained_ = 0;
  std::vector<std::vector<char>> kept_;
};

}  // namespace hetlb::mpi::detail
