// NO-OFF (seed 001): a 2 x 4 board holding a light bulb over two horizontally
// adjacent cells ("L L"), tiles N, O, O, F, F (equal letters interchangeable) and
// one blank. A move slides one piece one cell into the blank, so the bulb only ever
// moves sideways and never leaves the top row of the seed's positions.
//
// Cells are numbered 0 1 2 3 / 4 5 6 7; codes: 0 blank, 1 bulb half, 2 N, 3 O, 4 F.
// Rank = bulb's left cell (0..2) * 180 + multiset rank of the other six cells read in
// cell order, so the 540 ranks are exactly the seed's 3 x 6 x 5 x C(4,2) positions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"

namespace statespace {

class NoOff {
 public:
  using State = Board;
  static constexpr int kMaxMoves = 4;
  [[nodiscard]] static constexpr int max_moves() { return kMaxMoves; }
  static constexpr int kCells = 8;
  enum Code : unsigned { kBlankCode = 0, kBulb = 1, kN = 2, kO = 3, kF = 4 };

  [[nodiscard]] std::string name() const { return "nooff"; }
  [[nodiscard]] std::vector<int> row_lengths() const { return {4, 4}; }
  [[nodiscard]] State goal() const;  // L L N O / O F F _
  [[nodiscard]] std::uint64_t rank_space() const { return 3 * kRestArrangements; }
  [[nodiscard]] std::uint64_t rank(State s) const;
  [[nodiscard]] State unrank(std::uint64_t r) const;

  template <class F>
  void for_each_successor(State s, F&& f) const {
    const int b = find_blank(s, kCells);
    const int col = b % 4;
    if (b >= 4 && s.at(b - 4) != kBulb) f(s.slid(b - 4, b));  // the bulb cannot move vertically
    if (col > 0) {
      if (s.at(b - 1) == kBulb) {
        f(s.slid(b - 2, b));  // bulb over b-2, b-1 moves right: its left half jumps to b
      } else {
        f(s.slid(b - 1, b));
      }
    }
    if (col < 3) {
      if (s.at(b + 1) == kBulb) {
        f(s.slid(b + 2, b));
      } else {
        f(s.slid(b + 1, b));
      }
    }
    if (b < 4 && s.at(b + 4) != kBulb) f(s.slid(b + 4, b));
  }

  [[nodiscard]] std::string format(State s) const;
  [[nodiscard]] State parse(std::string_view text) const;
  // The bulb's two cells are one piece.
  [[nodiscard]] std::vector<int> piece_ids(State s) const;

 private:
  static constexpr Counts kRest = {1, 0, 1, 2, 2};  // per code: one blank, no bulb, N, two O, two F
  static constexpr std::uint64_t kRestArrangements = multinomial(kRest);  // 6!/(2!2!) = 180
};

static_assert(RankedPuzzle<NoOff>);

}  // namespace statespace
