// A packed table of 2-bit entries, 32 per 64-bit word: the visited set and frontier
// of the implicit BFS in one (two-bit breadth-first search, Korf 2008). Allocated
// with calloc so the zero pages of a multi-gigabyte table cost nothing until
// touched. Engines read and claim entries through std::atomic_ref on the words.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace statespace {

class TwoBitTable {
 public:
  static constexpr std::uint64_t kPerWord = 32;

  TwoBitTable() = default;
  explicit TwoBitTable(std::uint64_t entries)
      : entries_(entries), words_count_(words_for(entries)) {
    words_.reset(static_cast<std::uint64_t*>(std::calloc(words_count_ ? words_count_ : 1, sizeof(std::uint64_t))));
    if (!words_) throw std::bad_alloc();
  }

  [[nodiscard]] static constexpr std::uint64_t words_for(std::uint64_t entries) {
    return (entries + kPerWord - 1) / kPerWord;
  }
  [[nodiscard]] static constexpr std::uint64_t bytes_for(std::uint64_t entries) { return words_for(entries) * 8; }

  [[nodiscard]] std::uint64_t entries() const { return entries_; }
  [[nodiscard]] std::uint64_t word_count() const { return words_count_; }
  [[nodiscard]] std::uint64_t* words() { return words_.get(); }
  [[nodiscard]] const std::uint64_t* words() const { return words_.get(); }

  [[nodiscard]] unsigned get(std::uint64_t e) const { return unsigned(words_[e / kPerWord] >> (2 * (e % kPerWord))) & 3u; }
  void set(std::uint64_t e, unsigned code) {
    std::uint64_t& w = words_[e / kPerWord];
    const unsigned shift = unsigned(2 * (e % kPerWord));
    w = (w & ~(std::uint64_t{3} << shift)) | (std::uint64_t{code} << shift);
  }

 private:
  struct Free {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  std::uint64_t entries_ = 0;
  std::uint64_t words_count_ = 0;
  std::unique_ptr<std::uint64_t[], Free> words_;
};

}  // namespace statespace
