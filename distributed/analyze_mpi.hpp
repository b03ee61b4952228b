// The MPI engine in the analyze pipeline (--engine mpi): the AnalysisResult of an
// MPI run, equal field for field to the implicit engine's (engine name and run facts
// aside). Every rank runs the analysis; rank 0 alone holds the farthest positions
// and writes the reports. run_analysis() (analysis/analyze.hpp) reaches it through
// the entry point its caller passes in: analysis/ does not depend on this layer.
#pragma once

#include "analysis/analyze.hpp"
#include "core/board.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// The analysis of p from `start` over all MPI processes (one without mpirun), as
// choose_engine() planned it. Throws UsageError when this build has no MPI engine.
MpiAnalysis analyze_mpi(const Tiles& p, Board start, const AnalyzeOptions& o);

}  // namespace statespace
