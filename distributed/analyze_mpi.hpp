// The MPI engine in the analyze pipeline (--engine mpi): the AnalysisResult of an
// MPI run, equal field for field to the implicit engine's (engine name and run facts
// aside). Every rank runs the analysis; rank 0 alone holds the farthest positions
// and writes the reports.
#pragma once

#include <optional>

#include "analysis/analyze.hpp"
#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

struct MpiAnalysis {
  AnalysisResult result;
  bool writes_reports = false;  // rank 0
};

// The analysis over all MPI processes (one without mpirun). Throws UsageError when
// this build has no MPI engine.
MpiAnalysis analyze_mpi(const Tiles& p, const AnalyzeOptions& o);

// The MPI analysis when o's engine resolves to it for p, else nothing.
template <Puzzle P>
std::optional<MpiAnalysis> analyze_if_mpi(const P& p, const AnalyzeOptions& o) {
  if constexpr (TileGridPuzzle<P>) {
    if (resolve_engine(p, o) == Engine::mpi) return analyze_mpi(Tiles(p.rows(), p.cols()), o);
  }
  return std::nullopt;
}

}  // namespace statespace
