// The report bundle as a page: DIR/<puzzle>/index.html shows the puzzle's facts, its
// distribution as a chart and its farthest (and hardest) positions drawn as boards,
// and links the bundle's CSV and JSON files; DIR/index.html lists every bundle.
// Pages are self-contained (inline SVG, CSS and script, no request to any host), so
// they open from the disk, and their bytes depend only on the analysis, not on the
// run (no times, no thread counts).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/engines/result.hpp"
#include "reports/board_drawing.hpp"

namespace statespace::reports {

// Boards beyond these are listed in their notation (the CSV files hold them all):
// tiles:3x4's page stays far under 200 KB.
inline constexpr std::size_t kMaxPageBoards = 24;
inline constexpr std::size_t kMaxPageNotations = 200;

// The farthest and the hardest positions, drawn by the model (draw_bundle_boards).
// What `statespace serve` needs to play the puzzle again: play.json, and a copy of
// the puzzle file beside it when the model came from one.
struct BundleBoards {
  std::vector<Drawing> farthest;
  std::vector<Drawing> hardest;
  std::string play_json;   // empty: none written
  std::string model_file;  // "puzzle.toml" or "puzzle.tws"; empty for a built-in model
  std::string model_text;
};

// play.json for the puzzle named `argument` on the command line (a built-in name or
// a file, whose text is then kept as puzzle.toml or puzzle.tws) with analyze's
// --moves, --metric and --symmetry. A file that no longer reads leaves play.json
// unwritten.
void set_play_source(BundleBoards& b, const std::string& argument, const std::string& moves, const std::string& metric,
                     const std::string& symmetry = {});

template <Puzzle P>
BundleBoards draw_bundle_boards(const P& p, const AnalysisResult& r) {
  BundleBoards b;
  for (std::size_t i = 0; i < r.farthest.size() && i < kMaxPageBoards; ++i)
    b.farthest.push_back(draw_position(p, r.farthest[i]));
  if (r.goal) {
    for (std::size_t i = 0; i < r.goal->hardest.size() && i < kMaxPageBoards; ++i)
      b.hardest.push_back(draw_position(p, r.goal->hardest[i]));
  }
  return b;
}

// `files`: the bundle's other files, linked in this order. Without boards the
// positions are shown in their notation.
std::string bundle_index_html(const AnalysisResult& r, const BundleBoards* boards,
                              const std::vector<std::string>& files);

// Every bundle in the folder, one row each, linking DIR/<folder>/index.html.
std::string folder_index_html(const std::vector<AnalysisResult>& results);

// The distribution chart alone: one bar a depth carrying data-depth and
// data-count, log scale when the counts span two decades or more.
std::string distribution_chart_svg(const std::vector<std::uint64_t>& counts, const std::string& axis);

}  // namespace statespace::reports
