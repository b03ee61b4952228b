// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// Rules files.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<Rules>(const Rules&, const AnalyzeOptions&, const AnalysisPlan<Rules>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_RULES_LIST()

}  // namespace statespace
