// plan_puzzle() apart from the pipeline's instantiations: choosing an engine needs no
// engine compiled, so the report-manifest reader (and its fuzz harness) links this
// file alone.
#include <utility>
#include <variant>

#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/tables/table_plan.hpp"

namespace statespace {

#define STATESPACE_MODEL(family, P, ...) STATESPACE_PLAN_INSTANCES(, P);
#include "puzzles/models.def"
#undef STATESPACE_MODEL

AnyPlan plan_puzzle(const AnyPuzzle& p, const AnalyzeOptions& o) {
  return std::visit(
      [&](const auto& model) {
        auto plan = choose_engine(model, o);
        require_table_engine(model, o, plan);
        return AnyPlan(std::move(plan));
      },
      p);
}

}  // namespace statespace
