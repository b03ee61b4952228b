// One bit per rank of a puzzle's rank space: the "ranked" visited set, and, once
// sealed, a dense index from rank to position among the set bits (a rank/select
// structure with one 64-bit prefix count per word), which gives the explicit graph
// its vertex ids in rank order in O(1) per lookup.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace statespace {

class RankBitset {
 public:
  RankBitset() = default;
  explicit RankBitset(std::uint64_t size) : size_(size), words_((size + 63) / 64, 0) {}

  // Every rank of [0, size) set: the whole rank space.
  [[nodiscard]] static RankBitset full(std::uint64_t size) {
    RankBitset b(size);
    std::fill(b.words_.begin(), b.words_.end(), ~std::uint64_t{0});
    if (size % 64) b.words_.back() = (std::uint64_t{1} << (size % 64)) - 1;
    return b;
  }

  // Bytes a bitset of `size` ranks needs, sealed.
  [[nodiscard]] static constexpr std::uint64_t bytes_for(std::uint64_t size) { return (size + 63) / 64 * 16; }

  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] bool test(std::uint64_t r) const { return (words_[r >> 6] >> (r & 63)) & 1; }
  // Sets bit r; true when it was clear.
  bool insert(std::uint64_t r) {
    std::uint64_t& w = words_[r >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (r & 63);
    const bool fresh = !(w & bit);
    w |= bit;
    return fresh;
  }
  // A set built elsewhere as raw words (bit r of word r / 64), e.g. by a parallel
  // enumeration that keeps its own per-thread words.
  [[nodiscard]] static RankBitset from_words(std::uint64_t size, std::vector<std::uint64_t> words) {
    RankBitset b;
    b.size_ = size;
    b.words_ = std::move(words);
    b.words_.resize((size + 63) / 64, 0);
    return b;
  }

  // Freezes the set and builds the prefix counts that index_of needs.
  void seal() {
    prefix_.resize(words_.size() + 1);
    prefix_[0] = 0;
    for (std::size_t i = 0; i < words_.size(); ++i)
      prefix_[i + 1] = prefix_[i] + std::uint64_t(std::popcount(words_[i]));
  }
  [[nodiscard]] std::uint64_t count() const { return prefix_.empty() ? recount() : prefix_.back(); }
  // Number of set bits below r (r's vertex id when r is set). Needs seal().
  [[nodiscard]] std::uint64_t index_of(std::uint64_t r) const {
    const std::uint64_t below = (std::uint64_t{1} << (r & 63)) - 1;
    return prefix_[r >> 6] + std::uint64_t(std::popcount(words_[r >> 6] & below));
  }
  [[nodiscard]] std::size_t word_count() const { return words_.size(); }
  // Calls f(rank) for every set bit, in ascending order (of words [first, last) only).
  template <class F>
  void for_each(F&& f) const {
    for_each(0, words_.size(), f);
  }
  template <class F>
  void for_each(std::size_t first, std::size_t last, F&& f) const {
    for (std::size_t i = first; i < last; ++i) {
      for (std::uint64_t w = words_[i]; w; w &= w - 1) f(std::uint64_t(i) * 64 + std::uint64_t(std::countr_zero(w)));
    }
  }

 private:
  [[nodiscard]] std::uint64_t recount() const {
    std::uint64_t n = 0;
    for (auto w : words_) n += std::uint64_t(std::popcount(w));
    return n;
  }
  std::uint64_t size_ = 0;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint64_t> prefix_;
};

}  // namespace statespace
