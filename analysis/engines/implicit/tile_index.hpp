// The locality index of an R x C sliding-tile board, for engines that keep one
// entry per position in a table over the rank space (analysis/engines/implicit/implicit_bfs.hpp).
//
// A position is (tile sequence, blank cell): the m = RC-1 tiles read row by row
// skipping the blank, and the blank's cell. Its index is
//     lex(sequence) * RC + blank,
// lex being the lexicographic rank of the sequence (Korf & Schultze 2005: the
// factorial-number-system digits, each found by a popcount, so ranking is O(m)).
// A left/right move keeps the sequence, so it only changes the blank part of the
// index; an up/down move carries one tile C-1 places along the sequence, which
// changes C Lehmer digits only, so the new rank is an O(C) update of the old one
// (moved_lex). Neighbours therefore lie close together in the table.
//
// Every move flips the sequence's parity C-1 times, so parity(sequence) xor
// (C-1 odd ? row(blank) : 0) is invariant; it splits the n! positions into the two
// reachability classes (Johnson & Story 1879). Swapping the last two tiles changes
// the parity and the lexicographic rank by exactly one, so within a class
//     class index = (lex(sequence) >> 1) * RC + blank
// is a bijection onto [0, n!/2): half the table of the whole rank space.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/board.hpp"
#include "core/ranking.hpp"

namespace statespace {

// Division by a small run-time constant d >= 2 as one 64x64->128 multiply
// (Granlund & Montgomery 1994): with M = floor(2^64 / d) + 1, floor(x * M / 2^64)
// equals x / d for every x < 2^64 / d, far above any rank of 16 cells.
class FastDivisor {
 public:
  constexpr FastDivisor() = default;
  explicit constexpr FastDivisor(std::uint64_t d) : d_(d), magic_(~std::uint64_t{0} / d + 1) {}
  [[nodiscard]] constexpr std::uint64_t divisor() const { return d_; }
  [[nodiscard]] constexpr std::uint64_t quotient(std::uint64_t x) const {
    return std::uint64_t((unsigned __int128)x * magic_ >> 64);
  }

 private:
  std::uint64_t d_ = 2;
  std::uint64_t magic_ = 0;
};

// A tile sequence with its Lehmer code: item[i] is the tile at position i (tile t
// stored as t-1), digit[i] the number of later items smaller than item[i], and lex
// the rank sum(digit[i] * (m-1-i)!). Fixed arrays so hot loops keep it in registers
// or L1.
struct TileSequence {
  std::array<std::uint8_t, Board::kMaxCells> item{};
  std::array<std::uint8_t, Board::kMaxCells> digit{};
  std::uint64_t lex = 0;
};

class TileIndex {
 public:
  TileIndex(int rows, int cols);

  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }
  [[nodiscard]] int cells() const { return n_; }
  [[nodiscard]] int tiles() const { return m_; }
  // n! and n!/2.
  [[nodiscard]] std::uint64_t size() const { return kFactorial[n_]; }
  [[nodiscard]] std::uint64_t class_size() const { return kFactorial[n_] / 2; }
  // (m-1-i)!: the weight of Lehmer digit i.
  [[nodiscard]] std::uint64_t weight(int i) const { return weight_[i]; }

  // Index over all n! positions and its inverse.
  [[nodiscard]] std::uint64_t rank(Board b) const;
  [[nodiscard]] Board unrank(std::uint64_t index) const;

  // The reachability class (0 or 1) of a position, and the index within it.
  [[nodiscard]] unsigned class_of(Board b) const;
  [[nodiscard]] std::uint64_t class_rank(Board b) const;
  [[nodiscard]] Board class_unrank(std::uint64_t index, unsigned cls) const;
  // The sequence parity a position of class `cls` has with its blank in `blank`.
  [[nodiscard]] unsigned parity_for(unsigned cls, int blank) const {
    return (cls ^ (vertical_flips_ & unsigned(blank / cols_))) & 1u;
  }

  // The tile sequence of a board, and the board of a sequence with a blank.
  [[nodiscard]] TileSequence sequence_of(Board b) const;
  [[nodiscard]] Board board_of(const TileSequence& s, int blank) const;
  // The sequence of lexicographic rank `lex`, in O(m): digits by division (one
  // multiply each), items by picking digit[i]-th of a sorted nibble list.
  [[nodiscard]] TileSequence sequence_at(std::uint64_t lex) const;
  [[nodiscard]] std::uint64_t lex_rank(const TileSequence& s) const;

  // lex of the sequence after the blank at `blank` moves one row down (the tile
  // below slides up) or up (the tile above slides down). The moving tile x jumps over
  // the C-1 tiles between, so only the C Lehmer digits of that window change, each
  // by an amount that depends on the old digit and on whether x is smaller than the
  // tile it passes. The new rank is therefore lex + sum(digit_j * K_j) + T[above],
  // K and T precomputed per window (window_), `above` the C-1 comparisons as one
  // byte compare of all items (SSE2): no branches, C multiplies.
  // kCols = cols() lets the window loop unroll in hot loops; 0 reads cols() at run time.
  template <int kCols = 0>
  [[nodiscard]] std::uint64_t moved_lex(const TileSequence& s, int blank, bool down) const {
    return moved_lex<kCols>(s, vertical(blank, down));
  }

  // One vertical move of a blank, resolved once: where its window's K and T are,
  // the window's start, where x sits and how far the comparison bits shift.
  struct VerticalMove {
    std::uint32_t table = 0;
    std::uint8_t start = 0, x_at = 0, shift = 0;
  };
  [[nodiscard]] VerticalMove vertical(int blank, bool down) const {
    const int start = down ? blank : blank - cols_;
    return {std::uint32_t((std::size_t(down) * windows_ + std::size_t(start)) * window_stride_), std::uint8_t(start),
            std::uint8_t(down ? start + cols_ - 1 : start), std::uint8_t(start + int(!down))};
  }
  template <int kCols = 0>
  [[nodiscard]] std::uint64_t moved_lex(const TileSequence& s, VerticalMove v) const {
    const int c = kCols ? kCols : cols_;
    const std::uint64_t* t = window_.data() + v.table;
    const std::uint8_t* const digit = s.digit.data() + v.start;
    std::uint64_t lex = s.lex;
    for (int j = 0; j < c; ++j) lex += digit[j] * t[j];
    // Bit j: the j-th item the moving one passes is larger than it.
    const unsigned low = (1u << (c - 1)) - 1;
#if defined(__SSE2__)
    const __m128i items = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.item.data()));
    const __m128i x = _mm_set1_epi8(char(s.item[v.x_at]));
    const unsigned above = (unsigned(_mm_movemask_epi8(_mm_cmpgt_epi8(items, x))) >> v.shift) & low;
#else
    unsigned above = 0;
    for (int j = 0; j < c - 1; ++j) above |= unsigned(s.item[v.shift + j] > s.item[v.x_at]) << j;
#endif
    return lex + t[kMaxWindow + above];
  }

 private:
  int rows_;
  int cols_;
  int n_;
  int m_;
  unsigned vertical_flips_;                          // 1 when C-1 is odd
  std::array<FastDivisor, Board::kMaxCells> radix_;  // radix_[i] divides by m - i
  std::array<std::uint64_t, Board::kMaxCells> weight_{};
  // Per direction (up, down) and window start: K_0..K_{c-1} at [0, c), then T at
  // [kMaxWindow, kMaxWindow + 2^(c-1)); arithmetic mod 2^64 (the K are negative).
  static constexpr std::size_t kMaxWindow = 8;
  static constexpr std::size_t window_stride(int c) { return kMaxWindow + (std::size_t{1} << (c - 1)); }
  std::size_t windows_ = 0;  // window starts: m - c + 1
  std::size_t window_stride_ = 0;
  std::vector<std::uint64_t> window_;
};

}  // namespace statespace
