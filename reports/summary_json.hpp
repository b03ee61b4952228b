// summary.json: every fact of one analysis. The facts about the puzzle come first
// and are identical for any thread count; those about the run (threads, seconds,
// peak memory) are grouped under "run".
#pragma once

#include <string>

#include "analysis/result.hpp"

namespace statespace::reports {

std::string summary_json(const AnalysisResult& r);

}  // namespace statespace::reports
