// Permutation puzzle files (kind = "permutation"): published counts of the 2x2x2
// cube, pancake sorting and TopSpin, move names, and the loader's errors.
#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <fstream>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "bad_file.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::BadFile;
using testing::expect_refused;
using testing::fresh_dir;
using testing::run_statespace;

// The sticker model itself (the loader runs files that group into pieces on pieces).
CellPermutation example(const std::string& name) {
  return CellPermutation(TomlInput(std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml")));
}

AnalysisResult analyze(const CellPermutation& p) {
  AnalyzeOptions o;
  o.progress = false;
  return analyze_explicit(p, o).result;
}

// Positions by distance from the goal, breadth first, up to depth `depth`.
std::vector<std::uint64_t> layers_to(const CellPermutation& p, std::size_t depth) {
  absl::flat_hash_set<CellPermutation::State> seen{p.goal()};
  std::vector<CellPermutation::State> frontier{p.goal()};
  std::vector<std::uint64_t> layers{1};
  while (layers.size() <= depth) {
    std::vector<CellPermutation::State> next;
    for (const auto& s : frontier) {
      p.for_each_successor(s, [&](const auto& t) {
        if (seen.insert(t).second) next.push_back(t);
      });
    }
    layers.push_back(next.size());
    frontier = std::move(next);
  }
  return layers;
}

AnalysisResult analyze_by_levels(const CellPermutation& p, const std::string& from = "") {
  AnalyzeOptions o;
  o.progress = false;
  o.from = from;
  return analyze_levels(p, o);
}

// A puzzle file written into a fresh folder.
std::filesystem::path write_file(const std::string& name, const std::string& text) {
  const auto file = fresh_dir("permutation-" + name) / (name + ".toml");
  std::ofstream(file) << text;
  return file;
}
CellPermutation written(const std::string& name, const std::string& text) {
  return CellPermutation(TomlInput(write_file(name, text)));
}

// Everything the reports show of a puzzle: the engines must agree on all of it.
void expect_same_facts(const AnalysisResult& a, const AnalysisResult& b) {
  EXPECT_EQ(a.puzzle, b.puzzle);
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.states, b.states);
  EXPECT_EQ(a.edges, b.edges);
  EXPECT_EQ(a.layers, b.layers);
  EXPECT_EQ(a.farthest, b.farthest);
  EXPECT_EQ(a.layer_edges, b.layer_edges);
}

// The 2x2x2 cube's positions by distance with one corner fixed (R, U, F), as
// published (e.g. Wikipedia, "Pocket Cube"). The whole spaces (3,674,160 positions;
// God's number 11 half-turn, 14 quarter-turn) take seconds each on a shared box, so
// the suite checks the first levels and scripts/check-cube2.sh the whole distributions.
TEST(PermutationFile, Cube2FirstLevelsInBothMetrics) {
  EXPECT_EQ(layers_to(example("cube2"), 7), (std::vector<std::uint64_t>{1, 9, 54, 321, 1847, 9992, 50136, 227536}));
  EXPECT_EQ(layers_to(example("cube2-quarter"), 8),
            (std::vector<std::uint64_t>{1, 6, 27, 120, 534, 2256, 8969, 33058, 114149}));
}

// The sorted-levels engine is fast enough for the whole cube in the suite (well under
// a second each on two cores).
TEST(PermutationFile, Cube2WholeSpaceBySortedLevels) {
  const auto half = analyze_by_levels(example("cube2"));
  EXPECT_EQ(half.layers,
            (std::vector<std::uint64_t>{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}));
  EXPECT_EQ(half.edges, 3674160u * 9 / 2);
  EXPECT_EQ(half.farthest.size(), 2644u);
  EXPECT_EQ(half.farthest.front(), "B B D D / F U U R / L R F B / D U L L / F D U L / R R B F");
  EXPECT_TRUE(std::is_sorted(half.farthest.begin(), half.farthest.end()));
  const auto quarter = analyze_by_levels(example("cube2-quarter"));
  EXPECT_EQ(quarter.layers, (std::vector<std::uint64_t>{1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588,
                                                        1350852, 782536, 90280, 276}));
  EXPECT_EQ(quarter.lookup, "sorted-levels");
  EXPECT_EQ(quarter.engine, "levels");
}

// Packing drops the cells no move touches (the cube's fixed corner: 21 stickers of
// 3 bits) and keeps the order of positions; the moves on words are the moves.
TEST(PermutationFile, PackedWordsFollowTheMoves) {
  const auto p = example("cube2");
  const auto packing = p.packing(p.goal());
  ASSERT_TRUE(packing);
  EXPECT_LT(packing->pack(p.goal()), std::uint64_t{1} << 63);
  std::vector<CellPermutation::State> seen{p.goal()};
  for (std::size_t i = 0; i < 2000; ++i) {
    const auto s = seen[i];
    EXPECT_EQ(packing->unpack(packing->pack(s)), s);
    std::vector<std::uint64_t> words(p.moves().size());
    packing->successors(packing->pack(s), words.data());
    for (std::size_t m = 0; m < p.moves().size(); ++m) {
      const auto t = p.apply(s, p.moves()[m]);
      EXPECT_EQ(words[m], packing->pack(t));
      EXPECT_EQ(s < t, packing->pack(s) < packing->pack(t));
      seen.push_back(t);
    }
  }
  // 32 distinct labels need 5 bits a cell: 160 bits, no word of either width.
  std::string start, cycle = "(";
  for (int i = 1; i <= 32; ++i) {
    start += std::to_string(i) + " ";
    cycle += std::to_string(i) + (i < 32 ? "," : ")");
  }
  const auto wide = written(
      "wide", "name = \"wide\"\nkind = \"permutation\"\nstart = \"" + start + "\"\n[moves]\nX = \"" + cycle + "\"\n");
  EXPECT_FALSE(wide.packing(wide.goal()));
  EXPECT_FALSE(wide.wide_packing(wide.goal()));
}

// The sorted-levels engine against the explicit graph, at 1, 2 and 4 threads: the
// published puzzles, a start other than the goal, and a file whose moves fix some
// positions (self-loops: two equal labels swapped) and share results (multi-edges).
TEST(PermutationFile, SortedLevelsAgreeWithTheExplicitGraph) {
  const auto loops = written("loops", R"toml(name = "loops"
kind = "permutation"
start = "a a b b c d"
metric = "given"
[moves]
X = "(1,2)"
Y = "(2,3)"
Z = "(1,5,6)(3,4)"
W = "(1,6,5)(3,4)"
V = "(4,5,6)"
V2 = "(4,6,5)"
)toml");
  for (const auto& p : {example("pancake8"), example("topspin8"), loops}) {
    const auto expected = analyze(p);
    for (int threads : {1, 2, 4}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      expect_same_facts(analyze_by_levels(p), expected);
    }
  }
  const auto pancake = example("pancake8");
  AnalyzeOptions o;
  o.progress = false;
  o.from = "8 7 6 5 4 3 2 1";
  expect_same_facts(analyze_by_levels(pancake, o.from), analyze_explicit(pancake, o).result);
}

// analyze takes the sorted levels for a permutation file unless the graph is needed
// (graph.dot within --dot-limit, --components...), and writes the same reports.
TEST(PermutationFile, AnalyzeTakesSortedLevelsUnlessTheGraphIsNeeded) {
  const auto dir = fresh_dir("permutation-engines");
  const std::string pancake = std::string(STATESPACE_EXAMPLES) + "/pancake8.toml";
  ASSERT_EQ(run_statespace("analyze " + pancake + " --quiet --out " + (dir / "auto").string()).exit_code, 0);
  ASSERT_EQ(run_statespace("analyze " + pancake + " --engine explicit --quiet --out " + (dir / "explicit").string())
                .exit_code,
            0);
  const auto summary = testing::read_file(dir / "auto/pancake8/summary.json");
  EXPECT_NE(summary.find("\"engine\": \"levels\""), std::string::npos);
  EXPECT_NE(summary.find("\"lookup\": \"sorted-levels\""), std::string::npos);
  for (const char* name : {"distribution.csv", "farthest.csv", "layers.dot"}) {
    EXPECT_EQ(testing::read_file(dir / "auto/pancake8" / name), testing::read_file(dir / "explicit/pancake8" / name))
        << name;
  }
  // Labels a a b b c d: 180 arrangements, all reachable, within --dot-limit.
  const auto small_file = write_file("small",
                                     "name = \"small\"\nkind = \"permutation\"\nstart = \"a a b b c d\"\n"
                                     "[moves]\nX = \"(1,2,3,4,5,6)\"\nY = \"(1,2)\"\n");
  const auto small = std::get<CellPermutation>(*make_file_puzzle(small_file.string()));
  ASSERT_EQ(run_statespace("analyze " + small_file.string() + " --quiet --out " + (dir / "small").string()).exit_code,
            0);
  EXPECT_TRUE(std::filesystem::exists(dir / "small/small/graph.dot"));
  EXPECT_NE(testing::read_file(dir / "small/small/summary.json").find("\"engine\": \"explicit\""), std::string::npos);
  EXPECT_EQ(analyze_by_levels(small).states, 180u);
  const auto graph =
      run_statespace("analyze " + std::string(STATESPACE_EXAMPLES) + "/hex6.toml --engine levels --quiet");
  EXPECT_EQ(graph.exit_code, 2);
  EXPECT_NE(graph.std_err.find("--engine levels needs positions that pack into"), std::string::npos) << graph.std_err;
}

TEST(PermutationFile, PancakeNumberAndTopSpin) {
  const auto pancake = analyze(example("pancake8"));
  EXPECT_EQ(pancake.states, 40320u);
  EXPECT_EQ(pancake.eccentricity(), 9u);     // P(8), OEIS A058986
  EXPECT_EQ(pancake.farthest.size(), 455u);  // stacks of 8 needing 9 flips, OEIS A067607
  EXPECT_EQ(pancake.edges, 40320u * 7 / 2);  // 7 flips, each an involution
  const auto topspin = analyze(example("topspin8"));
  EXPECT_EQ(topspin.states, 40320u);  // the 8-cycle is odd: every arrangement
  EXPECT_EQ(topspin.eccentricity(), 22u);
  EXPECT_EQ(topspin.farthest.size(), 16u);
}

TEST(PermutationFile, MetricsMakeTheMoves) {
  const auto half = example("cube2");
  const auto quarter = example("cube2-quarter");
  std::vector<std::string> names;
  for (const auto& m : half.moves()) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"F", "F2", "F'", "R", "R2", "R'", "U", "U2", "U'"}));
  names.clear();
  for (const auto& m : quarter.moves()) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"F", "F'", "R", "R'", "U", "U'"}));
  // R then R' is the identity; R twice is R2.
  const auto& moves = half.moves();
  const auto s = half.goal();
  EXPECT_EQ(half.apply(half.apply(s, moves[3]), moves[5]), s);
  EXPECT_EQ(half.move_name(s, half.apply(half.apply(s, moves[3]), moves[3])), "R2");
}

TEST(PermutationFile, SolvePrintsMoveNames) {
  // Three quarter turns from the goal: R U F' undone by F U' R'.
  const auto p = example("cube2-quarter");
  auto s = p.goal();
  for (const char* name : {"R", "U", "F'"}) {
    for (const auto& m : p.moves()) {
      if (m.name == name) s = p.apply(s, m);
    }
  }
  const auto r = run_statespace("solve " + std::string(STATESPACE_EXAMPLES) + "/cube2-quarter.toml --from \"" +
                                p.format(s) + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.std_out.find("cube2-quarter: 3 moves"), std::string::npos) << r.std_out;
  EXPECT_NE(r.std_out.find("moves: F U' R'\n"), std::string::npos) << r.std_out;
  EXPECT_NE(r.std_out.find("step 3: R'\nU U U U\nR R R R\n"), std::string::npos) << r.std_out;
}

TEST(PermutationFile, BadFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("permutation-file-errors");
  const std::string head = "name = \"p\"\nkind = \"permutation\"\nstart = \"a b c d\"\n";
  const std::vector<BadFile> cases = {
      {head + "[moves]\nX = \"(1,2)(2,3)\"\n", "bad.toml:5:12: move 'X': cell 2 appears twice: not a permutation"},
      {head + "[moves]\nX = \"(1,5)\"\n", "bad.toml:5:9: move 'X': cell 5 is out of range"},
      {head + "[moves]\nX = \"(1,2\"\n", "bad.toml:5:10: move 'X': a cycle without its ')'"},
      {head + "metric = \"given\"\n[moves]\nX = \"(1,2,3)\"\n",
       "bad.toml:6:5: move 'X' has no inverse among the moves"},
      {head + "metric = \"half\"\n[moves]\nX = \"(1,2)\"\n", "bad.toml:4:10: unknown metric 'half'"},
      {head + "[moves]\nX = \"(1,2)\"\nY = \"(2,1)\"\n", "bad.toml:6:5: move 'Y' is the same permutation as 'X'"},
      {head + "goal = \"a b c\"\n[moves]\nX = \"(1,2)\"\n", "bad.toml:4:8: p: position has 3 cells, expected 4"},
      {"name = \"p\"\nkind = \"permutation\"\nstart = \"a b\"\n", "bad.toml:1:1: missing [moves]"},
  };
  expect_refused(dir, cases);
}

}  // namespace
}  // namespace statespace
