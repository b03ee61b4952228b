// The tabular reports: CSV files and the Markdown table for articles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/engines/result.hpp"
#include "core/text.hpp"
#include "reports/escape.hpp"

namespace statespace::reports {

// depth,count,cumulative
std::string distribution_csv(const AnalysisResult& r);
// Up to symmetry (AnalysisResult::layer_positions): one line saying that the counts
// are of classes, and the positions they stand for; empty otherwise.
std::string symmetry_summary_text(const AnalysisResult& r);
// A search stopped short (AnalysisResult::complete false): one line saying so, with
// the exact counts of the depths searched; empty otherwise.
std::string partial_summary_text(const AnalysisResult& r);
// distance,position — every position at the eccentricity, canonical order. The CSV
// files write positions as r.table_positions gives them when it does (the per-set
// notation of a sticker file run on pieces), the Markdown tables as r gives them.
std::string farthest_csv(const AnalysisResult& r);
// One row per puzzle: puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component
// (components: every component size, descending, space-separated; start_component:
// the size of the start's)
std::string summary_csv(const std::vector<AnalysisResult>& results);
// The same facts as a Markdown table, numbers with thousands separators.
// When a result is directed, both tables gain the columns directed, shortest,
// hardest_to_goal and dead_ends (the goal facts; "n/a" where the result names them
// unavailable); tables of undirected results alone keep their columns.
std::string summary_markdown(const std::vector<AnalysisResult>& results);

// Directed spaces with a distance to the goal (AnalysisResult::goal's layers):
// distance_to_goal,count,cumulative over the positions that can reach a goal, then
// one row "dead_ends,N,TOTAL" for those that cannot.
std::string goal_distribution_csv(const AnalysisResult& r);
// distance_to_goal,position: every hardest position that can still reach a goal.
std::string hardest_csv(const AnalysisResult& r);

// Whether r is a directed result whose distances to the goal were found (by
// predecessors), so that the two files above are written.
bool has_directed_goal_layers(const AnalysisResult& r);

// The terminal summary's lines for a directed result (statespace analyze prints them
// under its table): what its depths mean, its goal facts (distances to the goal only
// when found along predecessors) and each unavailable view with its reason.
std::string directed_summary_text(const AnalysisResult& r);

// A goal fact of a directed result as text: the number, "n/a" when r names `view`
// unavailable, "" when it was not computed.
std::string goal_fact(const AnalysisResult& r, const char* view, const std::optional<std::uint64_t>& value);

using statespace::with_commas;

}  // namespace statespace::reports
