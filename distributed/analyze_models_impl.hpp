// The definitions behind distributed/analyze_models.hpp, for the analyze_<family>.cpp
// files that instantiate them: nothing else includes this.
#pragma once

#include <utility>

#include "distributed/analyze_models.hpp"
#include "distributed/analyze_mpi.hpp"
#include "distributed/ranked_mpi.hpp"

namespace statespace::analyze_models {

template <Puzzle P>
PuzzleRun run(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan) {
  const auto ranked_mpi = [](const auto& q, const auto& start, const AnalyzeOptions& options) {
    return analyze_mpi_ranked(q, start, options);
  };
  AnalysisRun<P> run = run_analysis(p, o, plan, analyze_mpi, ranked_mpi);
  PuzzleRun out;
  out.result = std::move(run.result);
  out.writes_reports = run.writes_reports;
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
