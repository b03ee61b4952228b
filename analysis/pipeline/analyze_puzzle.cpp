#include "analysis/pipeline/analyze_puzzle.hpp"

#include <variant>

#include "analysis/pipeline/analyze_models.hpp"

namespace statespace {

PuzzleRun analyze_puzzle(const AnyPuzzle& p, const AnalyzeOptions& o, const AnyPlan& plan) {
  return std::visit(
      [&](const auto& model) {
        using P = std::decay_t<decltype(model)>;
        return analyze_models::run(model, o, std::get<AnalysisPlan<P>>(plan));
      },
      p);
}

}  // namespace statespace
