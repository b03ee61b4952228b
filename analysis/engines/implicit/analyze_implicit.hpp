// The implicit engine in the analyze pipeline: the AnalysisResult of an implicit run,
// equal field for field to the explicit engine's (engine name and run facts aside),
// so the same report writers give the same files.
#pragma once

#include <memory>
#include <string>
#include <string_view>

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

// The index a tiles table is over: TileIndex::class_rank within the goal's class.
inline constexpr std::string_view kTileClassIndex = "tile-class";

// What a tiles table's header names besides the puzzle: its positions and class.
std::string tiles_table_identity(const Tiles& p);

// The header of p's table before the search: the whole goal class's entries.
GoalTableHeader tiles_table_header(const Tiles& p);

// An empty distance table of p's goal class.
std::shared_ptr<GoalTable> new_tiles_table(const Tiles& p);

// The implicit run from `start` with options `io`, and with o.table its distance
// table (AnalysisResult::table): filled by the run itself when it starts from the
// goal, else by a second search from the goal.
AnalysisResult implicit_run(const Tiles& p, Board start, const AnalyzeOptions& o, ImplicitOptions io);

}  // namespace statespace
