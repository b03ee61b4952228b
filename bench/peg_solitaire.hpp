// Peg solitaire on a board of at most 64 holes, written for the sorted-levels
// engine's benchmarks and tests (the rules files are the user's way to it): a
// position is one word, bit i set when hole i (row by row) holds a peg, and a jump
// (a peg over a neighbouring peg into a hole, the jumped peg removed) flips three
// bits. Moves never come back (one peg fewer each), so the space is directed and
// the packing is graded: grade = holes, one more a jump. The predecessors are the
// jumps read backwards, so the distance to the goal (pegs left, optionally one in a
// named hole) is known for every reachable position.
//
//   English board, 33 holes, centre empty: 187,636,299 positions reachable by jumps.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

class PegSolitaire {
 public:
  using State = std::uint64_t;
  // A jump as masks: the three holes, and the peg it needs and the hole it fills.
  struct Jump {
    std::uint64_t all = 0;   // from | over | to
    std::uint64_t pegs = 0;  // from | over: must hold pegs
    std::uint64_t hole = 0;  // to: must be empty
  };

  // `rows`: one character a cell, 'O' a peg, '.' a hole, anything else off the board.
  // The goal: `goal_pegs` pegs left, in hole `goal_hole` when that is not -1.
  PegSolitaire(std::string name, std::vector<std::string> rows, int goal_pegs = 1, int goal_hole = -1)
      : name_(std::move(name)), rows_(std::move(rows)), goal_pegs_(goal_pegs), goal_hole_(goal_hole) {
    std::vector<std::vector<int>> hole(rows_.size());
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      int in_row = 0;
      for (const char c : rows_[r]) {
        const bool on = c == 'O' || c == '.';
        hole[r].push_back(on ? holes_ : -1);
        if (on) start_ |= State{c == 'O'} << holes_++, ++in_row;
      }
      row_lengths_.push_back(in_row);
    }
    if (holes_ > 64) throw std::invalid_argument(name_ + ": more than 64 holes");
    const auto at = [&](long r, long c) {
      if (r < 0 || r >= long(hole.size()) || c < 0 || c >= long(hole[std::size_t(r)].size())) return -1;
      return hole[std::size_t(r)][std::size_t(c)];
    };
    constexpr std::pair<int, int> kDirections[] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    for (long r = 0; r < long(hole.size()); ++r) {
      for (long c = 0; c < long(hole[std::size_t(r)].size()); ++c) {
        for (const auto& [dr, dc] : kDirections) {
          const int a = at(r, c), b = at(r + dr, c + dc), t = at(r + 2 * dr, c + 2 * dc);
          if (a < 0 || b < 0 || t < 0) continue;
          const State from = State{1} << a, over = State{1} << b, to = State{1} << t;
          jumps_.push_back({from | over | to, from | over, to});
        }
      }
    }
  }

  [[nodiscard]] int max_moves() const { return int(jumps_.size()); }
  [[nodiscard]] std::string name() const { return name_; }
  [[nodiscard]] State goal() const { return start_; }  // the start: engines search from goal() by default
  [[nodiscard]] std::vector<int> row_lengths() const { return row_lengths_; }
  [[nodiscard]] int holes() const { return holes_; }
  [[nodiscard]] const std::vector<Jump>& jumps() const { return jumps_; }
  [[nodiscard]] std::string format(const State& s) const {
    std::string out;
    int i = 0;
    for (const int n : row_lengths_) {
      if (!out.empty()) out += " / ";
      for (int k = 0; k < n; ++k, ++i) out += (s >> i & 1) ? 'O' : '.';
    }
    return out;
  }
  [[nodiscard]] State parse(std::string_view text) const {
    State s = 0;
    int i = 0;
    for (const char c : text) {
      if (c != 'O' && c != '.') continue;
      if (i == holes_) throw std::invalid_argument("more cells than holes");
      s |= State{c == 'O'} << i++;
    }
    if (i != holes_) throw std::invalid_argument("fewer cells than holes");
    return s;
  }
  template <class F>
  void for_each_successor(const State s, F&& f) const {
    for (const Jump& j : jumps_) {
      if ((s & j.all) == j.pegs) f(s ^ j.all);
    }
  }
  template <class F>
  void for_each_predecessor(const State s, F&& f) const {
    for (const Jump& j : jumps_) {
      if ((s & j.all) == j.hole) f(s ^ j.all);
    }
  }
  [[nodiscard]] bool directed() const { return true; }
  [[nodiscard]] bool has_goal() const { return true; }
  [[nodiscard]] bool is_goal(const State& s) const {
    return std::popcount(s) == goal_pegs_ && (goal_hole_ < 0 || (s >> goal_hole_ & 1));
  }
  [[nodiscard]] std::string goal_text() const {
    return std::to_string(goal_pegs_) + (goal_pegs_ == 1 ? " peg" : " pegs") +
           (goal_hole_ < 0 ? "" : " (one in hole " + std::to_string(goal_hole_) + ")");
  }

  // The words are the positions themselves.
  class Packing {
   public:
    explicit Packing(const PegSolitaire& p) : jumps_(p.jumps_), holes_(p.holes_) {
      // The jumps by the top `bits` bits they flip, for successors_within().
      for (int bits = 1; bits <= std::min(kMaxBits, holes_); ++bits) {
        auto& groups = by_top_[std::size_t(bits)];
        groups.resize(std::size_t(1) << bits);
        for (const Jump& j : jumps_) groups[std::size_t(j.all >> (holes_ - bits))].push_back(j);
      }
    }
    [[nodiscard]] std::uint64_t pack(const State& s) const { return s; }
    [[nodiscard]] State unpack(std::uint64_t w) const { return w; }
    [[nodiscard]] int moves() const { return int(jumps_.size()); }
    // Every word is below 2^word_bits(), and every jump changes it.
    [[nodiscard]] int word_bits() const { return holes_; }
    [[nodiscard]] int grade(std::uint64_t w) const { return holes_ - std::popcount(w); }
    int successors(std::uint64_t w, std::uint64_t* out) const {
      std::uint64_t* next = out;
      for (const Jump& j : jumps_) {
        *next = w ^ j.all;
        next += (w & j.all) == j.pegs;  // written always, kept when the jump is legal: no branch
      }
      return int(next - out);
    }
    // The successors whose top `bits` bits are `high`: those of the jumps that flip
    // the top bits of w into high.
    int successors_within(std::uint64_t w, std::uint64_t* out, int bits, std::uint64_t high) const {
      if (bits > kMaxBits) return filtered(w, out, bits, high);
      std::uint64_t* next = out;
      for (const Jump& j : by_top_[std::size_t(bits)][std::size_t((w >> (holes_ - bits)) ^ high)]) {
        *next = w ^ j.all;
        next += (w & j.all) == j.pegs;
      }
      return int(next - out);
    }
    int predecessors(std::uint64_t w, std::uint64_t* out) const {
      std::uint64_t* next = out;
      for (const Jump& j : jumps_) {
        *next = w ^ j.all;
        next += (w & j.all) == j.hole;
      }
      return int(next - out);
    }

   private:
    static constexpr int kMaxBits = 8;
    int filtered(std::uint64_t w, std::uint64_t* out, int bits, std::uint64_t high) const {
      int k = 0;
      for (const Jump& j : jumps_) {
        if ((w & j.all) == j.pegs && ((w ^ j.all) >> (holes_ - bits)) == high) out[k++] = w ^ j.all;
      }
      return k;
    }
    std::vector<Jump> jumps_;
    int holes_;
    std::array<std::vector<std::vector<Jump>>, kMaxBits + 1> by_top_;
  };
  [[nodiscard]] std::optional<Packing> packing(const State&) const { return Packing(*this); }

 private:
  std::string name_;
  std::vector<std::string> rows_;
  std::vector<int> row_lengths_;
  std::vector<Jump> jumps_;
  State start_ = 0;
  int holes_ = 0;
  int goal_pegs_ = 1;
  int goal_hole_ = -1;
};

static_assert(WordPackedPuzzle<PegSolitaire> && ReversiblePuzzle<PegSolitaire>);
static_assert(GradedPacking<PegSolitaire::Packing> && ReversiblePacking<PegSolitaire::Packing> &&
              RangedPacking<PegSolitaire::Packing>);

// The English board, 33 holes, every hole a peg but the centre.
inline PegSolitaire english_peg_solitaire() {
  return PegSolitaire("peg-english", {"  OOO  ", "  OOO  ", "OOOOOOO", "OOO.OOO", "OOOOOOO", "  OOO  ", "  OOO  "}, 1,
                      16);
}

}  // namespace statespace
