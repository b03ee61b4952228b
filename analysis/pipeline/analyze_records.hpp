// The analysis of the models analyze runs apart from AnyPuzzle's (puzzles/huge_pieces.hpp:
// positions past 512 bits, of a width known only when the file is read), on the
// sorted levels of records (analysis/engines/levels/record_levels.hpp), compiled once
// in analyze_records.cpp.
#pragma once

#include "analysis/engines/options.hpp"
#include "analysis/engines/result.hpp"
#include "puzzles/huge_pieces.hpp"

namespace statespace {

// Throws UsageError or ParseError for an option the engine does not take or a start
// that does not parse, before any work.
void plan_huge_pieces(const HugePieces& p, const AnalyzeOptions& o);
// The levels of p (its first ones, to o.max_depth, or with o.partial as many as fit).
AnalysisResult analyze_huge_pieces(const HugePieces& p, const AnalyzeOptions& o);

}  // namespace statespace
