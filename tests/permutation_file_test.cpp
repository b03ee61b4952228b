// Permutation puzzle files (kind = "permutation"): published counts of the 2x2x2
// cube, pancake sorting and TopSpin, move names, and the loader's errors.
#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>

#include <fstream>

#include "analysis/analyze.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;

CellPermutation example(const std::string& name) {
  const auto file = std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml");
  return std::get<CellPermutation>(*make_file_puzzle(file.string()));
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

// The 2x2x2 cube's positions by distance with one corner fixed (R, U, F), as
// published (e.g. Wikipedia, "Pocket Cube"). The whole spaces (3,674,160 positions;
// God's number 11 half-turn, 14 quarter-turn) take seconds each on a shared box, so
// the suite checks the first levels and scripts/check-cube2.sh the whole distributions.
TEST(PermutationFile, Cube2FirstLevelsInBothMetrics) {
  EXPECT_EQ(layers_to(example("cube2"), 7), (std::vector<std::uint64_t>{1, 9, 54, 321, 1847, 9992, 50136, 227536}));
  EXPECT_EQ(layers_to(example("cube2-quarter"), 8),
            (std::vector<std::uint64_t>{1, 6, 27, 120, 534, 2256, 8969, 33058, 114149}));
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
  const std::vector<std::pair<std::string, std::string>> cases = {
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
  for (const auto& [text, message] : cases) {
    const auto file = dir / "bad.toml";
    std::ofstream(file) << text;
    const auto out = dir / "out";
    const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << text << r.out;
    EXPECT_NE(r.std_err.find(message), std::string::npos) << text << r.std_err;
    EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
    EXPECT_FALSE(std::filesystem::exists(out)) << text;
  }
}

}  // namespace
}  // namespace statespace
