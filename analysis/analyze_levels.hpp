// The sorted-levels engine in the analyze pipeline (--engine levels): the
// AnalysisResult of a run over packed words, equal field for field to the explicit
// engine's (engine, lookup and run facts aside), so the same report writers give the
// same files. It keeps no graph: --engine auto takes it for models that pack into a
// word unless graph.dot, --all-pairs, --components or a --lookup need the graph.
#pragma once

#include <optional>

#include "analysis/analyze.hpp"
#include "analysis/analyze_implicit.hpp"
#include "analysis/sorted_levels.hpp"

namespace statespace {

// What summary.json's "lookup" says of this engine: the visited positions are the
// two sorted levels before the one being found.
inline constexpr std::string_view kSortedLevelsLookup = "sorted-levels";

// Fills everything but the run facts (threads, seconds, peak bytes).
template <WordPackedPuzzle P>
AnalysisResult analyze_levels(const P& p, const AnalyzeOptions& o) {
  const auto start = resolve_start(p, o);
  const auto packing = p.packing(start);
  if (!packing) throw UsageError(p.name() + ": positions do not pack into 64 bits (use --engine explicit)");
  Progress progress(p.name() + " levels", o.progress);
  const SortedLevelsResult levels = sorted_levels_bfs(*packing, start, p.name(), o.memory, &progress);
  AnalysisResult r;
  r.puzzle = p.name();
  r.start = p.format(start);
  r.engine = engine_name(Engine::levels);
  r.lookup = kSortedLevelsLookup;
  r.states = levels.states();
  r.edges = levels.successors / 2;
  r.layers = levels.layers;
  for (const std::uint64_t w : levels.farthest) r.farthest.push_back(p.format(packing->unpack(w)));
  r.layer_edges = levels.layer_edges;
  return r;
}

// The sorted-levels analysis when o's engine resolves to it for p, else nothing. When
// auto chose it and the space turns out small enough for graph.dot (o.dot_limit),
// nothing either: the explicit engine runs again and keeps the graph.
template <Puzzle P>
std::optional<AnalysisResult> analyze_if_levels(const P& p, const AnalyzeOptions& o) {
  if constexpr (WordPackedPuzzle<P>) {
    if (resolve_engine(p, o) == Engine::levels) {
      auto r = analyze_levels(p, o);
      if (o.engine == Engine::automatic && r.states <= o.dot_limit) return std::nullopt;
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace statespace
