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
// Rank: a mixed radix whose least significant digit is the position's class and
// whose other digits are coordinates, set by set in the definition's order, each set
// giving its arrangement (lexicographic rank, multinomial when pieces repeat) then
// its twists (base-`orientations` digits, place 0 first). A class is the value of
// the abelian invariants every move shifts by a fixed amount: per set, the parity of
// its arrangement, its total twist modulo its orientations and, for three or four
// distinct places that every move permutes evenly, the turn an even permutation
// gives the three ways of pairing four places (A4 onto Z3; A3 is Z3 itself). The
// classes reachable from the solved state are its own plus the group the moves'
// shifts generate, so only those are ranked: a coordinate keeps what its class
// leaves free (half the arrangements under a parity, a sixth under parity and turn,
// all twists but the last under a total). Ties across sets come for free: the
// <R, U> cube's corner and edge parities agree, the Skewb's turns and twists pin
// each other. Moves that all keep a set's parity or twist give one class, and a set
// no move twists ranks no twists. A position of another class cannot be reached and
// does not parse.
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
#include <atomic>
#include <bit>
#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/divider.hpp"
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

// A position set by set: the kind at each place (0.., in the order of the labels)
// and its twist.
struct PiecePosition {
  std::vector<std::vector<int>> perm, twist;
  friend bool operator==(const PiecePosition&, const PiecePosition&) = default;
};

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

// Set in a table entry whose move brings a piece where an Illegal line forbids it
// (Tables::guarded): the digits of a table stay below 2^23.
inline constexpr std::uint32_t kIllegalDigit = std::uint32_t(1) << 31;

// One mixed-radix digit of the rank: what a set's class leaves free of its
// arrangement or its orientations.
struct Coordinate {
  int set = 0;
  bool orientation = false;
  std::uint64_t space = 1;   // digit values
  Divider divider;           // by space
  std::uint64_t weight = 1;  // the digit's place value in the rank
  // The values this part's class takes among the reachable classes, ascending.
  std::vector<int> classes;
  // table[(class index * space + digit) * moves + m]: the digit after move m; empty
  // when too large. Under Tables::guarded, or'ed with kIllegalDigit when the
  // arrangement after the move is forbidden.
  std::vector<std::uint32_t> forward, backward;
  // No table, though one would fit: the digit is not the least significant, so a scan
  // in rank order reads its row once per value of the digits below it, and the cached
  // path (successor_ranks_cached) makes the row there, as twsearch moves the 2x2x2's
  // arrangement once per 2,187 twists.
  bool made = false;
  // Under Tables::guarded, a tabled arrangement of a set an Illegal line names: a bit
  // per key (class index * space + digit), set when the arrangement is forbidden.
  std::vector<std::uint64_t> illegal;
};

// A place of a set that an Illegal line names, and the kinds it may not hold, a bit
// a kind.
struct PlaceGuard {
  int place = 0;
  std::array<std::uint64_t, 4> kinds{};
  [[nodiscard]] bool forbids(int kind) const {
    return ((kinds[std::size_t(kind) >> 6] >> (std::size_t(kind) & 63)) & 1) != 0;
  }
};

// How a set's arrangement splits into its class and the digit left free.
//   full       no class: identical pieces or a single place;
//   parity     the parity (2 classes): ranks 2q and 2q+1 differ by one swap, q the digit;
//   parity_turn  parity and turn, as one value of Z6 (6 classes) through per-rank tables.
enum class PermSplit : std::uint8_t { full, parity, parity_turn };
// The twists: none (no move twists the set), total (its class, all twists but the
// last free), or full (no class; only when classes are not tracked across sets).
enum class TwistSplit : std::uint8_t { none, total, full };

// One set's pieces and how its ranking splits them.
struct SetShape {
  static constexpr int kMaxPlaces = 255;  // places, kinds of pieces and orientations
  int n = 0;                              // places
  int orientations = 1;
  int kinds = 0;                             // kinds of pieces: the distinct numbers of the solved state
  std::array<int, kMaxPlaces + 1> counts{};  // pieces of each kind
  std::uint64_t arrangements = 1;            // of the multiset
  PermSplit perm = PermSplit::full;
  int perm_classes = 1;  // 1, 2 or 6
  std::uint64_t perm_space = 1;
  // parity_turn only, over lexicographic ranks: each rank's class and its index within
  // the class, and back (class * perm_space + index).
  std::vector<std::uint8_t> class_of, index_of, rank_of;
  TwistSplit twist = TwistSplit::none;
  int twist_classes = 1;  // orientations under `total`
  std::uint64_t twist_space = 1;
  // The places Illegal lines name, in place order.
  std::vector<PlaceGuard> guards;
};

// A number of its own for each Tables made, so that a cache of one (successor_ranks())
// is never taken for another's made later at the same address.
inline std::uint64_t next_tables_serial() {
  static std::atomic<std::uint64_t> made{0};
  return made.fetch_add(1, std::memory_order_relaxed) + 1;
}

// What the model computes once and its copies share (the models in AnyPuzzle, the
// levels engine's packing).
struct Tables {
  std::uint64_t serial = next_tables_serial();
  PieceDefinition definition;
  PieceMetric metric = PieceMetric::all_powers;
  std::vector<std::string> chosen;  // the definition's moves in use
  std::vector<PieceMove> moves;     // after the metric
  std::vector<PieceMove> inverses;  // inverses[m] undoes moves[m]
  bool directed = false;
  // Every position has one successor per move, none of them itself, and the moves
  // pair one to one with their inverses: the moves from a level of a search then
  // follow from its size and the moves onward (RegularPuzzle).
  bool regular = false;
  // The same but for self-loops: every position has one successor per move (some
  // of them itself, where identical pieces swap unseen) and the moves pair one to
  // one with their inverses (UniformPuzzle).
  bool uniform = false;
  std::vector<SetShape> shapes;                  // per set
  std::vector<std::vector<std::string>> labels;  // per set: each kind's number as printed
  std::vector<Coordinate> coordinates;           // most significant first
  // The reachable classes, ascending: each set's arrangement class then twist class.
  std::vector<std::vector<int>> classes;
  Divider class_divider;  // by the classes' count
  // offsets[h * coordinates + i]: class h's index in coordinates[i].classes times its space.
  std::vector<std::uint64_t> offsets;
  // class_after[h * moves + m]: the class after move m (class_before: after its inverse).
  std::vector<std::uint32_t> class_after, class_before;
  std::uint64_t space = 1;
  // Uniform but not regular, every coordinate tabled and at most 64 moves: the moves
  // that leave each class, and each coordinate's key, as they were (bit m: move m),
  // so a rank's self-loops are the AND of its class's and its keys' masks.
  std::vector<std::uint64_t> class_kept;
  std::vector<std::vector<std::uint64_t>> key_kept;  // per coordinate, per key
  // The coordinates when every one has its tables and there are at most
  // kMostTabled (the inlined fast path of step()), else 0.
  std::size_t tabled = 0;
  // The coordinates when each has its table or is `made`, there are at most
  // kMostTabled and the cached path applies (successor_ranks()), else 0.
  std::size_t cached = 0;
  // The least significant coordinate's part of a rank, below its place value times its
  // values, fits 32 bits (most files): the cached path multiplies it in 32-bit lanes,
  // where a 64 by 64-bit multiply costs the vector unit three and shifts.
  bool low_narrow = false;
  // Illegal places or wildcard twists: every position step() gives or starts from
  // goes through admitted(), unless `guarded`. The ranks stay those of every
  // arrangement and twist: the positions these leave out are ranks no search reaches.
  bool constrained = false;
  // Illegal lines without wildcards, each set they name ranked by an arrangement
  // coordinate: the move kernels check them on the arrangement they look up or
  // unrank anyway (kIllegalDigit in the tables, Coordinate::illegal for the position
  // itself, SetShape::guards where a coordinate is unranked), so a successor costs
  // no unrank for the check, and every coordinate tabled keeps the inlined path.
  bool guarded = false;
  // Flat over the sets (set k's places after those of sets 0..k-1): the kinds each
  // place may not hold, one flag a kind, empty where every kind may stand.
  std::vector<std::vector<bool>> forbidden;
  // Per set, per kind: its twist is not counted (0 in every position); empty per set
  // where every twist counts.
  std::vector<std::vector<bool>> wild;
};

// admitted()'s answer for a position no move may enter.
inline constexpr std::uint64_t kNotAdmitted = ~std::uint64_t{0};

// Sets a ranked definition may have: two coordinates each (step_generic's keys).
inline constexpr std::size_t kMaxSets = 64;

// The definition checked (sets, solved state, moves and rotations) and its chosen
// moves (names of definition moves; empty: all) after the metric, each once and
// none the identity; chosen_out gets the names used. Throws ParseError.
std::vector<PieceMove> metric_moves(const PieceDefinition& d, PieceMetric metric,
                                    const std::vector<std::string>& chosen, std::vector<std::string>& chosen_out);
// The transform undoing t; the one moving nothing; a then b.
PieceTransform inverse_transform(const PieceDefinition& d, const PieceTransform& t);
PieceTransform identity_transform(const PieceDefinition& d);
PieceTransform then_transform(const PieceDefinition& d, const PieceTransform& a, const PieceTransform& b);
// Per set, each kind of piece (the distinct numbers of the solved state, ascending)
// as printed: its number from 1.
std::vector<std::vector<std::string>> piece_labels(const PieceDefinition& d);
// The per-set notation of positions: "CORNERS 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0 / EDGES
// ...", the name and the piece at each place, then the twists (a row only for sets
// with more than one orientation).
std::string format_piece_position(const PieceDefinition& d, const std::vector<std::vector<std::string>>& labels,
                                  const PiecePosition& p);
// That notation read back (rows split on '/' and line breaks, tokens on blanks and
// commas); throws ParseError saying what is wrong, without the text.
PiecePosition read_piece_position(const PieceDefinition& d, const std::vector<std::vector<std::string>>& labels,
                                  std::string_view text);
// Coordinates step()'s inlined path takes: three sets with twists (the Skewb's).
inline constexpr std::size_t kMostTabled = 6;

// The digits of coordinate c after each of moves[0, count), into out, without a
// table; `key` is the class index times c.space plus the digit. The coordinate is
// unranked once for them all, and a set of distinct pieces is ranked again by its
// Lehmer code over a bit mask of the pieces placed. With `bad` (count <= 32) and
// guards on c's set's arrangement: bit j of *bad set when move j brings a piece where
// an Illegal line forbids it; returns whether the key's own arrangement is forbidden.
bool move_digits(const Tables& t, const Coordinate& c, std::uint64_t key, const PieceMove* moves, std::size_t count,
                 std::uint64_t* out, std::uint32_t* bad = nullptr);

inline bool key_forbidden(const Coordinate& c, std::uint64_t key) {
  return !c.illegal.empty() && ((c.illegal[key >> 6] >> (key & 63)) & 1) != 0;
}

// f(rank) for each move (kBackward: each inverse) applied to rank r, in the order of
// the moves, for any definition: coordinates without a table are moved by unranking
// them alone, once per batch of moves. The successors are summed coordinate by
// coordinate into a buffer before any is handed over: the table rows are then read
// in order, and f, which may store anywhere, cannot make the compiler reload the
// tables between moves. kGuarded (Tables::guarded): f(kNotAdmitted) for a move into
// a forbidden position, and no call at all when r itself is forbidden.
template <bool kBackward, bool kGuarded = false, class F>
void step_generic(const Tables& t, std::uint64_t r, F& f) {
  const std::size_t n = t.coordinates.size();
  const std::uint64_t h = t.class_divider.take(r);
  const std::uint64_t* offset = t.offsets.data() + h * n;
  std::array<std::uint64_t, 2 * kMaxSets> key;
  // The most significant digit is what the others leave: one division fewer. A
  // definition whose classes say everything has no coordinate at all.
  for (std::size_t i = n; i-- > 1;) key[i] = offset[i] + t.coordinates[i].divider.take(r);
  if (n > 0) key[0] = offset[0] + r;
  if constexpr (kGuarded) {
    for (std::size_t i = 0; i < n; ++i) {
      if (key_forbidden(t.coordinates[i], key[i])) return;
    }
  }
  // Moves closed under inverses have the successors for predecessors.
  const bool backward = kBackward && t.directed;
  const auto& moves = backward ? t.inverses : t.moves;
  const std::uint32_t* after = (backward ? t.class_before : t.class_after).data() + h * moves.size();
  const std::size_t count = moves.size();
  constexpr std::size_t kBatch = 32;
  std::array<std::uint64_t, kBatch> next;
  for (std::size_t first = 0; first < count; first += kBatch) {
    const std::size_t k = std::min(kBatch, count - first);
    std::copy_n(after + first, k, next.begin());
    [[maybe_unused]] std::uint32_t bad = 0;  // bit j: move first + j is into a forbidden position
    for (std::size_t i = 0; i < n; ++i) {
      const Coordinate& c = t.coordinates[i];
      const auto& table = backward ? c.backward : c.forward;
      if (table.empty()) {
        std::array<std::uint64_t, kBatch> digit;
        if (move_digits(t, c, key[i], moves.data() + first, k, digit.data(), kGuarded ? &bad : nullptr)) return;
        for (std::size_t j = 0; j < k; ++j) next[j] += digit[j] * c.weight;
      } else {
        const std::uint32_t* row = table.data() + key[i] * count + first;
        if constexpr (kGuarded) {
          for (std::size_t j = 0; j < k; ++j) {
            bad |= (row[j] >> 31) << j;
            next[j] += (row[j] & ~kIllegalDigit) * c.weight;
          }
        } else {
          for (std::size_t j = 0; j < k; ++j) next[j] += row[j] * c.weight;
        }
      }
    }
    if constexpr (kGuarded) {
      for (std::size_t j = 0; j < k; ++j) f((bad >> j) & 1 ? kNotAdmitted : next[j]);
    } else {
      for (std::size_t j = 0; j < k; ++j) f(next[j]);
    }
  }
}

// The same when each of the N coordinates has its tables (Tables::tabled == N): the
// N table rows and place values are found once per position and held in registers,
// so a successor costs N loads, multiplies and adds and the class's (kGuarded: and
// an or and a mask per coordinate, the Illegal lines' check). Inlined into the
// engine's scan, where f's counts then stay in registers too.
template <std::size_t N, bool kBackward, bool kGuarded = false, class F>
[[gnu::always_inline]] inline void step_tabled(const Tables& t, std::uint64_t r, F& f) {
  const std::uint64_t classes = t.classes.size();
  const std::uint64_t h = classes > 1 ? t.class_divider.take(r) : 0;
  const bool backward = kBackward && t.directed;
  const std::size_t count = t.moves.size();
  const std::uint64_t* offset = t.offsets.data() + h * N;
  std::array<const std::uint32_t*, N> row;
  std::array<std::uint64_t, N> weight;
  for (std::size_t i = N; i-- > 0;) {
    const Coordinate& c = t.coordinates[i];
    const std::uint64_t digit = i > 0 ? c.divider.take(r) : r;
    if constexpr (kGuarded) {
      if (key_forbidden(c, offset[i] + digit)) return;
    }
    row[i] = (backward ? c.backward : c.forward).data() + (offset[i] + digit) * count;
    weight[i] = c.weight;
  }
  const std::uint32_t* after = (backward ? t.class_before : t.class_after).data() + h * count;
  for (std::size_t m = 0; m < count; ++m) {
    std::uint64_t s = after[m];
    if constexpr (kGuarded) {
      std::uint32_t flags = 0;
      for (std::size_t i = 0; i < N; ++i) {
        flags |= row[i][m];
        s += (row[i][m] & ~kIllegalDigit) * weight[i];
      }
      f((flags & kIllegalDigit) != 0 ? kNotAdmitted : s);
    } else {
      for (std::size_t i = 0; i < N; ++i) s += row[i][m] * weight[i];
      f(s);
    }
  }
}

// Rank r as a position of the graph when the definition has Illegal places or wildcard
// twists: r with every wild piece's twist 0, or kNotAdmitted when a piece stands where
// an Illegal line forbids it.
[[nodiscard]] std::uint64_t admitted(const Tables& t, std::uint64_t r);

// Every move's image of r, the moves in order, whether or not the image is a
// position of the graph; kGuarded (Tables::guarded): kNotAdmitted for an image an
// Illegal line forbids, and nothing when r itself is forbidden.
template <bool kBackward, bool kGuarded = false, class F>
[[gnu::always_inline]] inline void step_unchecked(const Tables& t, std::uint64_t r, F& f) {
  switch (t.tabled) {
    case 1:
      return step_tabled<1, kBackward, kGuarded>(t, r, f);
    case 2:
      return step_tabled<2, kBackward, kGuarded>(t, r, f);
    case 3:
      return step_tabled<3, kBackward, kGuarded>(t, r, f);
    case 4:
      return step_tabled<4, kBackward, kGuarded>(t, r, f);
    case 5:
      return step_tabled<5, kBackward, kGuarded>(t, r, f);
    case 6:
      return step_tabled<6, kBackward, kGuarded>(t, r, f);
    default:
      return step_generic<kBackward, kGuarded>(t, r, f);
  }
}

// Successors by the fastest way the tables allow. Under Illegal lines and wildcards a
// position no move may enter has neither successors nor predecessors, and a move's
// image is admitted() first: left out when illegal (a move into it is no move, as in
// twsearch, which checks each move's result), its wild twists set to 0.
template <bool kBackward, class F>
[[gnu::always_inline]] inline void step(const Tables& t, std::uint64_t r, F& f) {
  if (t.guarded) [[unlikely]] {
    const auto g = [&](std::uint64_t s) {
      if (s != kNotAdmitted) f(s);
    };
    return step_unchecked<kBackward, true>(t, r, g);
  }
  if (t.constrained) [[unlikely]] {
    if (admitted(t, r) != r) return;
    const auto g = [&](std::uint64_t s) {
      s = admitted(t, s);
      if (s != kNotAdmitted) f(s);
    };
    return step_unchecked<kBackward>(t, r, g);
  }
  step_unchecked<kBackward>(t, r, f);
}

// How many moves leave rank r as it was, by making every move.
[[nodiscard]] int self_loops_by_moves(const Tables& t, std::uint64_t r);

// How many moves leave rank r as it was (a uniform definition): the rank is the class
// and the digits' sum, so a move keeps it when it keeps each, and the masks of the
// moves keeping each (Tables::class_kept, key_kept) say which do, without a branch.
[[nodiscard]] inline int self_loops(const Tables& t, std::uint64_t r) {
  if (t.class_kept.empty()) return self_loops_by_moves(t, r);
  const std::size_t n = t.coordinates.size();
  const std::uint64_t h = t.class_divider.take(r);
  const std::uint64_t* offset = t.offsets.data() + h * n;
  std::uint64_t kept = t.class_kept[h];
  for (std::size_t i = n; i-- > 1;) kept &= t.key_kept[i][offset[i] + t.coordinates[i].divider.take(r)];
  if (n > 0) kept &= t.key_kept[0][offset[0] + r];
  return std::popcount(kept);
}

// Moves a thread's successor cache holds the sums of.
inline constexpr std::size_t kCachedMoves = 64;

// The sums of every coordinate's move but the least significant one's, and of the
// class's, for one value of the other digits: a search expands ranks in ascending
// order, and ranks next to each other differ in that digit and the class alone (the
// class is the least significant digit), so there is one sum for each of a few
// classes.
struct SuccessorCache {
  static constexpr std::size_t kClasses = 8;
  struct Sum {
    std::uint64_t tables = 0;  // Tables::serial; 0: none
    std::uint64_t high = 0, cls = 0;
    std::array<std::uint64_t, kCachedMoves> sum{};
  };
  std::array<Sum, kClasses> by_class{};
};
// Constant-initialised: a read needs no call to a thread's initialiser.
inline constinit thread_local SuccessorCache successor_cache;

// Makes `cache` the sums of every coordinate's move but the least significant one's,
// and of the class's, for rank digits `high` above that coordinate and class h. Out
// of line: the path taken for nearly every rank then keeps a small frame and saves
// few registers.
template <std::size_t N>
[[gnu::noinline]] void fill_successor_sums(const Tables& t, std::uint64_t high, std::uint64_t h,
                                           SuccessorCache::Sum& cache) {
  const std::size_t count = t.moves.size();
  const std::uint64_t* offset = t.offsets.data() + h * N;
  cache.tables = t.serial;
  cache.high = high;
  cache.cls = h;
  const std::uint32_t* after = t.class_after.data() + h * count;
  for (std::size_t m = 0; m < count; ++m) cache.sum[m] = after[m];
  for (std::size_t i = N - 1; i-- > 0;) {
    const Coordinate& c = t.coordinates[i];
    const std::uint64_t d = i > 0 ? c.divider.take(high) : high;
    if (c.made) {
      std::array<std::uint64_t, kCachedMoves> digits;
      move_digits(t, c, offset[i] + d, t.moves.data(), count, digits.data());
      for (std::size_t m = 0; m < count; ++m) cache.sum[m] += digits[m] * c.weight;
      continue;
    }
    const std::uint32_t* row = c.forward.data() + (offset[i] + d) * count;
    for (std::size_t m = 0; m < count; ++m) cache.sum[m] += row[m] * c.weight;
  }
}

// successor_ranks() when each of the N >= 2 coordinates has its table or is made and there are
// at most kCachedMoves moves: a successor is then one table load, multiply and add
// (twsearch's inner loop over its smallest coordinates), and the rest of the sum is
// made again only when the other digits or the class change.
template <std::size_t N>
[[gnu::always_inline]] inline int successor_ranks_cached(const Tables& t, std::uint64_t r,
                                                         std::uint64_t* __restrict out) {
  const std::uint64_t h = t.class_divider.take(r);
  const std::size_t count = t.moves.size();
  const Coordinate& low = t.coordinates[N - 1];
  std::uint64_t high = r;
  const std::uint64_t digit = low.divider.take(high);
  SuccessorCache::Sum& cache = successor_cache.by_class[h % SuccessorCache::kClasses];
  if (cache.tables != t.serial || cache.high != high || cache.cls != h) [[unlikely]] {
    fill_successor_sums<N>(t, high, h, cache);
  }
  const std::uint32_t* row = low.forward.data() + (t.offsets[h * N + N - 1] + digit) * count;
  const std::uint64_t* sum = cache.sum.data();
  if (t.low_narrow) {
    const auto w = std::uint32_t(low.weight);
    for (std::size_t m = 0; m < count; ++m) out[m] = sum[m] + std::uint32_t(row[m] * w);
  } else {
    for (std::size_t m = 0; m < count; ++m) out[m] = sum[m] + row[m] * low.weight;
  }
  return int(count);
}

// successor_ranks() where no cached path applies. Out of line: the cached paths then
// keep a smaller frame (56 bytes, where they shared one of 152 with this path).
[[gnu::noinline]] inline int stepped_successor_ranks(const Tables& t, std::uint64_t r, std::uint64_t* out) {
  int k = 0;
  const auto put = [&](std::uint64_t s) { out[k++] = s; };
  step<false>(t, r, put);
  return k;
}

// Writes the ranks of rank r's successors into out[0, moves), in the order of the
// moves, and returns their count.
inline int successor_ranks(const Tables& t, std::uint64_t r, std::uint64_t* out) {
  if (t.cached != 0) {
    switch (t.cached) {
      case 2:
        return successor_ranks_cached<2>(t, r, out);
      case 3:
        return successor_ranks_cached<3>(t, r, out);
      case 4:
        return successor_ranks_cached<4>(t, r, out);
      case 5:
        return successor_ranks_cached<5>(t, r, out);
      case 6:
        return successor_ranks_cached<6>(t, r, out);
      default:
        break;
    }
  }
  return stepped_successor_ranks(t, r, out);
}

// Conjugation by a rotation r of the whole puzzle, on positions: q = r^-1 p r, which
// maps the moves onto the moves (m onto r^-1 m r) and so a position at distance d
// onto one at distance d. Flat over the sets (set k's places after those of sets
// 0..k-1): place i of q takes the piece at place from[i] of p, its kind through
// kind_map and its twist raised by add[i] and by kind_twist of that kind (identical
// pieces: r must map the solved state's kinds onto kinds, twists alike). A wild
// kind's twist stays 0 (wildcards: r maps wild kinds onto wild kinds).
struct Conjugation {
  std::vector<int> from, add;
  std::vector<std::vector<int>> kind_map, kind_twist;  // per set, per kind
  std::vector<std::vector<bool>> wild;                 // per set, per kind (Tables::wild)
};

// The group positions are counted up to (Pieces::use_rotations): every conjugation
// but the identity. The rotations the file's generate that map its identical pieces,
// wildcards and Illegal places onto themselves (all of them, for most files) form
// the subgroup used.
struct Symmetry {
  std::vector<Conjugation> group;  // the group used: the start's stabiliser
  std::vector<Conjugation> all;    // the subgroup that fixes the kinds and constraints
  int generated = 1;               // the order of the group the file's rotations generate
  std::vector<std::string> kept;   // `all`'s rotations, as words in the file's (y, x2, y z')
  std::string fixes;               // what the rotations left out fail to fix, when any are
};

// The least rank of r's class, and how many positions the class holds (the group's
// order over r's stabiliser's).
[[nodiscard]] std::uint64_t canonical_rank(const Tables& t, const Symmetry& s, std::uint64_t r);
[[nodiscard]] std::uint64_t orbit_size(const Tables& t, const Symmetry& s, std::uint64_t r);

}  // namespace pieces_detail

// The levels engine's word: the rank, moved through the same tables.
// Counted up to symmetry, the words are classes: each successor its class's least.
class PieceRankPacking {
 public:
  explicit PieceRankPacking(std::shared_ptr<const pieces_detail::Tables> t,
                            std::shared_ptr<const pieces_detail::Symmetry> s = nullptr)
      : t_(std::move(t)), s_(std::move(s)) {}
  [[nodiscard]] std::uint64_t pack(const PieceState& s) const { return s.rank; }
  [[nodiscard]] PieceState unpack(std::uint64_t w) const { return {w}; }
  [[nodiscard]] int moves() const { return int(t_->moves.size()); }
  int successors(std::uint64_t w, std::uint64_t* out) const {
    const int n = pieces_detail::successor_ranks(*t_, w, out);
    if (s_) {
      for (int i = 0; i < n; ++i) out[i] = pieces_detail::canonical_rank(*t_, *s_, out[i]);
    }
    return n;
  }
  [[nodiscard]] std::uint64_t orbit_size(std::uint64_t w) const {
    return s_ ? pieces_detail::orbit_size(*t_, *s_, w) : 1;
  }

 private:
  std::shared_ptr<const pieces_detail::Tables> t_;
  std::shared_ptr<const pieces_detail::Symmetry> s_;
};

class Pieces {
 public:
  using State = PieceState;
  using Packing = PieceRankPacking;
  // One set's arrangement (kinds 0.., in the order of their written numbers) and twists.
  using Position = PiecePosition;

  // `chosen`: names of definition moves to use (the others are left out); empty: all.
  Pieces(const PieceDefinition& definition, PieceMetric metric, const std::vector<std::string>& chosen = {});

  [[nodiscard]] int max_moves() const { return int(t_->moves.size()); }
  [[nodiscard]] std::string name() const { return t_->definition.name; }
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] std::vector<int> row_lengths() const;
  // format()'s cells: each row's set name, its places, the orientation row under it.
  [[nodiscard]] std::vector<CellRole> cell_roles() const;
  // Set by set: "CORNERS 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0 / EDGES ...", the name and
  // the piece at each place (as numbered in the solved state), then the twists (a
  // row only for sets with more than one orientation).
  [[nodiscard]] std::string format(const State& s) const;
  // format()'s notation; throws ParseError naming the token and the expected form.
  // Counted up to symmetry: the position's class.
  [[nodiscard]] State parse(std::string_view text) const;
  // The position itself, never its class.
  [[nodiscard]] State parse_position(std::string_view text) const;

  [[nodiscard]] std::uint64_t rank_space() const { return t_->space; }
  [[nodiscard]] std::uint64_t rank(const State& s) const { return s.rank; }
  [[nodiscard]] State unrank(std::uint64_t r) const { return {r}; }

  // Counted up to symmetry: each successor's class, as its least member.
  template <class F>
  void for_each_successor(const State s, F&& f) const {
    if (s_) {
      for_each_successor_rank(s.rank, [&](std::uint64_t r) { f(State{pieces_detail::canonical_rank(*t_, *s_, r)}); });
      return;
    }
    for_each_successor_rank(s.rank, [&](std::uint64_t r) { f(State{r}); });
  }
  // Each move's successor as a position, never its class (PositionStepPuzzle).
  template <class F>
  void for_each_position_successor(const State s, F&& f) const {
    for_each_successor_rank(s.rank, [&](std::uint64_t r) { f(State{r}); });
  }
  // f(rank) for each move's successor, in the order of moves(): positions, never
  // classes (the ranked engine, which walks them, does not count up to symmetry).
  template <class F>
  void for_each_successor_rank(std::uint64_t r, F&& f) const {
    pieces_detail::step<false>(*t_, r, f);
  }
  // The same into out[0, max_moves()); returns the count.
  int successor_ranks(std::uint64_t r, std::uint64_t* out) const { return pieces_detail::successor_ranks(*t_, r, out); }
  [[nodiscard]] bool directed() const { return t_->directed; }
  // Classes make no regular graph: a class's moves may lead to one class twice.
  [[nodiscard]] bool regular() const { return t_->regular && !s_; }
  // Regular but for self-loops (UniformPuzzle); classes are not, as above.
  [[nodiscard]] bool uniform() const { return t_->uniform && !s_; }
  [[nodiscard]] int self_loops(std::uint64_t r) const { return pieces_detail::self_loops(*t_, r); }
  // Every position with s among its successors: the inverse moves applied to s
  // (classes, counted up to symmetry).
  template <class F>
  void for_each_predecessor(const State s, F&& f) const {
    const auto g = [&](std::uint64_t r) { f(State{s_ ? pieces_detail::canonical_rank(*t_, *s_, r) : r}); };
    pieces_detail::step<true>(*t_, s.rank, g);
  }

  // The first move taking `from` to `to`, or "?" when none does.
  [[nodiscard]] std::string move_name(const State& from, const State& to) const;
  // Nothing for a directed space: the sorted-levels engine drops revisits against
  // the two levels before only, which finds every revisit in undirected spaces alone.
  [[nodiscard]] std::optional<Packing> packing(const State&) const {
    if (t_->directed) return std::nullopt;
    return Packing(t_, s_);
  }

  // Counts positions up to the rotations of the whole puzzle the file gives (x, y,
  // z, Fv, ...; rules files' symmetry = "board" for twisty puzzles): a position p
  // and r^-1 p r, for every rotation r of the group they generate, are one class,
  // standing as its least rank. Every rotation the file names must map the moves in
  // use onto themselves (r^-1 m r a move for every move m), else ParseError naming
  // its line. Of the group they generate, those that map the solved state's identical
  // pieces onto identical ones, wild twists onto wild ones and the places Illegal
  // lines forbid onto themselves are used (twsearch keeps the same subgroup: puck's 8
  // of 24); ParseError when only the identity is left (at the line that loses the
  // others) or the file gives no rotation. Returns the order of the group used.
  int use_rotations();
  // analyze --from: the group becomes the rotations that fix that position.
  void start_at(std::string_view text);
  [[nodiscard]] int symmetries() const { return s_ ? int(s_->group.size()) + 1 : 1; }
  // The order of the group used before the start's stabiliser is taken (the subgroup
  // that fixes the kinds, wildcards and Illegal places); 0 without symmetry.
  [[nodiscard]] int rotations() const { return s_ ? int(s_->all.size()) + 1 : 0; }
  [[nodiscard]] std::string symmetry_group() const;
  [[nodiscard]] State canonical(const State& s) const {
    return s_ ? State{pieces_detail::canonical_rank(*t_, *s_, s.rank)} : s;
  }
  [[nodiscard]] std::uint64_t orbit_size(const State& s) const {
    return s_ ? pieces_detail::orbit_size(*t_, *s_, s.rank) : 1;
  }
  // A path of classes (or positions) as positions, each one move from the one before.
  [[nodiscard]] std::vector<State> unfold(const std::vector<State>& path) const;

  [[nodiscard]] const PieceDefinition& definition() const { return t_->definition; }
  [[nodiscard]] PieceMetric metric() const { return t_->metric; }
  [[nodiscard]] const std::vector<std::string>& chosen_moves() const { return t_->chosen; }
  [[nodiscard]] const std::vector<PieceMove>& moves() const { return t_->moves; }
  // The coordinates, classes and move tables the successors come from.
  [[nodiscard]] const pieces_detail::Tables& tables() const { return *t_; }

  // Between ranks and positions; position_rank() throws ParseError for a position
  // whose class (parities, twists, turns, pieces) no move reaches.
  [[nodiscard]] Position position(std::uint64_t r) const;
  [[nodiscard]] std::uint64_t position_rank(const Position& p) const;

 private:
  std::shared_ptr<const pieces_detail::Tables> t_;
  std::shared_ptr<const pieces_detail::Symmetry> s_;  // null: positions counted one by one
  State start_;
};

static_assert(RankedPuzzle<Pieces>);
static_assert(ReversiblePuzzle<Pieces>);
static_assert(WordPackedPuzzle<Pieces>);
static_assert(MoveNamingPuzzle<Pieces>);
static_assert(RegularPuzzle<Pieces>);
static_assert(OrbitCountingPuzzle<Pieces>);
static_assert(PathUnfoldingPuzzle<Pieces>);
static_assert(StartMovablePuzzle<Pieces>);

}  // namespace statespace
