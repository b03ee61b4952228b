// Probing a distance table (analysis/runtime/goal_table.hpp) for one puzzle: the
// position's index, its distance to the goal (a walk along the codes on two-bit
// tables), every move with the distance after it, and the line of best moves to the
// goal. What `statespace query` prints and `solve` walks when a table is given.
#pragma once

#include <algorithm>
#include <concepts>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/explicit/goal_view.hpp"
#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "analysis/engines/implicit/tile_index.hpp"
#include "analysis/engines/ranked/ranked_checkpoint.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// Where a position stands in a table.
enum class Standing { distance, dead, unreached };

struct TableEntry {
  Standing standing = Standing::unreached;
  unsigned distance = 0;  // with Standing::distance
  friend bool operator==(const TableEntry&, const TableEntry&) = default;
};

// A standing as query, serve and the Python module name it.
inline std::string standing_name(Standing s) {
  switch (s) {
    case Standing::distance:
      return "distance";
    case Standing::dead:
      return "dead";
    case Standing::unreached:
      break;
  }
  return "not reachable";
}

// What a move does to the distance: "closer", "same" or "farther"; the standing it
// leads to when that has no distance; "" from a position without one.
inline std::string change_name(const TableEntry& here, const TableEntry& after) {
  if (after.standing != Standing::distance) return standing_name(after.standing);
  if (here.standing != Standing::distance) return "";
  if (after.distance < here.distance) return "closer";
  return after.distance == here.distance ? "same" : "farther";
}

// A move from a probed position and what it leads to.
template <class State>
struct TableMove {
  State to{};
  TableEntry entry;
};

// The goal a table of p must name: the file's goal picture, or the goal position.
template <Puzzle P>
std::string table_goal_text(const P& p) {
  if constexpr (PartialGoalPuzzle<P>) {
    if (p.has_goal()) return p.goal_text();
  }
  return p.format(p.goal());
}

// Models whose wide words a wide words table stores: 128 bits (tables of wider words
// are refused by analyze --table).
template <class P>
concept WideTablePuzzle = WidePackedPuzzle<P> && std::same_as < PackedWord<typename P::WidePacking>,
unsigned __int128 > ;

// The members are defined below the class, not in it: members defined in the class
// are inline, and GCC compiles inline members of an `extern template` class again in
// every file that calls them, so that analysis/pipeline/pipeline_instances.hpp could
// not give query, serve, solve and the Python module the registry models' probes
// compiled once.
template <Puzzle P>
class TableProbe {
 public:
  using State = typename P::State;

  // Throws UsageError (one line) when `table` is not one of p's: another puzzle,
  // another move set or metric, another goal, or an index p does not have.
  TableProbe(const P& p, const GoalTableFile& table);

  // The position's index in the table; none when the table has no entry for it
  // (the other reachability class of a tiles board).
  [[nodiscard]] std::optional<std::uint64_t> index(const State& s) const;

  [[nodiscard]] bool is_goal(const State& s) const;

  // The stored code of s: 0 for a position the table has no entry for.
  [[nodiscard]] unsigned code(const State& s) const;

  // The exact distance of s to the goal, or why there is none. On a two-bit table
  // the distance is the length of the walk to the goal along codes one lower.
  [[nodiscard]] TableEntry entry(const State& s) const;

  // Every move from s (at `here`) with the entry of the position it leads to, best
  // first: closer, then the same distance, then farther, then dead or not in the
  // table; moves of equal standing in the model's order.
  [[nodiscard]] std::vector<TableMove<State>> moves(const State& s, const TableEntry& here) const;

  // Up to n best moves from s: each to a position one closer, until the goal.
  [[nodiscard]] std::vector<State> line(const State& s, std::uint64_t n) const;

  // The position at table index i (< entries), the inverse of index(): the rank
  // unranked, a tiles board of the goal's class, or a words table's word unpacked (a
  // class's least member on a table up to symmetry).
  [[nodiscard]] State position(std::uint64_t i) const;

  // A position at distance d to the goal, drawn with `rng`; none when the table has
  // none. Byte tables: the first index at or after a random one whose code is d's.
  // Two-bit tables, whose codes give d only modulo 3: a random index of d's code,
  // its exact distance, then a walk of random moves one closer (or one farther) each
  // to d; when a walk outward finds no farther move, another index. `far`: positions
  // to walk in from when `tries` such draws miss (the farthest of a report: the few
  // positions at the greatest distances are rarely drawn).
  template <class Rng>
  [[nodiscard]] std::optional<State> random_at(unsigned d, Rng& rng, const std::vector<State>& far = {},
                                               unsigned tries = 64) const {
    const GoalTableHeader& h = t_.header();
    if (d >= h.layers.size() || h.layers[d] == 0 || h.entries == 0) return std::nullopt;
    std::uniform_int_distribution<std::uint64_t> any(0, h.entries - 1);
    const auto scan = [&](unsigned want) -> std::optional<std::uint64_t> {
      const std::uint64_t from = any(rng);
      for (std::uint64_t k = 0; k < h.entries; ++k) {
        const std::uint64_t i = from + k < h.entries ? from + k : from + k - h.entries;
        if (t_.code(i) == want) return i;
      }
      return std::nullopt;
    };
    if (byte_table()) {
      const auto i = scan(kByteFirstDistance + d);
      if (!i) return std::nullopt;
      return position(*i);
    }
    // A walk from s (at distance e) to distance d, one random move at a time.
    const auto walk = [&](State s, unsigned e) -> std::optional<State> {
      while (e != d) {
        const unsigned next = e > d ? e - 1 : e + 1;
        std::vector<State> step;
        for (const auto& m : moves(s, {Standing::distance, e})) {
          if (m.entry.standing == Standing::distance && m.entry.distance == next) step.push_back(m.to);
        }
        if (step.empty()) return std::nullopt;
        s = step[std::uniform_int_distribution<std::size_t>(0, step.size() - 1)(rng)];
        e = next;
      }
      return s;
    };
    for (unsigned k = 0; k < tries; ++k) {
      const auto i = scan(d % 3 + 1);
      if (!i) return std::nullopt;
      const State s = position(*i);
      const TableEntry e = entry(s);
      if (e.standing != Standing::distance) continue;
      if (const auto found = walk(s, e.distance)) return found;
    }
    std::vector<std::pair<State, unsigned>> from;
    for (const State& s : far) {
      const TableEntry e = entry(s);
      if (e.standing == Standing::distance && e.distance >= d) from.emplace_back(s, e.distance);
    }
    if (from.empty()) return std::nullopt;
    const auto& [s, e] = from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
    return walk(s, e);
  }

  [[nodiscard]] const GoalTableFile& file() const { return t_; }

 private:
  [[nodiscard]] bool byte_table() const { return t_.header().encoding != TableEncoding::two_bits; }
  static unsigned lower(unsigned c) { return c == 1 ? 3 : c - 1; }
  static TableEntry from_byte(unsigned c) {
    if (c == 0) return {Standing::unreached, 0};
    if (c == kByteDead) return {Standing::dead, 0};
    return {Standing::distance, c - kByteFirstDistance};
  }
  // Each move's successor: on a table of classes the position it reaches, looked
  // up by its class (index()), so that moves keep their names.
  template <class F>
  void steps(const State& s, F&& f) const {
    for_each_step(p_, s, f);
  }
  // The first successor of s (of code v) one closer to the goal.
  [[nodiscard]] std::optional<State> closer(const State& s, unsigned v) const;

  const P& p_;
  const GoalTableFile& t_;
  std::optional<TileIndex> tiles_;
  std::optional<typename detail::PackingOf<P, false>::type> packing_;  // words tables
  std::optional<typename detail::PackingOf<P, true>::type> wide_;      // wide words tables
  unsigned goal_class_ = 0;
};

template <Puzzle P>
TableProbe<P>::TableProbe(const P& p, const GoalTableFile& table) : p_(p), t_(table) {
  const GoalTableHeader& h = t_.header();
  const std::string where = "table " + t_.path().string() + " ";
  if (h.puzzle != p.name()) {
    throw UsageError(where + "is for " + h.puzzle + ", not " + p.name() +
                     " (pass the table of this puzzle: statespace analyze PUZZLE --table)");
  }
  bool index_known = false;
  std::string identity;
  if constexpr (TileGridPuzzle<P>) {
    if (h.index == kTileClassIndex) {
      tiles_.emplace(p.rows(), p.cols());
      goal_class_ = tiles_->class_of(p.goal());
      identity = tiles_table_identity(Tiles(p.rows(), p.cols()));
      index_known = true;
    }
  }
  if constexpr (RankedPuzzle<P>) {
    if (h.index == "rank") {
      identity = ranked_identity(p);
      index_known = true;
    }
  }
  if constexpr (WordPackedPuzzle<P>) {
    const auto at = h.identity.find(detail::kWordsTablePrefix);
    if (h.index == "words" && at != std::string::npos) {
      const State start = p.parse(h.identity.substr(at + detail::kWordsTablePrefix.size()));
      packing_ = p.packing(start);
      if (packing_) {
        identity = detail::levels_table_identity(*packing_, t_.data(), h.entries, p.format(start));
        index_known = true;
      }
    }
  }
  if constexpr (WideTablePuzzle<P>) {
    const auto at = h.identity.find(detail::kWordsTablePrefix);
    if (h.index == "wide-words" && h.encoding == TableEncoding::wide_words && at != std::string::npos) {
      const State start = p.parse(h.identity.substr(at + detail::kWordsTablePrefix.size()));
      wide_ = p.wide_packing(start);
      if (wide_) {
        std::vector<WideWord> first;
        for (std::uint64_t i = 0; i < std::min<std::uint64_t>(h.entries, 64); ++i) first.push_back(t_.wide_word(i));
        identity = detail::levels_table_identity(*wide_, first.data(), first.size(), p.format(start));
        index_known = true;
      }
    }
  }
  if (!index_known) {
    throw UsageError(where + "indexes positions by " + h.index + ", which " + p.name() +
                     " does not have (expected a table written by statespace analyze " + p.name() + " --table)");
  }
  if (h.identity != identity) {
    throw UsageError(where + "is for " + h.puzzle + " with " + h.identity + ", not with " + identity +
                     " (pass the same puzzle file, --moves and --metric)");
  }
  const std::string goal = table_goal_text(p);
  if (h.goal != goal) {
    throw UsageError(where + "measures distances to \"" + h.goal + "\", not to \"" + goal +
                     "\" (analyze the puzzle with its own goal and --table)");
  }
}

template <Puzzle P>
std::optional<std::uint64_t> TableProbe<P>::index(const State& s) const {
  if constexpr (WordPackedPuzzle<P>) {
    if (packing_) {
      std::uint64_t i = t_.find(packing_->pack(s));
      if constexpr (requires { p_.canonical(s); }) {
        // Tables up to symmetry hold one word a class: its least member's.
        if (i == t_.header().entries) i = t_.find(packing_->pack(p_.canonical(s)));
      }
      if (i == t_.header().entries) return std::nullopt;
      return i;
    }
  }
  if constexpr (WideTablePuzzle<P>) {
    if (wide_) {
      std::uint64_t i = t_.find(WideWord(wide_->pack(s)));
      if constexpr (requires { p_.canonical(s); }) {
        if (i == t_.header().entries) i = t_.find(WideWord(wide_->pack(p_.canonical(s))));
      }
      if (i == t_.header().entries) return std::nullopt;
      return i;
    }
  }
  if constexpr (TileGridPuzzle<P>) {
    if (tiles_) {
      if (tiles_->class_of(s) != goal_class_) return std::nullopt;
      return tiles_->class_rank(s);
    }
  }
  if constexpr (RankedPuzzle<P>) return p_.rank(s);
  return std::nullopt;
}

template <Puzzle P>
bool TableProbe<P>::is_goal(const State& s) const {
  if constexpr (PartialGoalPuzzle<P>) {
    if (p_.has_goal()) return p_.is_goal(s);
  }
  return s == p_.goal();
}

template <Puzzle P>
unsigned TableProbe<P>::code(const State& s) const {
  const auto i = index(s);
  return i ? t_.code(*i) : 0;
}

template <Puzzle P>
TableEntry TableProbe<P>::entry(const State& s) const {
  const unsigned c = code(s);
  if (byte_table()) return from_byte(c);
  if (c == 0) return {Standing::unreached, 0};
  unsigned d = 0;
  State at = s;
  unsigned v = c;
  while (!is_goal(at)) {
    const auto next = closer(at, v);
    if (!next)
      throw UsageError("table " + t_.path().string() + ": no move leads closer to the goal from " + p_.format(at) +
                       " (corrupt table)");
    at = *next;
    v = lower(v);
    if (++d > t_.header().layers.size()) {
      throw UsageError("table " + t_.path().string() + ": a walk from " + p_.format(s) +
                       " does not reach the goal within the table's depth (corrupt table)");
    }
  }
  return {Standing::distance, d};
}

template <Puzzle P>
std::vector<TableMove<typename TableProbe<P>::State>> TableProbe<P>::moves(const State& s,
                                                                           const TableEntry& here) const {
  std::vector<TableMove<State>> out;
  const unsigned c = code(s);
  steps(s, [&](const State& t) {
    TableMove<State> m;
    m.to = t;
    const unsigned ct = code(t);
    if (byte_table()) {
      m.entry = from_byte(ct);
    } else if (ct == 0 || here.standing != Standing::distance) {
      m.entry = {Standing::unreached, 0};
    } else if (ct == lower(c)) {
      m.entry = {Standing::distance, here.distance - 1};
    } else if (ct == c) {
      m.entry = {Standing::distance, here.distance};
    } else {
      m.entry = {Standing::distance, here.distance + 1};
    }
    out.push_back(std::move(m));
  });
  // Distances ascending, then dead, then not in the table.
  const auto rank = [](const TableEntry& e) {
    switch (e.standing) {
      case Standing::distance:
        return std::uint64_t(e.distance);
      case Standing::dead:
        return ~std::uint64_t{0} - 1;
      case Standing::unreached:
        break;
    }
    return ~std::uint64_t{0};
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const TableMove<State>& a, const TableMove<State>& b) { return rank(a.entry) < rank(b.entry); });
  return out;
}

template <Puzzle P>
std::vector<typename TableProbe<P>::State> TableProbe<P>::line(const State& s, std::uint64_t n) const {
  std::vector<State> out{s};
  const TableEntry e = entry(s);
  if (e.standing != Standing::distance) return out;
  unsigned d = e.distance;
  State at = s;
  unsigned v = code(s);
  for (std::uint64_t k = 0; k < n && d > 0; ++k) {
    std::optional<State> next;
    if (byte_table()) {
      steps(at, [&](const State& t) {
        if (!next && code(t) == kByteFirstDistance + d - 1) next = t;
      });
    } else {
      next = closer(at, v);
      v = lower(v);
    }
    if (!next) break;
    at = *next;
    out.push_back(at);
    --d;
  }
  return out;
}

template <Puzzle P>
typename TableProbe<P>::State TableProbe<P>::position(std::uint64_t i) const {
  if constexpr (WordPackedPuzzle<P>) {
    if (packing_) return packing_->unpack(t_.data()[i]);
  }
  if constexpr (WideTablePuzzle<P>) {
    if (wide_) return wide_->unpack(t_.wide_word(i));
  }
  if constexpr (TileGridPuzzle<P>) {
    if (tiles_) return State(tiles_->class_unrank(i, goal_class_));
  }
  if constexpr (RankedPuzzle<P>) return p_.unrank(i);
  throw UsageError("table " + t_.path().string() + ": no position for index " + std::to_string(i));
}

template <Puzzle P>
std::optional<typename TableProbe<P>::State> TableProbe<P>::closer(const State& s, unsigned v) const {
  std::optional<State> next;
  const unsigned want = lower(v);
  steps(s, [&](const State& t) {
    if (!next && code(t) == want) next = t;
  });
  return next;
}

}  // namespace statespace
