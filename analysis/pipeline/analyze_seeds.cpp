// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// The seed documents' models: nooff, hex6 and oshidori:N.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<NoOff>(const NoOff&, const AnalyzeOptions&, const AnalysisPlan<NoOff>&);
template PuzzleRun run<Hex6>(const Hex6&, const AnalyzeOptions&, const AnalysisPlan<Hex6>&);
template PuzzleRun run<Oshidori>(const Oshidori&, const AnalyzeOptions&, const AnalysisPlan<Oshidori>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_SEEDS_LIST()

}  // namespace statespace
