// The report folder of one puzzle: DIR/<puzzle>/ with distribution.csv,
// farthest.csv, summary.json, layers.dot and, for graphs up to the dot limit,
// graph.dot; for a directed space with distances to the goal, goal-distribution.csv
// and hardest.csv too. Every file is rendered in memory first and written atomically, and
// the folder as a whole appears at once (reports/staging.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/graph.hpp"
#include "analysis/engines/result.hpp"
#include "reports/html.hpp"

namespace statespace::reports {

// The explicit graph, when the engine kept one, for graph.dot.
struct GraphView {
  const Graph* graph = nullptr;
  std::vector<std::string> labels;  // per vertex
  const std::vector<Distance>* depth = nullptr;
  bool directed = false;  // each move stored once, drawn as an arrow
};

// Folder name for a puzzle: "tiles:3x3" -> "tiles-3x3" (no colons in paths).
std::string folder_name(const std::string& puzzle);

// Writes the files into DIR/folder_name(r.puzzle); returns their paths in the order written.
// index.html draws `boards` when given, else writes the positions in their notation.
std::vector<std::filesystem::path> write_puzzle_report(const std::filesystem::path& dir, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph,
                                                       const BundleBoards* boards = nullptr);
// The same files in `folder` itself.
std::vector<std::filesystem::path> write_report_folder(const std::filesystem::path& folder, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph,
                                                       const BundleBoards* boards = nullptr);

// DIR/summary.csv, DIR/summary.md and DIR/index.html over several puzzles.
std::vector<std::filesystem::path> write_summary_tables(const std::filesystem::path& dir,
                                                        const std::vector<AnalysisResult>& results);

// The results of every bundle in DIR (each DIR/<folder>/summary.json), for the
// folder's summary tables: the puzzles named in `first` in that order, then the
// others by folder name, so the order depends on what the folder holds and not on
// which run came last. Each result holds its counts, not its lists of positions
// (read_summary_counts). A summary.json that does not read is left out, with a
// warning on stderr.
std::vector<AnalysisResult> read_bundles(const std::filesystem::path& dir, const std::vector<std::string>& first);

// What `analyze` does with each result: under DIR's lock, writes the bundle
// DIR/folder_name(r.puzzle) whole (staged, then swapped into place) and rebuilds
// DIR's summary tables over every bundle in DIR (read_bundles order). A failed
// write names the file at its final place and leaves the earlier bundle intact.
// With r.table (analyze --table), the bundle also holds its distance table,
// kGoalTableFile (docs/tables.md).
void publish_puzzle_report(const std::filesystem::path& dir, const AnalysisResult& r,
                           const std::optional<GraphView>& graph, const std::vector<std::string>& first,
                           const BundleBoards* boards = nullptr);

}  // namespace statespace::reports
