// Problem generation: the generator against its published test vectors, golden
// outputs per seed, uniformity over the 360 solvable 2x3 boards (chi-square), the
// parity repair on every board shape, and exact difficulty (distance tables from two
// engines, layer sampling checked by an independent BFS solver).
#include "analysis/problems/generate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "analysis/generate_plan.hpp"
#include "analysis/solvers/solve.hpp"
#include "core/errors.hpp"
#include "puzzles/tiles_parity.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

TEST(Rng, SplitMix64ReferenceVector) {
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(splitmix64(state), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(splitmix64(state), 0x06C45D188009454FULL);
  EXPECT_EQ(splitmix64(state), 0xF88BB8A8724C81ECULL);
}

TEST(Rng, Xoshiro256StarStarReferenceVector) {
  // The reference implementation's outputs from state {1, 2, 3, 4} (as published in
  // the test suite of rand_xoshiro).
  Rng rng = Rng::from_state({1, 2, 3, 4});
  const std::vector<std::uint64_t> expected = {11520ULL,
                                               0ULL,
                                               1509978240ULL,
                                               1215971899390074240ULL,
                                               1216172134540287360ULL,
                                               607988272756665600ULL,
                                               16172922978634559625ULL,
                                               8476171486693032832ULL,
                                               10595114339597558777ULL,
                                               2904607092377533576ULL};
  for (auto e : expected) EXPECT_EQ(rng(), e);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng rng(7);
  std::array<int, 7> seen{};
  for (int i = 0; i < 7000; ++i) ++seen[rng.below(7)];
  for (int c : seen) EXPECT_GT(c, 800);  // 1000 expected each
  EXPECT_EQ(rng.below(1), 0u);
  // n just above 2^63: the rejection threshold 2^64 mod n is large, every draw in range.
  const std::uint64_t big = (std::uint64_t{1} << 63) + 12345;
  for (int i = 0; i < 1000; ++i) EXPECT_LT(rng.below(big), big);
}

std::vector<std::string> generate_text(int rows, int cols, GenerateMethod method, std::uint64_t seed, int count) {
  const Tiles t(rows, cols);
  ProblemGenerator g(t, method, kDefaultWalkLength, seed);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(t.format(g.next()));
  return out;
}

TEST(Generate, GoldenOutputsPerSeed) {
  // Fixed forever: the same seed must give the same problems on every machine. An
  // independent Python transcription of splitmix64 / xoshiro256** / Lemire / Fisher-
  // Yates / mirror gave the same boards.
  EXPECT_EQ(generate_text(4, 4, GenerateMethod::kUniform, 1, 3),
            (std::vector<std::string>{"9 10 2 14 / 4 12 15 6 / 3 _ 1 13 / 5 8 7 11",
                                      "11 9 13 3 / 8 15 7 2 / 10 4 5 12 / _ 6 1 14",
                                      "9 4 6 1 / 12 15 8 3 / 11 10 2 7 / 14 5 13 _"}));
  EXPECT_EQ(generate_text(4, 4, GenerateMethod::kWalk, 1, 2),
            (std::vector<std::string>{"1 4 8 3 / 6 2 12 14 / 5 13 11 7 / 9 _ 10 15",
                                      "_ 10 2 3 / 6 1 7 8 / 5 14 4 11 / 9 13 15 12"}));
  EXPECT_EQ(generate_text(3, 3, GenerateMethod::kUniform, 42, 2),
            (std::vector<std::string>{"2 1 8 / 5 6 7 / _ 3 4", "2 3 _ / 1 8 5 / 6 4 7"}));
}

TEST(Generate, SameSeedSameProblemsOtherSeedOthers) {
  EXPECT_EQ(generate_text(4, 4, GenerateMethod::kUniform, 9, 50), generate_text(4, 4, GenerateMethod::kUniform, 9, 50));
  EXPECT_NE(generate_text(4, 4, GenerateMethod::kUniform, 9, 50),
            generate_text(4, 4, GenerateMethod::kUniform, 10, 50));
  EXPECT_EQ(generate_text(3, 4, GenerateMethod::kWalk, 9, 50), generate_text(3, 4, GenerateMethod::kWalk, 9, 50));
}

TEST(Generate, EveryProblemIsSolvable) {
  for (auto [r, c] : {std::pair{2, 3}, {3, 3}, {4, 4}, {3, 5}, {2, 8}, {4, 3}}) {
    const Tiles t(r, c);
    for (auto method : {GenerateMethod::kUniform, GenerateMethod::kWalk}) {
      ProblemGenerator g(t, method, 37, 5);
      for (int i = 0; i < 2000; ++i) ASSERT_TRUE(tiles_solvable(r, c, g.next())) << t.name();
    }
  }
}

TEST(Generate, ParityRepairFlipsTheClassOnEveryShape) {
  // Seed 004's mirror flips the class iff R*floor(C/2) + (C-1) is odd; otherwise the
  // first-two-tiles swap is used. Either way the repair is an involution across the
  // classes, checked on random boards of every shape the models hold.
  for (int r = 2; r <= 8; ++r) {
    for (int c = 2; r * c <= 16; ++c) {
      const Tiles t(r, c);
      const bool mirror_flips = (r * (c / 2) + (c - 1)) % 2 == 1;
      EXPECT_EQ(parity_repair(t), mirror_flips ? ParityRepair::kMirror : ParityRepair::kSwapFirstTiles) << t.name();
      Rng rng(std::uint64_t(r * 16 + c));
      for (int i = 0; i < 500; ++i) {
        const Board b = uniform_arrangement(t, rng);
        const Board fixed = repair_parity(t, b);
        ASSERT_NE(tiles_solvable(r, c, b), tiles_solvable(r, c, fixed)) << t.name() << " " << t.format(b);
        ASSERT_EQ(repair_parity(t, fixed), b) << t.name();
      }
    }
  }
  EXPECT_EQ(parity_repair(Tiles(4, 4)), ParityRepair::kMirror);          // as seed 004 does
  EXPECT_EQ(parity_repair(Tiles(2, 3)), ParityRepair::kSwapFirstTiles);  // the mirror would not flip
}

TEST(Generate, UniformIsUniformOnTwoByThree) {
  // 36,000 draws over the 360 solvable boards, 100 expected each. Pearson's statistic
  // has 359 degrees of freedom (mean 359, sd 26.8); 450 is p ~ 0.0003.
  const Tiles t(2, 3);
  constexpr int kDraws = 36000;
  ProblemGenerator g(t, GenerateMethod::kUniform, 0, 2024);
  std::map<std::uint64_t, int> counts;
  for (int i = 0; i < kDraws; ++i) ++counts[t.rank(g.next())];
  ASSERT_EQ(counts.size(), 360u);
  double x2 = 0;
  for (const auto& [rank, n] : counts) {
    ASSERT_TRUE(tiles_solvable(2, 3, t.unrank(rank)));
    x2 += (n - 100.0) * (n - 100.0) / 100.0;
  }
  EXPECT_LT(x2, 450.0);
  EXPECT_GT(x2, 280.0);  // suspiciously even counts would be a bug too

  // The same statistic has power: the 100-move walk (even distances only) fails it.
  ProblemGenerator w(t, GenerateMethod::kWalk, 100, 2024);
  std::map<std::uint64_t, int> walk;
  for (int i = 0; i < kDraws; ++i) ++walk[t.rank(w.next())];
  double walk_x2 = 0;
  for (const auto& [rank, n] : counts) {
    const double got = walk.count(rank) ? walk[rank] : 0;
    walk_x2 += (got - 100.0) * (got - 100.0) / 100.0;
  }
  EXPECT_GT(walk_x2, 10000.0);
}

TEST(Generate, Formats) {
  const Tiles t(4, 4);
  const Board b = t.parse("10 8 4 14 / 15 12 13 * / 7 11 6 1 / 5 9 2 3");
  EXPECT_EQ(format_problem(t, b, ProblemFormat::kPaiza, std::nullopt), "10 8 4 14\n15 12 13 *\n7 11 6 1\n5 9 2 3");
  EXPECT_EQ(format_problem(t, b, ProblemFormat::kCanonical, std::nullopt),
            "10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3");
  EXPECT_EQ(format_problem(t, b, ProblemFormat::kCsv, std::nullopt), "10 8 4 14 / 15 12 13 _ / 7 11 6 1 / 5 9 2 3,");
  EXPECT_EQ(format_problem(Tiles(3, 3), Tiles(3, 3).goal(), ProblemFormat::kCsv, 0), "1 2 3 / 4 5 6 / 7 8 _,0");
  EXPECT_THROW(parse_problem_format("json"), ParseError);
  EXPECT_THROW(parse_generate_method("random"), ParseError);
}

// The 8-puzzle's distance distribution (Reinefeld 1993; reproduced by the lead's
// explicit engine in seed_numbers_test).
const std::vector<std::uint64_t> kEightPuzzleLayers = {
    1,    2,    4,    8,     16,    20,    39,    62,    116,   152,   286,   396,  748,  1024, 1893, 2512,
    4485, 5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,  2};

TEST(DistanceTable, EnginesAgreeRankByRank) {
  for (auto [r, c] : {std::pair{3, 3}, {2, 4}, {2, 5}}) {
    const Tiles t(r, c);
    const DistanceTable a = build_distance_table(t, MemoryBudget(), TableEngine::kExplicit);
    const DistanceTable b = build_distance_table(t, MemoryBudget(), TableEngine::kRankSpace);
    EXPECT_EQ(a.layers(), b.layers()) << t.name();
    EXPECT_EQ(a.reachable(), t.rank_space() / 2);
    for (std::uint64_t rank = 0; rank < t.rank_space(); ++rank) {
      ASSERT_EQ(a.distance(rank), b.distance(rank)) << t.name() << " " << t.format(t.unrank(rank));
    }
  }
  EXPECT_EQ(build_distance_table(Tiles(3, 3), MemoryBudget(), distance_table_engine(Tiles(3, 3))).layers(),
            kEightPuzzleLayers);
}

TEST(DistanceTable, RefusesBigBoardsAndTightBudgets) {
  EXPECT_FALSE(distance_table_supported(Tiles(4, 4)));
  EXPECT_TRUE(distance_table_supported(Tiles(3, 4)));
  EXPECT_EQ(distance_table_bytes(Tiles(3, 4), TableEngine::kRankSpace), 479001600u);
  EXPECT_THROW(build_distance_table(Tiles(4, 4), MemoryBudget(), distance_table_engine(Tiles(4, 4))), UsageError);
  EXPECT_THROW(build_distance_table(Tiles(3, 4), MemoryBudget(100'000'000), distance_table_engine(Tiles(3, 4))),
               UsageError);
}

TEST(ExactDifficulty, SampledPositionsHaveTheRequestedDistance) {
  const Tiles t(3, 3);
  const DistanceTable table = build_distance_table(t, MemoryBudget(), distance_table_engine(t));
  Rng rng(5);
  for (int d : {0, 1, 2, 10, 20, 27, 31}) {
    for (const Board b : sample_distance(t, table, d, d, 6, rng)) {
      EXPECT_EQ(table.distance(t.rank(b)), d);
      // An independent check: the seed-style BFS solver finds a path of exactly d moves.
      RankedLookup visited(t);
      const auto sol = solve_bfs(t, b, t.goal(), visited, MemoryBudget());
      ASSERT_FALSE(sol.path.empty());
      EXPECT_EQ(int(sol.path.size()) - 1, d) << t.format(b);
    }
  }
  for (const Board b : sample_distance(t, table, 12, 14, 200, rng)) {
    const int d = table.distance(t.rank(b));
    EXPECT_TRUE(d >= 12 && d <= 14) << d;
  }
  EXPECT_THROW(sample_distance(t, table, 32, 40, 1, rng), UsageError);
}

TEST(ExactDifficulty, LayerSamplingIsUniformWithinTheLayer) {
  // The 8-puzzle has exactly two positions at distance 31; 2000 draws split ~1000/1000.
  const Tiles t(3, 3);
  const DistanceTable table = build_distance_table(t, MemoryBudget(), distance_table_engine(t));
  Rng rng(11);
  std::map<std::string, int> seen;
  for (const Board b : sample_distance(t, table, 31, 31, 2000, rng)) ++seen[t.format(b)];
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen.count("8 6 7 / 2 5 4 / 3 _ 1"));
  EXPECT_TRUE(seen.count("6 4 7 / 8 5 _ / 3 2 1"));
  for (const auto& [position, n] : seen) EXPECT_NEAR(n, 1000, 120) << position;
  // The 20 positions at distance 5, 4000 draws: each near 200.
  std::map<std::uint64_t, int> five;
  for (const Board b : sample_distance(t, table, 5, 5, 4000, rng)) ++five[t.rank(b)];
  ASSERT_EQ(five.size(), 20u);
  for (const auto& [rank, n] : five) EXPECT_NEAR(n, 200, 60);
}

TEST(ExactDifficulty, CompareQuantifiesTheWalksBias) {
  const Tiles t(3, 3);
  const DistanceTable table = build_distance_table(t, MemoryBudget(), distance_table_engine(t));
  const MethodComparison c = compare_methods(t, table, 20000, 100, 3);
  EXPECT_EQ(c.truth, kEightPuzzleLayers);
  EXPECT_EQ(std::accumulate(c.uniform.begin(), c.uniform.end(), std::uint64_t{0}), 20000u);
  EXPECT_EQ(std::accumulate(c.walk.begin(), c.walk.end(), std::uint64_t{0}), 20000u);
  for (std::size_t d = 1; d < c.walk.size(); d += 2) EXPECT_EQ(c.walk[d], 0u) << d;  // bipartite: even only
  EXPECT_LT(total_variation(c.uniform, c.truth), 0.03);
  EXPECT_GT(total_variation(c.walk, c.truth), 0.45);
  EXPECT_NEAR(mean_distance(c.truth), 21.97, 0.01);
  EXPECT_NEAR(mean_distance(c.uniform), mean_distance(c.truth), 0.15);
  // Same draws as `generate` makes with the same seed.
  ProblemGenerator g(t, GenerateMethod::kUniform, 100, 3);
  std::vector<std::uint64_t> again(c.truth.size(), 0);
  for (int i = 0; i < 20000; ++i) ++again[table.distance(t.rank(g.next()))];
  EXPECT_EQ(again, c.uniform);
}

using testing::run_statespace;

TEST(GenerateCli, GoldenOutputAndFormats) {
  auto r = run_statespace("generate tiles:4x4 --count 3 --seed 1");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "9 10 2 14 / 4 12 15 6 / 3 _ 1 13 / 5 8 7 11\n"
            "11 9 13 3 / 8 15 7 2 / 10 4 5 12 / _ 6 1 14\n"
            "9 4 6 1 / 12 15 8 3 / 11 10 2 7 / 14 5 13 _\n");
  r = run_statespace("generate tiles:4x4 --count 2 --seed 1 --format paiza");
  EXPECT_EQ(r.out, "9 10 2 14\n4 12 15 6\n3 * 1 13\n5 8 7 11\n\n11 9 13 3\n8 15 7 2\n10 4 5 12\n* 6 1 14\n");
  // csv carries each problem's optimal length (checked with `solve` when written).
  r = run_statespace("generate tiles:3x3 --count 2 --format csv --seed 7");
  EXPECT_EQ(r.out, "position,distance\n_ 7 1 / 8 4 3 / 6 2 5,18\n7 2 _ / 4 5 6 / 3 1 8,22\n");
  // No table on 4x4: the optimal solver fills the column (here with the small 5-5-5 databases).
  const auto dir = testing::fresh_dir("generate-pdb");
  r = run_statespace("generate tiles:4x4 --count 1 --format csv --seed 1 --partition 5-5-5 --pdb-dir " + dir.string());
  EXPECT_EQ(r.std_out, "position,distance\n9 10 2 14 / 4 12 15 6 / 3 _ 1 13 / 5 8 7 11,57\n");
  std::filesystem::remove_all(dir);
}

TEST(GenerateCli, ExactDifficultyAndThreads) {
  const auto r = run_statespace("generate tiles:3x3 --count 5 --distance 31 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  int n = 0;
  for (; std::getline(lines, line); ++n) EXPECT_TRUE(line.ends_with(",31")) << line;
  EXPECT_EQ(n, 5);
  const std::string args = "generate tiles:2x5 --count 40 --format csv --min 20 --max 30 --seed 4";
  const auto one = run_statespace(args + " --threads 1"), two = run_statespace(args + " --threads 2");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.std_out, two.std_out);  // stderr may carry timing-dependent progress lines
}

TEST(GenerateCli, Compare) {
  const auto r = run_statespace("generate tiles:3x3 --compare --seed 1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("optimal lengths of 10000 problems per method (seed 1, walk length 100) against all 181440"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("      31           2    0.001"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mean distance         true 21.97"), std::string::npos) << r.out;
  const auto csv = run_statespace("generate tiles:2x3 --compare --format csv --count 100");
  EXPECT_TRUE(csv.out.starts_with("distance,positions,uniform,walk\n0,1,")) << csv.out;
}

TEST(GenerateCli, BadInputIsOneLineAndExitTwo) {
  for (const char* args : {"generate tiles:4x4 --count -5", "generate tiles:4x4 --method foo", "generate hex6",
                           "generate tiles:4x4 --distance 5", "generate tiles:3x3 --distance 40",
                           "generate tiles:3x3 --distance 5 --method walk", "generate tiles:3x3 --min 9 --max 3",
                           "generate tiles:3x3 --format xml", "generate tiles:3x4 --distance 5 --memory 100M",
                           "generate tiles:3x3 --seed 1.5"}) {
    const auto r = run_statespace(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.starts_with("statespace: ")) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

// Every flag is read before the distance table is built: tiles:3x4's holds
// 239,500,800 positions and takes seconds to minutes, and a typo after it would be
// found only then. Each command asks for less memory than the table needs, so a
// table begun first would be refused with the memory message instead of the flag's;
// and the error is the only line (progress lines start after a second).
TEST(GenerateCli, EveryFlagIsCheckedBeforeTheDistanceTable) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--max x", "statespace: bad --max 'x' (expected a whole number from 0 to 254)\n"},
      {"--min 3 --max 300", "statespace: bad --max '300' (expected a whole number from 0 to 254)\n"},
      {"--distance 1e3", "statespace: bad --distance '1e3' (expected a whole number from 0 to 254)\n"},
      {"--min 30 --max 20",
       "statespace: generate: --min 30 exceeds --max 20 (expected --min A --max B with A at most B)\n"},
      {"--distance 30 --max-tries 5",
       "statespace: generate: --pdb-dir, --partition and --max-tries belong to the optimal solver, used for "
       "--distance/--min/--max or --format csv on boards over 12 cells; tiles:3x4 uses a distance table\n"},
  };
  for (const auto& [flags, error] : cases) {
    const auto r = run_statespace("generate tiles:3x4 --count 2 --memory 100M " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_EQ(r.std_out, "") << flags;
    EXPECT_EQ(r.std_err, error) << flags;
  }
  // The same flags, well formed, reach the table and its memory check.
  const auto r = run_statespace("generate tiles:3x4 --count 2 --memory 100M --min 3 --max 20");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("distance table"), std::string::npos) << r.std_err;
}

}  // namespace
}  // namespace statespace
