// Graph puzzle files (kind = "graph"): the built-in models they reproduce, the
// multiset rank, Wilson's theorem on the components, and the loader's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "bad_file.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::BadFile;
using testing::expect_refused;
using testing::fresh_dir;
using testing::run_statespace;

template <class Model>
Model load(const std::filesystem::path& file) {
  return std::get<Model>(*make_file_puzzle(file.string()));
}

GraphTokens example(const std::string& name) {
  return load<GraphTokens>(std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml"));
}

// A graph file written to the temp folder.
GraphTokens graph(const std::string& edges, const std::string& start) {
  const auto file = fresh_dir("graph-file") / "g.toml";
  std::ofstream(file) << "name = \"g\"\nkind = \"graph\"\nedges = \"" << edges << "\"\nstart = \"" << start << "\"\n";
  return load<GraphTokens>(file);
}

AnalysisResult analyze(const auto& p) {
  AnalyzeOptions o;
  o.progress = false;
  return analyze_explicit(p, o).result;
}

// Where the boards draw the vertices: the file's coordinates, else its rows, else a
// circle.
TEST(GraphFile, VerticesLieAtTheFilesCoordinatesElseOnACircle) {
  const auto theta0 = example("theta0").cell_geometry();
  const std::vector<std::pair<double, double>> expected = {{0, 0},    {1.8, 1},  {1.8, 3}, {0, 4},
                                                           {-1.8, 3}, {-1.8, 1}, {0, 2}};
  ASSERT_EQ(theta0.cells.size(), expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) {
    EXPECT_EQ(theta0.cells[v].x, expected[v].first) << v;
    EXPECT_EQ(theta0.cells[v].y, expected[v].second) << v;
  }
  EXPECT_EQ(theta0.edges.size(), 8u);
  const auto circle = graph("1-2 2-3 3-4 4-5 5-1", "1 2 3 4 _").cell_geometry();
  ASSERT_EQ(circle.cells.size(), 5u);
  for (const auto& c : circle.cells)
    EXPECT_NEAR(std::hypot(c.x, c.y), std::hypot(circle.cells[0].x, circle.cells[0].y), 1e-9);
  EXPECT_EQ(circle.cells[0].x, 0);  // vertex 1 at the top
  EXPECT_LT(circle.cells[0].y, 0);
  // The rows of hex6.toml: 2, 3 and 2 vertices.
  const auto rows = example("hex6").cell_geometry();
  ASSERT_EQ(rows.cells.size(), 7u);
  EXPECT_EQ(rows.cells[0].y, 0);
  EXPECT_EQ(rows.cells[2].y, 1);
  EXPECT_EQ(rows.cells[6].y, 2);
}

TEST(GraphFile, Hex6ReproducesTheBuiltInModel) {
  const auto file = analyze(example("hex6"));
  const auto built_in = analyze(Hex6{});
  EXPECT_EQ(file.states, 5040u);
  EXPECT_EQ(file.eccentricity(), 15u);
  EXPECT_EQ(file.farthest.size(), 24u);
  EXPECT_EQ(file.layers, built_in.layers);
  EXPECT_EQ(file.edges, built_in.edges);
  EXPECT_EQ(file.farthest, built_in.farthest);  // same notation, same canonical order
  EXPECT_EQ(file.layer_edges, built_in.layer_edges);
}

TEST(GraphFile, Grid3x3GivesTheEightPuzzlesDistribution) {
  const auto file = analyze(example("grid3x3"));
  const auto built_in = analyze(Tiles(3, 3));
  EXPECT_EQ(file.states, 181440u);
  EXPECT_EQ(file.eccentricity(), 31u);
  EXPECT_EQ(file.layers, built_in.layers);
  EXPECT_EQ(file.farthest, built_in.farthest);
}

TEST(GraphFile, MultisetRankIsABijectionWithRepeatedTokens) {
  const auto p = graph("1-2 2-3 3-4 4-5 5-1 1-3", "A A B _ _");
  ASSERT_EQ(p.rank_space(), 30u);  // 5! / (2! 1! 2!)
  std::set<std::string> seen;
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
    const auto s = p.unrank(r);
    EXPECT_EQ(p.rank(s), r);
    EXPECT_EQ(p.parse(p.format(s)), s);
    seen.insert(p.format(s));
  }
  EXPECT_EQ(seen.size(), 30u);
  EXPECT_EQ(analyze(p).states, 30u);  // two tokens never block each other here
}

struct WilsonCase {
  std::string what, edges, start;
  std::uint64_t components;
};

TEST(GraphFile, ComponentsFollowWilsonsTheorem) {
  const std::vector<WilsonCase> cases = {
      {"bipartite 2x3 grid", "1-2 2-3 4-5 5-6 1-4 2-5 3-6", "1 2 3 4 5 _", 2},
      {"non-bipartite hex6", "1-2 1-3 1-4 2-4 2-5 3-4 3-6 4-5 4-6 4-7 5-7 6-7", "1 2 3 4 5 6 _", 1},
      {"non-bipartite 2-connected, 6 vertices", "1-2 2-3 3-4 4-5 5-6 6-1 1-3", "1 2 3 4 5 _", 1},
      {"cycle of 6: (6-2)!", "1-2 2-3 3-4 4-5 5-6 6-1", "1 2 3 4 5 _", 24},
      {"theta_0", "1-2 2-3 3-4 4-5 5-6 6-1 1-7 7-4", "1 2 3 4 5 6 _", 6},
  };
  for (const auto& c : cases) {
    const auto p = graph(c.edges, c.start);
    const auto found = find_components(p, MemoryBudget());
    EXPECT_EQ(found.positions, p.rank_space()) << c.what;
    EXPECT_EQ(found.sizes.size(), c.components) << c.what;
    EXPECT_EQ(p.predicted_components().components, c.components) << c.what << p.predicted_components().reason;
  }
  EXPECT_EQ(graph("1-2 2-3 3-1 3-4", "1 2 3 _").predicted_components().components, 0u);  // cut vertex 3
  EXPECT_EQ(graph("1-2 2-3 3-1", "1 _ _").predicted_components().components, 0u);        // two empties
}

TEST(GraphFile, ComponentsPrintWilsonsCase) {
  const auto dir = fresh_dir("graph-components");
  const auto r =
      run_statespace("analyze " + std::string(STATESPACE_EXAMPLES) + "/theta0.toml --components --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.std_out.find("theta0: 6 components of 5040 positions; Wilson's theorem, the exceptional graph theta_0"),
            std::string::npos)
      << r.std_out;
  EXPECT_NE(r.std_out.find(": agrees"), std::string::npos) << r.std_out;
}

TEST(GraphFile, BadFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("graph-file-errors");
  const std::string head = "name = \"g\"\nkind = \"graph\"\n";
  expect_refused(
      dir,
      {
          {head + "edges = \"1-2 2-9\"\nstart = \"1 2 _\"\n", "bad.toml:3:16: unknown vertex '9' in edge '2-9'"},
          {head + "edges = \"1-2 2-2\"\nstart = \"1 2 _\"\n", "bad.toml:3:14: self-loop '2-2'"},
          {head + "edges = \"1-2 2-3 2-1\"\nstart = \"1 2 _\"\n", "bad.toml:3:18: duplicate edge '2-1'"},
          {head + "edges = \"1-2 2-3\"\nstart = \"1 2 3\"\n", "bad.toml:4:9: start has no empty vertex"},
          {head + "edges = \"1-2 2-3\"\nstart = \"1 2 _\"\ngoal = \"1 _\"\n",
           "bad.toml:5:8: g: position has 2 cells, expected 3"},
          {head + "edges = \"1-2 2-3\"\nstart = \"1 2 _\"\ngoal = \"1 3 _\"\n", "bad.toml:5:8: g: unknown label '3'"},
          {head + "edges = \"1-2 2-3\"\nstart = \"1 2 _\"\nrows = [2, 2]\n", "bad.toml:5:8: rows sum to 4 cells"},
          {head + "edges = \"1-2 2-3\"\nstart = \"1 2 _\"\nsize = 3\n", "bad.toml:5:1: unknown key 'size'"},
      });
  const std::string path = head + "edges = \"1-2 2-3\"\nstart = \"1 2 _\"\ncoordinates = ";
  expect_refused(
      dir, {
               {path + "\"0,0 1,0 2,0\"\n", "bad.toml:5:15: 'coordinates' must be an array of [x, y] pairs"},
               {path + "[[0, 0], [2, 0]]\n", "bad.toml:5:15: coordinates has 2 pairs for 3 vertices"},
               {path + "[[0, 0], [2, 0], [4]]\n", "bad.toml:5:32: vertex 3's coordinates are not two numbers"},
               {path + "[[0, 0], [2, 0], [4, \"1\"]]\n", "bad.toml:5:32: vertex 3's coordinates are not two numbers"},
               {path + "[[0, 0], [2, 0], [4, 1e9]]\n",
                "bad.toml:5:36: vertex 3's y is out of range (expected a number from -100 to 100)"},
               {path + "[[0, 0], [nan, 0], [4, 0]]\n", "bad.toml:5:25: vertex 2's x is out of range"},
               {path + "[[0, 0], [2, 0], [2.5, 0.5]]\n",
                "bad.toml:5:32: vertex 3 is 0.707107 from vertex 2 (expected at least 1 apart"},
           });
  // 16 vertices of distinct tokens: a 2.6 GB rank bitset for --components.
  std::string edges, start;
  for (int v = 1; v < 16; ++v) edges += std::to_string(v) + "-" + std::to_string(v + 1) + " ";
  for (int v = 1; v < 16; ++v) start += std::to_string(v) + " ";
  expect_refused(dir, {{head + "edges = \"" + edges + "\"\nstart = \"" + start + "_\"\n", "--memory"}},
                 " --components --memory 100M");
}

}  // namespace
}  // namespace statespace
