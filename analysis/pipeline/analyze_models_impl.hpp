// The definitions behind analysis/pipeline/analyze_models.hpp, for the analyze_<family>.cpp
// files that analysis/pipeline/CMakeLists.txt writes from puzzles/models.def to
// instantiate them: nothing else includes this.
#pragma once

#include <utility>

#include "analysis/pipeline/analyze_models.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "distributed/analyze_mpi.hpp"
#include "distributed/ranked_mpi.hpp"

namespace statespace::analyze_models {

// The result's positions as p writes them in the CSV files, each read back from the
// text the engine wrote (farthest sets are small beside the search that found them).
template <TableNotationPuzzle P>
TablePositions table_positions(const P& p, const AnalysisResult& r) {
  const auto table = [&](const std::string& text) { return p.table_format(p.parse(text)); };
  TablePositions t;
  t.start = table(r.start);
  t.farthest.reserve(r.farthest.size());
  for (const auto& f : r.farthest) t.farthest.push_back(table(f));
  if (r.goal) {
    for (const auto& h : r.goal->hardest) t.hardest.push_back(table(h));
  }
  return t;
}

template <Puzzle P>
PuzzleRun run(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan) {
  const auto ranked_mpi = [](const auto& q, const auto& start, const AnalyzeOptions& options) {
    return analyze_mpi_ranked(q, start, options);
  };
  AnalysisRun<P> run = run_analysis(p, o, plan, analyze_mpi, ranked_mpi);
  PuzzleRun out;
  out.result = std::move(run.result);
  out.writes_reports = run.writes_reports;
  if constexpr (TableNotationPuzzle<P>) {
    if (out.writes_reports) out.result.table_positions = table_positions(p, out.result);
  }
  // graph.dot draws the graph up to o.dot_limit positions only: a larger kept graph
  // (--components, --all-pairs) gets no labels.
  out.graph = run.graph && out.result.states <= o.dot_limit;
  if (out.graph) {
    out.space_graph = std::move(run.space.graph);
    out.distance = std::move(run.distance);
    out.labels.reserve(run.space.vertices());
    for (Vertex v = 0; v < run.space.vertices(); ++v) out.labels.push_back(p.format(run.space.state(v)));
  }
  return out;
}

}  // namespace statespace::analyze_models

// A generated analyze_<family>.cpp's line for one row of puzzles/models.def: the
// model's pipeline and engines, compiled.
#define STATESPACE_DEFINE_MODEL(P, ...)                                                               \
  namespace statespace {                                                                              \
  template PuzzleRun analyze_models::run<P>(const P&, const AnalyzeOptions&, const AnalysisPlan<P>&); \
  STATESPACE_MODEL_INSTANCES(, P, __VA_ARGS__)                                                        \
  }
