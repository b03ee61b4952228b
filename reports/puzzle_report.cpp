#include "reports/puzzle_report.hpp"

#include <algorithm>

#include "reports/atomic_file.hpp"
#include "reports/dot.hpp"
#include "reports/summary_json.hpp"
#include "reports/tables.hpp"

namespace statespace::reports {

std::string folder_name(const std::string& puzzle) {
  std::string out = puzzle;
  std::replace(out.begin(), out.end(), ':', '-');
  return out;
}

std::vector<std::filesystem::path> write_puzzle_report(const std::filesystem::path& dir, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph) {
  return write_report_folder(dir / folder_name(r.puzzle), r, graph);
}

std::vector<std::filesystem::path> write_report_folder(const std::filesystem::path& folder, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph) {
  std::vector<std::pair<std::filesystem::path, std::string>> files = {
      {folder / "distribution.csv", distribution_csv(r)},
      {folder / "farthest.csv", farthest_csv(r)},
      {folder / "layers.dot", layers_dot(r)},
  };
  if (graph) {
    files.emplace_back(folder / "graph.dot", graph_dot(*graph->graph, graph->labels, *graph->depth));
  } else {
    std::error_code ec;  // a graph.dot left by an earlier run would contradict this one
    std::filesystem::remove(folder / "graph.dot", ec);
  }
  files.emplace_back(folder / "summary.json", summary_json(r));
  std::vector<std::filesystem::path> written;
  for (const auto& [path, contents] : files) {
    write_file_atomically(path, contents);
    written.push_back(path);
  }
  return written;
}

std::vector<std::filesystem::path> write_summary_tables(const std::filesystem::path& dir,
                                                        const std::vector<AnalysisResult>& results) {
  write_file_atomically(dir / "summary.csv", summary_csv(results));
  write_file_atomically(dir / "summary.md", summary_markdown(results));
  return {dir / "summary.csv", dir / "summary.md"};
}

}  // namespace statespace::reports
