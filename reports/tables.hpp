// The tabular reports: CSV files and the Markdown table for articles.
#pragma once

#include <string>
#include <vector>

#include "analysis/engines/result.hpp"
#include "core/text.hpp"
#include "reports/escape.hpp"

namespace statespace::reports {

// depth,count,cumulative
std::string distribution_csv(const AnalysisResult& r);
// distance,position — every position at the eccentricity, canonical order
std::string farthest_csv(const AnalysisResult& r);
// One row per puzzle: puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component
// (components: every component size, descending, space-separated; start_component:
// the size of the start's)
std::string summary_csv(const std::vector<AnalysisResult>& results);
// The same facts as a Markdown table, numbers with thousands separators.
std::string summary_markdown(const std::vector<AnalysisResult>& results);

using statespace::with_commas;

}  // namespace statespace::reports
