// A packed table of 2-bit entries, 32 per 64-bit word: the visited set and frontier
// of the implicit BFS in one (two-bit breadth-first search, Korf 2008). Mapped
// anonymously, so the zero pages of a multi-gigabyte table cost nothing until
// touched, and with transparent huge pages requested: the BFS reads it at random,
// and 2 MiB pages spare most TLB misses. Engines read and claim entries through
// std::atomic_ref on the words.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <memory>
#include <new>

namespace statespace {

struct UnmapWords {
  std::uint64_t bytes = 0;
  void operator()(std::uint64_t* p) const { ::munmap(p, bytes); }
};

class TwoBitTable {
 public:
  static constexpr std::uint64_t kPerWord = 32;

  TwoBitTable() = default;
  explicit TwoBitTable(std::uint64_t entries) : entries_(entries), words_count_(words_for(entries)) {
    const std::uint64_t bytes = mapped_bytes();
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without THP the table still works
    words_ = std::unique_ptr<std::uint64_t[], UnmapWords>(static_cast<std::uint64_t*>(p), UnmapWords{bytes});
  }

  [[nodiscard]] static constexpr std::uint64_t words_for(std::uint64_t entries) {
    return (entries + kPerWord - 1) / kPerWord;
  }
  [[nodiscard]] static constexpr std::uint64_t bytes_for(std::uint64_t entries) { return words_for(entries) * 8; }

  [[nodiscard]] std::uint64_t entries() const { return entries_; }
  [[nodiscard]] std::uint64_t word_count() const { return words_count_; }
  [[nodiscard]] std::uint64_t* words() { return words_.get(); }
  [[nodiscard]] const std::uint64_t* words() const { return words_.get(); }

  [[nodiscard]] unsigned get(std::uint64_t e) const {
    return unsigned(words_[e / kPerWord] >> (2 * (e % kPerWord))) & 3u;
  }
  void set(std::uint64_t e, unsigned code) {
    std::uint64_t& w = words_[e / kPerWord];
    const unsigned shift = unsigned(2 * (e % kPerWord));
    w = (w & ~(std::uint64_t{3} << shift)) | (std::uint64_t{code} << shift);
  }

 private:
  [[nodiscard]] std::uint64_t mapped_bytes() const { return words_count_ ? words_count_ * 8 : 8; }
  std::uint64_t entries_ = 0;
  std::uint64_t words_count_ = 0;
  std::unique_ptr<std::uint64_t[], UnmapWords> words_;
};

}  // namespace statespace
