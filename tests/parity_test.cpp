// The parity test (puzzles/tiles_parity.hpp): seed 004's worked example, agreement with the
// model's own invariant and with reachability, odd and even widths, boards larger
// than the 16-cell models, and the exhaustive verify-parity proof on small boards.
#include <gtest/gtest.h>

#include <numeric>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/problems/rng.hpp"
#include "analysis/problems/verify_parity.hpp"
#include "core/errors.hpp"
#include "puzzles/tiles_parity.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

TEST(TilesParity, SeedWorkedExample) {
  // Seed 004: "10 8 4 14 / 15 12 13 * / 7 11 6 1 / 5 9 2 3": 74 inversions, blank in
  // row 2, 76 is even: solvable.
  const TilesShape shape = parse_tiles_shape("tiles:4x4");
  const auto cells = parse_tiles_cells(shape, "10 8 4 14 / 15 12 13 * / 7 11 6 1 / 5 9 2 3");
  const ParityReport r = tiles_parity(shape, cells);
  EXPECT_EQ(r.inversions, 74u);
  EXPECT_EQ(r.blank_row, 2);
  EXPECT_EQ(r.sum, 76u);
  EXPECT_EQ(r.goal_parity, 0);
  EXPECT_TRUE(r.solvable);
  const std::string text = explain_parity(r);
  EXPECT_NE(text.find("inversions  74"), std::string::npos) << text;
  EXPECT_NE(text.find("blank row   2"), std::string::npos) << text;
  EXPECT_NE(text.find("sum         76"), std::string::npos) << text;
  EXPECT_NE(text.find("verdict     solvable"), std::string::npos) << text;
}

TEST(TilesParity, SeedsSolvedAndElevenTwelveSwapped) {
  // Seed 004's completeness argument: the goal and the goal with 11 and 12 swapped.
  const TilesShape shape{4, 4};
  EXPECT_TRUE(tiles_parity(shape, parse_tiles_cells(shape, "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _")).solvable);
  const auto swapped = tiles_parity(shape, parse_tiles_cells(shape, "1 2 3 4 / 5 6 7 8 / 9 10 12 11 / 13 14 15 _"));
  EXPECT_EQ(swapped.inversions, 1u);
  EXPECT_EQ(swapped.sum, 5u);
  EXPECT_FALSE(swapped.solvable);
}

TEST(TilesParity, OddAndEvenWidthsDiffer) {
  // 3x3 (odd width): the blank row plays no part. Sliding 7 and 8 right leaves 0
  // inversions with the blank in row 3: solvable although inversions + row is odd.
  const TilesShape three{3, 3};
  const auto odd = tiles_parity(three, parse_tiles_cells(three, "1 2 3 / 4 5 6 / _ 7 8"));
  EXPECT_EQ(odd.inversions, 0u);
  EXPECT_EQ(odd.blank_row, 3);
  EXPECT_EQ(odd.sum, 0u);
  EXPECT_TRUE(odd.solvable);
  // 2x4 (even width): the same tiles with the blank in row 1 are unsolvable, in row 2
  // solvable; on 3x4 the goal's blank row 3 is odd, so the wanted parity is odd.
  const TilesShape two_four{2, 4};
  EXPECT_FALSE(tiles_parity(two_four, parse_tiles_cells(two_four, "_ 1 2 3 / 4 5 6 7")).solvable);
  EXPECT_TRUE(tiles_parity(two_four, parse_tiles_cells(two_four, "1 2 3 4 / _ 5 6 7")).solvable);
  const TilesShape three_four{3, 4};
  const auto goal = tiles_parity(three_four, parse_tiles_cells(three_four, "1 2 3 4 / 5 6 7 8 / 9 10 11 _"));
  EXPECT_EQ(goal.sum, 3u);
  EXPECT_EQ(goal.goal_parity, 1);
  EXPECT_TRUE(goal.solvable);
}

// Every arrangement of a model-sized board: the report, the fast verdict and the
// lead's invariant (arrangement parity + blank colour, Tiles::same_class) agree.
void expect_verdicts_agree(int rows, int cols) {
  const Tiles t(rows, cols);
  std::uint64_t solvable = 0;
  for (std::uint64_t r = 0; r < t.rank_space(); ++r) {
    const Board b = t.unrank(r);
    const bool fast = tiles_solvable(rows, cols, b);
    ASSERT_EQ(fast, tiles_parity(rows, cols, b).solvable) << t.format(b);
    ASSERT_EQ(fast, t.same_class(b, t.goal())) << t.format(b);
    solvable += fast;
  }
  EXPECT_EQ(solvable, t.rank_space() / 2) << t.name();
}

TEST(TilesParity, AgreesWithTheModelsInvariantOnEveryArrangement) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}}) expect_verdicts_agree(r, c);
}

TEST(TilesParity, BoardsBeyondSixteenCells) {
  // Random legal walks from the goal stay solvable, one swap of two tiles never is,
  // for odd (5x5, 7x3) and even (6x6, 3x8) widths.
  for (auto [rows, cols] : {std::pair{5, 5}, {6, 6}, {7, 3}, {3, 8}}) {
    const TilesShape shape{rows, cols};
    std::vector<int> cells(std::size_t(shape.cells()));
    std::iota(cells.begin(), cells.end() - 1, 1);
    int blank = shape.cells() - 1;
    Rng rng(std::uint64_t(rows * 100 + cols));
    for (int step = 0; step < 2000; ++step) {
      const int br = blank / cols, bc = blank % cols;
      std::vector<int> next;
      if (br > 0) next.push_back(blank - cols);
      if (br + 1 < rows) next.push_back(blank + cols);
      if (bc > 0) next.push_back(blank - 1);
      if (bc + 1 < cols) next.push_back(blank + 1);
      const int from = next[rng.below(next.size())];
      std::swap(cells[std::size_t(blank)], cells[std::size_t(from)]);
      blank = from;
      ASSERT_TRUE(tiles_parity(shape, cells).solvable) << shape.name() << " step " << step;
    }
    const int a = blank == 0 ? 1 : 0, b = blank == a + 1 ? a + 2 : a + 1;
    std::swap(cells[std::size_t(a)], cells[std::size_t(b)]);
    EXPECT_FALSE(tiles_parity(shape, cells).solvable) << shape.name();
    // The notation round-trips at this size too.
    EXPECT_EQ(parse_tiles_cells(shape, format_tiles_cells(shape, cells)), cells);
  }
}

TEST(TilesParity, BadInput) {
  EXPECT_THROW(parse_tiles_shape("tiles:1x4"), ParseError);
  EXPECT_THROW(parse_tiles_shape("tiles:33x2"), ParseError);
  EXPECT_THROW(parse_tiles_shape("tiles:4by4"), ParseError);
  EXPECT_THROW(parse_tiles_shape("hex6"), ParseError);
  const TilesShape shape{3, 3};
  EXPECT_THROW(parse_tiles_cells(shape, "1 2 3 / 4 5 6 / 7 8"), ParseError);
  EXPECT_THROW(parse_tiles_cells(shape, "1 2 3 / 4 5 6 / 7 8 9"), ParseError);
  EXPECT_THROW(parse_tiles_cells(shape, "1 2 3 / 4 5 6 / 7 7 _"), ParseError);
  EXPECT_THROW(parse_tiles_cells(shape, "1 2 x / 4 5 6 / 7 8 _"), ParseError);
  try {
    parse_tiles_cells(shape, "1 2 3 / 4 5 6 / 7 7 _");
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("'7' appears twice"), std::string::npos) << e.what();
  }
}

// verify-parity: exactly two components of (RC)!/2, and the verdict is reachability.
void expect_proved(int rows, int cols) {
  const Tiles t(rows, cols);
  const ParityVerification v = verify_parity(t, MemoryBudget());
  EXPECT_EQ(v.arrangements, t.rank_space());
  EXPECT_EQ(v.component_sizes, (std::vector<std::uint64_t>{t.rank_space() / 2, t.rank_space() / 2})) << t.name();
  EXPECT_EQ(v.agree, t.rank_space());
  EXPECT_EQ(v.disagree, 0u);
  EXPECT_FALSE(v.first_disagreement.has_value());
  EXPECT_TRUE(v.proved());
}

TEST(VerifyParity, SmallBoardsAreExactlyTwoClasses) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}}) expect_proved(r, c);
}

TEST(VerifyParity, TwoByFive) { expect_proved(2, 5); }

TEST(VerifyParity, GoalComponentIsTheBfsReachableSet) {
  // A second opinion on the components: the lead's parallel BFS from the goal over
  // the same all-arrangements graph reaches exactly the boards the test calls solvable.
  const Tiles t(3, 3);
  const ExplicitSpace<Tiles> space = build_explicit(t, RankBitset::full(t.rank_space()), MemoryBudget());
  const BfsResult bfs = parallel_bfs(space.graph, space.vertex_of(t.goal()));
  for (Vertex v = 0; v < space.vertices(); ++v) {
    ASSERT_EQ(bfs.distance[v] != kUnreached, tiles_solvable(3, 3, space.state(v)));
  }
  EXPECT_EQ(bfs.layers.size(), 32u);  // the 8-puzzle's diameter is 31
}

TEST(VerifyParity, RefusesWhatDoesNotFit) {
  EXPECT_THROW(verify_parity(Tiles(3, 4), MemoryBudget(std::uint64_t{1} << 30)), UsageError);
}

TEST(ParityCli, SolvableSeedExample) {
  const auto r = testing::run_statespace("solvable tiles:4x4 \"10 8 4 14 / 15 12 13 * / 7 11 6 1 / 5 9 2 3\"");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(
      r.out.starts_with("tiles:4x4  10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3\n"
                        "inversions  74        pairs of tiles out of order, read row by row, blank ignored\n"
                        "blank row   2         counted 1..4 from the top\n"
                        "sum         76        inversions + blank row\n"
                        "parity      even      the goal has 0 + 4 = 4, even\n"
                        "verdict     solvable\n"
                        "why: the width 4 is even."))
      << r.out;
  const auto odd = testing::run_statespace(
      "solvable tiles:5x5 \"1 2 3 4 5 / 6 7 8 9 10 / 11 12 13 14 15 / 16 17 18 19 20 / 21 22 24 23 _\"");
  EXPECT_NE(odd.out.find("verdict     unsolvable\n"), std::string::npos) << odd.out;
  EXPECT_NE(odd.out.find("the width 5 is odd"), std::string::npos) << odd.out;
  const auto bad = testing::run_statespace("solvable tiles:4x4 \"1 2 3\"");
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(ParityCli, VerifyParity) {
  const auto r = testing::run_statespace("verify-parity tiles:2x3");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "tiles:2x3: 720 arrangements, 2 connected components: 360 (the goal's) + 360\n"
            "parity test against reachability from the goal: 720 agree, 0 disagree\n"
            "proved: a position is reachable from the goal exactly when the parity test says solvable\n");
  const auto big = testing::run_statespace("verify-parity tiles:3x4 --memory 1G");
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.out.find("--memory"), std::string::npos) << big.out;
}

}  // namespace
}  // namespace statespace
