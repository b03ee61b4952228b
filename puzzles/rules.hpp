// Puzzles whose moves are local rewrites of a board (kind = "rules"): peg solitaire,
// frogs and toads, Sokoban, Lights Out, oshidori. A file draws the start as a picture
// (one character per cell, '#' outside the board, '.' empty, a capital letter or a
// digit a piece, equal characters interchangeable) and gives rules: a pattern and its
// replacement, placed on the board in the directions the rule names. The loader
// (puzzles/rules_file.cpp) expands every rule into its instances: one placement, one
// direction, variables and alternatives resolved. The model is then a list of
// instances, each a few cells with what each must hold and what it becomes; byte
// states and packed words both move through that one list.
//
// State: one byte per picture cell, row by row (at most kMaxCells): kEmpty, kOutside
// for the cells off the board, else the piece's code (1 + its index in letters()).
//
// Metrics: `step` (one instance applied) and `chain` (a run of applications by one
// piece is one move: each application after the first starts where the one before
// put its piece, as in peg solitaire's multi-jumps).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/byte_cells.hpp"
#include "core/puzzle.hpp"
#include "puzzles/sokoban.hpp"

namespace statespace {

enum class RuleMetric : std::uint8_t { kStep, kChain };

// The board's cells: a square grid, or the triangular lattice (six neighbours a cell:
// the holes of a triangular peg board, the cells of a hexagonal one). A lattice board
// is drawn with each row shifted half a cell from the next and stored on the square
// grid in axial coordinates: row r, and c counting along the row so that a cell's six
// neighbours are (r, c +- 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1).
enum class Lattice : std::uint8_t { kSquare, kTriangular };

// A chain that reaches more positions than max_moves() promised: the successor
// buffers were sized by that bound, so the run stops rather than overrun them.
[[noreturn]] void throw_chain_overflow(const std::string& name, int bound);
// A listing of every arrangement (--components) past Rules::kMaxListed.
[[noreturn]] void throw_too_many_to_list(const std::string& name, std::size_t cells, std::uint64_t values);

class RulesPacking;

class Rules {
 public:
  static constexpr int kMaxCells = 64;
  static constexpr std::uint8_t kEmpty = 0;
  static constexpr std::uint8_t kOutside = 255;
  static constexpr std::uint8_t kAny = 254;   // a cell's `want`: anything; its `put`: left as it is
  static constexpr std::uint8_t kNone = 255;  // an instance without a moving piece
  using State = ByteCells<kMaxCells>;

  // One cell of an instance: it matches when want is kAny or the cell holds want, and
  // becomes put (or, put being kAny, its content XOR flip: a toggle).
  struct Cell {
    std::uint8_t at = 0;
    std::uint8_t want = kAny;
    std::uint8_t put = kAny;
    std::uint8_t flip = 0;
    friend auto operator<=>(const Cell&, const Cell&) = default;
  };
  // One placement of a rule. mover: the cell the moving piece leaves (the first cell
  // of the pattern that a piece empties), landing: where it arrives (the first cell
  // the replacement fills); kNone when there is none. The chain metric reads them.
  struct Instance {
    std::vector<Cell> cells;  // ascending cells
    std::uint8_t mover = kNone;
    std::uint8_t landing = kNone;
    int rule = 0;  // index into rule_names()
    friend auto operator<=>(const Instance&, const Instance&) = default;
  };
  // A goal: cells that must hold given content (kAny elsewhere), a number of pieces,
  // and a piece that must stand on every mark of the static layer; each optional.
  struct Goal {
    std::vector<std::uint8_t> want;  // per cell; empty when no picture
    std::optional<int> pieces;
    std::uint8_t on_marks = kEmpty;  // a code, or kEmpty for none
    std::string text;                // as the reports show it
    [[nodiscard]] bool empty() const { return want.empty() && !pieces && on_marks == kEmpty; }
  };

  Rules() = default;
  // `letters[k]` prints code k + 1; `marks` holds the static layer's character per
  // cell (' ' for none). The reverse instances and directed() follow from `forward`.
  Rules(std::string name, int rows, int cols, std::string letters, State start, std::string marks,
        std::vector<Instance> forward, std::vector<std::string> rule_names, Goal goal, RuleMetric metric);

  [[nodiscard]] std::string name() const { return name_; }
  [[nodiscard]] std::vector<int> row_lengths() const { return std::vector<int>(std::size_t(rows_), cols_); }
  [[nodiscard]] int max_moves() const { return metric_ == RuleMetric::kChain ? 4 * step_moves() : step_moves(); }
  // The file's start: where analyze and solve begin by default.
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] std::string format(const State& s) const;
  [[nodiscard]] State parse(std::string_view text) const;

  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }
  [[nodiscard]] int cells() const { return rows_ * cols_; }
  [[nodiscard]] const std::string& letters() const { return letters_; }
  [[nodiscard]] const std::string& marks() const { return marks_; }
  // marks() per cell as drawn: "" for none.
  [[nodiscard]] std::vector<std::string> cell_marks() const {
    std::vector<std::string> out;
    for (const char c : marks_) out.push_back(c == ' ' ? std::string() : std::string(1, c));
    return out;
  }
  [[nodiscard]] const std::vector<Instance>& instances() const { return forward_; }
  [[nodiscard]] const std::vector<Instance>& reverse_instances() const { return backward_; }
  [[nodiscard]] const std::vector<std::string>& rule_names() const { return rule_names_; }

  // A lattice board: `drawn` per cell (1 where the picture has a character, '#'
  // included), and `column_of_origin`, where cell (0, 0) stands in the drawing
  // (column x = column_of_origin + 2c - r). The board's symmetries are then the
  // lattice's twelve, as far as they map the board onto itself.
  void set_lattice(std::vector<std::uint8_t> drawn, int column_of_origin);
  [[nodiscard]] Lattice lattice() const { return lattice_; }
  // The row and the column (square) or the place along the row among its drawn
  // cells (lattice) of cell c, counted from 1, as move names and `at` give them.
  [[nodiscard]] std::pair<int, int> cell_name(int c) const;
  [[nodiscard]] RuleMetric metric() const { return metric_; }
  void set_moves(RuleMetric m) { metric_ = m; }

  // Some move cannot be undone by a move: the rules read backwards are not rules.
  [[nodiscard]] bool directed() const { return directed_; }

  // symmetry = "board": the rotations and reflections of the board that map the
  // board, the static layer, the goal and the rules onto themselves (the board's
  // group), and of those the ones that also fix the start (its stabiliser), which
  // are the ones used: an image of a position the start reaches is then reached too,
  // at the same depth, so a class's members are positions the start really reaches.
  // Positions stand for their classes, each written as its least member (byte order,
  // reading order of the cells): successors, predecessors, parse() and the start are
  // all least members. Returns the order of the board's group, the identity
  // included; symmetries() is the order of the group used.
  int use_board_symmetry();
  // Counts from the position `text` names (analyze --from): with symmetry, the group
  // used becomes the symmetries of the board's group that fix that position (and the
  // file's start too where it is the goal), so that the classes stand for the
  // positions it really reaches. Nothing to do without symmetry; ParseError for a bad
  // position.
  void start_at(std::string_view text);
  [[nodiscard]] int symmetries() const { return int(symmetries_.size()) + 1; }
  [[nodiscard]] int board_symmetries() const { return board_symmetries_; }
  // Which group counts the positions, for the reports: empty without symmetry.
  [[nodiscard]] std::string symmetry_group() const;
  // A path of classes or positions, each a successor of the one before up to
  // symmetry (a search's path, a table walk's), as positions: each a successor of the position before, the first the
  // path's own, each in its class. Every step is then one of the file's moves, and
  // the last a goal when the last class is one (the group fixes the goal).
  [[nodiscard]] std::vector<State> unfold(const std::vector<State>& path) const;
  // The least member of s's class; s itself without symmetry.
  [[nodiscard]] State canonical(const State& s) const { return canonical(symmetries_, s); }
  // How many positions s's class holds (1 to symmetries()).
  [[nodiscard]] std::uint64_t orbit_size(const State& s) const;
  using CellMap = std::array<std::uint8_t, kMaxCells>;  // cell -> its image
  static State canonical(const std::vector<CellMap>& maps, const State& s) {
    State best = s;
    for (const CellMap& g : maps) {
      State t = s;
      for (std::size_t c = 0; c < std::size_t(kMaxCells); ++c) t.cell[g[c]] = s.cell[c];
      if (t < best) best = t;
    }
    return best;
  }
  [[nodiscard]] const std::vector<CellMap>& symmetry_maps() const { return symmetries_; }

  [[nodiscard]] bool has_goal() const { return !goal_.empty(); }
  [[nodiscard]] bool is_goal(const State& s) const;
  [[nodiscard]] const std::string& goal_text() const { return goal_.text; }
  [[nodiscard]] const Goal& goal_test() const { return goal_; }

  template <class F>
  void for_each_successor(const State& s, F&& f) const {
    moves_of(forward_, s, f);
  }
  // Each move's successor as a position, never its class (PositionStepPuzzle).
  template <class F>
  void for_each_position_successor(const State& s, F&& f) const {
    moves_of_positions(forward_, s, f);
  }
  // The positions with s among their successors: the rules read backwards.
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const {
    moves_of(backward_, s, f);
  }

  // How many fillings of the board's cells with the pieces and empty cells there are,
  // reachable or not, up to 2^40 (for `statespace list`).
  [[nodiscard]] std::uint64_t position_count() const {
    std::uint64_t n = 1;
    for (int c = 0; c < cells() && n < (std::uint64_t(1) << 40); ++c) {
      if (start_.cell[std::size_t(c)] != kOutside) n *= letters_.size() + 1;
    }
    return std::min(n, std::uint64_t(1) << 40);
  }
  // Every filling of the board's cells with the pieces and empty cells, reachable or
  // not (for --components); refused past kMaxListed of them.
  static constexpr std::uint64_t kMaxListed = std::uint64_t(1) << 24;
  template <class F>
  void for_each_position(F&& f) const {
    std::vector<int> on;
    for (int c = 0; c < cells(); ++c) {
      if (start_.cell[std::size_t(c)] != kOutside) on.push_back(c);
    }
    const std::uint64_t values = letters_.size() + 1;
    std::uint64_t count = 1;
    for (std::size_t i = 0; i < on.size() && count <= kMaxListed; ++i) count *= values;
    if (count > kMaxListed) throw_too_many_to_list(name_, on.size(), values);
    for (std::uint64_t n = 0; n < count; ++n) {
      State s = start_;
      std::uint64_t left = n;
      for (const int c : on) {
        s.cell[std::size_t(c)] = std::uint8_t(left % values);
        left /= values;
      }
      f(static_cast<const State&>(s));
    }
  }

  // The rule that takes `from` to `to` and where: "jump at row 2, column 4".
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;

  using Packing = RulesPacking;
  [[nodiscard]] std::optional<Packing> packing(const State& s) const;

  [[nodiscard]] static bool matches(const Instance& in, const State& s) {
    for (const Cell& c : in.cells) {
      if (c.want != kAny && s.cell[c.at] != c.want) return false;
    }
    return true;
  }
  [[nodiscard]] static State applied(const Instance& in, const State& s) {
    State t = s;
    for (const Cell& c : in.cells) t.cell[c.at] = c.put == kAny ? std::uint8_t(s.cell[c.at] ^ c.flip) : c.put;
    return t;
  }

 private:
  [[nodiscard]] int step_moves() const { return std::max<int>(1, int(forward_.size())); }

  template <class F>
  void moves_of(const std::vector<Instance>& list, const State& s, F& f) const {
    if (!symmetries_.empty()) {
      // Each class once, as its least member.
      std::vector<State> classes;
      moves_of_positions(list, s, [&](const State& t) { classes.push_back(canonical(t)); });
      std::sort(classes.begin(), classes.end());
      classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
      for (const State& t : classes) f(t);
      return;
    }
    moves_of_positions(list, s, f);
  }
  template <class F>
  void moves_of_positions(const std::vector<Instance>& list, const State& s, F&& f) const {
    if (metric_ == RuleMetric::kStep) {
      for (const Instance& in : list) {
        if (matches(in, s)) f(applied(in, s));
      }
      return;
    }
    // Chains: depth first over the applications that go on with the piece just
    // placed; each position reached once, in the order first reached.
    std::vector<State> seen;
    std::vector<std::pair<State, std::uint8_t>> stack;
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
      if (matches(*it, s)) stack.emplace_back(applied(*it, s), it->landing);
    }
    while (!stack.empty()) {
      const auto [t, at] = stack.back();
      stack.pop_back();
      if (t == s || std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
      seen.push_back(t);
      if (int(seen.size()) > max_moves()) throw_chain_overflow(name_, max_moves());
      f(static_cast<const State&>(seen.back()));
      if (at == kNone) continue;
      for (auto it = list.rbegin(); it != list.rend(); ++it) {
        if (it->mover == at && matches(*it, t)) stack.emplace_back(applied(*it, t), it->landing);
      }
    }
  }

  std::string name_;
  int rows_ = 0, cols_ = 0;
  std::string letters_;
  State start_{};
  std::string marks_;
  std::vector<Instance> forward_, backward_;
  std::vector<std::string> rule_names_;
  Goal goal_;
  RuleMetric metric_ = RuleMetric::kStep;
  bool directed_ = false;
  std::vector<CellMap> symmetries_;   // the group used, without the identity
  std::vector<CellMap> board_group_;  // the board's group, without the identity
  // The group used: the board's symmetries that fix `from` (and the start where it is the goal).
  void use_stabiliser(const State& from);
  [[nodiscard]] State parse_cells(std::string_view text) const;  // parse() before canonical()
  Lattice lattice_ = Lattice::kSquare;
  std::vector<std::uint8_t> drawn_;  // lattice boards: per cell, whether the picture draws it
  int column_of_origin_ = 0;
  [[nodiscard]] std::vector<CellMap> candidate_symmetries() const;
  int board_symmetries_ = 0;  // the board's group's order; 0 without symmetry
};

// The positions as words of a few bits per board cell (one for a single kind of
// piece: peg solitaire's 33 holes, Lights Out's 25 lights), when they fit 64 bits.
// The first cell in reading order takes the highest bits, so that word order is the
// order of the states: the least word of a class is its least member. Each instance
// becomes three masks: the bits it reads, the value they must have, and the bits it
// flips, so a step successor is one AND, one compare and one XOR.
//
// Graded (grade(), graded()): when every instance changes the number of pieces by the
// same nonzero amount, as every jump of peg solitaire takes one peg off, the
// positions at distance d from a start all have the start's count plus d times it,
// and the sorted-levels engine skips the check against earlier levels.
class RulesPacking {
 public:
  static std::optional<RulesPacking> make(const Rules& model);

  [[nodiscard]] std::uint64_t pack(const Rules::State& s) const;  // s as it is, not its class
  [[nodiscard]] Rules::State unpack(std::uint64_t w) const;
  [[nodiscard]] int moves() const { return moves_; }
  [[nodiscard]] int bits_per_cell() const { return bits_; }
  // Every word is below 2^word_bits() and every instance changes a word it applies to.
  [[nodiscard]] int word_bits() const { return word_bits_; }

  int successors(std::uint64_t w, std::uint64_t* out) const { return classes(run(forward_, w, out), out); }
  // The successors whose top `bits` bits are `high`. Without symmetry and by steps,
  // only the instances that flip w's top bits into `high` are tried.
  int successors_within(std::uint64_t w, std::uint64_t* out, int bits, std::uint64_t high) const;
  // The words with w among their successors.
  int predecessors(std::uint64_t w, std::uint64_t* out) const { return classes(run(backward_, w, out), out); }

  [[nodiscard]] bool graded() const { return grade_step_ != 0; }
  // Whether chain moves can be searched one rule application at a time (the
  // graded-chain engine, analysis/engines/levels/graded_chains.hpp): the metric is
  // `chain`, every single application adds the same nonzero number of pieces, so the
  // applications go from one piece count to the next, and a word leaves room for a
  // count of chain moves in its low byte.
  [[nodiscard]] bool chain_graded() const {
    return metric_ == RuleMetric::kChain && step_grade_ != 0 && word_bits_ <= 56;
  }
  // The single applications of the rules, whatever the metric.
  [[nodiscard]] int steps() const { return int(forward_.size()); }
  // for_each_step's successors whose top `bits` bits are `high`. Without symmetry only
  // the instances that flip w's top bits into `high` are tried, so that a search in
  // passes, one range of words each, makes each successor once in all.
  template <class F>
  void for_each_step_within(std::uint64_t w, int bits, std::uint64_t high, F&& f) const {
    if (std::size_t(bits) < by_top_.size()) {
      for (const Masks& m : by_top_[std::size_t(bits)][std::size_t((w >> (word_bits_ - bits)) ^ high)]) {
        if ((w & m.care) == m.want)
          f(w ^ m.flip, m.mover, m.landing == Rules::kNone ? 0 : std::uint64_t{1} << m.landing);
      }
      return;
    }
    for_each_step(w, [&](std::uint64_t to, std::uint8_t mover, std::uint64_t landed) {
      if (to >> (word_bits_ - bits) == high) f(to, mover, landed);
    });
  }
  // The words with w among their single-application successors (classes, with symmetry).
  int step_predecessors(std::uint64_t w, std::uint64_t* out) const { return classes(steps(backward_, w, out), out); }
  // Calls f(successor, mover, landings) for every single application to w: the
  // successor's word (its class's least, with symmetry), the cell the moving piece
  // leaves (Rules::kNone for none) and a bit mask of the cells it lands on, read in
  // the successor's own coordinates: with symmetry, the landing cell moved by every
  // symmetry that gives the least word (more than one when the class is smaller
  // than the group).
  template <class F>
  void for_each_step(std::uint64_t w, F&& f) const {
    each_step(forward_, w, f);
  }
  // The same with the rules read backwards: every single application that takes its
  // word to w, as its word (its class's least), the cell the piece leaves when read
  // backwards (where the forward application landed) and the cells it lands on (where
  // the forward application's piece was). A chain read backwards is a chain by the
  // same piece, so the graded-chain search over these from the goals gives the
  // distance to them in chain moves.
  template <class F>
  void for_each_back_step(std::uint64_t w, F&& f) const {
    each_step(backward_, w, f);
  }
  // The pieces on the board, counted so that every move raises it by one when graded().
  [[nodiscard]] int grade(std::uint64_t w) const {
    const int n = pieces(w);
    return (grade_step_ > 0 ? n : on_board_ - n) / std::abs(grade_step_ == 0 ? 1 : grade_step_);
  }
  [[nodiscard]] int pieces(std::uint64_t w) const {
    std::uint64_t any = w;
    for (int b = 1; b < bits_; ++b) any |= w >> b;
    return std::popcount(any & low_bits_);
  }
  // The model's is_goal on the word (its class's least member): masks and a count.
  [[nodiscard]] bool is_goal(std::uint64_t w) const {
    return (w & goal_care_) == goal_want_ && (goal_pieces_ < 0 || pieces(w) == goal_pieces_);
  }

  // With symmetry: the least word of w's class, and how many positions the class holds.
  [[nodiscard]] std::uint64_t canonical(std::uint64_t w) const {
    std::uint64_t best = w;
    for (std::size_t g = 0; g < images_.size(); ++g) best = std::min(best, image(g, w));
    return best;
  }
  [[nodiscard]] std::uint64_t orbit_size(std::uint64_t w) const {
    // At most eight images: each counted unless an earlier symmetry gave it.
    std::uint64_t n = 1;
    for (std::size_t g = 0; g < images_.size(); ++g) {
      const std::uint64_t x = image(g, w);
      bool repeat = x == w;
      for (std::size_t h = 0; h < g && !repeat; ++h) repeat = image(h, w) == x;
      n += !repeat;
    }
    return n;
  }

 private:
  struct Masks {
    std::uint64_t care = 0, want = 0, flip = 0;
    std::uint8_t mover = Rules::kNone, landing = Rules::kNone;  // as the instance's, for chains
  };
  static constexpr int kMaxGroupBits = 8;
  RulesPacking() = default;
  [[nodiscard]] Masks masks_of(const Rules::Instance& in) const;

  template <class F>
  void each_step(const std::vector<Masks>& list, std::uint64_t w, F& f) const {
    for (const Masks& m : list) {
      if ((w & m.care) != m.want) continue;
      const std::uint64_t t = w ^ m.flip;
      const bool lands = m.landing != Rules::kNone;
      std::uint64_t best = t, at = lands ? std::uint64_t{1} << m.landing : 0;
      for (std::size_t g = 0; g < images_.size(); ++g) {
        const std::uint64_t x = image(g, t);
        if (x > best) continue;
        const std::uint64_t moved = lands ? std::uint64_t{1} << cell_maps_[g][m.landing] : 0;
        at = x < best ? moved : at | moved;
        best = x;
      }
      f(best, m.mover, at);
    }
  }

  int run(const std::vector<Masks>& list, std::uint64_t w, std::uint64_t* out) const {
    if (metric_ == RuleMetric::kStep) return steps(list, w, out);
    return chains(list, w, out);
  }
  static int steps(const std::vector<Masks>& list, std::uint64_t w, std::uint64_t* out) {
    std::uint64_t* next = out;
    for (const Masks& m : list) {
      *next = w ^ m.flip;
      next += (w & m.care) == m.want;  // written always, kept when the instance applies: no branch
    }
    return int(next - out);
  }
  int chains(const std::vector<Masks>& list, std::uint64_t w, std::uint64_t* out) const;
  // With symmetry: the n words of out as their classes' least members, each once.
  int classes(int n, std::uint64_t* out) const {
    if (images_.empty()) return n;
    for (int i = 0; i < n; ++i) out[i] = canonical(out[i]);
    std::sort(out, out + n);
    return int(std::unique(out, out + n) - out);
  }
  // w moved by symmetry g: its cells' bits, a byte at a time, through tables.
  [[nodiscard]] std::uint64_t image(std::size_t g, std::uint64_t w) const {
    const auto& t = images_[g];
    std::uint64_t out = 0;
    for (std::size_t k = 0; k < 8; ++k) out |= t[k][(w >> (8 * k)) & 255];
    return out;
  }

  RuleMetric metric_ = RuleMetric::kStep;
  int moves_ = 0;
  std::string name_;
  int bits_ = 1;
  int word_bits_ = 1;
  int on_board_ = 0;
  std::uint64_t low_bits_ = 0;  // the lowest bit of every cell's field
  int grade_step_ = 0;          // pieces added by every move; 0 when the moves differ
  int step_grade_ = 0;          // the same for single applications, whatever the metric
  std::uint64_t goal_care_ = 0, goal_want_ = 0;
  int goal_pieces_ = -1;
  std::vector<int> field_;  // per cell: its lowest bit, or -1 off the board
  std::vector<Masks> forward_, backward_;
  // Without symmetry: forward_ by the top `bits` bits they flip (by_top_[bits][top
  // bits]), for successors_within (by steps) and for_each_step_within.
  std::vector<std::vector<std::vector<Masks>>> by_top_;
  std::vector<std::array<std::array<std::uint64_t, 256>, 8>> images_;  // per symmetry but the identity
  std::vector<Rules::CellMap> cell_maps_;                              // the same symmetries on the cells
};

inline std::optional<RulesPacking> Rules::packing(const State&) const { return RulesPacking::make(*this); }

static_assert(WordPackedPuzzle<Rules>);
static_assert(ReversiblePuzzle<Rules>);
static_assert(GoalPredicatePuzzle<Rules>);
static_assert(EnumerablePuzzle<Rules>);
static_assert(PositionCountingPuzzle<Rules>);

class TomlInput;
// The model a kind = "rules" file describes; throws ParseError (FILE:LINE:COLUMN:).
// A file that declares a keeper (keeper = "K") draws a Sokoban level: its rules must
// be the keeper's walk and push, its goal every mark under the boxes, and it is read
// as that level (puzzles/sokoban.hpp) in the metric `metric` names, "pushes" (the
// default) or "moves".
std::variant<Rules, Sokoban> load_rules(const TomlInput& file);

}  // namespace statespace
