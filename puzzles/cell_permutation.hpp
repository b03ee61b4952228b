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
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/puzzle.hpp"
#include "puzzles/cell_labels.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

// The positions reachable from one start as words (64-bit, or 128-bit ones when the
// moving cells need more), for the sorted-levels engine. Cells no move touches keep
// the start's labels and are left out; each other cell's code takes `bits` bits, the
// first cell in the highest ones, so word order is the positions' order
// (lexicographic by cell). A move permutes whole cell fields, so it is a permutation
// of the word's bits, applied one byte at a time through tables: successor = OR over
// bytes k of table[move][k][byte k].
//
//   2x2x2 cube (R U F): 21 moving stickers x 3 bits (6 colours) = 63 bits.
//   Skewb Diamond: 32 stickers x 3 bits (8 colours) = 96 bits, in a 128-bit word.
template <class W>
class BasicCellPacking {
 public:
  using Word = W;
  using Permutation = std::array<std::uint8_t, CellState::kMaxCells>;  // a Move's `from`
  static constexpr int kWordBits = int(8 * sizeof(Word));
  // Nothing when the moving cells need more than the word's bits.
  static std::optional<BasicCellPacking> make(const std::vector<Permutation>& moves, const CellState& start, int cells,
                                              int codes);

  [[nodiscard]] Word pack(const CellState& s) const {
    Word w = 0;
    for (const std::uint8_t cell : moving_) w = (w << bits_) | s.cell[cell];
    return w;
  }
  [[nodiscard]] CellState unpack(Word w) const {
    CellState s = start_;
    const Word mask = (Word{1} << bits_) - 1;
    for (auto cell = moving_.rbegin(); cell != moving_.rend(); ++cell, w >>= bits_) {
      s.cell[*cell] = std::uint8_t(w & mask);
    }
    return s;
  }
  [[nodiscard]] int moves() const { return moves_; }
  // The bits of the word in use: moving cells times bits a cell (at most the word's).
  [[nodiscard]] int width() const { return int(moving_.size()) * bits_; }
  int successors(Word w, Word* out) const {
    std::array<std::uint8_t, sizeof(Word)> byte{};
    for (int k = 0; k < bytes_; ++k) byte[std::size_t(k)] = std::uint8_t(w >> (8 * k));
    const Word* table = table_.data();
    for (int m = 0; m < moves_; ++m) {
      Word t = 0;
      for (int k = 0; k < bytes_; ++k, table += 256) t |= table[byte[std::size_t(k)]];
      out[m] = t;
    }
    return moves_;
  }

 private:
  std::vector<std::uint8_t> moving_;  // the cells that move, ascending
  int bits_ = 1;                      // per cell
  int bytes_ = 1;                     // of the word in use
  int moves_ = 0;
  CellState start_;          // the cells that never move keep its labels
  std::vector<Word> table_;  // [move][byte][value]
};
using CellPacking = BasicCellPacking<std::uint64_t>;
using WideCellPacking = BasicCellPacking<unsigned __int128>;

class CellPermutation {
 public:
  using State = CellState;
  using Packing = CellPacking;
  using WidePacking = WideCellPacking;
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
  [[nodiscard]] int cells() const { return labels_.cells(); }
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

  // Nothing when the positions reachable from s need more than 64 bits.
  [[nodiscard]] std::optional<Packing> packing(const State& s) const;
  // The same in 128-bit words: nothing when they need more than 128 bits.
  [[nodiscard]] std::optional<WidePacking> wide_packing(const State& s) const;

  // The first move taking `from` to `to` ("R", "U'", "F2"), or "?" when none does.
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  // Every arrangement of the start's labels, ascending (for --components), and how
  // many there are (saturated at 2^40, far beyond any memory budget).
  template <class F>
  void for_each_position(F&& f) const {
    State s = labels_.start();
    const int n = labels_.cells();
    std::sort(s.cell.begin(), s.cell.begin() + n);
    do {
      f(s);
    } while (next_arrangement(s.cell.data(), n));
  }
  [[nodiscard]] std::uint64_t position_count() const { return arrangements(labels_.counts(), std::uint64_t(1) << 40); }

 private:
  // The next arrangement in lexicographic order (Narayana Pandita's algorithm, the one
  // std::next_permutation implements); false after the last. Written out because GCC 12
  // at -O3 reports a -Wstringop-overflow false positive in std::next_permutation's
  // reversal when it runs over a State's cells.
  static bool next_arrangement(std::uint8_t* c, int n) {
    int i = n - 2;
    while (i >= 0 && c[i] >= c[i + 1]) --i;
    if (i < 0) return false;
    int j = n - 1;
    while (c[j] <= c[i]) --j;
    std::swap(c[i], c[j]);
    for (int a = i + 1, b = n - 1; a < b; ++a, --b) std::swap(c[a], c[b]);
    return true;
  }

  CellLabels labels_;
  std::vector<Move> moves_;
  std::string metric_;
  State goal_;
};

static_assert(EnumerablePuzzle<CellPermutation>);
static_assert(WordPackedPuzzle<CellPermutation>);
static_assert(WidePackedPuzzle<CellPermutation>);

}  // namespace statespace
