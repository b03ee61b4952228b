// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// Twisty puzzles: pieces, and sticker files grouped into pieces.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<Pieces>(const Pieces&, const AnalyzeOptions&, const AnalysisPlan<Pieces>&);
template PuzzleRun run<GroupedStickers>(const GroupedStickers&, const AnalyzeOptions&,
                                        const AnalysisPlan<GroupedStickers>&);
template PuzzleRun run<WidePieces>(const WidePieces&, const AnalyzeOptions&, const AnalysisPlan<WidePieces>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_PIECES_LIST()

}  // namespace statespace
