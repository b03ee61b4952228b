// The analysis pipeline compiled for one model family (analysis/pipeline/analyze_models.hpp):
// Token-on-graph files and cell permutations.
#include "analysis/pipeline/analyze_models_impl.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"

namespace statespace::analyze_models {

template PuzzleRun run<GraphTokens>(const GraphTokens&, const AnalyzeOptions&, const AnalysisPlan<GraphTokens>&);
template PuzzleRun run<CellPermutation>(const CellPermutation&, const AnalyzeOptions&,
                                        const AnalysisPlan<CellPermutation>&);

}  // namespace statespace::analyze_models

namespace statespace {

STATESPACE_GRAPHS_LIST()

}  // namespace statespace
