// The per-model half of analyze_puzzle()
// (analysis/pipeline/analyze_puzzle.hpp). analyze_puzzle.cpp sees only these
// declarations; each analyze_<family>.cpp includes the definitions
// (analysis/pipeline/analyze_models_impl.hpp) and instantiates them for its models, so
// that each model's pipeline is compiled in exactly one file.
#pragma once

#include "analysis/pipeline/analyze_puzzle.hpp"

namespace statespace::analyze_models {

template <Puzzle P>
PuzzleRun run(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan);

}  // namespace statespace::analyze_models
