// The ranked piece model and `.tws` files: published distributions (the 2x2x2
// cube in both metrics, the tipless Pyraminx, the Skewb), identical pieces against a
// plain BFS, rank round trips over whole rank spaces, the successor tables against
// applying the moves, a directed metric against a forward BFS, move subsets, and
// broken files.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "analysis/engines/ranked/parity_bytes.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "bad_file.hpp"
#include "core/divider.hpp"
#include "core/errors.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/toml_input.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;

std::filesystem::path example_path(const std::string& name) {
  return std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".tws");
}
Pieces example(const std::string& name, PieceMetric metric = PieceMetric::all_powers,
               const std::vector<std::string>& moves = {}) {
  return Pieces(read_tws(example_path(name)), metric, moves);
}

AnalysisResult by_levels(const Pieces& p) {
  AnalyzeOptions o;
  o.progress = false;
  return analyze_levels(p, o);
}
AnalysisResult by_graph(const Pieces& p) {
  AnalyzeOptions o;
  o.progress = false;
  return analyze_explicit(p, o).result;
}

// A move applied to a position the slow way, straight from the definition.
Pieces::Position apply(const Pieces& p, const Pieces::Position& s, const PieceTransform& t) {
  Pieces::Position out = s;
  for (std::size_t k = 0; k < s.perm.size(); ++k) {
    const int o = p.definition().sets[k].orientations;
    for (std::size_t i = 0; i < s.perm[k].size(); ++i) {
      const auto from = std::size_t(t.perm[k][i]);
      out.perm[k][i] = s.perm[k][from];
      out.twist[k][i] = (s.twist[k][from] + t.twist[k][i]) % o;
    }
  }
  return out;
}

// Positions by distance from the solved state, breadth first over positions (no
// ranks, no tables), following the moves forward only.
std::vector<std::uint64_t> plain_bfs(const Pieces& p) {
  const Pieces::Position start = p.position(p.start().rank);
  std::set<std::pair<std::vector<std::vector<int>>, std::vector<std::vector<int>>>> seen{{start.perm, start.twist}};
  std::vector<Pieces::Position> frontier{start};
  std::vector<std::uint64_t> layers{1};
  while (true) {
    std::vector<Pieces::Position> next;
    for (const auto& s : frontier) {
      for (const auto& m : p.moves()) {
        const auto t = apply(p, s, m.transform);
        if (seen.insert({t.perm, t.twist}).second) next.push_back(t);
      }
    }
    if (next.empty()) return layers;
    layers.push_back(next.size());
    frontier = std::move(next);
  }
}

// The published distributions, as the sticker files (kind = "permutation") of the
// same cube give them (tests/permutation_file_test.cpp asserts those numbers).
TEST(Pieces, Cube2InBothMetrics) {
  const auto stickers = [](const std::string& name) {
    AnalyzeOptions o;
    o.progress = false;
    const auto file = std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml");
    return analyze_levels(CellPermutation(TomlInput(file)), o);
  };
  const auto half = by_levels(example("cube2"));
  EXPECT_EQ(half.layers, stickers("cube2").layers);
  EXPECT_EQ(half.edges, 3674160u * 9 / 2);
  EXPECT_EQ(half.eccentricity(), 11u);
  EXPECT_EQ(half.farthest.size(), 2644u);
  const auto p = example("cube2");
  EXPECT_TRUE(std::is_sorted(half.farthest.begin(), half.farthest.end(),
                             [&](const auto& a, const auto& b) { return p.parse(a) < p.parse(b); }));
  const auto quarter = by_levels(example("cube2", PieceMetric::quarter));
  EXPECT_EQ(quarter.layers, stickers("cube2-quarter").layers);
  EXPECT_EQ(quarter.eccentricity(), 14u);
  // Seven corners, the last twist implied: 7! * 3^6, every one reachable.
  EXPECT_EQ(example("cube2").rank_space(), 3674160u);
}

TEST(Pieces, TiplessPyraminxAndSkewb) {
  const auto pyraminx = example("pyraminx-tipless");
  EXPECT_EQ(pyraminx.rank_space(), 933120u);
  const auto r = by_levels(pyraminx);
  EXPECT_EQ(r.states, 933120u);
  EXPECT_EQ(r.eccentricity(), 11u);
  EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32}));
  const auto skewb = by_levels(example("skewb"));
  EXPECT_EQ(skewb.layers,
            (std::vector<std::uint64_t>{1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90}));
  // Every rank is reached: the classes leave no unreachable rank (see ClassesTiedAcrossSets).
  EXPECT_EQ(skewb.states, example("skewb").rank_space());
}

// A definition of sets that one move X changes together, so that only their
// combinations are reachable.
PieceDefinition tied_sets() {
  // A and B: two places swapped at once (equal parities); P and Q: one piece each,
  // P twisted by 1 and Q by 2 (Q's twist twice P's).
  return {"tied",
          {{"A", 2, 1}, {"B", 2, 1}, {"P", 1, 3}, {"Q", 1, 3}},
          {{{0, 1}, {0, 1}, {0}, {0}}, {{0, 0}, {0, 0}, {0}, {0}}},
          {{"X", {{{1, 0}, {1, 0}, {0}, {0}}, {{0, 0}, {0, 0}, {1}, {2}}}}},
          {},
          {},
          {},
          {}};
}

// Invariants tied across sets: every move shifts the sets' parities, twist totals
// and (on sets of 3 or 4 places that every move permutes evenly) turns by a fixed
// amount, so only the classes the shifts generate from the solved state's are ranked.
TEST(Pieces, ClassesTiedAcrossSets) {
  // <R, U>: R and U are odd on the corners and on the edges alike, so the edges'
  // parity is the corners': 6!/2 * 3^5 (last twist implied) * 7!/2 * 2 classes,
  // 6 times the 73,483,200 reachable (the corners' arrangements form S5 in S6, which
  // no abelian invariant sees).
  const auto ru = example("cube3-RU");
  EXPECT_EQ(ru.rank_space(), 360u * 243 * 2520 * 2);
  EXPECT_EQ(ru.rank_space(), 6u * 73483200);
  const std::string corners = "CORNERS 1 2 3 4 5 6 / 0 0 0 0 0 0 / ";
  const std::string swapped = "CORNERS 2 1 3 4 5 6 / 0 0 0 0 0 0 / ";
  const std::string edges = "EDGES 1 2 3 4 5 6 7", swapped_edges = "EDGES 2 1 3 4 5 6 7";
  EXPECT_NO_THROW((void)ru.parse(swapped + swapped_edges));
  EXPECT_NO_THROW((void)ru.parse(corners + edges));
  for (const auto& text : {swapped + edges, corners + swapped_edges}) {
    try {
      (void)ru.parse(text);
      ADD_FAILURE() << text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("the moves tie them across sets"), std::string::npos) << e.what();
    }
  }
  // The Skewb: each tetrad's even arrangements (A4) turn its three pairings of places;
  // a turn about a corner of one tetrad twists that corner and turns the other tetrad
  // by 1, twisting it by 0 in total. Classes: the solved state's plus the group of
  // (twist A, turn B) = (1, 1) and (turn A, twist B) = (1, 2): 9 of 81. Per class 4
  // arrangements and 3^3 twists a tetrad, 6!/2 centres: exactly the reachable count.
  const auto skewb_free = example("skewb-free");
  EXPECT_EQ(skewb_free.rank_space(), (4u * 27) * (4u * 27) * 360 * 9);
  EXPECT_EQ(skewb_free.rank_space(), 37791360u);
  const std::string rest = " / CORNERS_B 1 2 3 4 / 0 0 0 0 / CENTRES 1 2 3 4 5 6";
  EXPECT_THROW((void)skewb_free.parse("CORNERS_A 1 2 3 4 / 1 0 0 0" + rest), ParseError);  // one corner twisted
  EXPECT_THROW((void)skewb_free.parse("CORNERS_A 2 3 1 4 / 0 0 0 0" + rest), ParseError);  // one tetrad turned
  // With DLB held still its tetrad's other three corners turn as A3: 1 arrangement
  // per class and 3^2 twists; 9 classes again: 3,149,280, every one reachable.
  EXPECT_EQ(example("skewb").rank_space(), (4u * 27) * 9 * 360 * 9);
  // A small tie: 6 classes of 1 position each, the 6 powers of X.
  const Pieces tied(tied_sets(), PieceMetric::all_powers);
  EXPECT_EQ(tied.rank_space(), 6u);
  EXPECT_EQ(by_graph(tied).states, 6u);
  EXPECT_THROW((void)tied.parse("A 2 1 / B 1 2 / P 1 / 0 / Q 1 / 0"), ParseError);
  EXPECT_THROW((void)tied.parse("A 1 2 / B 1 2 / P 1 / 1 / Q 1 / 1"), ParseError);
  EXPECT_NO_THROW((void)tied.parse("A 2 1 / B 2 1 / P 1 / 1 / Q 1 / 2"));
}

// Sets whose classes all move independently would multiply past any table: then
// each set keeps only the classes no move changes, and ranks the rest in full.
TEST(Pieces, IndependentClassesPastTheLimitRankInFull) {
  PieceDefinition d{"free",
                    {{"P", 1, 255}, {"Q", 1, 255}, {"R", 1, 2}},
                    {{{0}, {0}, {0}}, {{0}, {0}, {0}}},
                    {{"X", {{{0}, {0}, {0}}, {{1}, {0}, {0}}}},
                     {"Y", {{{0}, {0}, {0}}, {{0}, {1}, {0}}}},
                     {"Z", {{{0}, {0}, {0}}, {{0}, {0}, {1}}}}},
                    {},
                    {},
                    {},
                    {}};
  const Pieces p(d, PieceMetric::quarter);
  EXPECT_EQ(p.rank_space(), 255u * 255 * 2);
  EXPECT_EQ(by_levels(p).states, p.rank_space());
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) ASSERT_EQ(p.position_rank(p.position(r)), r);
}

// Identical pieces: the beads' 1,680 arrangements, by the engines and by a BFS over
// positions; the levels engine and the explicit graph agree at 1, 2 and 4 threads.
TEST(Pieces, IdenticalPiecesAgainstPlainBfs) {
  const auto beads = example("beads");
  EXPECT_EQ(beads.rank_space(), 1680u);
  const auto expected = plain_bfs(beads);
  std::uint64_t total = 0;
  for (auto n : expected) total += n;
  EXPECT_EQ(total, 1680u);
  for (int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const auto levels = by_levels(beads);
    const auto graph = by_graph(beads);
    EXPECT_EQ(levels.layers, expected);
    EXPECT_EQ(graph.layers, expected);
    EXPECT_EQ(levels.farthest, graph.farthest);
    EXPECT_EQ(levels.edges, graph.edges);
  }
}

// position_rank(position(r)) == r over whole rank spaces, and rank order is the
// order of the positions' digits.
TEST(Pieces, RankRoundTripsOverWholeSpaces) {
  for (const char* name : {"beads", "pyraminx-tipless", "cube2", "skewb"}) {
    const auto p = example(name);
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
      ASSERT_EQ(p.position_rank(p.position(r)), r) << name;
    }
    EXPECT_EQ(p.parse(p.format(p.unrank(p.rank_space() - 1))).rank, p.rank_space() - 1) << name;
  }
  // Every reduction at once: even permutations only (3-cycles) whose turns move
  // freely, a fixed total twist, identical pieces, a set no move twists.
  PieceDefinition d{"mixed",
                    {{"A", 4, 3}, {"B", 4, 1}, {"C", 3, 2}},
                    {{{0, 1, 2, 3}, {0, 0, 1, 1}, {0, 1, 2}}, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}}},
                    {{"X", {{{1, 2, 0, 3}, {0, 1, 2, 3}, {1, 2, 0}}, {{1, 2, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}}}},
                     {"Y", {{{0, 2, 3, 1}, {1, 0, 3, 2}, {0, 1, 2}}, {{0, 0, 2, 1}, {0, 0, 0, 0}, {0, 0, 0}}}}},
                    {},
                    {},
                    {},
                    {}};
  const Pieces mixed(d, PieceMetric::all_powers);
  // A: 4!/6 per class * 3^3, B: 4!/(2!2!), C: 3!/6 per class, twists never change;
  // X turns A by 2 and C by 1, Y turns A by 1: all 9 classes of (turn A, turn C).
  EXPECT_EQ(mixed.rank_space(), 4u * 27 * 6 * 1 * 9);
  EXPECT_EQ(mixed.rank_space(), 12u * 27 * 6 * 3);
  for (std::uint64_t r = 0; r < mixed.rank_space(); ++r) {
    ASSERT_EQ(mixed.position_rank(mixed.position(r)), r);
    ASSERT_EQ(mixed.parse(mixed.format({r})).rank, r);
  }
  const Pieces tied(tied_sets(), PieceMetric::all_powers);
  for (std::uint64_t r = 0; r < tied.rank_space(); ++r) ASSERT_EQ(tied.position_rank(tied.position(r)), r);
  EXPECT_EQ(mixed.format(mixed.start()), "A 1 2 3 4 / 0 0 0 0 / B 1 1 2 2 / C 1 2 3 / 0 0 0");
  EXPECT_THROW((void)mixed.parse("A 2 1 3 4 / 0 0 0 0 / B 1 1 2 2 / C 1 2 3 / 0 0 0"), ParseError);  // odd
  EXPECT_THROW((void)mixed.parse("A 1 2 3 4 / 1 0 0 0 / B 1 1 2 2 / C 1 2 3 / 0 0 0"), ParseError);  // twist sum
  EXPECT_THROW((void)mixed.parse("A 1 2 3 4 / 0 0 0 0 / B 1 1 2 2 / C 1 2 3 / 1 1 0"), ParseError);  // untwisted
  EXPECT_THROW((void)mixed.parse("A 1 2 3 4 / 0 0 0 0 / B 1 2 2 2 / C 1 2 3 / 0 0 0"), ParseError);  // pieces
  EXPECT_THROW((void)mixed.parse("B 1 1 2 2 / A 1 2 3 4 / 0 0 0 0 / C 1 2 3 / 0 0 0"), ParseError);  // order
}

// The per-coordinate tables give what applying each move to the position gives, and
// the predecessors are the positions one move away that lead back.
TEST(Pieces, SuccessorTablesFollowTheMoves) {
  for (const auto& p : {example("cube2"), example("skewb-free"), example("cube3-RU"), example("beads"),
                        example("cube2", PieceMetric::given), example("skewb"),
                        example("skewb-free", PieceMetric::given), Pieces(tied_sets(), PieceMetric::given)}) {
    const std::uint64_t step = p.rank_space() / 997 + 1;
    for (std::uint64_t r = 0; r < p.rank_space(); r += step) {
      const auto s = p.position(r);
      std::size_t m = 0;
      p.for_each_successor_rank(r, [&](std::uint64_t t) {
        ASSERT_EQ(t, p.position_rank(apply(p, s, p.moves()[m].transform))) << p.name() << " " << m;
        ++m;
      });
      EXPECT_EQ(m, p.moves().size());
      p.for_each_predecessor(p.unrank(r), [&](const Pieces::State& before) {
        bool leads_back = false;
        p.for_each_successor(before, [&](const Pieces::State& t) { leads_back = leads_back || t.rank == r; });
        EXPECT_TRUE(leads_back) << p.name();
      });
    }
  }
}

// The inlined path of every coordinate tabled gives, over whole rank spaces and in
// the same order, the successors and predecessors of the generic path: the 2x2x2
// cube (a parity class and twists), beads (identical pieces), the Skewb (turns and
// twist totals tied across sets), and a directed metric, whose predecessors have
// tables of their own; and over every 997th rank of the Skewb without a fixed corner
// (five coordinates). The buffered successors the engine takes are the same too.
TEST(Pieces, TabledSuccessorsEqualGenericOnes) {
  const std::vector<std::pair<Pieces, std::uint64_t>> models = {{example("cube2"), 1},
                                                                {example("pyraminx-tipless"), 31},
                                                                {example("skewb"), 1},
                                                                {example("cube2", PieceMetric::given), 1},
                                                                {example("skewb-free"), 997}};
  for (const auto& [p, stride] : models) {
    const pieces_detail::Tables& t = p.tables();
    ASSERT_GT(t.tabled, 0u) << p.name();
    ASSERT_EQ(t.tabled, t.coordinates.size()) << p.name();
    EXPECT_EQ(t.cached, t.coordinates.size()) << p.name() << ": successor_ranks() should take the cached path";
    std::vector<std::uint64_t> fast, generic;
    const auto to_fast = [&](std::uint64_t s) { fast.push_back(s); };
    const auto to_generic = [&](std::uint64_t s) { generic.push_back(s); };
    std::array<std::uint64_t, 64> buffer{};
    ASSERT_LE(p.max_moves(), 64);
    for (std::uint64_t r = 0; r < p.rank_space(); r += stride) {
      fast.clear();
      generic.clear();
      pieces_detail::step<true>(t, r, to_fast);
      pieces_detail::step_generic<true>(t, r, to_generic);
      ASSERT_EQ(fast, generic) << p.name() << " predecessors of rank " << r;
      fast.clear();
      generic.clear();
      pieces_detail::step<false>(t, r, to_fast);
      pieces_detail::step_generic<false>(t, r, to_generic);
      ASSERT_EQ(fast, generic) << p.name() << " successors of rank " << r;
      const int k = p.successor_ranks(r, buffer.data());
      ASSERT_EQ(std::vector<std::uint64_t>(buffer.begin(), buffer.begin() + k), fast) << p.name() << " rank " << r;
    }
  }
  EXPECT_EQ(example("skewb-free").tables().tabled, 5u);
  // One set, one coordinate: a row a rank, read once a search expands the rank, so
  // none is made ahead.
  EXPECT_EQ(example("beads").tables().tabled, 0u);
  EXPECT_TRUE(example("beads").tables().coordinates[0].forward.empty());
}

// A coordinate above the least significant one whose table would be large has its
// rows made where the successor cache misses: the 8-corner 2x2x2's arrangement
// (40,320 keys by 18 moves) above its 2,187 twists. Its successors, ranks taken in
// order (the cache hit) and far apart (missed), are the moves applied to the position;
// on 3p1-small with six kinds of corners, uniform but not regular, the corners'
// arrangement is made too, and the per-key masks of the moves keeping a key give
// each rank's self-loops.
TEST(Pieces, MadeRowsGiveTheMovesSuccessors) {
  const Pieces cube = load_tws(std::filesystem::path(STATESPACE_SOURCE_DIR) / "tests/data/twisty/cube2.tws");
  const pieces_detail::Tables& t = cube.tables();
  ASSERT_EQ(cube.rank_space(), 88179840u);
  ASSERT_EQ(t.coordinates.size(), 2u);
  EXPECT_TRUE(t.coordinates[0].made);
  EXPECT_TRUE(t.coordinates[0].forward.empty());
  EXPECT_FALSE(t.coordinates[1].made);
  EXPECT_FALSE(t.coordinates[1].forward.empty());
  EXPECT_EQ(t.cached, 2u);
  EXPECT_EQ(t.tabled, 0u);
  std::array<std::uint64_t, 64> out{};
  const auto check = [&](std::uint64_t r) {
    const int n = cube.successor_ranks(r, out.data());
    ASSERT_EQ(n, 18);
    const auto s = cube.position(r);
    for (int m = 0; m < n; ++m) {
      ASSERT_EQ(out[std::size_t(m)], cube.position_rank(apply(cube, s, cube.moves()[std::size_t(m)].transform)))
          << "rank " << r << " move " << m;
    }
  };
  for (std::uint64_t r = 0; r < 10000; ++r) check(r);
  for (std::uint64_t r = 44089920; r < 44094920; ++r) check(r);
  for (std::uint64_t r = 7; r < cube.rank_space(); r += 104729) check(r);

  std::string text = testing::read_file(std::filesystem::path(STATESPACE_SOURCE_DIR) / "bench/data/3p1-small.tws");
  const auto corners = text.find("1 1 1 1 1 1 1 1");
  ASSERT_NE(corners, std::string::npos);
  text.replace(corners, 15, "1 1 2 3 4 5 6 7");  // 20,160 arrangements of the corners
  const Pieces small = load_tws("3p1-corners.tws", text);
  ASSERT_TRUE(small.uniform());
  ASSERT_FALSE(small.regular());
  const pieces_detail::Tables& u = small.tables();
  ASSERT_GT(u.cached, 0u);
  ASSERT_FALSE(u.class_kept.empty());
  EXPECT_EQ(std::count_if(u.coordinates.begin(), u.coordinates.end(), [](const auto& c) { return c.made; }), 1);
  const std::uint64_t stride = small.rank_space() / 4000 + 1;
  for (std::uint64_t r = 3; r < small.rank_space(); r += stride) {
    ASSERT_EQ(pieces_detail::self_loops(u, r), pieces_detail::self_loops_by_moves(u, r)) << r;
    const int n = small.successor_ranks(r, out.data());
    const auto s = small.position(r);
    for (int m = 0; m < n; ++m) {
      ASSERT_EQ(out[std::size_t(m)], small.position_rank(apply(small, s, small.moves()[std::size_t(m)].transform)))
          << "rank " << r << " move " << m;
    }
  }
}

// twsearch's metrics and move names; a subset of the moves.
TEST(Pieces, MetricsAndMoveSubsets) {
  std::vector<std::string> names;
  const auto half = example("cube2"), quarter = example("cube2", PieceMetric::quarter);
  for (const auto& m : half.moves()) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"F", "F2", "F'", "R", "R2", "R'", "U", "U2", "U'"}));
  names.clear();
  for (const auto& m : quarter.moves()) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"F", "F'", "R", "R'", "U", "U'"}));
  EXPECT_FALSE(example("cube2").directed());
  EXPECT_TRUE(example("cube2", PieceMetric::given).directed());
  // <U, R> of the 2x2x2 cube: 29,160 positions.
  const auto ur = by_levels(example("cube2", PieceMetric::all_powers, {"U", "R"}));
  EXPECT_EQ(ur.layers,
            (std::vector<std::uint64_t>{1, 6, 18, 53, 148, 400, 910, 1882, 3276, 4628, 6198, 6325, 4352, 941, 22}));
  EXPECT_THROW(example("cube2", PieceMetric::all_powers, {"U", "D"}), ParseError);
}

// The moves as given (clockwise quarter turns only) make a directed space: the
// explicit engine follows the moves forward, as a plain BFS does. The sorted levels,
// which drop revisits against the two levels before only, are not offered.
TEST(Pieces, DirectedGivenMetricAgainstForwardBfs) {
  const auto beads = example("beads", PieceMetric::given);
  ASSERT_TRUE(beads.directed());
  EXPECT_FALSE(beads.packing(beads.start()));
  EXPECT_EQ(by_graph(beads).layers, plain_bfs(beads));
  EXPECT_EQ(by_graph(beads).layers,
            (std::vector<std::uint64_t>{1, 2, 4, 8, 16, 32, 62, 111, 169, 257, 342, 339, 220, 90, 21, 6}));
  // Twists too: <U, R> of the 2x2x2 cube in clockwise quarter turns.
  const auto cube = example("cube2", PieceMetric::given, {"U", "R"});
  const auto forward = plain_bfs(cube);
  EXPECT_EQ(by_graph(cube).layers, forward);
  EXPECT_EQ(by_graph(cube).states, 29160u);
}

// The same model with its regularity hidden: the ranked engine then expands every
// level forward.
struct ForwardOnly : Pieces {
  explicit ForwardOnly(const Pieces& p) : Pieces(p) {}
  [[nodiscard]] bool regular() const { return false; }
};

// Regular spaces (every position one successor per move, none itself, the moves
// paired with their inverses) let the ranked engine find the late levels backwards,
// from the positions not seen yet: the same levels, moves within and onward, and
// farthest positions as expanding every level forward, on one thread and on two
// (cube2's level 10 visits 626,444 positions: the parallel path).
TEST(Pieces, LevelsFoundBackwardsOnRegularSpacesEqualForwardOnes) {
  EXPECT_TRUE(example("cube2").regular());
  EXPECT_TRUE(example("cube2", PieceMetric::quarter).regular());
  EXPECT_FALSE(example("cube2", PieceMetric::given).regular());  // directed
  EXPECT_FALSE(example("beads").regular());  // identical pieces: a move may leave a position as it was
  AnalyzeOptions o;
  o.progress = false;
  for (const Pieces& p :
       {example("cube2"), example("cube2", PieceMetric::quarter), example("pyraminx-tipless"), example("skewb")}) {
    ASSERT_TRUE(p.regular()) << p.name();
    for (const int threads : {1, 2}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      const AnalysisResult pulled = analyze_ranked(p, o), forward = analyze_ranked(ForwardOnly(p), o);
      EXPECT_EQ(pulled.layers, forward.layers) << p.name() << " at " << threads;
      EXPECT_EQ(pulled.edges, forward.edges) << p.name();
      EXPECT_EQ(pulled.layer_edges, forward.layer_edges) << p.name();
      EXPECT_EQ(pulled.farthest, forward.farthest) << p.name();
    }
  }
}

// The ranks' digits are taken apart by multiplying (core/divider.hpp): the quotients
// and remainders equal the hardware's for the divisors the models use, powers of two, 1, and the
// largest, over small, large and random numerators.
TEST(Pieces, DividerQuotientsEqualDivision) {
  std::mt19937_64 random(48);
  std::vector<std::uint64_t> divisors = {1,        2,        3,          6,          7,         70,
                                         495,      2048,     2187,       20160,      40320,     3674160,
                                         88179840, 1u << 31, 4294967297, ~0ull >> 1, ~0ull - 1, ~0ull};
  for (int i = 0; i < 200; ++i) divisors.push_back((random() >> (random() % 64)) | 1);
  for (const std::uint64_t d : divisors) {
    const Divider divider(d);
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t n = i < 300 ? std::uint64_t(i) : i < 600 ? ~0ull - std::uint64_t(i) : random() >> (i % 64);
      ASSERT_EQ(divider.quotient(n), n / d) << n << " / " << d;
      std::uint64_t rest = n;
      ASSERT_EQ(divider.take(rest), n % d) << n << " % " << d;
      ASSERT_EQ(rest, n / d) << n << " / " << d;
    }
  }
}

// The 2x2x2 cube's corners as two kinds of four identical pieces that twist: 70
// arrangements by 3^7 twists, 18 moves. A move may leave a position as it was (four
// identical corners, equally twisted, turning on one face), so the space is uniform
// but not regular.
const char* const kCornerPairsTws = R"(Name cornerpairs
Set CORNER 8 3
Solved
CORNER
1 1 1 1 2 2 2 2
0 0 0 0 0 0 0 0
End
Move F
CORNER
7 1 3 2 5 6 4 8
2 1 0 2 0 0 1 0
End
Move B
CORNER
1 2 5 4 8 3 7 6
0 0 1 0 2 2 0 1
End
Move D
CORNER
1 4 3 8 2 6 7 5
0 0 0 0 0 0 0 0
End
Move U
CORNER
3 2 6 4 5 7 1 8
0 0 0 0 0 0 0 0
End
Move L
CORNER
1 2 3 7 5 8 6 4
0 0 0 1 0 1 2 2
End
Move R
CORNER
2 5 1 4 3 6 7 8
1 2 2 0 1 0 0 0
End
)";

// A uniform model with its uniformity hidden: the ranked engine then expands every
// level forward.
struct ExpandsForward : Pieces {
  explicit ExpandsForward(const Pieces& p) : Pieces(p) {}
  [[nodiscard]] bool regular() const { return false; }
  [[nodiscard]] bool uniform() const { return false; }
};

// The same, saying how many ranks it was asked for self-loops.
struct CountsLoops : Pieces {
  explicit CountsLoops(const Pieces& p, std::atomic<std::uint64_t>& asked) : Pieces(p), asked_(&asked) {}
  [[nodiscard]] int self_loops(std::uint64_t r) const {
    asked_->fetch_add(1, std::memory_order_relaxed);
    return Pieces::self_loops(r);
  }
  std::atomic<std::uint64_t>* asked_;
};

// Identical pieces make self-loops, which keep a space from being regular; counted
// per rank (self_loops(), from per-key masks of the moves), they still let the
// ranked engine find the late levels backwards: the same levels, moves and farthest
// positions as expanding every level forward and as the sorted-levels engine, on
// one thread and on two.
TEST(Pieces, LevelsFoundBackwardsOnUniformSpacesEqualForwardOnes) {
  const Pieces p = load_tws("cornerpairs.tws", kCornerPairsTws);
  ASSERT_EQ(p.rank_space(), 153090u);
  EXPECT_TRUE(p.uniform());
  EXPECT_FALSE(p.regular());
  EXPECT_TRUE(example("cube2").uniform());                       // regular spaces are uniform
  EXPECT_FALSE(example("cube2", PieceMetric::given).uniform());  // directed
  std::uint64_t loops = 0;
  std::array<std::uint64_t, 32> out{};
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
    const int n = p.successor_ranks(r, out.data());
    ASSERT_EQ(n, 18);
    const auto same = std::uint64_t(std::count(out.begin(), out.begin() + n, r));
    ASSERT_EQ(std::uint64_t(p.self_loops(r)), same) << r;
    loops += same;
  }
  EXPECT_GT(loops, 0u);
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult levels = by_levels(p);
  EXPECT_EQ(levels.states, 153090u);
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    std::atomic<std::uint64_t> asked{0};
    const AnalysisResult pulled = analyze_ranked(CountsLoops(p, asked), o);
    const AnalysisResult forward = analyze_ranked(ExpandsForward(p), o);
    EXPECT_GT(asked.load(), 0u) << "no level was found backwards";
    for (const AnalysisResult* other : {&forward, &levels}) {
      EXPECT_EQ(pulled.layers, other->layers) << threads;
      EXPECT_EQ(pulled.edges, other->edges) << threads;
      EXPECT_EQ(pulled.layer_edges, other->layer_edges) << threads;
      EXPECT_EQ(pulled.farthest, other->farthest) << threads;
    }
  }
}

// Three states a rank (parity_bfs.hpp), which the ranked engine keeps unless a table
// or checkpoint reads its two planes afterwards: the same levels, moves and farthest positions as the
// planes on a regular space and on a uniform one with self-loops, at 1 and 2 threads,
// and when no level may be listed as it is found (the farthest positions then come
// from a second search). A budget under the states' need is refused, naming it.
TEST(Pieces, ThreeStatesARankEqualTheTwoPlanes) {
  AnalyzeOptions o;
  o.progress = false;
  const Pieces cube = example("cube2");
  for (const Pieces& p : {cube, load_tws("cornerpairs.tws", kCornerPairsTws)}) {
    RankedLayers tables(p.rank_space());
    const AnalysisResult planes = analyze_ranked_on(p, o, p.start(), tables, Engine::ranked);
    ASSERT_GE(planes.layers.size(), 8u) << p.name();
    for (const int threads : {1, 2}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      for (const std::optional<std::uint64_t> most_listed :
           {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{1}}) {
        const AnalysisResult r = analyze_parity(p, o, p.start(), most_listed);
        EXPECT_EQ(r.layers, planes.layers) << p.name() << " at " << threads;
        EXPECT_EQ(r.edges, planes.edges) << p.name() << " at " << threads;
        EXPECT_EQ(r.layer_edges, planes.layer_edges) << p.name() << " at " << threads;
        EXPECT_EQ(r.farthest, planes.farthest) << p.name() << " at " << threads;
      }
    }
  }
  EXPECT_EQ(analyze_ranked(cube, o).layers,
            std::vector<std::uint64_t>({1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}));
  // Auto keeps the states wherever they apply, in 1.6 bits a rank against the planes'
  // 2, and the planes where a distance table or a checkpoint reads them afterwards.
  EXPECT_TRUE(parity_search_applies(cube, o));
  const std::uint64_t states = ParityPlanes::bytes(cube.rank_space());
  EXPECT_EQ(ranked_bytes(cube, o), states);
  EXPECT_LT(states * 10, ranked_bytes(cube) * 9);
  EXPECT_EQ(choose_engine(cube, o).engine, Engine::ranked);
  AnalyzeOptions read_after = o;
  read_after.table = true;
  EXPECT_FALSE(parity_search_applies(cube, read_after));
  EXPECT_EQ(ranked_bytes(cube, read_after), ranked_bytes(cube));
  read_after.table = false;
  read_after.checkpoint = "checkpoints";
  EXPECT_FALSE(parity_search_applies(cube, read_after));
  AnalyzeOptions tight = o;
  tight.memory = MemoryBudget(states - 1);
  try {
    (void)choose_engine(cube, tight);
    ADD_FAILURE() << "a run over the budget was planned";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("ranked BFS needs " + with_commas(states) + " bytes"), std::string::npos)
        << e.what();
  }
}

// A level's list (parity_bytes.hpp) keeps 32 bits a rank where the space's ranks fit
// them and 64 where they do not, and gives the same ranks back either way.
TEST(Pieces, ThreeStatesListRanksInTheWidthTheSpaceNeeds) {
  const std::uint64_t narrowest = std::uint64_t{1} << 32;
  for (const std::uint64_t space : {narrowest, narrowest + 1}) {
    parity_detail::RankList list(space);
    list.start(4);
    for (const std::uint64_t r : {space - 1, std::uint64_t{7}, space / 2}) list.push(r);
    list.sort();
    EXPECT_EQ(list.wide(), (std::vector<std::uint64_t>{7, space / 2, space - 1})) << space;
    EXPECT_EQ(list[2], space - 1) << space;
  }
  EXPECT_EQ(parity_detail::RankList::bytes_a_rank(narrowest), 4u);
  EXPECT_EQ(parity_detail::RankList::bytes_a_rank(narrowest + 1), 8u);
}

// One set of `n` distinct pieces and moves of the given cycles of places, as a .tws text.
std::string one_set_tws(const std::string& name, int n,
                        const std::vector<std::pair<std::string, std::vector<std::vector<int>>>>& moves) {
  std::string text = "Name " + name + "\nSet P " + std::to_string(n) + " 1\nSolved\nP\n";
  for (int i = 1; i <= n; ++i) text += std::to_string(i) + " ";
  text += "\nEnd\n";
  for (const auto& [move, cycles] : moves) {
    std::vector<int> to(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) to[std::size_t(i)] = i;
    for (const auto& c : cycles) {
      for (std::size_t i = 0; i < c.size(); ++i) to[std::size_t(c[i])] = c[(i + 1) % c.size()];
    }
    text += "Move " + move + "\nP\n";
    for (const int x : to) text += std::to_string(x + 1) + " ";
    text += "\nEnd\n";
  }
  return text;
}

// The lexicographic rank of a permutation of 0..n-1, counted the slow way.
std::uint64_t lexicographic_rank(const std::vector<int>& a) {
  std::uint64_t r = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::uint64_t smaller_after = 0;
    for (std::size_t j = i + 1; j < a.size(); ++j) smaller_after += a[j] < a[i] ? 1 : 0;
    r = r * (a.size() - i) + smaller_after;
  }
  return r;
}

// Sets of distinct pieces too large for move tables (10 places: 10!/2 ranks under
// even 3-cycles as on the dino cube, 10! under odd moves as on the UFO) are unranked
// once per position and each move's arrangement ranked by its Lehmer code: the
// successors are the moves applied, the ranks are the lexicographic ones (the
// digit rank / 2 beside the parity class), and the distributions are twsearch's
// (`twsearch -g`, 0a8bfb07), at one thread and two.
TEST(Pieces, LargeSetsWithoutTablesMatchTwsearch) {
  const auto dir = fresh_dir("pieces-large-sets");
  const Pieces dino = load_tws(dir / "dino10.tws", one_set_tws("dino10", 10,
                                                               {{"A", {{2, 4, 8}}},
                                                                {"B", {{3, 6, 9}}},
                                                                {"C", {{5, 8, 0}}},
                                                                {"D", {{1, 6, 7}}},
                                                                {"E", {{1, 2, 7}}},
                                                                {"F", {{0, 3, 5}}},
                                                                {"G", {{5, 7, 9}}},
                                                                {"H", {{0, 4, 9}}}}));
  const Pieces ufo = load_tws(dir / "ufo10.tws", one_set_tws("ufo10", 10,
                                                             {{"U", {{0, 1, 2, 3, 4}}},
                                                              {"D", {{5, 6, 7, 8, 9}}},
                                                              {"F", {{0, 5}, {1, 6}}},
                                                              {"R", {{2, 7}, {3, 8}, {4, 9}}},
                                                              {"L", {{0, 9}, {2, 5}}}}));
  EXPECT_EQ(dino.rank_space(), 1814400u);
  EXPECT_EQ(ufo.rank_space(), 3628800u);
  for (const Pieces* p : {&dino, &ufo}) {
    const pieces_detail::Tables& t = p->tables();
    ASSERT_EQ(t.coordinates.size(), 1u) << p->name();
    EXPECT_TRUE(t.coordinates[0].forward.empty()) << p->name() << ": expected no move table";
    const std::uint64_t classes = t.classes.size();
    for (std::uint64_t r = 0; r < p->rank_space(); r += 9973) {
      const auto s = p->position(r);
      ASSERT_EQ(p->position_rank(s), r) << p->name();
      ASSERT_EQ(r / classes, lexicographic_rank(s.perm[0]) / 2) << p->name() << " rank " << r;
      std::size_t m = 0;
      p->for_each_successor_rank(r, [&](std::uint64_t next) {
        ASSERT_EQ(next, p->position_rank(apply(*p, s, p->moves()[m].transform))) << p->name() << " " << m;
        ++m;
      });
      ASSERT_EQ(m, p->moves().size());
    }
  }
  AnalyzeOptions o;
  o.progress = false;
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    EXPECT_EQ(analyze_ranked(dino, o).layers,
              (std::vector<std::uint64_t>{1, 16, 172, 1660, 13372, 83965, 363932, 793026, 504524, 53143, 589}));
    EXPECT_EQ(analyze_ranked(ufo, o).layers,
              (std::vector<std::uint64_t>{1, 11, 69, 424, 2470, 14094, 79376, 402333, 1463224, 1603063, 63734, 1}));
  }
}

// analyze, solve and list take .tws files; --moves and --metric choose the moves.
TEST(Pieces, CommandsTakeTwsFiles) {
  const auto dir = fresh_dir("pieces-cli");
  const std::string cube2 = example_path("cube2").string();
  auto r = run_statespace("analyze " + cube2 + " --quiet --out " + (dir / "a").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  // The same cube as stickers (kind = "permutation") has the same distribution.
  r = run_statespace("analyze " + std::string(STATESPACE_EXAMPLES) + "/cube2.toml --quiet --out " +
                     (dir / "toml").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_EQ(testing::read_file(dir / "a/cube2/distribution.csv"),
            testing::read_file(dir / "toml/cube2/distribution.csv"));
  r = run_statespace("analyze " + cube2 + " --moves U,R --metric quarter --out " + (dir / "b").string());
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.out.find("29,160"), std::string::npos) << r.out;
  r = run_statespace("solve " + cube2 + " \"CORNERS 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0\"");
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  const auto p = example("cube2");
  // R U: two moves from the solved state.
  std::uint64_t after_r = 0, after_ru = 0;
  std::size_t m = 0;
  p.for_each_successor_rank(p.start().rank, [&](std::uint64_t t) {
    if (p.moves()[m++].name == "R") after_r = t;
  });
  m = 0;
  p.for_each_successor_rank(after_r, [&](std::uint64_t t) {
    if (p.moves()[m++].name == "U") after_ru = t;
  });
  r = run_statespace("solve " + cube2 + " \"" + p.format({after_ru}) + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.out.find("cube2: 2 moves"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves: U' R'"), std::string::npos) << r.out;
  // A report manifest names the file like any puzzle.
  const auto manifest = testing::write_file(dir / "article.toml", "title = \"Beads\"\n[[analysis]]\npuzzle = \"" +
                                                                      example_path("beads").string() +
                                                                      "\"\n[[table]]\nname = \"overview\"\n");
  r = run_statespace("report " + manifest.string() + " --quiet --out " + (dir / "article").string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.std_err;
  EXPECT_EQ(testing::read_file(dir / "article/tables/overview.csv"),
            "puzzle,states,edges,eccentricity,farthest\nbeads,1680,8400,7,2\n");
  r = run_statespace("list " + std::string(STATESPACE_EXAMPLES));
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.out.find("pyraminx-tipless.tws"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("933,120"), std::string::npos) << r.out;
  for (const auto& [options, message] : std::vector<std::pair<std::string, std::string>>{
           {"--moves U,D", "unknown move 'D' (expected some of: F, R, U)"},
           {"--moves U,,R", "bad --moves"},
           {"--metric half", "bad --metric 'half' (expected one of: all-powers, quarter, given)"},
           {"--from \"CORNERS 1 2 3 4 5 6 7 / 1 0 0 0 0 0 0\"", "the twists add up to 1 modulo 3"},
       }) {
    r = run_statespace("analyze " + cube2 + " --quiet --out " + (dir / "c").string() + " " + options);
    EXPECT_EQ(r.exit_code, 2) << options;
    EXPECT_NE(r.std_err.find(message), std::string::npos) << options << ": " << r.std_err;
    EXPECT_FALSE(std::filesystem::exists(dir / "c")) << options;
  }
}

// Every broken file is one line FILE:LINE:COLUMN: problem; expected form.
TEST(Pieces, BadTwsFilesAreOneLineWithTheirPosition) {
  const std::string head = "Name t\nSet C 3 3\nSolved\nC\n1 2 3\n0 0 0\nEnd\n";
  const std::string move = "Move X\nC\n2 3 1\n0 0 0\nEnd\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Set C 3\n", "t.tws:1:1: 'Set' takes 3 words; expected Set NAME PLACES ORIENTATIONS"},
      {"Set C 0 3\n", "t.tws:1:7: places must be 1 to 255"},
      {"Set C 3 200\n", "t.tws:1:9: orientations must be 1 to 127"},
      {"Name t\nSet C 3 3\nSet C 2 1\n", "t.tws:3:5: set C defined twice"},
      {"Frob\n", "t.tws:1:1: unexpected 'Frob'; expected a line starting with Name, Set"},
      {head, "t.tws:7:1: no moves; expected Move NAME ... End blocks"},
      {head + "Move X\nC\n2 3 3\nEnd\n", "t.tws:10:5: place 3 twice in move X"},
      {head + "Move X\nC\n2 3 4\nEnd\n", "t.tws:10:5: '4' out of range"},
      {head + "Move X\nC\n2 3\nEnd\n", "t.tws:10:3: 2 numbers; expected 3 numbers from 1, each once for set C"},
      {head + "Move X\nC\n2 3 1\n0 0 3\nEnd\n", "t.tws:11:5: '3' out of range; expected 3 twists from 0 to 2"},
      {head + "Move X\nD\n2 3 1\nEnd\n", "t.tws:9:1: unknown set 'D' in move X; expected one of: C, or End"},
      {head + "Move X\nC\n2 3 1\n", "t.tws:10:1: the file ends inside a block; expected End"},
      {head + move + "Move X\nC\n3 1 2\nEnd\n", "t.tws:13:6: move X defined twice"},
      {head + move + "Illegal C 1 1\n", "t.tws:13:13: the solved state holds piece 1 at place 1 of C"},
      {"Name t\nSet C 3 1\nSolved\nC\n1 ? 3\nEnd\n", "t.tws:5:3: a wildcard ('?') where it means nothing"},
      {"Name t\nSet C 3 1\nMove X\n", "t.tws:3:1: a move before the solved state"},
      {"Name ../x\n", "t.tws:1:6: the name '../x'"},
      // 21 distinct pieces with 127 orientations: far past 2^64 ranks.
      {"Name t\nSet C 21 127\nSolved\nC\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21\nEnd\nMove X\nC\n"
       "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21\nEnd\n",
       "t.tws:2:1: its positions do not rank below 2^64"},
      {"Name t\nSet C 3 1\nSolved\nC\n1 2 3\nEnd\nMove X\nC\n1 2 3\nEnd\n", "t.tws:7:1: no move changes the position"},
  };
  for (const auto& [text, message] : cases) {
    try {
      (void)load_tws("t.tws", text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << text << "\n" << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  // Through the binary: exit code 2, one line, nothing written.
  const auto dir = fresh_dir("pieces-bad");
  const auto file = testing::write_file(dir / "bad.tws", head + "Move X\nC\n2 3 3\nEnd\n");
  const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("bad.tws:10:5: place 3 twice in move X"), std::string::npos) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
}  // namespace statespace
