#include "reports/puzzle_report.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "core/errors.hpp"
#include "reports/atomic_file.hpp"
#include "reports/dot.hpp"
#include "reports/staging.hpp"
#include "reports/summary_json.hpp"
#include "reports/table_file.hpp"
#include "reports/tables.hpp"

namespace statespace::reports {

std::string folder_name(const std::string& puzzle) {
  std::string out = puzzle;
  std::replace(out.begin(), out.end(), ':', '-');
  return out;
}

std::vector<std::filesystem::path> write_puzzle_report(const std::filesystem::path& dir, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph,
                                                       const BundleBoards* boards) {
  return write_report_folder(dir / folder_name(r.puzzle), r, graph, boards);
}

std::vector<std::filesystem::path> write_report_folder(const std::filesystem::path& folder, const AnalysisResult& r,
                                                       const std::optional<GraphView>& graph,
                                                       const BundleBoards* boards) {
  // Each file is made just before it is written, so only one is held at a time: on a
  // space with many farthest positions the reports would otherwise hold them three
  // times over (summary.json, farthest.csv, the result), more than the search did.
  using Make = std::function<std::string()>;
  std::vector<std::pair<std::filesystem::path, Make>> files = {
      {folder / "distribution.csv", [&] { return distribution_csv(r); }},
      {folder / "farthest.csv", [&] { return farthest_csv(r); }},
      {folder / "layers.dot", [&] { return layers_dot(r); }},
  };
  // A file left by an earlier run would contradict this one.
  const auto drop = [&](const char* name) {
    std::error_code ec;
    std::filesystem::remove(folder / name, ec);
  };
  if (graph) {
    files.emplace_back(folder / "graph.dot",
                       [&] { return graph_dot(*graph->graph, graph->labels, *graph->depth, graph->directed); });
  } else {
    drop("graph.dot");
  }
  if (has_directed_goal_layers(r)) {
    files.emplace_back(folder / "goal-distribution.csv", [&] { return goal_distribution_csv(r); });
    files.emplace_back(folder / "hardest.csv", [&] { return hardest_csv(r); });
  } else {
    drop("goal-distribution.csv");
    drop("hardest.csv");
  }
  files.emplace_back(folder / "summary.json", [&] { return summary_json(r); });
  if (boards && !boards->play_json.empty()) {
    files.emplace_back(folder / "play.json", [&] { return boards->play_json; });
    if (!boards->model_file.empty())
      files.emplace_back(folder / boards->model_file, [&] { return boards->model_text; });
  }
  std::vector<std::string> linked;
  for (const auto& file : files) linked.push_back(file.first.filename().string());
  files.emplace_back(folder / "index.html", [&] { return bundle_index_html(r, boards, linked); });
  std::vector<std::filesystem::path> written;
  for (const auto& [path, make] : files) {
    write_file_atomically(path, make());
    written.push_back(path);
  }
  return written;
}

std::vector<std::filesystem::path> write_summary_tables(const std::filesystem::path& dir,
                                                        const std::vector<AnalysisResult>& results) {
  write_file_atomically(dir / "summary.csv", summary_csv(results));
  write_file_atomically(dir / "summary.md", summary_markdown(results));
  write_file_atomically(dir / "index.html", folder_index_html(results));
  return {dir / "summary.csv", dir / "summary.md", dir / "index.html"};
}

namespace {

// The summaries this process has parsed, by the file's identity (device, inode,
// size, modification time), which a rename keeps: a run of many puzzles into one
// folder rebuilds the folder's tables after each bundle, and without this it parsed
// every earlier bundle's summary.json again each time, quadratic in the bundles. A
// file another run replaced has another identity and is read again.
class SummaryCache {
 public:
  using Identity = std::tuple<dev_t, ino_t, off_t, long, long>;
  // The summary in `json` without its positions (read_summary_counts), parsed once;
  // throws ParseError as read_summary_counts does.
  AnalysisResult read(const std::filesystem::path& json) {
    struct stat st {};
    std::optional<Identity> id;
    if (::stat(json.c_str(), &st) == 0)
      id = Identity{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    if (id) {
      const std::lock_guard lock(mutex_);
      if (const auto it = entries_.find(*id); it != entries_.end()) return it->second;
    }
    // Read at its size: through a stringstream the text was held twice, at up to
    // twice its size.
    std::ifstream in(json, std::ios::binary | std::ios::ate);
    std::string text(in ? std::size_t(in.tellg()) : 0, '\0');
    in.seekg(0);
    in.read(text.data(), std::streamsize(text.size()));
    AnalysisResult r = read_summary_counts(text);
    if (id) {
      const std::lock_guard lock(mutex_);
      entries_.insert_or_assign(*id, r);
    }
    return r;
  }

 private:
  std::mutex mutex_;
  std::map<Identity, AnalysisResult> entries_;
};

// read_bundles, with the bundle of folder `staged` read from `staged_json` (its
// summary.json in the staging folder, before the swap) when given.
std::vector<AnalysisResult> read_bundles_as(const std::filesystem::path& dir, const std::vector<std::string>& first,
                                            const std::string& staged, const std::filesystem::path& staged_json) {
  std::vector<std::pair<std::string, std::filesystem::path>> folders;  // name, summary.json
  if (!staged.empty()) folders.emplace_back(staged, staged_json);
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code is;
    // Staging folders are hidden; a link is no bundle of this folder's.
    if (name.starts_with(".") || name == staged || it->is_symlink(is) || !it->is_directory(is)) continue;
    const auto json = it->path() / "summary.json";
    if (std::filesystem::is_regular_file(json, is)) folders.emplace_back(name, json);
  }
  const auto rank = [&](const std::string& folder) {
    for (std::size_t i = 0; i < first.size(); ++i) {
      if (folder_name(first[i]) == folder) return i;
    }
    return first.size();
  };
  std::sort(folders.begin(), folders.end(), [&](const auto& a, const auto& b) {
    const auto ra = rank(a.first), rb = rank(b.first);
    return ra != rb ? ra < rb : a.first < b.first;
  });
  static SummaryCache cache;
  std::vector<AnalysisResult> results;
  for (const auto& [name, json] : folders) {
    try {
      results.push_back(cache.read(json));
    } catch (const ParseError& e) {
      std::cerr << "statespace: warning: " << json.string() << " left out of the summary tables: " << e.what() << "\n";
    }
  }
  return results;
}

}  // namespace

std::vector<AnalysisResult> read_bundles(const std::filesystem::path& dir, const std::vector<std::string>& first) {
  return read_bundles_as(dir, first, {}, {});
}

void publish_puzzle_report(const std::filesystem::path& dir, const AnalysisResult& r,
                           const std::optional<GraphView>& graph, const std::vector<std::string>& first,
                           const BundleBoards* boards) {
  const FolderLock lock(dir);
  StagedFolder staging(dir / folder_name(r.puzzle));
  try {
    write_report_folder(staging.path(), r, graph, boards);
    if (r.table) write_goal_table(staging.path() / kGoalTableFile, *r.table);
  } catch (const WriteError& e) {
    throw WriteError(staging.target() / e.file.lexically_relative(staging.path()), e.error);
  }
  // The folder's tables as they are once the bundle is in place, rows from every
  // bundle's own summary.json (this one's in the staging folder), written and synced
  // before the swap: after it, only three renames remain, so a kill leaves the new
  // bundle beside the old tables only between two renames, not for the reading,
  // rendering and syncing that the tables took after the swap. The commit's one
  // syncfs makes the bundle's files and the tables durable before any rename.
  const auto results = read_bundles_as(dir, first, folder_name(r.puzzle), staging.path() / "summary.json");
  std::vector<PendingFile> tables;
  constexpr auto later = PendingFile::Sync::deferred;
  tables.emplace_back(dir / "summary.csv", summary_csv(results), later);
  tables.emplace_back(dir / "summary.md", summary_markdown(results), later);
  tables.emplace_back(dir / "index.html", folder_index_html(results), later);
  staging.commit([&] {
    for (auto& table : tables) table.commit();
  });
}

}  // namespace statespace::reports
