// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// Sliding-block files.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<Blocks>(const Blocks&, const AnalyzeOptions&, const AnalysisPlan<Blocks>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_BLOCKS_LIST()

}  // namespace statespace
