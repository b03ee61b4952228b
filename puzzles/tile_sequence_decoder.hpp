// Unranking tile sequences in a scan: the hot loop of the implicit BFS decodes one
// lexicographic rank per frontier position, almost always in ascending order.
//
// lex = hi * k! + lo, where lo ranks the order of the last k tiles among themselves
// (k = min(m, 8)). A table of k! entries gives lo's Lehmer digits and the relative
// order (which of the k remaining tiles goes where); the first m-k positions come
// from hi, decoded with TileIndex::sequence_at only when hi changes, i.e. once per
// k!/2 consecutive class indices. A decode is one multiply, one 16-byte table read
// (the table is 645 KB at k = 8: it stays in L2) and k byte lookups: no divisions.
#pragma once

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "puzzles/tile_index.hpp"

namespace statespace {

class TileSuffixTable {
 public:
  static constexpr int kMaxSuffix = 8;
  struct Entry {
    std::array<std::uint8_t, kMaxSuffix> relative;  // position j holds the relative[j]-th smallest tile left
    std::array<std::uint8_t, kMaxSuffix> digit;     // Lehmer digits of the last k positions
  };
  static_assert(sizeof(Entry) == 16);

  explicit TileSuffixTable(const TileIndex& index);
  [[nodiscard]] int suffix() const { return k_; }
  [[nodiscard]] const FastDivisor& block() const { return block_; }
  [[nodiscard]] const Entry& operator[](std::uint64_t lo) const { return entries_[lo]; }

 private:
  int k_;
  FastDivisor block_;  // divides by k!
  std::vector<Entry> entries_;
};

// One per thread: remembers the decoded prefix of the last hi.
class TileSequenceDecoder {
 public:
  TileSequenceDecoder(const TileIndex& index, const TileSuffixTable& table)
      : index_(&index), table_(&table), m_(index.tiles()), k_(table.suffix()) {}

  // An output buffer: the prefix it holds is rewritten only when its block changes.
  struct Output {
    TileSequence s;
    std::uint64_t block = ~std::uint64_t{0};
  };

  // Writes the sequence of rank lex into out.s (item/digit positions past m-1 get
  // scratch) and returns the parity of its digit sum (= of its inversions). The
  // caller reads single items, which store forwarding serves from the 8-byte stores.
  unsigned decode(std::uint64_t lex, Output& out) {
    const std::uint64_t hi = k_ == m_ ? 0 : table_->block().quotient(lex);
    const std::uint64_t lo = lex - hi * table_->block().divisor();
    if (hi != hi_) refill(hi);
    if (out.block != hi) {
      out.s = prefix_;
      out.block = hi;
    }
    const TileSuffixTable::Entry& e = (*table_)[lo];
    const int base = m_ - k_;
#if defined(__SSSE3__)
    // The eight item lookups as one byte shuffle (pshufb) of the remaining tiles.
    const __m128i remaining = _mm_loadu_si128(reinterpret_cast<const __m128i*>(remaining_.data()));
    const __m128i relative = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(e.relative.data()));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out.s.item.data() + base), _mm_shuffle_epi8(remaining, relative));
    std::memcpy(out.s.digit.data() + base, e.digit.data(), TileSuffixTable::kMaxSuffix);
#else
    for (int j = 0; j < TileSuffixTable::kMaxSuffix; ++j) {
      out.s.item[base + j] = remaining_[e.relative[j]];
      out.s.digit[base + j] = e.digit[j];
    }
#endif
    std::uint64_t digits = 0;
    std::memcpy(&digits, e.digit.data(), sizeof digits);
    out.s.lex = lex;
    return (prefix_parity_ + unsigned(std::popcount(digits & 0x0101010101010101ULL))) & 1u;
  }

 private:
  void refill(std::uint64_t hi) {
    hi_ = hi;
    // The prefix of hi * k! is the prefix of every rank in the block; its suffix is
    // the remaining tiles in ascending order (lo = 0).
    prefix_ = index_->sequence_at(hi * table_->block().divisor());
    prefix_parity_ = 0;
    for (int i = 0; i < m_ - k_; ++i) prefix_parity_ += prefix_.digit[i];
    remaining_.fill(0);
    for (int j = 0; j < k_; ++j) remaining_[j] = prefix_.item[m_ - k_ + j];
  }

  const TileIndex* index_;
  const TileSuffixTable* table_;
  int m_;
  int k_;
  std::uint64_t hi_ = ~std::uint64_t{0};
  unsigned prefix_parity_ = 0;
  std::array<std::uint8_t, 16> remaining_{};
  TileSequence prefix_;  // the sequence at hi * k!: positions [0, m-k) hold the prefix
};

}  // namespace statespace
