#include "analysis/pipeline/analyze_records.hpp"

#include "analysis/engines/levels/record_levels.hpp"

namespace statespace {

void plan_huge_pieces(const HugePieces& p, const AnalyzeOptions& o) { check_record_levels(p, o); }

AnalysisResult analyze_huge_pieces(const HugePieces& p, const AnalyzeOptions& o) { return analyze_record_levels(p, o); }

}  // namespace statespace
