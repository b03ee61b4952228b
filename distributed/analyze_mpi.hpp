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

// Called by a command as soon as it knows that it runs --engine mpi, before it has
// read a puzzle or written anything. The engine links Open MPI, which the statespace
// binary leaves out (1.6 MB of every run's memory): that binary replaces itself here
// with statespace-mpi from its own folder, given the same arguments (execv), which
// runs the engine under mpirun or alone. Returns in statespace-mpi and in the other
// programs, and where there is no statespace-mpi (a build without MPI, whose engine
// entry points then refuse).
void enter_mpi_engine();

}  // namespace statespace
