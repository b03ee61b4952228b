// Oshidori, "mandarin ducks" (seed 003): n black and n white stones and two blanks in
// a row of 2n+2 cells. A move takes two adjacent stones, order kept, into the two
// blank cells, so the blanks always stay side by side.
//
// Codes: 0 blank, 1 black (B), 2 white (W). Rank = left blank cell (0..2n) * C(2n, n)
// + rank of the stones read left to right, so the rank space is (2n+1) C(2n, n):
// 7 x 20 = 140 for the seed's n = 3.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"

namespace statespace {

class Oshidori {
 public:
  using State = Board;
  static constexpr int kMaxPairs = 7;  // 2n + 2 cells must fit a Board
  static constexpr int kMaxMoves = 2 * kMaxPairs - 1;
  [[nodiscard]] static constexpr int max_moves() { return kMaxMoves; }
  enum Code : unsigned { kBlankCode = 0, kBlack = 1, kWhite = 2 };

  explicit Oshidori(int pairs = 3);

  [[nodiscard]] std::string name() const;
  [[nodiscard]] int pairs() const { return n_; }
  [[nodiscard]] int cells() const { return 2 * n_ + 2; }
  [[nodiscard]] std::vector<int> row_lengths() const { return {cells()}; }
  [[nodiscard]] State goal() const;   // B..B W..W _ _
  [[nodiscard]] State start() const;  // B W B W .. _ _, the seed's problem
  [[nodiscard]] std::uint64_t rank_space() const { return std::uint64_t(2 * n_ + 1) * stone_arrangements_; }
  [[nodiscard]] std::uint64_t rank(State s) const;
  [[nodiscard]] State unrank(std::uint64_t r) const;

  // In the seed's order: pairs (i, i+1) of stones from the left.
  template <class F>
  void for_each_successor(State s, F&& f) const {
    const int b = find_blank(s, cells());
    for (int i = 0; i + 1 < cells(); ++i) {
      if (s.at(i) != kBlankCode && s.at(i + 1) != kBlankCode) f(s.slid(i, b).slid(i + 1, b + 1));
    }
  }

  [[nodiscard]] std::string format(State s) const;
  [[nodiscard]] State parse(std::string_view text) const;

 private:
  int n_;
  Counts stones_{};
  std::uint64_t stone_arrangements_ = 0;
};

static_assert(RankedPuzzle<Oshidori>);

}  // namespace statespace
