// Ranks of a permutation's neighbours without ranking them: a sliding move swaps
// the blank (code 0) with one tile, and the lexicographic rank r = sum of
// d_i (n-1-i)! over the Lehmer digits d_i = #{j > i : p_j < p_i} changes only in
// the digits of the cells from the blank to the tile. So a child's rank follows
// from its parent's in O(distance of the move) instead of O(n) (the incremental
// ranking of Korf & Schultze's 2005 breadth-first search of the 15-puzzle). Equal to
// permutation_rank() on every move (tests/lookup_test.cpp).
//
// Blank at cell b, tile x at cell t, d = the tile's digit, c = #{k strictly
// between b and t : p_k < x}, w = sum of F(k) over those k, F(i) = (n-1-i)!:
//   t > b:  r' = r + (c + 1 + d) F(b) - d F(t) + w
//   t < b:  r' = r + (d - 1 - c) F(b) - d F(t) - w
// (the tile's digit moves to cell b, the blank's digit is 0 wherever it is, and
// each cell between gains or loses the tile as a smaller code after it).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "core/board.hpp"
#include "core/ranking.hpp"

namespace statespace {

// #{cells j > t of the n cells : code_j < x}, for 1 <= x <= 15. SWAR: the even and
// odd nibbles are spread into byte lanes, (16 - x) is added to every lane, and a
// lane carries into its bit 4 exactly when its code is >= x.
[[nodiscard]] constexpr unsigned count_smaller_after(Board b, int n, int t, unsigned x) {
  constexpr std::uint64_t kLow = 0x0F0F0F0F0F0F0F0FULL, kCarry = 0x1010101010101010ULL;
  const std::uint64_t after = (b.bits >> (4 * t)) >> 4;  // cells t+1.. at nibble 0..; zeros beyond n
  const std::uint64_t add = std::uint64_t(16 - x) * 0x0101010101010101ULL;
  const std::uint64_t even = ((after & kLow) + add) & kCarry;
  const std::uint64_t odd = (((after >> 4) & kLow) + add) & kCarry;
  const unsigned at_least_x = unsigned(std::popcount(even | (odd << 1)));
  return unsigned(n - t - 1) - at_least_x;  // padding nibbles are 0 < x, never counted above
}

// One move of a permutation puzzle of n cells, the tile in cell `tile` sliding into
// the blank in cell `blank`, with the constants its rank update needs.
class SwapMove {
 public:
  static constexpr int kMaxBetween = Board::kMaxCells - 2;

  constexpr SwapMove(int n, int blank, int tile)
      : n_(n),
        blank_(blank),
        tile_(tile),
        forward_(tile > blank),
        weight_blank_(kFactorial[n - 1 - blank]),
        weight_tile_(kFactorial[n - 1 - tile]) {
    for (int k = (forward_ ? blank : tile) + 1; k < (forward_ ? tile : blank); ++k) {
      between_[between_count_] = std::uint8_t(k);
      between_weight_[between_count_++] = kFactorial[n - 1 - k];
    }
  }

  [[nodiscard]] constexpr int blank() const { return blank_; }
  [[nodiscard]] constexpr int tile() const { return tile_; }

  // The position after the move (cell `blank` must hold the blank).
  [[nodiscard]] constexpr Board apply(Board b) const {
    const std::uint64_t x = b.at(tile_);
    return Board{(b.bits & ~(std::uint64_t{0xF} << (4 * tile_))) | (x << (4 * blank_))};
  }

  // Rank of apply(b), from rank = permutation_rank(b, n).
  [[nodiscard]] constexpr std::uint64_t rank_after(Board b, std::uint64_t rank) const {
    const unsigned x = b.at(tile_);
    std::uint64_t c = 0, w = 0;
    for (int j = 0; j < between_count_; ++j) {
      const std::uint64_t smaller = b.at(between_[j]) < x;
      c += smaller;
      w += smaller * between_weight_[j];
    }
    const std::uint64_t d = count_smaller_after(b, n_, tile_, x);
    if (forward_) return rank + (c + 1 + d) * weight_blank_ - d * weight_tile_ + w;
    return rank + (d - 1 - c) * weight_blank_ - d * weight_tile_ - w;
  }

 private:
  int n_;
  int blank_;
  int tile_;
  bool forward_;
  std::uint64_t weight_blank_;
  std::uint64_t weight_tile_;
  int between_count_ = 0;
  std::array<std::uint8_t, kMaxBetween> between_{};
  std::array<std::uint64_t, kMaxBetween> between_weight_{};
};

}  // namespace statespace
