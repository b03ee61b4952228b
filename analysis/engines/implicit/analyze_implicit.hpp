// The implicit engine in the analyze pipeline: the AnalysisResult of an implicit run,
// equal field for field to the explicit engine's (engine name and run facts aside),
// so the same report writers give the same files.
#pragma once

#include <string>

#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "analysis/engines/options.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// Fills everything but the run facts (threads, seconds, peak bytes). With o.resume
// and no o.checkpoint, keeps checkpointing into the resumed folder.
AnalysisResult analyze_implicit(const Tiles& p, const AnalyzeOptions& o);

// The engine options from the analyze ones (with o.resume and no o.checkpoint,
// checkpointing continues into the resumed folder), and the AnalysisResult of an
// implicit run from `start` (for the MPI engine too), run facts aside.
ImplicitOptions implicit_options(const AnalyzeOptions& o);
AnalysisResult implicit_analysis(const Tiles& p, Board start, const ImplicitResult& im, Engine engine);

}  // namespace statespace
