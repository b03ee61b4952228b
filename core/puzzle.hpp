// The seam between puzzle models and engines. Every engine (explicit graph, lookups,
// solvers, the implicit ranked BFS) is a template over these concepts, so successor
// generation and ranking inline into the hot loops: no virtual calls.
//
// `Puzzle` is what every model offers: states, moves and notation. The capabilities
// below are what some models offer on top, and what the engines that need them ask
// for by name:
//   RankedPuzzle       a perfect hash onto [0, rank_space): bitsets instead of hash sets
//   RankSuccessorPuzzle  successors from rank to rank without building positions: the
//                      ranked engine's fast path (analysis/engines/ranked/ranked_bfs.hpp)
//   PermutationRanked  distinct tiles and one blank on a cell graph, lexicographic rank:
//                      the bucketed enumeration kernel (analysis/engines/explicit/permutation_enumerate.hpp)
//   BipartitePuzzle    every move flips a two-colouring of the positions: the edges
//                      between depths follow from the degrees (analysis/engines/explicit/analyze_explicit.hpp)
//   TileGridPuzzle     an R x C sliding-tile grid: the implicit two-bit engine
//   EnumerablePuzzle   can list every position (the components of the whole space)
//   WordPackedPuzzle   positions as one 64-bit word with the moves on words: the
//                      sorted-levels engine (analysis/engines/levels/sorted_levels.hpp);
//                      WidePackedPuzzle the same in wider words (128 bits, or
//                      LimbWord<N> of N 64-bit limbs), and on the codecs
//                      ReversiblePacking (predecessors), RangedPacking (successors in
//                      a range of words) and GradedPacking (a grade every move raises
//                      by one)
// and smaller ones, each asked for by one command or engine (below WordPackedPuzzle):
//   BoundedPuzzle, SymmetricPuzzle, ComponentPredictingPuzzle, GoalPredicatePuzzle,
//   ParityClassPuzzle, MoveNamingPuzzle, PlacementCountingPuzzle, PositionCountingPuzzle,
//   PositionStepPuzzle
// and the directed spaces (DirectedPuzzle, ReversiblePuzzle): models whose moves
// cannot always be undone, which every engine and report treats the same way.
#pragma once

#include <absl/hash/hash.h>

#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limb_word.hpp"

namespace statespace {

// A state is a value: copied, compared, ordered (the canonical order of reports when
// there is no rank) and hashed through absl::Hash (AbslHashValue), so a model with a
// wider state than one word plugs into the hashed engines unchanged.
template <class S>
concept StateValue = std::regular<S> && std::totally_ordered<S> && std::invocable < absl::Hash<S>,
const S& > ;

template <class P>
concept Puzzle = requires(const P& p, const typename P::State& s, std::string_view text) {
  typename P::State;
  requires StateValue<typename P::State>;
  { p.max_moves() } -> std::convertible_to<int>;  // successors of one state, at most
  { p.name() } -> std::convertible_to<std::string>;
  { p.goal() } -> std::same_as<typename P::State>;
  { p.format(s) } -> std::same_as<std::string>;
  { p.parse(text) } -> std::same_as<typename P::State>;
  { p.row_lengths() } -> std::same_as<std::vector<int>>;
  p.for_each_successor(s, [](const typename P::State&) {});
};

// rank() is a bijection from the model's positions onto [0, rank_space()) and rank
// order is the canonical order of reports.
template <class P>
concept RankedPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s, std::uint64_t r) {
  { p.rank_space() } -> std::same_as<std::uint64_t>;
  { p.rank(s) } -> std::same_as<std::uint64_t>;
  { p.unrank(r) } -> std::same_as<typename P::State>;
};

// p.for_each_successor_rank(r, f) calls f(rank(t)) for every successor t of
// unrank(r), as for_each_successor would list them, computed from the rank directly
// (piece coordinates, move tables) where unrank, apply and rank would cost more. An
// option: engines that walk ranks use it when present and fall back to
// unrank -> for_each_successor -> rank otherwise.
template <class P>
concept RankSuccessorPuzzle = RankedPuzzle<P> && requires(const P& p, std::uint64_t r) {
  p.for_each_successor_rank(r, [](std::uint64_t) {});
};

// Distinct tiles 1..n-1 and one blank (code 0) on a graph of n cells, a move sliding
// a tile from a neighbour of the blank into it, ranked as a permutation
// (core/ranking.hpp's permutation_rank over cells()).
template <class P>
concept PermutationRanked = RankedPuzzle<P> && requires(const P& p, int cell) {
  requires P::kPermutationRanked;
  { p.cells() } -> std::convertible_to<int>;
  { p.degree(cell) } -> std::convertible_to<int>;
  { p.neighbour(cell, cell) } -> std::convertible_to<int>;
};

// Every move flips a two-colouring of the positions, so no move joins two positions
// at the same distance from a start, and the moves between depths d and d+1 are
// depth d's degrees less the moves between d-1 and d. Permutation puzzles are: a
// move transposes the blank and one tile, which flips the arrangement's parity,
// whatever the cell graph (the hexagon's triangles included).
template <class P>
concept BipartitePuzzle = PermutationRanked<P>;

// An R x C grid of distinct tiles and one blank: what the locality index
// (analysis/engines/implicit/tile_index.hpp) and the implicit engine are built for.
template <class P>
concept TileGridPuzzle = PermutationRanked<P> && requires(const P& p) {
  { p.rows() } -> std::convertible_to<int>;
  { p.cols() } -> std::convertible_to<int>;
};

// Lists every position of the model, reachable or not, in canonical order.
template <class P>
concept EnumerablePuzzle = Puzzle<P> && requires(const P& p) {
  p.for_each_position([](const typename P::State&) {});
};

// The word a packing's positions take: Packing::Word when it names one (unsigned
// __int128 for positions of 65 to 128 bits, LimbWord<N> past them), else
// std::uint64_t.
template <class K>
struct PackedWordOf {
  using type = std::uint64_t;
};
template <class K>
requires requires { typename K::Word; }
struct PackedWordOf<K> {
  using type = typename K::Word;
};
template <class K>
using PackedWord = typename PackedWordOf<K>::type;

// A codec of positions S as words that applies the moves to words: k.successors(w,
// out) writes the successors of w, at most k.moves() of them, and returns how many.
// Word order need not be the positions' canonical order: engines sort what they
// report by state.
template <class K, class S>
concept WordPacking = (std::same_as<PackedWord<K>, std::uint64_t> || std::same_as<PackedWord<K>, unsigned __int128> ||
                       kIsLimbWord<PackedWord<K>>)&&requires(const K& k, const S& s, PackedWord<K> w,
                                                             PackedWord<K>* out) {
  { k.pack(s) } -> std::same_as<PackedWord<K>>;
  { k.unpack(w) } -> std::same_as<S>;
  { k.moves() } -> std::convertible_to<int>;
  { k.successors(w, out) } -> std::convertible_to<int>;
};

// p.packing(s), when the positions reachable from s fit one 64-bit word, is a
// WordPacking of them: the sorted-levels engine.
template <class P>
concept WordPackedPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.packing(s) } -> std::same_as<std::optional<typename P::Packing>>;
} && WordPacking<typename P::Packing, typename P::State>;

// p.wide_packing(s): the same for positions of more than 64 bits, in unsigned
// __int128 words or LimbWord<N> past 128 bits, when packing(s) has nothing. The sorted-levels engine runs on either; a
// model offers the wide one only where its 64-bit one falls short, so that narrow
// positions keep the cheaper word.
template <class P>
concept WidePackedPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.wide_packing(s) } -> std::same_as<std::optional<typename P::WidePacking>>;
} && WordPacking<typename P::WidePacking, typename P::State>;

// k.predecessors(w, out) writes every word with w among its successors, at most
// k.moves() of them, and returns how many: the reverse moves on words, for the
// distance to the goal of a directed space (ReversiblePuzzle on words).
template <class K>
concept ReversiblePacking = requires(const K& k, PackedWord<K> w, PackedWord<K>* out) {
  { k.predecessors(w, out) } -> std::convertible_to<int>;
};

// k.successors_within(w, out, bits, high) writes only those successors of w whose
// top `bits` bits (of the word_bits() in use) are `high`, and returns how many: a
// level whose successors are made in passes, one range of top bits each, then costs
// one generation in all rather than one a pass (peg solitaire: the jumps grouped by
// the top bits they flip).
template <class K>
concept RangedPacking = requires(const K& k, PackedWord<K> w, PackedWord<K>* out, int bits, std::uint64_t high) {
  { k.word_bits() } -> std::convertible_to<int>;
  { k.successors_within(w, out, bits, high) } -> std::convertible_to<int>;
};

// Every move raises k.grade(w) by exactly one (peg solitaire by single jumps: one
// peg fewer a move), so the positions at distance d from a start all have the
// start's grade plus d. A directed search then never meets an earlier level again
// and skips the check, and a reachable word's level is its grade.
template <class K>
concept GradedPacking = requires(const K& k, PackedWord<K> w) {
  { k.grade(w) } -> std::convertible_to<int>;
};

// Whether k's grade holds: a packing that knows only once built whether its moves
// are graded (rules files: when every rule adds the same number of pieces) says so
// by k.graded(); a GradedPacking without it always is.
template <class K>
[[nodiscard]] bool is_graded(const K& k) {
  if constexpr (!GradedPacking<K>) {
    return false;
  } else if constexpr (requires { k.graded(); }) {
    return k.graded();
  } else {
    return true;
  }
}

// k.is_goal(w): the model's goal test on words, so that a search collecting the
// goal positions need not unpack every word it meets.
template <class K>
concept GoalTestingPacking = requires(const K& k, PackedWord<K> w) {
  { k.is_goal(w) } -> std::convertible_to<bool>;
};

// What a model knows in advance of the components of all its positions (Wilson's
// theorem for tokens on a graph), for `analyze --components` to print and check.
struct ComponentPrediction {
  std::string reason;            // the case that applies, or why none does
  std::uint64_t components = 0;  // the predicted count; 0: no prediction
};

// A bound on the positions reachable from any start tighter than the rank space
// (tiles: half the permutations), for memory estimates and --engine auto.
template <class P>
concept BoundedPuzzle = Puzzle<P> && requires(const P& p) {
  { p.reachable_bound() } -> std::convertible_to<std::uint64_t>;
};

// Positions from which every eccentricity is reached up to symmetry (tiles: one blank
// cell per symmetry class), so --all-pairs needs a BFS from these only.
template <class P>
concept SymmetricPuzzle = Puzzle<P> && requires(const P& p) {
  { p.symmetry_representatives() } -> std::convertible_to<std::vector<typename P::State>>;
};

// Positions counted up to symmetry: when p.symmetries() > 1, each state stands for
// its class (rotations and reflections of the board), and p.orbit_size(s) is how
// many positions s's class holds, for reports that give both numbers. A packing may
// give k.orbit_size(w) on words.
template <class P>
concept OrbitCountingPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.symmetries() } -> std::convertible_to<int>;
  { p.orbit_size(s) } -> std::convertible_to<std::uint64_t>;
};

// A model counted up to symmetry gives classes as successors (their least members);
// this gives each move's successor as the position it is, so that a walk through a
// table of classes (query, serve's play view) shows real moves and real positions.
template <class P>
concept PositionStepPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  p.for_each_position_successor(s, [](const typename P::State&) {});
};

// Each move's successor as a position: what a player sees after the move.
template <Puzzle P, class F>
void for_each_step(const P& p, const typename P::State& s, F&& f) {
  if constexpr (PositionStepPuzzle<P>) {
    p.for_each_position_successor(s, f);
  } else {
    p.for_each_successor(s, f);
  }
}

// Which group of symmetries counts the positions, in words for the reports (rules
// files: the start's stabiliser in the board's group); empty when none does.
template <Puzzle P>
std::string symmetry_group_of(const P& p) {
  if constexpr (requires {
                  { p.symmetry_group() } -> std::convertible_to<std::string>;
                })
    return p.symmetry_group();
  return "";
}

// Knows the components of all its positions in advance (ComponentPrediction).
template <class P>
concept ComponentPredictingPuzzle = Puzzle<P> && requires(const P& p) {
  { p.predicted_components() } -> std::same_as<ComponentPrediction>;
};

// A goal that may be a predicate over positions (puzzle files' partial goals):
// is_goal(s), and has_goal() saying whether the file gave one.
template <class P>
concept GoalPredicatePuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.is_goal(s) } -> std::convertible_to<bool>;
  { p.has_goal() } -> std::convertible_to<bool>;
};

// Positions fall into classes that no move leaves (tiles: the permutation parity with
// the blank's colour), so two positions of different classes have no path between.
template <class P>
concept ParityClassPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.same_class(s, s) } -> std::convertible_to<bool>;
};

// Searched up to symmetry, a path is a run of classes, each a successor of the one
// before: p.unfold(path) gives positions, each one move from the one before (the
// first the path's own), for printed solutions whose every step is a move.
template <class P>
concept PathUnfoldingPuzzle = Puzzle<P> && requires(const P& p, const std::vector<typename P::State>& path) {
  { p.unfold(path) } -> std::same_as<std::vector<typename P::State>>;
};

// Counted up to the symmetries that fix its start, a puzzle counts from another
// position with the group that fixes that one: p.start_at(text) (analyze --from).
template <class P>
concept StartMovablePuzzle = Puzzle<P> && requires(P& p, std::string_view text) {
  p.start_at(text);
};

// The path as positions: unfolded when p searches up to symmetry, else as it is.
template <Puzzle P>
std::vector<typename P::State> real_path(const P& p, std::vector<typename P::State> path) {
  if constexpr (PathUnfoldingPuzzle<P>) return p.unfold(path);
  return path;
}

// Names the move between two neighbouring positions, for printed solutions.
template <class P>
concept MoveNamingPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.move_name(s, s) } -> std::convertible_to<std::string>;
};

// Counts its moves in a unit of its own: a distance of n is n p.move_unit(n != 1)
// ("push"/"pushes" for Sokoban's pushes metric, where walking is free), not n moves.
template <class P>
concept MoveUnitPuzzle = Puzzle<P> && requires(const P& p, bool plural) {
  { p.move_unit(plural) } -> std::convertible_to<std::string_view>;
};

// Writes its solutions as its players do (Sokoban's LURD: l u r d a step, L U R D a
// push), found by a search of its own that breaks ties their way: p.lurd(s, &pushes,
// &steps) from a position whose keeper stands where p.placed(text) or
// p.placed_start() puts him, not where the model's notation writes him.
template <class P>
concept LurdPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s, std::string_view text, int* n) {
  { p.lurd(s, n, n) } -> std::same_as<std::optional<std::string>>;
  { p.placed(text) } -> std::same_as<typename P::State>;
  { p.placed_start() } -> std::same_as<typename P::State>;
};

// Writes positions a second way for the CSV reports: a sticker file run on its pieces
// writes the per-set notation of .tws files there, so that it and its .tws twin give
// the same bytes, while people read the file's own notation (format) everywhere else.
// parse() reads both.
template <class P>
concept TableNotationPuzzle = Puzzle<P> && requires(const P& p, const typename P::State& s) {
  { p.table_format(s) } -> std::convertible_to<std::string>;
};

// Counts the placements of its pieces on the board, reachable or not, up to a limit
// (sliding-block files), for `statespace list`.
template <class P>
concept PlacementCountingPuzzle = Puzzle<P> && requires(const P& p, std::uint64_t limit) {
  { p.count_placements(limit) } -> std::convertible_to<std::uint64_t>;
};

// Counts its arrangements, reachable or not (permutation files), for `statespace list`.
template <class P>
concept PositionCountingPuzzle = Puzzle<P> && requires(const P& p) {
  { p.position_count() } -> std::convertible_to<std::uint64_t>;
};

// Moves that cannot always be undone (rules puzzles, twisty metrics whose move set is
// not closed under inverses): when p.directed() is true, a BFS from the start is not a
// BFS to it. Every engine then runs forward from the start only, keeps every earlier
// level to drop revisits (not only the level before), and finds the distance to the
// goal by predecessors when the model has them (ReversiblePuzzle), else names the
// goal views it cannot give (AnalysisResult::unavailable).
template <class P>
concept DirectedPuzzle = Puzzle<P> && requires(const P& p) {
  { p.directed() } -> std::convertible_to<bool>;
};

// for_each_predecessor(s, f) calls f(t) for every position t that has s among its
// successors (rules read backwards, inverse permutations): the reverse graph, for the
// distance to the goal of a directed space.
template <class P>
concept ReversiblePuzzle = DirectedPuzzle<P> && requires(const P& p, const typename P::State& s) {
  p.for_each_predecessor(s, [](const typename P::State&) {});
};

// Moves that make a regular graph: when p.regular() is true, every position has
// exactly max_moves() successors, none of them itself, and the moves pair one to one
// with their inverses (so the space is undirected and a move and its inverse are
// counted alike from both ends). A level's moves then follow from its size and its
// moves onward, and a search may find a late level backwards, from the positions
// not seen yet (analysis/engines/ranked/ranked_bfs.hpp).
template <class P>
concept RegularPuzzle = RankedPuzzle<P> && requires(const P& p) {
  { p.regular() } -> std::convertible_to<bool>;
};

// Whether p's space is directed; false for every model without the capability.
template <Puzzle P>
[[nodiscard]] bool is_directed(const P& p) {
  if constexpr (DirectedPuzzle<P>) {
    return p.directed();
  } else {
    return false;
  }
}

// Whether p's moves are regular; false for every model without the capability.
template <Puzzle P>
[[nodiscard]] bool is_regular(const P& p) {
  if constexpr (RegularPuzzle<P>) {
    return p.regular();
  } else {
    return false;
  }
}

// Every position, for models that can list them: ranked models by unranking.
template <Puzzle P, class F>
void for_each_position(const P& p, F&& f) {
  if constexpr (EnumerablePuzzle<P>) {
    p.for_each_position(f);
  } else {
    static_assert(RankedPuzzle<P>, "listing every position needs a ranked or enumerable model");
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) f(p.unrank(r));
  }
}

}  // namespace statespace
