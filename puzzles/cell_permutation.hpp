// kind = "permutation": every move permutes the cells 1..n. The file names
// generators in GAP's cycle notation, "(1,2,3)(4,5)" (the label on cell 1 goes to
// cell 2, ...), and a metric that turns them into moves:
//   quarter     each generator and its inverse (R and R'), one move each;
//   all-powers  every power of a generator is one move (R, R2, R'), the half-turn metric;
//   given       the moves exactly as listed, which must be closed under inverses.
// Cells with equal labels are indistinguishable (a cube's stickers of one colour).
// No perfect hash is known for these arrangements in general, so the engines use
// the hashed visited set.
//
//   name   = "cube2"
//   kind   = "permutation"
//   start  = "U U U U R R R R ..."  # the label on each cell 1..n
//   goal   = "..."                  # optional, default: start
//   metric = "quarter"
//   [moves]
//   R = "(2,22,14,6)(4,24,16,8)(5,6,8,7)"
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/puzzle.hpp"
#include "puzzles/cell_labels.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

class CellPermutation {
 public:
  using State = CellState;
  struct Move {
    std::string name;
    std::array<std::uint8_t, CellState::kMaxCells> from{};  // after the move, cell i holds what cell from[i] held
  };

  explicit CellPermutation(const TomlInput& file);

  [[nodiscard]] int max_moves() const { return int(moves_.size()); }
  [[nodiscard]] std::string name() const { return labels_.name(); }
  [[nodiscard]] State goal() const { return goal_; }
  [[nodiscard]] State start() const { return labels_.start(); }
  [[nodiscard]] std::vector<int> row_lengths() const { return labels_.rows(); }
  [[nodiscard]] std::string format(const State& s) const { return labels_.format(s); }
  [[nodiscard]] State parse(std::string_view text) const { return labels_.parse(text); }
  [[nodiscard]] const std::vector<Move>& moves() const { return moves_; }
  [[nodiscard]] const std::string& metric() const { return metric_; }

  [[nodiscard]] State apply(const State& s, const Move& m) const {
    State t;  // cells beyond n stay 0, so equal positions are equal arrays
    for (int i = 0; i < labels_.cells(); ++i) t.cell[std::size_t(i)] = s.cell[m.from[std::size_t(i)]];
    return t;
  }
  // Successors in the order of moves().
  template <class F>
  // By value: the caller may pass a reference into a queue that f grows.
  void for_each_successor(const State s, F&& f) const {
    for (const Move& m : moves_) f(apply(s, m));
  }

  // The first move taking `from` to `to` ("R", "U'", "F2"), or "?" when none does.
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  // Every arrangement of the start's labels, ascending (for --components), and how
  // many there are (saturated at 2^40, far beyond any memory budget).
  template <class F>
  void for_each_position(F&& f) const {
    State s = labels_.start();
    std::sort(s.cell.begin(), s.cell.begin() + labels_.cells());
    do {
      f(s);
    } while (std::next_permutation(s.cell.begin(), s.cell.begin() + labels_.cells()));
  }
  [[nodiscard]] std::uint64_t position_count() const { return arrangements(labels_.counts(), std::uint64_t(1) << 40); }

 private:
  CellLabels labels_;
  std::vector<Move> moves_;
  std::string metric_;
  State goal_;
};

static_assert(EnumerablePuzzle<CellPermutation>);

}  // namespace statespace
