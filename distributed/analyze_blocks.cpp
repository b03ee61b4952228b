// The analysis pipeline compiled for one model family (distributed/analyze_models.hpp):
// Sliding-block files.
#include "distributed/analyze_models_impl.hpp"
#include "distributed/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<Blocks>(const Blocks&, const AnalyzeOptions&, const AnalysisPlan<Blocks>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_EVERY_MODEL_INSTANCES(, Blocks);
STATESPACE_LEVELS_MODEL_INSTANCES(, Blocks);
STATESPACE_LEVELS_PACKING_INSTANCES(, Blocks, BlocksPacking);

}  // namespace statespace
