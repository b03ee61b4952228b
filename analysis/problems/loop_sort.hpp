// Seed 000's loop sort of the 15-puzzle. A Hamiltonian cycle (the loop) visits the 16
// cells; a[k] is the tile at loop index k:
//     a[1]  a[2]  a[5]  a[6]
//     a[0]  a[3]  a[4]  a[7]
//     a[15] a[12] a[11] a[8]
//     a[14] a[13] a[10] a[9]
// Sliding a tile along the loop never changes the tiles' cyclic order; the chords
// a[i]-a[i+3] (i in 0,2,4,8,10,12, horizontal neighbours) let the tile in a[i+3] jump
// over a[i+1], a[i+2]: a 3-cycle of the order, an ordinary legal slide on the board.
// One step: with the blank at chord start a[i], if tile 1 is none of a[i+1..i+3] and
// a[i+1] or a[i+2] exceeds a[i+3], jump; otherwise slide a[z+1] into the blank a[z]
// (a[0] into a[15]). Stop when a[0] is blank, a[1] = 1 and a[k] = k for k = 4..15:
// the loop then reads 1,2,3,...,15 or 1,3,2,...,15. Every step is a legal move, which
// keeps the parity class, and the two endings differ by one swap, so the start's class
// decides which. The seed checks the stop rule after each move;
// we check it before, so a finished board takes 0 moves (the seed would walk it round).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board.hpp"

namespace statespace {

// kLoopCell[k] = the board cell (row-major, 0..15) of loop index k.
inline constexpr std::array<int, 16> kLoopCell = {4, 0, 1, 5, 6, 2, 3, 7, 11, 15, 14, 10, 9, 13, 12, 8};
inline constexpr std::uint64_t kDefaultLoopStepCap = 1'000'000;

// One move: the tile in cell `from` slides into the blank cell `to`.
struct LoopMove {
  std::int8_t from = 0;
  std::int8_t to = 0;
  bool jump = false;  // along a chord rather than along the loop
};

enum class LoopOrder { kAscending, kTwoThreeSwapped };  // 1,2,3,...,15 / 1,3,2,...,15

struct LoopSortResult {
  Board final;
  std::uint64_t moves = 0;
  std::uint64_t jumps = 0;
  bool terminated = false;                  // false: stopped by the step cap
  LoopOrder order = LoopOrder::kAscending;  // meaningful when terminated
};

// Runs the algorithm from `start` (any arrangement of 0..15 on 4x4) for at most
// `step_cap` moves, calling on_move(move, board_after) for each.
template <class F>
LoopSortResult loop_sort(Board start, std::uint64_t step_cap, F&& on_move) {
  std::array<unsigned, 16> a{};
  int z = 0;
  for (int k = 0; k < 16; ++k) {
    a[std::size_t(k)] = start.at(kLoopCell[std::size_t(k)]);
    if (a[std::size_t(k)] == 0) z = k;
  }
  const auto finished = [&] {
    if (a[0] != 0 || a[1] != 1) return false;
    for (unsigned k = 4; k < 16; ++k) {
      if (a[k] != k) return false;
    }
    return true;
  };
  LoopSortResult r;
  Board board = start;
  while (!(r.terminated = finished()) && r.moves < step_cap) {
    int from = (z + 1) % 16;
    const bool chord = z == 0 || z == 2 || z == 4 || z == 8 || z == 10 || z == 12;
    if (chord && a[std::size_t(z + 1)] != 1 && a[std::size_t(z + 2)] != 1 && a[std::size_t(z + 3)] != 1 &&
        (a[std::size_t(z + 1)] > a[std::size_t(z + 3)] || a[std::size_t(z + 2)] > a[std::size_t(z + 3)])) {
      from = z + 3;
      ++r.jumps;
    }
    const LoopMove move{std::int8_t(kLoopCell[std::size_t(from)]), std::int8_t(kLoopCell[std::size_t(z)]),
                        from != (z + 1) % 16};
    a[std::size_t(z)] = a[std::size_t(from)];
    a[std::size_t(from)] = 0;
    z = from;
    board = board.slid(move.from, move.to);
    ++r.moves;
    on_move(move, board);
  }
  r.final = board;
  r.order = a[2] == 2 ? LoopOrder::kAscending : LoopOrder::kTwoThreeSwapped;
  return r;
}

inline LoopSortResult loop_sort(Board start, std::uint64_t step_cap = kDefaultLoopStepCap) {
  return loop_sort(start, step_cap, [](const LoopMove&, Board) {});
}

// The finished board with the loop reading in `order`.
[[nodiscard]] Board loop_final(LoopOrder order);
// The ending the parity test predicts for `start`: the finished board in its class.
[[nodiscard]] LoopOrder predicted_order(Board start);
[[nodiscard]] std::string loop_order_text(LoopOrder order);  // "1,2,3,...,15"
// The direction the tile slides: "up", "down", "left" or "right".
[[nodiscard]] const char* move_direction(const LoopMove& move);

// The seed's claim tested on `boards` uniform random arrangements (all 16!, both
// parity classes), drawn in order from Rng(seed) and run in parallel.
struct LoopSortSurvey {
  std::uint64_t boards = 0;
  std::uint64_t terminated = 0;
  std::optional<Board> first_unterminated;  // the earliest drawn board that hit the cap
  std::uint64_t predicted = 0;              // terminated with the parity-predicted order
  std::uint64_t ascending = 0;              // ended 1,2,3,...,15
  std::uint64_t swapped = 0;                // ended 1,3,2,...,15
  std::uint64_t total_moves = 0;            // over the terminated boards
  std::vector<std::uint64_t> histogram;     // histogram[m] = boards finished in m moves
};
LoopSortSurvey survey_loop_sort(std::uint64_t boards, std::uint64_t seed, std::uint64_t step_cap = kDefaultLoopStepCap);

}  // namespace statespace
