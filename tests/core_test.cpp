// Models and ranking: round trips over whole rank spaces, the seed's counts of the
// rank spaces, notation parsing and every class of bad input.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

#include "core/byte_cells.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"
#include "core/text.hpp"
#include "puzzles/registry.hpp"

namespace statespace {
namespace {

template <class P>
void expect_round_trip(const P& p) {
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
    const auto s = p.unrank(r);
    ASSERT_EQ(p.rank(s), r) << p.name() << " " << p.format(s);
    ASSERT_EQ(p.parse(p.format(s)), s) << p.format(s);
  }
}

TEST(Ranking, RoundTripOverWholeSpaces) {
  expect_round_trip(NoOff{});
  expect_round_trip(Hex6{});
  expect_round_trip(Oshidori{3});
  expect_round_trip(Oshidori{5});
  expect_round_trip(Tiles{2, 2});
  expect_round_trip(Tiles{2, 3});
  expect_round_trip(Tiles{3, 3});
}

TEST(Ranking, RankSpacesMatchTheSeeds) {
  EXPECT_EQ(NoOff{}.rank_space(), 540u);                 // 3 x 6 x 5 x C(4,2)
  EXPECT_EQ(Hex6{}.rank_space(), 5040u);                 // 7!
  EXPECT_EQ(Oshidori{3}.rank_space(), 140u);             // 7 x C(6,3)
  EXPECT_EQ(Tiles(4, 4).rank_space(), 20922789888000u);  // 16!
}

TEST(Ranking, RankOrderIsLexicographicOrderOfCells) {
  const Tiles p(2, 3);
  for (std::uint64_t r = 1; r < p.rank_space(); ++r) {
    std::vector<unsigned> a, b;
    for (int i = 0; i < 6; ++i) {
      a.push_back(p.unrank(r - 1).at(i));
      b.push_back(p.unrank(r).at(i));
    }
    ASSERT_LT(a, b);
  }
}

TEST(Ranking, NextPermutationStepsToTheNextRank) {
  for (int n : {2, 3, 7, 8}) {
    Board b = permutation_unrank(0, n);
    for (std::uint64_t r = 1; r < kFactorial[std::size_t(n)]; ++r) {
      b = next_permutation(b, n);
      ASSERT_EQ(b, permutation_unrank(r, n)) << n << " " << r;
    }
  }
  const std::uint64_t r = 20922789887000u;  // 16 cells: every code a nibble
  EXPECT_EQ(next_permutation(permutation_unrank(r, 16), 16), permutation_unrank(r + 1, 16));
}

TEST(Ranking, PermutationRankOf16CellsRoundTrips) {
  const Tiles p(4, 4);
  for (std::uint64_t r : {0ull, 1ull, 123456789ull, 20922789887999ull}) EXPECT_EQ(p.rank(p.unrank(r)), r);
  // 1 2 3 _: digits 1, 1, 1, 0 in the factorial number system = 3! + 2! + 1! = 9.
  EXPECT_EQ(Tiles(2, 2).rank(Tiles(2, 2).goal()), 9u);
}

TEST(Notation, FormatsGoalsInTheSharedNotation) {
  EXPECT_EQ(NoOff{}.format(NoOff{}.goal()), "L L N O / O F F _");
  EXPECT_EQ(Hex6{}.format(Hex6{}.goal()), "1 2 / 3 4 5 / 6 _");
  EXPECT_EQ(Tiles(3, 3).format(Tiles(3, 3).goal()), "1 2 3 / 4 5 6 / 7 8 _");
  EXPECT_EQ(Oshidori{}.format(Oshidori{}.start()), "B W B W B W _ _");
  EXPECT_EQ(Oshidori{}.format(Oshidori{}.goal()), "B B B W W W _ _");
}

TEST(Notation, AcceptsBlankSynonymsCommasNewlinesAndFlatForm) {
  const Tiles p(3, 3);
  const auto goal = p.goal();
  EXPECT_EQ(p.parse("1 2 3 / 4 5 6 / 7 8 0"), goal);
  EXPECT_EQ(p.parse("1,2,3,4,5,6,7,8,*"), goal);
  EXPECT_EQ(p.parse("1 2 3\n4 5 6\n7 8 --\n"), goal);
  EXPECT_EQ(p.parse("1 2 3 4 5 6 7 8 _"), goal);
  EXPECT_EQ(Hex6{}.parse("1 5 2 6 3 4 _"), Hex6{}.parse("1 5 / 2 6 3 / 4 _"));
}

void expect_rejected(const AnyPuzzle& any, const std::string& text, const std::string& needle) {
  std::visit(
      [&](const auto& p) {
        try {
          (void)p.parse(text);
          ADD_FAILURE() << "accepted " << text;
        } catch (const ParseError& e) {
          EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
        }
      },
      any);
}

TEST(Notation, RejectsEachClassOfBadPosition) {
  expect_rejected(Tiles(3, 3), "1 2 3 / 4 5 6 / 7 8", "8 cells, expected 9");
  expect_rejected(Tiles(3, 3), "1 2 3 4 / 5 6 / 7 8 _", "row 1 has 4 cells");
  expect_rejected(Tiles(3, 3), "1 2 3 / 4 5 6 / 7 9 _", "unknown piece '9'");
  expect_rejected(Tiles(3, 3), "1 2 3 / 4 5 6 / 7 x _", "unknown piece 'x'");
  expect_rejected(Tiles(3, 3), "1 2 3 / 4 5 6 / 7 7 _", "'7' appears twice");
  expect_rejected(Tiles(3, 3), "1 2 3 / 4 5 6 / 7 _ _", "appears twice");
  expect_rejected(NoOff{}, "L L N O / O F F F", "too many 'F'");
  expect_rejected(NoOff{}, "L N O L / O F F _", "split");
  expect_rejected(NoOff{}, "N O F L / L O F _", "split across rows");
  expect_rejected(NoOff{}, "O F F _ / L L N O", "bottom row");
  expect_rejected(NoOff{}, "L L N Q / O F F _", "unknown piece 'Q'");
  expect_rejected(Oshidori{}, "B W B W B _ W _", "not adjacent");
  expect_rejected(Oshidori{}, "B B B B W W _ _", "4 'B' found, 3 expected");
}

TEST(Registry, MakesEveryModelByNameAndRejectsUnknownNames) {
  EXPECT_EQ(std::visit([](const auto& p) { return p.name(); }, make_puzzle("tiles:2x5")), "tiles:2x5");
  EXPECT_EQ(std::visit([](const auto& p) { return p.name(); }, make_puzzle("oshidori:4")), "oshidori:4");
  for (const char* bad : {"tiles:1x5", "tiles:4x5", "tiles:3", "oshidori:0", "oshidori:x", "chess", ""}) {
    EXPECT_THROW((void)make_puzzle(bad), ParseError) << bad;
  }
}

template <class P>
std::multiset<std::uint64_t> successor_ranks(const P& p, const std::string& pos) {
  std::multiset<std::uint64_t> out;
  p.for_each_successor(p.parse(pos), [&](const auto& s) { out.insert(p.rank(s)); });
  return out;
}

TEST(Moves, FollowTheSeedRules) {
  const NoOff n;
  // Blank beside the bulb's right end: the bulb slides right; the blank above O moves too.
  EXPECT_EQ(successor_ranks(n, "L L _ N / O O F F"),
            (std::multiset<std::uint64_t>{n.rank(n.parse("_ L L N / O O F F")), n.rank(n.parse("L L N _ / O O F F")),
                                          n.rank(n.parse("L L F N / O O _ F"))}));
  // A blank under the bulb cannot pull it down.
  EXPECT_EQ(successor_ranks(n, "N L L O / O _ F F").size(), 2u);
  const Oshidori o;
  EXPECT_EQ(successor_ranks(o, "B W B W B W _ _").size(), 5u);
  const Hex6 h;
  EXPECT_EQ(successor_ranks(h, "1 2 / 3 _ 4 / 5 6").size(), 6u);
}

}  // namespace
}  // namespace statespace

namespace statespace {
namespace {

TEST(ByteCells, IsAStateValueOrderedCellByCell) {
  static_assert(StateValue<ByteCells<24>>);
  ByteCells<4> a, b;
  a.cell = {1, 2, 0, 0};
  b.cell = {1, 3, 0, 0};
  EXPECT_LT(a, b);
  EXPECT_NE(absl::Hash<ByteCells<4>>{}(a), absl::Hash<ByteCells<4>>{}(b));
  b.cell[1] = 2;
  EXPECT_EQ(a, b);
  EXPECT_EQ(absl::Hash<ByteCells<4>>{}(a), absl::Hash<ByteCells<4>>{}(b));
}

// Sizes that are whole words compare eight cells at a time: the order must stay the
// cell-by-cell one.
TEST(ByteCells, WordComparisonsKeepTheCellOrder) {
  std::mt19937 rng(3);
  for (int i = 0; i < 10'000; ++i) {
    ByteCells<16> a, b;
    for (std::size_t c = 0; c < 16; ++c) {
      a.cell[c] = std::uint8_t(rng() % 3);
      b.cell[c] = std::uint8_t(rng() % 3 == 0 ? a.cell[c] + 1 : a.cell[c]);
    }
    EXPECT_EQ(a < b, a.cell < b.cell);
    EXPECT_EQ(a == b, a.cell == b.cell);
    EXPECT_EQ(a > b, a.cell > b.cell);
    if (a == b) {
      EXPECT_EQ(absl::Hash<ByteCells<16>>{}(a), absl::Hash<ByteCells<16>>{}(b));
    }
  }
}

TEST(Text, WithCommasGroupsThousandsAtEveryLength) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(7), "7");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(1000), "1,000");
  EXPECT_EQ(with_commas(181440), "181,440");
  EXPECT_EQ(with_commas(1000000), "1,000,000");
  EXPECT_EQ(with_commas(239500800), "239,500,800");
  EXPECT_EQ(with_commas(43589145600), "43,589,145,600");
  EXPECT_EQ(with_commas(std::numeric_limits<std::uint64_t>::max()), "18,446,744,073,709,551,615");
  EXPECT_EQ(count_of(1, "state", "states"), "1 state");
  EXPECT_EQ(count_of(1024, "state", "states"), "1,024 states");
}

}  // namespace
}  // namespace statespace
