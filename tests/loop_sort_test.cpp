// Seed 000's loop sort: the loop and its chords are what the seed says, every emitted
// move is a legal 15-puzzle slide, and on 10,000 uniform random boards the algorithm
// stops with the loop reading 1..15 or 1,3,2,...,15 as the parity test predicts.
#include "analysis/problems/loop_sort.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <numeric>
#include <sstream>

#include "analysis/problems/generate.hpp"
#include "puzzles/tiles_parity.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

bool adjacent(int a, int b) {
  const int dr = a / 4 - b / 4, dc = a % 4 - b % 4;
  return dr * dr + dc * dc == 1;
}

TEST(LoopSort, TheLoopIsAHamiltonianCycleWithHorizontalChords) {
  std::array<bool, 16> used{};
  for (int k = 0; k < 16; ++k) {
    used[std::size_t(kLoopCell[std::size_t(k)])] = true;
    EXPECT_TRUE(adjacent(kLoopCell[std::size_t(k)], kLoopCell[std::size_t((k + 1) % 16)])) << k;
  }
  for (bool u : used) EXPECT_TRUE(u);
  for (int i : {0, 2, 4, 8, 10, 12}) {
    const int a = kLoopCell[std::size_t(i)], b = kLoopCell[std::size_t(i + 3)];
    EXPECT_EQ(a / 4, b / 4) << i;  // same row
    EXPECT_TRUE(adjacent(a, b)) << i;
  }
}

TEST(LoopSort, FinalBoardsAndTheirClasses) {
  const Tiles t(4, 4);
  EXPECT_EQ(t.format(loop_final(LoopOrder::kAscending)), "1 2 5 6 / _ 3 4 7 / 15 12 11 8 / 14 13 10 9");
  EXPECT_EQ(t.format(loop_final(LoopOrder::kTwoThreeSwapped)), "1 3 5 6 / _ 2 4 7 / 15 12 11 8 / 14 13 10 9");
  EXPECT_NE(tiles_solvable(4, 4, loop_final(LoopOrder::kAscending)),
            tiles_solvable(4, 4, loop_final(LoopOrder::kTwoThreeSwapped)));
  EXPECT_EQ(loop_sort(loop_final(LoopOrder::kAscending)).moves, 0u);
  EXPECT_EQ(loop_sort(loop_final(LoopOrder::kTwoThreeSwapped)).moves, 0u);
  EXPECT_EQ(loop_order_text(LoopOrder::kTwoThreeSwapped), "1,3,2,...,15");
}

LoopMove first_move(const char* position) {
  std::vector<LoopMove> moves;
  loop_sort(Tiles(4, 4).parse(position), 1, [&](const LoopMove& m, Board) { moves.push_back(m); });
  EXPECT_EQ(moves.size(), 1u) << position;
  return moves.empty() ? LoopMove{} : moves[0];
}

TEST(LoopSort, OneStepByHand) {
  // Blank at a[0] (cell 4) with a[1..3] = 3, 2, 4: neither a[1] nor a[2] exceeds
  // a[3], so a[1] (cell 0) slides down into a[0].
  LoopMove m = first_move("3 2 5 6 / _ 4 1 7 / 15 12 11 8 / 14 13 10 9");
  EXPECT_EQ(m.from, 0);
  EXPECT_EQ(m.to, 4);
  EXPECT_FALSE(m.jump);
  EXPECT_STREQ(move_direction(m), "down");
  // a[1..3] = 5, 2, 4 (5 > 4) and no 1 among them: the tile in a[3] (cell 5) jumps left.
  m = first_move("5 2 1 6 / _ 4 3 7 / 15 12 11 8 / 14 13 10 9");
  EXPECT_EQ(m.from, 5);
  EXPECT_EQ(m.to, 4);
  EXPECT_TRUE(m.jump);
  EXPECT_STREQ(move_direction(m), "left");
  // a[1..3] = 5, 1, 4: 5 > 4, but tile 1 is among them, so no jump.
  m = first_move("5 1 2 6 / _ 4 3 7 / 15 12 11 8 / 14 13 10 9");
  EXPECT_EQ(m.from, 0);
  EXPECT_FALSE(m.jump);
}

TEST(LoopSort, TenThousandBoardsLegalTerminatingAndPredicted) {
  const Tiles t(4, 4);
  Rng rng(2024);
  std::uint64_t ascending = 0, total = 0, jumps = 0;
  for (int i = 0; i < 10000; ++i) {
    const Board start = uniform_arrangement(t, rng);
    Board before = start;
    bool legal = true;
    const LoopSortResult r = loop_sort(start, kDefaultLoopStepCap, [&](const LoopMove& m, Board after) {
      legal = legal && before.at(m.to) == 0 && before.at(m.from) != 0 && adjacent(m.from, m.to) &&
              after == before.slid(m.from, m.to);
      before = after;
    });
    ASSERT_TRUE(legal) << t.format(start);
    ASSERT_TRUE(r.terminated) << t.format(start);
    ASSERT_EQ(r.final, before);
    ASSERT_EQ(r.final, loop_final(r.order)) << t.format(start);
    ASSERT_EQ(r.order, predicted_order(start)) << t.format(start);
    ascending += r.order == LoopOrder::kAscending;
    total += r.moves;
    jumps += r.jumps;
  }
  EXPECT_NEAR(double(ascending), 5000.0, 200.0);  // the classes are equally likely
  EXPECT_GT(jumps, 0u);
  EXPECT_GT(total, 0u);
}

TEST(LoopSort, SurveyIsDeterministicForAnyThreadCount) {
  LoopSortSurvey one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = survey_loop_sort(3000, 77);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = survey_loop_sort(3000, 77);
  }
  EXPECT_EQ(one.terminated, 3000u);
  EXPECT_EQ(one.predicted, 3000u);
  EXPECT_EQ(one.ascending + one.swapped, 3000u);
  EXPECT_EQ(std::accumulate(one.histogram.begin(), one.histogram.end(), std::uint64_t{0}), 3000u);
  EXPECT_EQ(one.histogram, two.histogram);
  EXPECT_EQ(one.total_moves, two.total_moves);
  EXPECT_EQ(one.ascending, two.ascending);
}

TEST(LoopSort, StepCapReportsTheFirstBoardThatDidNotFinish) {
  const LoopSortSurvey s = survey_loop_sort(100, 5, 20);
  EXPECT_LT(s.terminated, 100u);
  ASSERT_TRUE(s.first_unterminated.has_value());
  EXPECT_GT(loop_sort(*s.first_unterminated).moves, 20u);
  // It is the earliest drawn such board.
  Rng rng(5);
  const Tiles t(4, 4);
  for (;;) {
    const Board b = uniform_arrangement(t, rng);
    if (!loop_sort(b, 20).terminated) {
      EXPECT_EQ(b, *s.first_unterminated);
      break;
    }
  }
}

// Seed 004's worked example, sorted by seed 000's algorithm. The move sequence was
// compared board by board with loop15.c itself (its rand() scripted to deal this board).
constexpr const char* kSeedBoard = "10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3";

TEST(LoopSortCli, MovesFormat) {
  const auto r = testing::run_statespace(std::string("loop-sort \"") + kSeedBoard + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(r.out.starts_with(std::string("start: ") + kSeedBoard + "\nmoves: ")) << r.out;
  EXPECT_NE(r.out.find("\n1U 3U 2R 9R* 5R 7D 15D 10D 8L 4L* 14L 1U\n"), std::string::npos) << r.out;
  EXPECT_TRUE(
      r.out.ends_with("final: 1 2 5 6 / _ 3 4 7 / 15 12 11 8 / 14 13 10 9\n"
                      "loop order: 1,2,3,...,15 (parity test predicted 1,2,3,...,15)\n"
                      "move count: 511 moves (37 jumps)\n"))
      << r.out;
}

TEST(LoopSortCli, BoardsFormatIsOneLegalSlidePerLine) {
  const auto r = testing::run_statespace(std::string("loop-sort --format boards \"") + kSeedBoard + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Tiles t(4, 4);
  std::istringstream in(r.out);
  std::string line;
  std::vector<Board> boards;
  while (std::getline(in, line) && !line.starts_with("#")) boards.push_back(t.parse(line));
  EXPECT_EQ(line, "# 511 moves (37 jumps), loop order 1,2,3,...,15 (parity test predicted 1,2,3,...,15)");
  ASSERT_EQ(boards.size(), 512u);
  EXPECT_EQ(boards.front(), t.parse(kSeedBoard));
  EXPECT_EQ(boards.back(), loop_final(LoopOrder::kAscending));
  for (std::size_t i = 1; i < boards.size(); ++i) {
    bool one_slide = false;
    t.for_each_successor(boards[i - 1], [&](Board s) { one_slide = one_slide || s == boards[i]; });
    ASSERT_TRUE(one_slide) << i;
  }
}

TEST(LoopSortCli, RandomSurvey) {
  const auto r = testing::run_statespace("loop-sort --random 2000 --seed 1 --bin 100");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(
      r.out.starts_with("# loop-sort on 2000 uniform random boards (seed 1, step cap 1000000)\n"
                        "# terminated: all 2000\n"
                        "# ending as the parity test predicts: 2000 of 2000 ("))
      << r.out;
  const auto csv = r.out.find("moves_from,moves_to,boards\n");
  ASSERT_NE(csv, std::string::npos);
  std::istringstream in(r.out.substr(csv));
  std::string line;
  std::getline(in, line);
  std::uint64_t total = 0;
  while (std::getline(in, line)) total += std::stoull(line.substr(line.rfind(',') + 1));
  EXPECT_EQ(total, 2000u);
  const auto capped = testing::run_statespace("loop-sort --random 50 --max-steps 100");
  EXPECT_EQ(capped.exit_code, 1);
  EXPECT_NE(capped.out.find("first that did not: "), std::string::npos) << capped.out;
}

TEST(LoopSortCli, BadInput) {
  for (const char* args : {"loop-sort", "loop-sort \"1 2 3 / 4 5 6 / 7 8 _\"", "loop-sort --random x",
                           "loop-sort --random 5 --format boards", "loop-sort --random 0"}) {
    const auto r = testing::run_statespace(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

}  // namespace
}  // namespace statespace
