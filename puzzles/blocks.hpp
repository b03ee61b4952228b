// Sliding-block puzzles read from a file (kind = "blocks"): pieces of any shape on a
// rectangular board with walls, moved by one of three metrics of the sliding-block
// literature:
//   step   one piece moves one cell;
//   slide  one piece moves any distance in one straight line;
//   path   one piece moves anywhere it can reach by steps while the rest stay.
//
// State: one byte per board cell, row by row (at most kMaxCells cells): 0 empty,
// kWall a wall, else the piece's class code (1 + its class's index). Interchangeable
// pieces share a class code, so positions that differ only by swapping them are equal
// arrays. The pieces are recovered from the codes: a piece never rotates, so the first
// uncovered cell of a class in reading order is the first cell of one of its pieces,
// and reading the board greedily yields the placement of every piece uniquely.
// Placements are 64-bit cell masks, precomputed per class and anchor cell.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/byte_cells.hpp"
#include "core/puzzle.hpp"
#include "puzzles/picture.hpp"

namespace statespace {

enum class BlockMoves : std::uint8_t { kStep, kSlide, kPath };

// "step" / "slide" / "path"; parse_block_moves returns false on anything else.
std::string_view block_moves_name(BlockMoves m);
bool parse_block_moves(std::string_view text, BlockMoves& out);

// Which way a piece may move.
enum class Axis : std::uint8_t { kBoth, kHorizontal, kVertical };

class BlocksPacking;

class Blocks {
 public:
  static constexpr int kMaxCells = 48;
  static constexpr std::uint8_t kEmpty = 0;
  static constexpr std::uint8_t kWall = 255;
  // Every cell of a piece prints the piece's letter (board pictures draw it whole).
  static constexpr bool kPiecesByLabel = true;
  using State = ByteCells<kMaxCells>;
  using Mask = std::uint64_t;
  // A piece on the board; trivial, so arrays of them cost nothing to declare.
  struct Piece {
    std::uint8_t first;   // class code
    std::uint8_t second;  // anchor cell
  };
  static_assert(kMaxCells <= 64, "placements are 64-bit cell masks");

  // Pieces of one class: one shape, interchangeable, printed with `letters` in order
  // of their first cells (reading order).
  struct PieceClass {
    std::string letters;
    std::vector<std::pair<int, int>> shape;  // (row, column) offsets from the first cell
    Axis axis = Axis::kBoth;
  };

  // What a goal requires: pieces of given classes standing at given anchors, and
  // cells that must be empty. Empty when the file has no goal.
  struct Goal {
    std::vector<std::pair<std::uint8_t, int>> pieces;  // (class code, anchor cell)
    Mask empty = 0;
    std::string text;  // the goal picture in position notation, '*' for any
  };

  Blocks() = default;
  // `walls` marks wall cells; `start` is the position analyses start from by default.
  Blocks(std::string name, int rows, int cols, std::vector<PieceClass> classes, Mask walls, State start, Goal goal,
         BlockMoves moves);

  [[nodiscard]] std::string name() const { return name_; }
  [[nodiscard]] std::vector<int> row_lengths() const { return std::vector<int>(rows_, cols_); }
  [[nodiscard]] int max_moves() const { return max_moves_; }
  // The file's start: the default start of analyze and solve.
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] std::string format(const State& s) const;
  [[nodiscard]] State parse(std::string_view text) const;

  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }
  [[nodiscard]] const std::vector<PieceClass>& classes() const { return classes_; }
  [[nodiscard]] BlockMoves moves() const { return moves_; }
  void set_moves(BlockMoves m);

  // The goal predicate, when the file has one.
  [[nodiscard]] bool has_goal() const { return !goal_.pieces.empty() || goal_.empty != 0; }
  [[nodiscard]] bool is_goal(const State& s) const;
  [[nodiscard]] const std::string& goal_text() const { return goal_.text; }

  // How many placements of the piece set there are, counting up to `limit` only
  // (returns min(count, limit)): a cheap size for listings, without states.
  [[nodiscard]] std::uint64_t count_placements(std::uint64_t limit) const;

  // Every placement of the piece set on the board, reachable or not.
  template <class F>
  void for_each_position(F&& f) const {
    State s = empty_board();
    place_class(0, walls_, s, f);
  }

  template <class F>
  void for_each_successor(const State& s, F&& f) const {
    std::array<Piece, kMaxCells> pieces;
    const Mask occupied = filled(s);
    const int n = decompose(s, occupied & ~walls_, pieces.data());
    for_each_move(pieces.data(), n, occupied, [&](int i, int at) {
      const auto [code, anchor] = pieces[std::size_t(i)];
      f(moved(s, code, placement(code, anchor), at));
    });
  }

  // Calls f(i, at) for every move of the metric: piece i of pieces[0, n) to anchor
  // `at`, the others staying where they are; `occupied` holds the walls and every
  // piece's cells. Both the byte states and the packed words (BlocksPacking) move
  // through this one definition of the moves.
  template <class F>
  void for_each_move(const Piece* pieces, int n, Mask occupied, F&& f) const {
    if (moves_ != BlockMoves::kPath) {
      for_each_straight_move(pieces, n, occupied, f);
      return;
    }
    // The path metric: breadth first over the anchors each piece reaches alone.
    for (int i = 0; i < n; ++i) {
      const auto [code, anchor] = pieces[i];
      const Mask others = (occupied | kBlocked) & ~placement(code, anchor);
      Mask seen = Mask(1) << anchor;
      std::array<std::uint8_t, kMaxCells> queue;
      int head = 0, tail = 0;
      queue[tail++] = anchor;
      while (head < tail) {
        const int at = queue[head++];
        for (int d = 0; d < 4; ++d) {
          const int next = at + step_[std::size_t(d)];
          if ((entered(code, at, d) & others) || (seen >> next & 1)) continue;
          seen |= Mask(1) << next;
          queue[tail++] = std::uint8_t(next);
          f(i, next);
        }
      }
    }
  }

 private:
  // The step and slide moves of the byte states, a piece's place being its anchor.
  template <class F>
  void for_each_straight_move(const Piece* pieces, int n, Mask occupied, F& f) const {
    struct Places {
      const Blocks& model;
      const Piece* pieces;
      Mask occupied;
      [[nodiscard]] unsigned free_steps(int i) const {
        const auto [code, anchor] = pieces[i];
        const Mask blocking = others(i);
        const Mask* e = &model.entered_[(std::size_t(code - 1) * std::size_t(model.cells_) + anchor) * 4];
        unsigned can = 0;
        for (int d = 0; d < 4; ++d) can |= unsigned((e[d] & blocking) == 0) << d;
        return can;
      }
      [[nodiscard]] int first(int i, int d) const { return next(i, pieces[i].second, d); }
      [[nodiscard]] Mask others(int i) const { return occupied & ~model.placement(pieces[i].first, pieces[i].second); }
      [[nodiscard]] Mask entered(int i, int at, int d) const { return model.entered(pieces[i].first, at, d); }
      [[nodiscard]] int next(int /*i*/, int at, int d) const { return at + model.step_[std::size_t(d)]; }
    };
    walk_straight_moves(Places{*this, pieces, occupied | kBlocked}, n, moves_ == BlockMoves::kSlide, f);
  }

 public:
  // The walk of the step and slide moves, shared by the byte states and the packed
  // words (BlocksPacking). Which pieces can take a first step which way is found for
  // 16 pieces at a time into one bit mask, without a branch per test (the outcomes
  // are unpredictable, and most are no); the moves are then read off the set bits, in
  // the order of the pieces and directions. A piece's place is an int, which
  // `places` interprets: free_steps(i) has bit d set when piece i's step d enters no
  // occupied cell, first(i, d) is where that step leads; others(i) are the cells a
  // slide of piece i may not enter (it may re-enter those it left), entered(i, at, d)
  // and next(i, at, d) what a later step d from `at` enters and where it leads.
  // Calls f(i, at) for every move of piece i to `at`.
  template <class Places, class F>
  static void walk_straight_moves(const Places& places, int n, bool slide, F& f) {
    for (int base = 0; base < n; base += 16) {
      const int end = std::min(n, base + 16);
      std::uint64_t can = 0;
      for (int i = base; i < end; ++i) can |= std::uint64_t(places.free_steps(i)) << ((i - base) * 4);
      for (; can; can &= can - 1) {
        const int bit = std::countr_zero(can), i = base + bit / 4, d = bit % 4;
        int at = places.first(i, d);
        f(i, at);
        if (!slide) continue;
        for (const Mask others = places.others(i); !(places.entered(i, at, d) & others);) {
          at = places.next(i, at, d);
          f(i, at);
        }
      }
    }
  }

  // The cells a piece of class `code` covers at `anchor`; 0 when it does not fit the
  // board there.
  [[nodiscard]] Mask placement(std::uint8_t code, int anchor) const {
    return placements_[std::size_t(code - 1) * std::size_t(cells_) + std::size_t(anchor)];
  }
  // The cells a piece of class `code` at `anchor` enters by one step in direction d,
  // or kBlocked when it may not take that step (the board's edge, a wall, its axis).
  [[nodiscard]] Mask entered(std::uint8_t code, int anchor, int d) const {
    return entered_[(std::size_t(code - 1) * std::size_t(cells_) + std::size_t(anchor)) * 4 + std::size_t(d)];
  }
  static constexpr Mask kBlocked = Mask(1) << 63;  // set in every `others` mask
  [[nodiscard]] Mask walls() const { return walls_; }
  [[nodiscard]] int cells() const { return cells_; }
  // Pieces per class, in class order.
  [[nodiscard]] const std::vector<int>& counts() const { return counts_; }
  // The walls and nothing else.
  [[nodiscard]] State empty_board() const;

  // The positions as words of piece anchors (BlocksPacking), when they fit 64 bits.
  using Packing = BlocksPacking;
  [[nodiscard]] std::optional<Packing> packing(const State& s) const;

  // The pieces of s as (class code, anchor cell), in reading order of their anchors;
  // returns how many.
  int decompose(const State& s, Piece* out) const { return decompose(s, filled(s) & ~walls_, out); }

 private:
  // The cells of s that hold a piece or a wall.
  [[nodiscard]] static Mask filled(const State& s) {
#if defined(__SSE2__)
    static_assert(kMaxCells == 48);
    const __m128i zero = _mm_setzero_si128();
    const auto empty = [&](int at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cell.data() + at));
      return Mask(std::uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero))));
    };
    return ~(empty(0) | empty(16) << 16 | empty(32) << 32) & ((Mask(1) << kMaxCells) - 1);
#else
    Mask m = 0;
    for (int c = 0; c < kMaxCells; ++c) m |= Mask(s.cell[c] != kEmpty) << c;
    return m;
#endif
  }
  // Reads the pieces greedily: the first cell of `pieces` (the cells holding one) in
  // reading order is a piece's anchor, whose placement its code gives.
  int decompose(const State& s, Mask pieces, Piece* out) const {
    int n = 0;
    while (pieces) {
      const int c = __builtin_ctzll(pieces);
      const std::uint8_t code = s.cell[c];
      pieces &= ~(placement(code, c) | Mask(1) << c);  // the anchor too: progress even on a malformed state
      out[n++] = {code, std::uint8_t(c)};
    }
    return n;
  }
  static bool allowed(Axis a, int d) {  // directions: 0 up, 1 left, 2 right, 3 down
    return a == Axis::kBoth || (a == Axis::kHorizontal) == (d == 1 || d == 2);
  }
  [[nodiscard]] State moved(const State& s, std::uint8_t code, Mask from, int anchor) const {
    State t = s;
    for (Mask m = from; m; m &= m - 1) t.cell[__builtin_ctzll(m)] = kEmpty;
    for (Mask m = placement(code, anchor); m; m &= m - 1) t.cell[__builtin_ctzll(m)] = code;
    return t;
  }
  // Places the pieces of class index `cls` and of the classes after it; calls f with
  // every complete placement. A class's pieces take ascending anchors, so each set of
  // places is listed once.
  template <class F>
  void place_class(std::size_t cls, Mask occupied, State& s, F& f) const {
    if (cls == classes_.size()) {
      f(static_cast<const State&>(s));
      return;
    }
    place_from(cls, counts_[cls], 0, occupied, s, f);
  }
  template <class F>
  void place_from(std::size_t cls, int left, int from, Mask occupied, State& s, F& f) const {
    if (left == 0) {
      place_class(cls + 1, occupied, s, f);
      return;
    }
    const auto code = std::uint8_t(cls + 1);
    for (int a = from; a < cells_; ++a) {
      const Mask m = placement(code, a);
      if (!m || (m & occupied)) continue;
      for (Mask b = m; b; b &= b - 1) s.cell[__builtin_ctzll(b)] = code;
      place_from(cls, left - 1, a + 1, occupied | m, s, f);
      for (Mask b = m; b; b &= b - 1) s.cell[__builtin_ctzll(b)] = kEmpty;
    }
  }

  std::string name_;
  int rows_ = 0, cols_ = 0, cells_ = 0;
  std::vector<PieceClass> classes_;
  std::vector<int> counts_;       // pieces per class
  std::vector<Mask> placements_;  // [class][anchor]: the cells covered, 0 when off the board
  std::vector<Mask> entered_;     // [class][anchor][direction]: entered()
  std::array<int, 4> step_{};     // anchor change per direction
  Mask walls_ = 0;
  State start_{};
  Goal goal_;
  BlockMoves moves_ = BlockMoves::kStep;
  int max_moves_ = 0;
};

static_assert(EnumerablePuzzle<Blocks>);

class TomlInput;
// The model a kind = "blocks" file describes; throws ParseError (FILE:LINE:COLUMN:).
Blocks load_blocks(const TomlInput& file);

[[noreturn]] void throw_bad_moves(std::string_view moves);
[[noreturn]] void throw_moves_not_applicable(const std::string& name);

// Applies a --moves override to models that have move metrics; throws UsageError
// for the others.
template <class P>
void override_moves(P& p, std::string_view moves) {
  if constexpr (requires { p.set_moves(BlockMoves::kStep); }) {
    BlockMoves m{};
    if (!parse_block_moves(moves, m)) {
      throw_bad_moves(moves);
    }
    p.set_moves(m);
  } else {
    throw_moves_not_applicable(p.name());
  }
}

}  // namespace statespace

// BlocksPacking needs the complete Blocks; whoever includes this header gets both.
#include "puzzles/blocks_packing.hpp"
