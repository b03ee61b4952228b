// The ranked piece model: a PieceDefinition (puzzles/piece_definition.hpp) with a
// metric and a choice of its moves, as a puzzle whose positions are dense ranks.
// `.tws` files (puzzles/tws_file.hpp) and sticker files grouped into pieces both
// build one with
//
//   Pieces(definition, PieceMetric::all_powers, {"U", "R"})   // empty list: every move
//
// which throws ParseError (no file position: the caller adds it) when the
// definition is inconsistent, a chosen move is unknown or the ranks pass 2^64.
//
// Rank: a mixed radix over coordinates, set by set in the definition's order, each
// set giving its arrangement (lexicographic rank, multinomial when pieces repeat)
// then its orientations (base-`orientations` digits, place 0 first). Two
// reductions keep the rank space near the reachable count, as twsearch does:
// when every move keeps a set's total twist, the last digit follows from the
// others and is dropped; when every move is an even permutation of a set of
// distinct pieces, only arrangements of the solved state's parity are ranked
// (lexicographic rank / 2: ranks 2q and 2q+1 differ by one swap); when no move
// twists a set whose solved twists are 0, its twists are not ranked at all. A position
// outside these classes cannot be reached and does not parse.
//
// A move acts on each coordinate alone (the arrangement moves without looking at
// the twists, and the twists without looking at which piece is where), so a
// successor's rank is a sum of per-coordinate table lookups (twsearch's and
// Kociemba's coordinate tables) rather than unrank, apply, rank; a coordinate too
// large for a table is moved by unranking that coordinate alone.
//
// State is the rank itself: eight bytes in the hashed engines, the packed word of
// the levels engine, and rank order is the canonical order of reports.
#pragma once

#include <absl/hash/hash.h>

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/puzzle.hpp"
#include "puzzles/piece_definition.hpp"

namespace statespace {

// How a definition's moves become the moves of the graph (twsearch's metrics):
//   all_powers  every power of a move but the identity is one move (R, R2, R'), the default;
//   quarter     each move and its inverse (R and R'), one move each;
//   given       the moves as written: directed when they are not closed under inverses.
enum class PieceMetric { all_powers, quarter, given };

struct PieceMetricInfo {
  PieceMetric metric;
  std::string_view name;  // the spelling of --metric and of files
  std::string_view help;
};
inline constexpr std::array<PieceMetricInfo, 3> kPieceMetrics = {{
    {PieceMetric::all_powers, "all-powers", "every power of a move is one move (R, R2, R'): the half-turn metric"},
    {PieceMetric::quarter, "quarter", "each move and its inverse (R, R')"},
    {PieceMetric::given, "given", "the moves as written (directed when not closed under inverses)"},
}};

struct PieceState {
  std::uint64_t rank = 0;
  friend auto operator<=>(const PieceState&, const PieceState&) = default;
  template <class H>
  friend H AbslHashValue(H h, const PieceState& s) {
    return H::combine(std::move(h), s.rank);
  }
};
static_assert(sizeof(PieceState) == 8);

namespace pieces_detail {

// One mixed-radix digit of the rank: a set's arrangement or its orientations.
struct Coordinate {
  int set = 0;
  bool orientation = false;
  std::uint64_t space = 1;   // digit values
  std::uint64_t weight = 1;  // the digit's place value in the rank
  // table[digit * moves + m]: the digit after move m; empty when too large.
  std::vector<std::uint32_t> forward, backward;
};

// One set's pieces and the reductions its ranking uses.
struct SetShape {
  static constexpr int kMaxPlaces = 255;  // places, kinds of pieces and orientations
  int n = 0;                              // places
  int orientations = 1;
  int kinds = 0;                             // kinds of pieces: the distinct numbers of the solved state
  std::array<int, kMaxPlaces + 1> counts{};  // pieces of each kind
  std::uint64_t arrangements = 1;            // of the multiset, before the parity halving
  bool even = false;                         // only arrangements of the solved parity are ranked
  int solved_parity = 0;
  bool twist_fixed = false;  // the last twist follows from the others
  bool untwisted = false;    // no move twists the set and the solved state has no twist: all stay 0
  int solved_twist = 0;      // the solved state's total twist, modulo orientations
};

// What the model computes once and its copies share (the models in AnyPuzzle, the
// levels engine's packing).
struct Tables {
  PieceDefinition definition;
  PieceMetric metric = PieceMetric::all_powers;
  std::vector<std::string> chosen;  // the definition's moves in use
  std::vector<PieceMove> moves;     // after the metric
  std::vector<PieceMove> inverses;  // inverses[m] undoes moves[m]
  bool directed = false;
  std::vector<SetShape> shapes;                  // per set
  std::vector<std::vector<std::string>> labels;  // per set: each kind's number as printed
  std::vector<Coordinate> coordinates;           // most significant first
  std::uint64_t space = 1;
};

// Sets a definition may have: two coordinates each.
inline constexpr std::size_t kMaxSets = 16;

// The digit of coordinate c after `move`, without a table.
[[nodiscard]] std::uint64_t move_digit(const Tables& t, const Coordinate& c, std::uint64_t digit,
                                       const PieceMove& move);

// f(rank) for each move (kBackward: each inverse) applied to rank r. The successors
// are summed coordinate by coordinate into a buffer before any is handed over: the
// table rows are then read in order, and f, which may store anywhere, cannot make
// the compiler reload the tables between moves.
template <bool kBackward, class F>
void step(const Tables& t, std::uint64_t r, F& f) {
  const std::size_t n = t.coordinates.size();
  std::array<std::uint64_t, 2 * kMaxSets> digit{};
  // The most significant digit is what the others leave: one division fewer.
  for (std::size_t i = n; i-- > 1;) {
    digit[i] = r % t.coordinates[i].space;
    r /= t.coordinates[i].space;
  }
  digit[0] = r;
  // Moves closed under inverses have the successors for predecessors.
  const bool backward = kBackward && t.directed;
  const auto& moves = backward ? t.inverses : t.moves;
  const std::size_t count = moves.size();
  constexpr std::size_t kBatch = 32;
  std::array<std::uint64_t, kBatch> next;
  for (std::size_t first = 0; first < count; first += kBatch) {
    const std::size_t k = std::min(kBatch, count - first);
    std::fill_n(next.begin(), k, std::uint64_t{0});
    for (std::size_t i = 0; i < n; ++i) {
      const Coordinate& c = t.coordinates[i];
      const auto& table = backward ? c.backward : c.forward;
      if (table.empty()) {
        for (std::size_t j = 0; j < k; ++j) next[j] += move_digit(t, c, digit[i], moves[first + j]) * c.weight;
      } else {
        const std::uint32_t* row = table.data() + digit[i] * count + first;
        for (std::size_t j = 0; j < k; ++j) next[j] += row[j] * c.weight;
      }
    }
    for (std::size_t j = 0; j < k; ++j) f(next[j]);
  }
}

}  // namespace pieces_detail

// The levels engine's word: the rank, moved through the same tables.
class PieceRankPacking {
 public:
  explicit PieceRankPacking(std::shared_ptr<const pieces_detail::Tables> t) : t_(std::move(t)) {}
  [[nodiscard]] std::uint64_t pack(const PieceState& s) const { return s.rank; }
  [[nodiscard]] PieceState unpack(std::uint64_t w) const { return {w}; }
  [[nodiscard]] int moves() const { return int(t_->moves.size()); }
  int successors(std::uint64_t w, std::uint64_t* out) const {
    int k = 0;
    const auto put = [&](std::uint64_t r) { out[k++] = r; };
    pieces_detail::step<false>(*t_, w, put);
    return k;
  }

 private:
  std::shared_ptr<const pieces_detail::Tables> t_;
};

class Pieces {
 public:
  using State = PieceState;
  using Packing = PieceRankPacking;
  // One set's arrangement (kinds 0.., in the order of their written numbers) and twists.
  struct Position {
    std::vector<std::vector<int>> perm, twist;
    friend bool operator==(const Position&, const Position&) = default;
  };

  // `chosen`: names of definition moves to use (the others are left out); empty: all.
  Pieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen = {});

  [[nodiscard]] int max_moves() const { return int(t_->moves.size()); }
  [[nodiscard]] std::string name() const { return t_->definition.name; }
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] std::vector<int> row_lengths() const;
  // Set by set: "CORNERS 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0 / EDGES ...", the name and
  // the piece at each place (as numbered in the solved state), then the twists (a
  // row only for sets with more than one orientation).
  [[nodiscard]] std::string format(const State& s) const;
  // format()'s notation; throws ParseError naming the token and the expected form.
  [[nodiscard]] State parse(std::string_view text) const;

  [[nodiscard]] std::uint64_t rank_space() const { return t_->space; }
  [[nodiscard]] std::uint64_t rank(const State& s) const { return s.rank; }
  [[nodiscard]] State unrank(std::uint64_t r) const { return {r}; }

  template <class F>
  void for_each_successor(const State s, F&& f) const {
    for_each_successor_rank(s.rank, [&](std::uint64_t r) { f(State{r}); });
  }
  // f(rank) for each move's successor, in the order of moves().
  template <class F>
  void for_each_successor_rank(std::uint64_t r, F&& f) const {
    pieces_detail::step<false>(*t_, r, f);
  }
  [[nodiscard]] bool directed() const { return t_->directed; }
  // Every position with s among its successors: the inverse moves applied to s.
  template <class F>
  void for_each_predecessor(const State s, F&& f) const {
    const auto g = [&](std::uint64_t r) { f(State{r}); };
    pieces_detail::step<true>(*t_, s.rank, g);
  }

  // The first move taking `from` to `to`, or "?" when none does.
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;
  // Nothing for a directed space: the sorted-levels engine drops revisits against
  // the two levels before only, which finds every revisit in undirected spaces alone.
  [[nodiscard]] std::optional<Packing> packing(const State&) const {
    if (t_->directed) return std::nullopt;
    return Packing(t_);
  }

  [[nodiscard]] const PieceDefinition& definition() const { return t_->definition; }
  [[nodiscard]] PieceMetric metric() const { return t_->metric; }
  [[nodiscard]] const std::vector<std::string>& chosen_moves() const { return t_->chosen; }
  [[nodiscard]] const std::vector<PieceMove>& moves() const { return t_->moves; }

  // Between ranks and positions; position_rank() throws ParseError for a position
  // of another class (parity, total twist, pieces) than the solved state's.
  [[nodiscard]] Position position(std::uint64_t r) const;
  [[nodiscard]] std::uint64_t position_rank(const Position& p) const;

 private:
  std::shared_ptr<const pieces_detail::Tables> t_;
  State start_;
};

static_assert(RankedPuzzle<Pieces>);
static_assert(ReversiblePuzzle<Pieces>);
static_assert(WordPackedPuzzle<Pieces>);
static_assert(MoveNamingPuzzle<Pieces>);

}  // namespace statespace
