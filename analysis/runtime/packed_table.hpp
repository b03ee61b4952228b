// Packed tables of k-bit entries, 64 / k per 64-bit word: the layer bitsets of the
// implicit BFS (one bit) and the visited set of the pattern databases' abstract BFS
// (two bits, Korf 2008). Mapped anonymously, so the zero pages of a multi-gigabyte
// table cost nothing until touched, and with transparent huge pages requested: the
// BFS reads them at random, and 2 MiB pages spare most TLB misses.
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

template <unsigned kBits>
class PackedTable {
  static_assert(kBits == 1 || kBits == 2 || kBits == 4);
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;

 public:
  static constexpr std::uint64_t kPerWord = 64 / kBits;

  PackedTable() = default;
  explicit PackedTable(std::uint64_t entries) : entries_(entries), words_count_(words_for(entries)) {
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
    return unsigned(words_[e / kPerWord] >> (kBits * (e % kPerWord))) & kMask;
  }
  void set(std::uint64_t e, unsigned code) {
    std::uint64_t& w = words_[e / kPerWord];
    const unsigned shift = unsigned(kBits * (e % kPerWord));
    w = (w & ~(kMask << shift)) | (std::uint64_t{code} << shift);
  }

 private:
  [[nodiscard]] std::uint64_t mapped_bytes() const { return words_count_ ? words_count_ * 8 : 8; }
  std::uint64_t entries_ = 0;
  std::uint64_t words_count_ = 0;
  std::unique_ptr<std::uint64_t[], UnmapWords> words_;
};

using BitTable = PackedTable<1>;
using TwoBitTable = PackedTable<2>;

}  // namespace statespace
