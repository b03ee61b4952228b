// summary.json: every fact of one analysis. The facts about the puzzle come first
// and are identical for any thread count; those about the run (threads, seconds,
// peak memory) are grouped under "run".
#pragma once

#include <string>

#include "analysis/engines/result.hpp"

namespace statespace::reports {

std::string summary_json(const AnalysisResult& r);

// The inverse, for results kept between runs (the report command's cache):
// summary_json(read_summary_json(summary_json(r))) == summary_json(r). Throws
// ParseError when the text is not a summary this version writes.
AnalysisResult read_summary_json(const std::string& text);

// The same without the lists of positions (the farthest and the hardest, the
// result's and the table's), skipped as they are parsed; the farthest count is
// kept. What a folder's tables read of each bundle: a space with many farthest
// positions lists megabytes of them (64,736 for the 2x2x2 cube of 8 corners), which
// a parsed document holds several times over.
AnalysisResult read_summary_counts(const std::string& text);

}  // namespace statespace::reports
