// The sorted-levels engine in the analyze pipeline (--engine levels): the
// AnalysisResult of a run over packed words, equal field for field to the explicit
// engine's (engine, lookup and run facts aside), so the same report writers give the
// same files. It keeps no graph: --engine auto takes it for models that pack into a
// word unless graph.dot, --all-pairs, --components or a --lookup need the graph.
#pragma once

#include <tbb/combinable.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/levels/levels_table.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/engines/result.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: the visited positions are the
// two sorted levels before the one being found.
inline constexpr std::string_view kSortedLevelsLookup = "sorted-levels";

namespace detail {

// The positions of `words`, formatted in the canonical order (the states' order).
template <Puzzle P, class Packing, class Words>
std::vector<std::string> format_sorted(const P& p, const Packing& packing, const Words& words) {
  std::vector<typename P::State> states;
  states.reserve(words.size());
  for (const auto w : words) states.push_back(packing.unpack(w));
  std::sort(states.begin(), states.end());
  std::vector<std::string> out;
  out.reserve(states.size());
  for (const auto& s : states) out.push_back(p.format(s));
  return out;
}

// How many positions the classes of `level` stand for (OrbitCountingPuzzle), on the
// words when the packing counts orbits itself.
template <OrbitCountingPuzzle P, class Packing, class Word>
std::uint64_t positions_of(const P& p, const Packing& packing, std::span<const Word> level) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, level.size()), std::uint64_t{0},
      [&](const auto& range, std::uint64_t sum) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          if constexpr (requires { packing.orbit_size(level[i]); }) {
            sum += packing.orbit_size(level[i]);
          } else {
            sum += p.orbit_size(packing.unpack(level[i]));
          }
        }
        return sum;
      },
      std::plus<>());
}

// The distance to the nearest goal of every reachable position of a directed space,
// by predecessors: a breadth-first search backwards from `goals` (ascending) that
// keeps only the words of `forward`'s levels (the reachable set). Each reachable
// word has an index (its level's offset plus its place in the level) and one bit
// of `seen`; a graded packing names the one level a word can be in. A frontier's
// predecessors are made a slice of the frontier at a time (at most kSliceWords
// words), sorted, and looked up in the levels by galloping from the last word
// found, so memory beyond the levels is one slice and the next frontier. Fills the
// view's layers, hardest positions and dead ends.
// With `table`, each level goes into it as it is found, and the dead ends after.
template <Puzzle P, class Packing, class Word>
void reverse_goal_view(const P& p, const Packing& packing, const SortedLevels<Word>& forward, std::vector<Word> goals,
                       const AnalyzeOptions& o, GoalView& view, LevelsTableBuilder<Word>* table = nullptr) {
  constexpr std::size_t kSliceWords = std::size_t{1} << 24;
  constexpr std::size_t kBlock = 4096;
  const std::size_t moves = std::size_t(packing.moves());
  std::vector<std::uint64_t> offset{0};
  for (const auto& level : forward.levels) offset.push_back(offset.back() + level.size());
  const std::uint64_t total = offset.back();
  const bool graded = is_graded(packing);
  // The level of a graded word; -1 (every level) otherwise or when it is none.
  const auto level_of = [&](Word w) -> long {
    if constexpr (GradedPacking<Packing>) {
      if (graded) {
        const long e = long(packing.grade(w)) - long(packing.grade(forward.levels[0][0]));
        return e >= 0 && e < long(forward.levels.size()) ? e : long(forward.levels.size());
      }
    }
    return -1;
  };
  // The bitset, a slice's predecessors and their copy, the frontier and the next one.
  const auto require = [&](std::size_t frontier) {
    const std::uint64_t slice = std::min<std::uint64_t>(kSliceWords, moves * frontier);
    o.memory.require_at_least(total * sizeof(Word) + total / 8 + sizeof(Word) * (3 * slice + 2 * frontier),
                              p.name() + ": distance to the goal by predecessors");
  };
  require(goals.size());
  std::vector<std::uint64_t> seen((total + 63) / 64, 0);
  // Marks bit i; whether it was clear. Atomic: two threads may share a bitset word.
  const auto claim = [&](std::uint64_t i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    return (std::atomic_ref<std::uint64_t>(seen[i / 64]).fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  };
  // The indices of the sorted distinct `words` among the reachable ones (`total` for
  // the others), each found by galloping on from the word before.
  std::vector<std::uint64_t> index;
  const auto locate = [&](std::span<const Word> words) {
    index.assign(words.size(), total);
    for (std::size_t e = 0; e < forward.levels.size(); ++e) {
      const auto& level = forward.levels[e];
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words.size(), kBlock), [&](const auto& range) {
        std::size_t lo = 0;
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const long at = level_of(words[i]);
          if (index[i] != total || (at >= 0 && std::size_t(at) != e)) continue;
          std::size_t step = 1;
          while (lo + step < level.size() && level[lo + step] < words[i]) step *= 2;
          const auto first = level.begin() + std::ptrdiff_t(lo + step / 2);
          const auto last = level.begin() + std::ptrdiff_t(std::min(level.size(), lo + step + 1));
          const auto it = std::lower_bound(first, last, words[i]);
          lo = std::size_t(it - level.begin());
          if (it != level.end() && *it == words[i]) index[i] = offset[e] + lo;
        }
      });
    }
  };
  locate(goals);
  for (const std::uint64_t i : index) claim(i);
  std::uint64_t solvable = goals.size();
  std::vector<Word> frontier = std::move(goals), found, next;
  Progress progress(p.name() + " distance to the goal", o.progress);
  const std::size_t slice = std::max<std::size_t>(1, kSliceWords / std::max<std::size_t>(1, moves));
  while (!frontier.empty()) {
    require(frontier.size());
    if (table) table->add(view.layers.size(), std::span<const Word>(frontier));
    view.layers.push_back(frontier.size());
    next.clear();
    for (std::size_t from = 0; from < frontier.size(); from += slice) {
      const std::size_t to = std::min(frontier.size(), from + slice);
      // Each thread gathers its own predecessors; sorting makes their order the same
      // for any thread count.
      tbb::combinable<std::vector<Word>> gathered;
      tbb::parallel_for(tbb::blocked_range<std::size_t>(from, to), [&](const auto& range) {
        std::vector<Word>& mine = gathered.local();
        std::vector<Word> out(moves);
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const int k = packing.predecessors(frontier[i], out.data());
          mine.insert(mine.end(), out.begin(), out.begin() + k);
        }
      });
      found.clear();
      gathered.combine_each(
          [&](const std::vector<Word>& mine) { found.insert(found.end(), mine.begin(), mine.end()); });
      tbb::parallel_sort(found.begin(), found.end());
      found.erase(std::unique(found.begin(), found.end()), found.end());
      locate(found);
      // A word is new once: claiming its bit decides which slice, not whether.
      for (std::size_t i = 0; i < found.size(); ++i) {
        if (index[i] < total && claim(index[i])) next.push_back(found[i]);
      }
    }
    tbb::parallel_sort(next.begin(), next.end());
    solvable += next.size();
    if (next.empty()) view.hardest = format_sorted(p, packing, frontier);
    frontier.swap(next);
    if (!frontier.empty()) progress.level(unsigned(view.layers.size()), frontier.size(), solvable);
  }
  view.dead_ends = total - solvable;
  if (table) {
    std::vector<Word> dead;
    for (std::size_t e = 0; e < forward.levels.size(); ++e) {
      for (std::size_t i = 0; i < forward.levels[e].size(); ++i) {
        const std::uint64_t k = offset[e] + i;
        if (!(seen[k / 64] >> (k % 64) & 1)) dead.push_back(forward.levels[e][i]);
      }
    }
    table->set_dead(std::move(dead));
  }
}

// What a words table of the sorted-levels engine names besides the puzzle: a hash
// of the successors of its first words (another --moves gives others) and the
// start whose packing made the words, which a reader packs positions with. The
// words are 64-bit, or 128-bit (a successor's high half hashed before its low one).
template <class Packing, class Word>
std::string levels_table_identity(const Packing& packing, const Word* words, std::uint64_t count,
                                  const std::string& start) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  const auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
  };
  std::vector<Word> out(std::size_t(packing.moves()));
  for (std::uint64_t i = 0; i < std::min<std::uint64_t>(count, 64); ++i) {
    const int k = packing.successors(words[i], out.data());
    std::sort(out.begin(), out.begin() + k);
    for (int j = 0; j < k; ++j) {
      if constexpr (sizeof(Word) > sizeof(std::uint64_t)) mix(std::uint64_t(out[std::size_t(j)] >> 64));
      mix(std::uint64_t(out[std::size_t(j)]));
    }
    h = (h ^ (h >> 31)) * 0x94D049BB133111EBULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::to_string(packing.moves()) + " moves, moves " + hex + ", words packed from " + start;
}

inline constexpr std::string_view kWordsTablePrefix = ", words packed from ";

}  // namespace detail

// Fills everything but the run facts (threads, seconds, peak bytes), from `start`
// over `codec` (p.packing(start) or p.wide_packing(start)). With a goal predicate,
// the first search also collects the goal positions, level by level. Undirected, a
// second search from all of them at once gives the goal-distance view. Directed
// (is_directed(p)), the search from the start keeps every level, and the distance
// to the goal comes from the packing's predecessors (ReversiblePacking) within the
// reachable set, with the dead ends; without predecessors the result says which
// views it cannot give.
template <Puzzle P, class Packing>
requires WordPacking<Packing, typename P::State> AnalysisResult analyze_levels(const P& p, const AnalyzeOptions& o,
                                                                               const typename P::State& start,
                                                                               const Packing& codec) {
  using Word = PackedWord<Packing>;
  // Distance tables store words of 64 or 128 bits (analysis/runtime/goal_table.hpp).
  constexpr bool kTableWords = !kIsLimbWord<Word>;
  if (!kTableWords && o.table) {
    throw UsageError(p.name() + ": --table stores positions of at most 128 bits, and these take " +
                     std::to_string(8 * sizeof(Word)) + " (expected no --table)");
  }
  const auto* packing = &codec;
  const bool directed = is_directed(p);
  bool with_goal = false;
  if constexpr (PartialGoalPuzzle<P>) with_goal = p.has_goal();
  std::vector<Word> goals;
  std::optional<unsigned> shortest;
  const auto collect_goals = [&](std::size_t depth, std::span<const Word> level) {
    if constexpr (PartialGoalPuzzle<P>) {
      if (!with_goal) return;
      std::vector<char> hit(level.size());
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, level.size()), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          if constexpr (GoalTestingPacking<Packing>) {
            hit[i] = packing->is_goal(level[i]);
          } else {
            hit[i] = p.is_goal(packing->unpack(level[i]));
          }
        }
      });
      for (std::size_t i = 0; i < level.size(); ++i) {
        if (hit[i]) goals.push_back(level[i]);
      }
      if (!goals.empty() && !shortest) shortest = unsigned(depth);
    }
  };
  // Up to symmetry, the positions each level's classes stand for.
  bool symmetric = false;
  if constexpr (OrbitCountingPuzzle<P>) symmetric = p.symmetries() > 1;
  std::vector<std::uint64_t> layer_positions;
  // analyze --table: the levels of the search from the goals. The
  // forward search is that search when it starts from the goal on an undirected
  // space; otherwise the goal view's search fills it (run for the table alone
  // where the reports need none).
  std::unique_ptr<LevelsTableBuilder<Word>> table;
  if (o.table) table = std::make_unique<LevelsTableBuilder<Word>>();
  const bool forward_table = table && !directed && !with_goal && packing->pack(start) == packing->pack(p.goal());
  const auto on_level = [&](std::size_t depth, std::span<const Word> level) {
    if constexpr (OrbitCountingPuzzle<P>) {
      if (symmetric) layer_positions.push_back(detail::positions_of(p, *packing, level));
    }
    collect_goals(depth, level);
    if (forward_table) table->add(depth, level);
  };
  SortedLevels<Word> levels;
  {
    Progress progress(p.name() + " levels", o.progress);
    SortedLevelsMode mode;
    mode.directed = directed;
    mode.max_depth = o.max_depth;
    mode.stop_over_budget = o.partial;
    levels = sorted_levels_bfs(*packing, std::vector<Word>{packing->pack(start)}, p.name(), o.memory, &progress,
                               on_level, mode);
  }
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::levels);
  r.lookup = kSortedLevelsLookup;
  r.states = levels.states();
  r.edges = directed ? levels.successors : levels.successors / 2;
  r.directed = directed;
  r.layers = levels.layers;
  r.layer_positions = std::move(layer_positions);
  r.symmetry = symmetry_group_of(p);
  r.layer_edges = levels.layer_edges;
  if (!levels.complete) {
    // The moves out of the last level were not made: no total of edges, no goal side.
    r.complete = false;
    const std::string why =
        "the search stopped at depth " + std::to_string(levels.layers.size() - 1) + " without exhausting the space";
    r.unavailable.push_back({kViewEdges, why});
    if (with_goal) {
      const auto views = goal_views_unavailable(why);
      r.unavailable.insert(r.unavailable.end(), views.begin(), views.end());
    }
    if (levels.farthest.size() > kMostListedPositions) {
      r.unavailable.push_back({kViewLastLevel, "its " + with_commas(levels.farthest.size()) +
                                                   " positions are more than the " + with_commas(kMostListedPositions) +
                                                   " listed"});
      return r;
    }
  }
  r.farthest = detail::format_sorted(p, *packing, levels.farthest);
  if constexpr (PartialGoalPuzzle<P>) {
    if (with_goal && r.complete) {
      GoalView& view = r.goal.emplace();
      view.goal = p.goal_text();
      view.reached = goals.size();
      view.shortest = shortest;
      std::sort(goals.begin(), goals.end());
      if (directed) {
        if constexpr (ReversiblePacking<Packing>) {
          detail::reverse_goal_view(p, *packing, levels, std::move(goals), o, view, table.get());
        } else {
          const auto views = goal_views_unavailable(no_predecessors_reason());
          r.unavailable.insert(r.unavailable.end(), views.begin(), views.end());
        }
      } else if (!goals.empty()) {
        Progress progress(p.name() + " goal view", o.progress);
        const auto from_goals = sorted_levels_bfs(*packing, std::move(goals), p.name(), o.memory, &progress,
                                                  [&](std::size_t depth, std::span<const Word> level) {
                                                    if (table) table->add(depth, level);
                                                  });
        view.layers = from_goals.layers;
        view.hardest = detail::format_sorted(p, *packing, from_goals.farthest);
      }
    }
  }
  if (table && !with_goal && !forward_table) {
    std::vector<Word> goal{packing->pack(p.goal())};
    if (directed) {
      if constexpr (ReversiblePacking<Packing>) {
        GoalView scratch;
        detail::reverse_goal_view(p, *packing, levels, std::move(goal), o, scratch, table.get());
      }
    } else {
      Progress progress(p.name() + " distances to the goal", o.progress);
      (void)sorted_levels_bfs(*packing, std::move(goal), p.name(), o.memory, &progress,
                              [&](std::size_t depth, std::span<const Word> level) { table->add(depth, level); });
    }
  }
  if constexpr (kTableWords) {
    if (table) {
      GoalTableHeader h;
      h.puzzle = p.name();
      h.goal = p.format(p.goal());
      if constexpr (PartialGoalPuzzle<P>) {
        if (with_goal) h.goal = p.goal_text();
      }
      h.index = std::is_same_v<Word, std::uint64_t> ? "words" : "wide-words";
      h.directed = directed;
      h.reached = r.states;
      r.table = table->build(std::move(h));
      GoalTableHeader& built = r.table->header();
      if constexpr (std::is_same_v<Word, std::uint64_t>) {
        built.identity =
            detail::levels_table_identity(*packing, r.table->sorted_words(), built.entries, p.format(start));
      } else {
        const WideWords words = r.table->wide_words();
        std::vector<Word> first;
        for (std::uint64_t i = 0; i < std::min<std::uint64_t>(built.entries, 64); ++i) first.push_back(words.word(i));
        built.identity = detail::levels_table_identity(*packing, first.data(), first.size(), p.format(start));
      }
      std::uint64_t with_distance = 0;
      for (const auto n : built.layers) with_distance += n;
      // Reached positions the search from the goals never met (an undirected space
      // whose goal is not reached) have no word in the table.
      built.dead = built.reached - with_distance;
    }
  }
  return r;
}

// The same from o's start, in 64-bit words where they suffice, else wider ones.
template <Puzzle P>
requires WordPackedPuzzle<P> || WidePackedPuzzle<P> AnalysisResult analyze_levels(const P& p, const AnalyzeOptions& o) {
  const auto start = resolve_start(p, o);
  if constexpr (WordPackedPuzzle<P>) {
    if (const auto packing = p.packing(start)) return analyze_levels(p, o, start, *packing);
  }
  if constexpr (WidePackedPuzzle<P>) {
    if (const auto packing = p.wide_packing(start)) return analyze_levels(p, o, start, *packing);
  }
  throw UsageError(p.name() + ": positions do not pack into a word (use --engine explicit)");
}

}  // namespace statespace
