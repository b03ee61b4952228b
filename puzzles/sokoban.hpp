// Sokoban levels as the community writes them (XSB: puzzles/xsb_file.hpp): a keeper
// walks the floor and pushes boxes one cell ahead into free floor; solved when every
// goal holds a box. Pushes cannot be undone, so the space is directed; the
// predecessors are the pulls (and the steps back), which give every position's
// distance to the goal and the dead positions exactly.
//
// Two metrics, as solvers and players rank solutions (the Sokoban Wiki's "Moves vs.
// pushes"):
//   moves   every keeper step is a move; a position is the boxes and the keeper's cell;
//   pushes  a move is one push and walking is free; a position is the boxes and the
//           region the keeper can reach, written with the keeper on the region's
//           first cell in reading order. Each pushes position stands for as many
//           moves positions as its region has cells.
//
// State: one 64-bit word. The floor cells (those the keeper reaches from the start,
// boxes ignored) are numbered in reading order; bit i holds a box on floor cell i
// (i < kMaxFloor), the top six bits the keeper's floor cell. The word is also the
// sorted-levels engine's packing, so its order is the positions' canonical order.
#pragma once

#include <absl/hash/hash.h>

#include <array>
#include <bit>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

enum class SokobanMetric : std::uint8_t { kPushes, kMoves };

struct SokobanState {
  std::uint64_t word = 0;
  friend auto operator<=>(const SokobanState&, const SokobanState&) = default;
  template <class H>
  friend H AbslHashValue(H h, const SokobanState& s) {
    return H::combine(std::move(h), s.word);
  }
};
static_assert(sizeof(SokobanState) == 8);

// A level as read: walls, floor, goals, boxes and the keeper on a grid of rows, each
// cell one character of XSB ('#' wall, ' ' outside or floor, '.' goal).
struct SokobanLevel {
  std::string name;   // the report folder's name
  std::string title;  // as the file gives it
  int rows = 0, cols = 0;
  std::string walls;              // per grid cell: '#' wall, '-' floor, ' ' outside
  std::vector<int> goals, boxes;  // grid cells
  int keeper = -1;                // grid cell
};

class SokobanPacking;

class Sokoban {
 public:
  static constexpr int kMaxFloor = 58;
  static constexpr int kKeeperShift = 58;
  static constexpr std::uint64_t kBoxMask = (std::uint64_t{1} << kMaxFloor) - 1;
  static constexpr int kNone = -1;
  using State = SokobanState;

  Sokoban() = default;
  // Throws ParseError when the level has more than kMaxFloor floor cells.
  Sokoban(SokobanLevel level, SokobanMetric metric);

  [[nodiscard]] std::string name() const { return level_.name; }
  [[nodiscard]] const std::string& title() const { return level_.title; }
  [[nodiscard]] const SokobanLevel& level() const { return level_; }
  [[nodiscard]] std::vector<int> row_lengths() const { return std::vector<int>(std::size_t(level_.rows), level_.cols); }
  // A push per box and direction; by steps, a step back and a pull per direction.
  [[nodiscard]] int max_moves() const { return metric_ == SokobanMetric::kMoves ? 8 : 4 * boxes_; }
  // The level's start (analyze and solve begin there); the goal is is_goal().
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] bool has_goal() const { return true; }
  [[nodiscard]] bool is_goal(const State& s) const { return (s.word & kBoxMask) == goal_boxes_; }
  [[nodiscard]] std::string goal_text() const { return "every box on a goal"; }
  [[nodiscard]] bool directed() const { return true; }
  [[nodiscard]] SokobanMetric metric() const { return metric_; }
  // What a distance counts: pushes, or moves.
  [[nodiscard]] std::string_view move_unit(bool plural) const {
    if (metric_ == SokobanMetric::kPushes) return plural ? "pushes" : "push";
    return plural ? "moves" : "move";
  }
  void set_metric(SokobanMetric m);
  // "pushes" or "moves": the metric by name; throws ParseError for another.
  void choose_metric(std::string_view name);

  // XSB rows, cells separated by spaces, rows by " / " ('_' floor, '.' goal, '$' box,
  // '*' box on a goal, '@' keeper, '+' keeper on a goal, '#' wall and outside).
  [[nodiscard]] std::string format(const State& s) const;
  // The notation above, or XSB lines (rows separated by newlines or '|'): the boxes
  // and the keeper are read, the walls and goals must be the level's.
  [[nodiscard]] State parse(std::string_view text) const;
  // parse(), the keeper left where the text puts him (lurd() starts from him).
  [[nodiscard]] State placed(std::string_view text) const;
  // The start with the keeper where the level puts him.
  [[nodiscard]] State placed_start() const;
  // The position as XSB lines, one per row, trailing outside cells left out.
  [[nodiscard]] std::string xsb(const State& s) const;

  // The goals, drawn under the boxes: "." on a goal cell, "" elsewhere.
  [[nodiscard]] std::vector<std::string> cell_marks() const;

  [[nodiscard]] int floor_cells() const { return int(cell_of_.size()); }
  [[nodiscard]] int boxes() const { return boxes_; }
  // The floor cells the keeper reaches in s (a bit per floor cell).
  [[nodiscard]] std::uint64_t region(const State& s) const { return reach(keeper_of(s), s.word & kBoxMask); }

  template <class F>
  void for_each_successor(const State& s, F&& f) const {
    std::uint64_t out[kMaxOut];
    const int n = successors(s.word, out);
    for (int i = 0; i < n; ++i) f(State{out[i]});
  }
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    std::uint64_t out[kMaxOut];
    const int n = predecessors(s.word, out);
    for (int i = 0; i < n; ++i) f(State{out[i]});
  }
  // Every placement of the boxes and the keeper, reachable or not (--components):
  // pushes positions once per region. Refused past kMaxListed placements.
  static constexpr std::uint64_t kMaxListed = std::uint64_t{1} << 24;
  template <class F>
  void for_each_position(F&& f) const {
    const int n = floor_cells();
    std::uint64_t count = std::uint64_t(n);
    for (int k = 0; k < boxes_ && count <= kMaxListed; ++k) count = count * std::uint64_t(n - k) / std::uint64_t(k + 1);
    if (count > kMaxListed) throw_too_many_placements();
    // The box sets in increasing order (Gosper's hack), then the keeper's cells.
    const std::uint64_t last = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    for (std::uint64_t set = (std::uint64_t{1} << boxes_) - 1; set <= last && set != 0;) {
      for (int k = 0; k < n; ++k) {
        if ((set >> k) & 1) continue;
        if (metric_ == SokobanMetric::kPushes && std::countr_zero(reach(k, set)) != k) continue;
        f(State{word(set, k)});
      }
      const std::uint64_t low = set & -set, ripple = set + low;
      if (ripple > last || ripple == 0) break;
      set = ripple | (((set ^ ripple) >> 2) / low);
    }
  }

  int successors(std::uint64_t w, std::uint64_t* out) const;
  int predecessors(std::uint64_t w, std::uint64_t* out) const;

  // "push up", "step left": the move from one position to the next.
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  // A solution from `from` in LURD (l u r d steps, L U R D pushes): of the fewest
  // pushes and then the fewest moves, or (metric moves) the fewest moves and then the
  // fewest pushes, found by a search of its own over boxes and the keeper's real
  // cell. Nothing when no goal is reachable. `pushes` and `steps` get its counts.
  [[nodiscard]] std::optional<std::string> lurd(const State& from, int* pushes = nullptr, int* steps = nullptr) const;
  // The position `lurd` leads to from `from`, the keeper where it stops; throws
  // ParseError at a letter that is not a legal step or push.
  [[nodiscard]] State replay(const State& from, std::string_view lurd) const;

  using Packing = SokobanPacking;
  [[nodiscard]] std::optional<SokobanPacking> packing(const State&) const;

  static constexpr int kMaxOut = 4 * kMaxFloor;

 private:
  [[noreturn]] void throw_too_many_placements() const;
  [[nodiscard]] int keeper_of(const State& s) const { return int(s.word >> kKeeperShift); }
  [[nodiscard]] std::uint64_t reach(int from, std::uint64_t boxes) const;
  [[nodiscard]] std::uint64_t word(std::uint64_t boxes, int keeper) const {
    return boxes | (std::uint64_t(keeper) << kKeeperShift);
  }
  // The pushes metric writes the keeper on the first cell of its region.
  [[nodiscard]] std::uint64_t normal(std::uint64_t boxes, int keeper) const {
    if (metric_ == SokobanMetric::kMoves) return word(boxes, keeper);
    return word(boxes, std::countr_zero(reach(keeper, boxes)));
  }

  SokobanLevel level_;
  SokobanMetric metric_ = SokobanMetric::kPushes;
  std::vector<int> cell_of_;              // floor cell -> grid cell
  std::vector<int> floor_of_;             // grid cell -> floor cell, or kNone
  std::vector<std::array<int, 4>> next_;  // floor cell, direction (u, r, d, l) -> floor cell or kNone
  std::uint64_t goal_boxes_ = 0;
  int boxes_ = 0;
  State start_{};
};

// The word is the state: successors and predecessors on words for the sorted-levels
// engine, and the goal test.
class SokobanPacking {
 public:
  explicit SokobanPacking(Sokoban model) : model_(std::move(model)) {}
  [[nodiscard]] std::uint64_t pack(const SokobanState& s) const { return s.word; }
  [[nodiscard]] SokobanState unpack(std::uint64_t w) const { return SokobanState{w}; }
  [[nodiscard]] int moves() const { return model_.max_moves(); }
  int successors(std::uint64_t w, std::uint64_t* out) const { return model_.successors(w, out); }
  int predecessors(std::uint64_t w, std::uint64_t* out) const { return model_.predecessors(w, out); }
  [[nodiscard]] bool is_goal(std::uint64_t w) const { return model_.is_goal(SokobanState{w}); }

 private:
  Sokoban model_;
};

inline std::optional<SokobanPacking> Sokoban::packing(const State&) const { return SokobanPacking(*this); }

static_assert(WordPackedPuzzle<Sokoban>);
static_assert(ReversiblePuzzle<Sokoban>);
static_assert(GoalPredicatePuzzle<Sokoban>);
static_assert(MoveNamingPuzzle<Sokoban>);
static_assert(LurdPuzzle<Sokoban>);
static_assert(EnumerablePuzzle<Sokoban>);
static_assert(MoveUnitPuzzle<Sokoban>);

}  // namespace statespace
