// Unranking tile sequences in a scan: the hot loop of the implicit BFS decodes one
// lexicographic rank per frontier position, almost always in ascending order.
//
// lex = hi * k! + lo, where lo ranks the order of the last k tiles among themselves
// (k = min(m, 8)). A table of k! entries gives lo's Lehmer digits and the relative
// order (which of the k remaining tiles goes where); the first m-k positions come
// from hi, decoded with TileIndex::sequence_at only when hi changes, i.e. once per
// k!/2 consecutive class indices. A decode is one multiply, one 16-byte table read
// (the table is 645 KB at k = 8, read in ascending order) and a few byte shuffles
// (pshufb) that place the suffix beside the prefix: no divisions, no byte loops.
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

#include "analysis/engines/implicit/tile_index.hpp"

namespace statespace {

class TileSuffixTable {
 public:
  static constexpr int kMaxSuffix = 8;  // the entry's room
  static constexpr int kSuffix = 8;     // k for m >= 8: 40,320 entries, 645 KB
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
      : index_(&index), table_(&table), m_(index.tiles()), k_(table.suffix()) {
#if defined(__SSSE3__)
    // Byte i of a sequence comes from suffix position i - base (base = m - k).
    const int base = m_ - k_;
    alignas(16) std::array<std::uint8_t, 16> relative{}, digit{}, swap{}, odd{};
    for (int i = 0; i < 16; ++i) {
      const bool suffix = i >= base && i - base < k_;
      relative[i] = suffix ? std::uint8_t(i - base) : 0x80;
      digit[i] = suffix ? std::uint8_t(TileSuffixTable::kMaxSuffix + i - base) : 0x80;
      swap[i] = std::uint8_t(i == m_ - 2 ? m_ - 1 : i == m_ - 1 ? m_ - 2 : i);
    }
    odd[m_ - 2] = 1;
    place_relative_ = load(relative);
    place_digit_ = load(digit);
    swap_last_ = load(swap);
    odd_digit_ = load(odd);
#endif
  }

  struct Output {
    TileSequence s;
  };

  // Writes the sequence of rank lex into out.s (item/digit positions past m-1 get
  // scratch) and returns the parity of its digit sum (= of its inversions).
  unsigned decode(std::uint64_t lex, Output& out) {
    TileSequence odd;
    return lex & 1 ? decode_pair(lex - 1, odd, out.s) ^ 1u : decode_pair(lex, out.s, odd);
  }

  // The sequences of the even rank `even_lex` and of even_lex + 1, which is the same
  // with the last two items swapped and Lehmer digit m-2 one instead of zero; returns
  // the even one's parity. Whole 16-byte stores: the caller's loads of either
  // sequence are then forwarded from one store each.
  unsigned decode_pair(std::uint64_t even_lex, TileSequence& even, TileSequence& odd) {
    const std::uint64_t hi = table_->block().quotient(even_lex);  // 0 when k = m: lex < m! = k!
    const std::uint64_t lo = even_lex - hi * table_->block().divisor();
    if (hi != hi_) refill(hi);
    const TileSuffixTable::Entry& e = (*table_)[lo];
    std::uint64_t digits = 0;
    std::memcpy(&digits, e.digit.data(), sizeof digits);
    const unsigned parity = (prefix_parity_ + unsigned(std::popcount(digits & 0x0101010101010101ULL))) & 1u;
#if defined(__SSSE3__)
    // The entry's relative order and digits moved to their places (pshufb), the
    // prefix's beside them; the items are one byte shuffle of the block's tiles.
    const __m128i entry = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&e));
    const __m128i items =
        _mm_shuffle_epi8(tiles_, _mm_or_si128(prefix_place_, _mm_shuffle_epi8(entry, place_relative_)));
    const __m128i digit = _mm_or_si128(prefix_digit_, _mm_shuffle_epi8(entry, place_digit_));
    store(even.item, items);
    store(even.digit, digit);
    store(odd.item, _mm_shuffle_epi8(items, swap_last_));
    store(odd.digit, _mm_or_si128(digit, odd_digit_));
#else
    const int base = m_ - k_;
    even.item = prefix_.item;
    even.digit = prefix_.digit;
    for (int j = 0; j < k_; ++j) {
      even.item[base + j] = remaining_[e.relative[j]];
      even.digit[base + j] = e.digit[j];
    }
    odd.item = even.item;
    odd.digit = even.digit;
    std::swap(odd.item[m_ - 2], odd.item[m_ - 1]);
    odd.digit[m_ - 2] = 1;
#endif
    even.lex = even_lex;
    odd.lex = even_lex + 1;
    return parity;
  }

 private:
  void refill(std::uint64_t hi) {
    hi_ = hi;
    // The prefix of hi * k! is the prefix of every rank in the block; its suffix is
    // the remaining tiles in ascending order (lo = 0).
    prefix_ = index_->sequence_at(hi * table_->block().divisor());
    prefix_parity_ = 0;
    const int base = m_ - k_;
    for (int i = 0; i < base; ++i) prefix_parity_ += prefix_.digit[i];
    remaining_.fill(0);
    for (int j = 0; j < k_; ++j) remaining_[j] = prefix_.item[base + j];
#if defined(__SSSE3__)
    // tiles_: the remaining tiles at bytes [0, k), the prefix at [k, m).
    alignas(16) std::array<std::uint8_t, 16> tiles{}, place{}, digit{};
    for (int j = 0; j < k_; ++j) tiles[j] = prefix_.item[base + j];
    for (int i = 0; i < base; ++i) {
      tiles[k_ + i] = prefix_.item[i];
      place[i] = std::uint8_t(k_ + i);
      digit[i] = prefix_.digit[i];
    }
    tiles_ = load(tiles);
    prefix_place_ = load(place);
    prefix_digit_ = load(digit);
#endif
  }

#if defined(__SSSE3__)
  static __m128i load(const std::array<std::uint8_t, 16>& a) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data()));
  }
  static void store(std::array<std::uint8_t, Board::kMaxCells>& a, __m128i v) {
    static_assert(Board::kMaxCells == 16);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a.data()), v);
  }
  __m128i place_relative_, place_digit_, swap_last_, odd_digit_;  // per board
  __m128i tiles_, prefix_place_, prefix_digit_;                   // per block
#endif
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
