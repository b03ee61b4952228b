// The sorted-levels engine in the analyze pipeline (--engine levels): the
// AnalysisResult of a run over packed words, equal field for field to the explicit
// engine's (engine, lookup and run facts aside), so the same report writers give the
// same files. It keeps no graph: --engine auto takes it for models that pack into a
// word unless graph.dot, --all-pairs, --components or a --lookup need the graph.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/explicit/goal_view.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: the visited positions are the
// two sorted levels before the one being found.
inline constexpr std::string_view kSortedLevelsLookup = "sorted-levels";

namespace detail {

// The positions of `words`, formatted in the canonical order (the states' order).
template <Puzzle P, class Packing>
std::vector<std::string> format_sorted(const P& p, const Packing& packing, const std::vector<std::uint64_t>& words) {
  std::vector<typename P::State> states;
  states.reserve(words.size());
  for (const std::uint64_t w : words) states.push_back(packing.unpack(w));
  std::sort(states.begin(), states.end());
  std::vector<std::string> out;
  out.reserve(states.size());
  for (const auto& s : states) out.push_back(p.format(s));
  return out;
}

}  // namespace detail

// Fills everything but the run facts (threads, seconds, peak bytes), from `start`
// over `packing` (p.packing(start)). With a goal predicate, the first search also
// collects the goal positions, level by level, and a second one from all of them at
// once gives the goal-distance view.
template <WordPackedPuzzle P>
AnalysisResult analyze_levels(const P& p, const AnalyzeOptions& o, const typename P::State& start,
                              const typename P::Packing& codec) {
  const auto* packing = &codec;
  bool with_goal = false;
  if constexpr (PartialGoalPuzzle<P>) with_goal = p.has_goal();
  std::vector<std::uint64_t> goals;
  std::optional<unsigned> shortest;
  const auto collect_goals = [&](std::size_t depth, std::span<const std::uint64_t> level) {
    if constexpr (PartialGoalPuzzle<P>) {
      if (!with_goal) return;
      std::vector<char> hit(level.size());
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, level.size()), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) hit[i] = p.is_goal(packing->unpack(level[i]));
      });
      for (std::size_t i = 0; i < level.size(); ++i) {
        if (hit[i]) goals.push_back(level[i]);
      }
      if (!goals.empty() && !shortest) shortest = unsigned(depth);
    }
  };
  SortedLevelsResult levels;
  {
    Progress progress(p.name() + " levels", o.progress);
    levels = sorted_levels_bfs(*packing, {packing->pack(start)}, p.name(), o.memory, &progress, collect_goals);
  }
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::levels);
  r.lookup = kSortedLevelsLookup;
  r.states = levels.states();
  r.edges = levels.successors / 2;
  r.layers = levels.layers;
  r.farthest = detail::format_sorted(p, *packing, levels.farthest);
  r.layer_edges = levels.layer_edges;
  if constexpr (PartialGoalPuzzle<P>) {
    if (with_goal) {
      GoalView& view = r.goal.emplace();
      view.goal = p.goal_text();
      view.reached = goals.size();
      view.shortest = shortest;
      if (!goals.empty()) {
        std::sort(goals.begin(), goals.end());
        Progress progress(p.name() + " goal view", o.progress);
        const SortedLevelsResult from_goals =
            sorted_levels_bfs(*packing, std::move(goals), p.name(), o.memory, &progress,
                              [](std::size_t, std::span<const std::uint64_t>) {});
        view.layers = from_goals.layers;
        view.hardest = detail::format_sorted(p, *packing, from_goals.farthest);
      }
    }
  }
  return r;
}

// The same from o's start.
template <WordPackedPuzzle P>
AnalysisResult analyze_levels(const P& p, const AnalyzeOptions& o) {
  const auto start = resolve_start(p, o);
  const auto packing = p.packing(start);
  if (!packing) throw UsageError(p.name() + ": positions do not pack into 64 bits (use --engine explicit)");
  return analyze_levels(p, o, start, *packing);
}

}  // namespace statespace
