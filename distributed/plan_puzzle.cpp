// plan_puzzle() apart from the pipeline's instantiations: choosing an engine needs no
// engine compiled, so the report-manifest reader (and its fuzz harness) links this
// file alone.
#include <variant>

#include "distributed/analyze_puzzle.hpp"
#include "distributed/pipeline_instances.hpp"

namespace statespace {

STATESPACE_PLAN_INSTANCES(, NoOff);
STATESPACE_PLAN_INSTANCES(, Hex6);
STATESPACE_PLAN_INSTANCES(, Oshidori);
STATESPACE_PLAN_INSTANCES(, Tiles);
STATESPACE_PLAN_INSTANCES(, Blocks);
STATESPACE_PLAN_INSTANCES(, GraphTokens);
STATESPACE_PLAN_INSTANCES(, CellPermutation);
STATESPACE_PLAN_INSTANCES(, Pieces);
STATESPACE_PLAN_INSTANCES(, GroupedStickers);
STATESPACE_PLAN_INSTANCES(, Rules);

AnyPlan plan_puzzle(const AnyPuzzle& p, const AnalyzeOptions& o) {
  return std::visit([&](const auto& model) { return AnyPlan(choose_engine(model, o)); }, p);
}

}  // namespace statespace
