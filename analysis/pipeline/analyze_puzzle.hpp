// The analysis pipeline (analysis/analyze.hpp) over any model of the registry,
// behind plain functions. choose_engine() and run_analysis() are templates over the
// model: instantiated for every AnyPuzzle alternative they compile every engine for
// every model, minutes of compiler time per file that does it. These functions
// instantiate them once, one model family per source file (analyze_*.cpp, built in
// parallel), with both MPI engines passed in, and every command calls them.
#pragma once

#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/graph.hpp"
#include "analysis/engines/result.hpp"
#include "puzzles/registry.hpp"

namespace statespace {

// run_analysis()'s AnalysisRun without the model's type: the explicit graph, when
// the run kept it and it fits o.dot_limit (graph.dot), comes with each vertex's
// position already formatted.
struct PuzzleRun {
  AnalysisResult result;
  bool graph = false;  // space_graph, labels and distance hold the explicit graph for graph.dot
  Graph space_graph;
  std::vector<std::string> labels;  // per vertex: the position as p.format() writes it
  std::vector<Distance> distance;   // per vertex
  bool writes_reports = true;       // false on MPI processes other than rank 0
};

// choose_engine(p, o) for the model p holds.
AnyPlan plan_puzzle(const AnyPuzzle& p, const AnalyzeOptions& o);

// run_analysis(p, o, plan) for the model p holds, with the MPI engines of
// distributed/ (--engine mpi). `plan` is plan_puzzle(p, o)'s.
PuzzleRun analyze_puzzle(const AnyPuzzle& p, const AnalyzeOptions& o, const AnyPlan& plan);

}  // namespace statespace
