// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// tiles:RxC, the one model of the implicit engine and the tiles' MPI engine.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<Tiles>(const Tiles&, const AnalyzeOptions&, const AnalysisPlan<Tiles>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_TILES_LIST()

}  // namespace statespace
