// Boards drawn from the models' cells and the bundle pages (reports/board_drawing,
// reports/html): one puzzle of each kind drawn cell by cell, and the pages' charts
// and boards against the analysis they show.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/analyze_puzzle.hpp"
#include "puzzles/registry.hpp"
#include "reports/board_drawing.hpp"
#include "reports/html.hpp"
#include "reports/puzzle_report.hpp"

namespace statespace {
namespace {

std::string example(const std::string& file) { return std::string(STATESPACE_EXAMPLES) + "/" + file; }

reports::Drawing draw(const AnyPuzzle& any, const std::string& position) {
  return std::visit([&](const auto& p) { return reports::draw_position(p, position); }, any);
}

// Cell -> piece id, for the cells a piece covers.
std::map<int, int> pieces_of(const reports::Drawing& d) {
  std::map<int, int> out;
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    if (d.cells[i].piece >= 0) out[int(i)] = d.cells[i].piece;
  }
  return out;
}

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(Boards, TilesAreNumberedSquaresOnePieceEach) {
  const auto d = draw(make_puzzle("tiles:3x3"), "8 6 7 / 2 5 4 / 3 _ 1");
  ASSERT_EQ(d.cells.size(), 9u);
  EXPECT_EQ(d.shape, CellShape::kSquare);
  EXPECT_EQ(d.cells[0].label, "8");
  EXPECT_EQ(d.cells[7].label, "");
  EXPECT_EQ(d.cells[7].piece, -1);
  EXPECT_EQ(pieces_of(d).size(), 8u);
  EXPECT_DOUBLE_EQ(d.cells[5].x, 2);
  EXPECT_DOUBLE_EQ(d.cells[5].y, 1);
  const std::string svg = reports::drawing_svg(d);
  EXPECT_EQ(count(svg, "class=\"piece\""), 8);
  EXPECT_NE(svg.find("data-position=\"8 6 7 / 2 5 4 / 3 _ 1\""), std::string::npos);
}

TEST(Boards, Hex6IsHexagons) {
  const auto d = draw(make_puzzle("hex6"), "1 2 / 3 4 5 / 6 _");
  EXPECT_EQ(d.shape, CellShape::kHexagon);
  EXPECT_EQ(pieces_of(d).size(), 6u);
  EXPECT_NE(reports::drawing_svg(d).find("<polygon"), std::string::npos);
}

TEST(Boards, BlocksArePiecesOfTheirShapes) {
  const AnyPuzzle klotski = make_puzzle(example("klotski.toml"));
  const auto d = draw(klotski, "B A A C / B A A C / D F F E / D G H E / I . . J");
  const auto pieces = pieces_of(d);
  EXPECT_EQ(pieces.size(), 18u);  // 20 cells, 2 empty
  std::set<int> ids;
  for (const auto& [cell, id] : pieces) ids.insert(id);
  EXPECT_EQ(ids.size(), 10u);  // A, B..E, F, G..J
  // The 2x2 piece A is one piece over its four cells.
  EXPECT_EQ(pieces.at(1), pieces.at(2));
  EXPECT_EQ(pieces.at(1), pieces.at(5));
  EXPECT_EQ(pieces.at(1), pieces.at(6));
  EXPECT_NE(pieces.at(0), pieces.at(3));
}

TEST(Boards, NoOffPiecesComeFromTheModel) {
  const auto d = draw(make_puzzle("nooff"), "N O L L / F O F _");
  std::set<int> ids;
  for (const auto& [cell, id] : pieces_of(d)) ids.insert(id);
  EXPECT_EQ(pieces_of(d).size(), 7u);
  EXPECT_LT(ids.size(), 7u);  // the multi-cell pieces are one piece each
}

TEST(Boards, RulesHaveWallsMarksAndTheKeeper) {
  const AnyPuzzle yard = make_puzzle(example("sokoban-yard.toml"));
  const std::string start = std::visit([](const auto& p) { return p.format(p.goal()); }, yard);
  const auto d = draw(yard, start);
  ASSERT_EQ(d.cells.size(), 42u);  // 6 rows of 7
  int walls = 0, marks = 0, boxes = 0, keepers = 0;
  for (const auto& c : d.cells) {
    walls += c.wall;
    marks += !c.mark.empty();
    boxes += c.label == "B";
    keepers += c.label == "K";
  }
  EXPECT_EQ(walls, 25);
  EXPECT_EQ(marks, 2);  // the two targets '+'
  EXPECT_EQ(boxes, 2);
  EXPECT_EQ(keepers, 1);
}

TEST(Boards, GraphTokensSitOnVerticesWithTheEdges) {
  const auto d = draw(make_puzzle(example("theta0.toml")), "1 2 3 4 5 6 _");
  ASSERT_EQ(d.cells.size(), 7u);
  EXPECT_EQ(d.edges.size(), 8u);
  EXPECT_EQ(pieces_of(d).size(), 6u);
  // At the file's coordinates: the hexagon, the centre 7 between vertices 1 and 4.
  EXPECT_EQ(d.cells[0].x, 0);
  EXPECT_EQ(d.cells[0].y, 0);
  EXPECT_EQ(d.cells[2].x, 1.8);
  EXPECT_EQ(d.cells[2].y, 3);
  EXPECT_EQ(d.cells[6].x, 0);
  EXPECT_EQ(d.cells[6].y, 2);
  const std::string svg = reports::drawing_svg(d, 34);
  EXPECT_EQ(count(svg, "<line"), 8);
  // 1.8 + 1.8 token widths across and 4 down, at 34 pixels a token, plus the margins.
  const auto [width, height] = reports::drawing_size(d, 34);
  EXPECT_NEAR(height - width, (4 - 3.6) * 34, 1e-9);
}

TEST(Boards, TwsSetsHaveCaptionsAndOrientationRows) {
  const AnyPuzzle cube = make_puzzle(example("cube2.tws"));
  const std::string solved = std::visit([](const auto& p) { return p.format(p.goal()); }, cube);
  const auto d = draw(cube, solved);
  ASSERT_FALSE(d.as_text);
  int captions = 0, places = 0, orientations = 0;
  for (const auto& c : d.cells) {
    captions += c.role == CellRole::kCaption;
    places += c.role == CellRole::kPlace;
    orientations += c.role == CellRole::kOrientation;
  }
  EXPECT_EQ(captions, 1);
  EXPECT_EQ(places, orientations);
  EXPECT_GE(places, 7);
  // The orientation of a place lies right under it.
  for (std::size_t i = 0; i < d.cells.size(); ++i) {
    if (d.cells[i].role != CellRole::kOrientation) continue;
    const auto above = i - std::size_t(places);
    EXPECT_DOUBLE_EQ(d.cells[i].x, d.cells[above].x);
    EXPECT_DOUBLE_EQ(d.cells[i].y, d.cells[above].y + 1);
  }
}

TEST(Boards, EveryListedModelDrawsItsGoal) {
  for (const auto& name : listed_puzzles()) {
    const AnyPuzzle any = make_puzzle(name);
    std::visit(
        [&](const auto& p) {
          const auto d = reports::draw_position(p, p.goal());
          const auto cells = reports::notation_cells(p.format(p.goal()));
          if (d.as_text) {
            EXPECT_GT(cells.size(), reports::kMaxDrawnCells) << name;
            return;
          }
          ASSERT_EQ(d.cells.size(), cells.size()) << name;
          for (std::size_t i = 0; i < cells.size(); ++i) {
            if (d.cells[i].piece >= 0) {
              EXPECT_EQ(d.cells[i].label, cells[i]) << name << " cell " << i;
            }
          }
        },
        any);
  }
}

AnalysisResult analysed(const std::string& name) {
  const AnyPuzzle p = make_puzzle(name);
  AnalyzeOptions o;
  o.progress = false;
  o.draw_graph = false;
  return analyze_puzzle(p, o, plan_puzzle(p, o)).result;
}

TEST(Pages, ChartBarsAreTheDistribution) {
  const AnalysisResult r = analysed("tiles:3x3");
  const std::string svg = reports::distribution_chart_svg(r.layers, "depth");
  const std::regex bar("data-depth=\"(\\d+)\" data-count=\"(\\d+)\"");
  std::vector<std::uint64_t> counts;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ(std::stoul((*it)[1]), counts.size());
    counts.push_back(std::stoull((*it)[2]));
  }
  EXPECT_EQ(counts, r.layers);
  EXPECT_EQ(counts.size(), 32u);
  EXPECT_NE(svg.find("data-log=\"1\""), std::string::npos);  // 1 to 24,047 per depth
  EXPECT_NE(reports::distribution_chart_svg({1, 2, 3, 2}, "depth").find("data-log=\"0\""), std::string::npos);
}

TEST(Pages, BundlePageDrawsTheFarthestAndLinksTheFiles) {
  const AnalysisResult r = analysed("tiles:3x3");
  const AnyPuzzle p = make_puzzle("tiles:3x3");
  const auto boards = std::visit([&](const auto& m) { return reports::draw_bundle_boards(m, r); }, p);
  const std::string html = reports::bundle_index_html(r, &boards, {"distribution.csv", "farthest.csv"});
  EXPECT_EQ(count(html, "<figure data-row="), 2);
  EXPECT_NE(html.find("data-csv=\"8 6 7 / 2 5 4 / 3 _ 1\""), std::string::npos);
  EXPECT_NE(html.find("data-csv=\"6 4 7 / 8 5 _ / 3 2 1\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"farthest.csv\">"), std::string::npos);
  EXPECT_NE(html.find("181,440"), std::string::npos);
  // Offline: no address of any host (the SVG namespace is a name, never fetched).
  const std::string addresses = std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(addresses.find("http://"), std::string::npos);
  EXPECT_EQ(addresses.find("https://"), std::string::npos);
}

TEST(Pages, ManyFarthestPositionsStayListedNotDrawn) {
  AnalysisResult r = analysed("hex6");  // 24 farthest positions
  const AnyPuzzle p = make_puzzle("hex6");
  for (int i = 0; i < 10; ++i) r.farthest.insert(r.farthest.end(), r.farthest.begin(), r.farthest.begin() + 24);
  const auto boards = std::visit([&](const auto& m) { return reports::draw_bundle_boards(m, r); }, p);
  EXPECT_EQ(boards.farthest.size(), reports::kMaxPageBoards);
  const std::string html = reports::bundle_index_html(r, &boards, {});
  EXPECT_EQ(count(html, "<figure data-row="), int(reports::kMaxPageBoards));
  EXPECT_NE(html.find(std::to_string(r.farthest.size() - reports::kMaxPageBoards - reports::kMaxPageNotations) +
                      " more in the CSV file"),
            std::string::npos);
  EXPECT_LT(html.size(), 200'000u);
}

TEST(Pages, FolderIndexLinksEveryBundle) {
  const std::vector<AnalysisResult> results = {analysed("tiles:3x3"), analysed("hex6")};
  const std::string html = reports::folder_index_html(results);
  EXPECT_NE(html.find("<a href=\"tiles-3x3/index.html\">tiles:3x3</a>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"hex6/index.html\">hex6</a>"), std::string::npos);
}

}  // namespace
}  // namespace statespace
