// The implicit engine against the explicit one, and its locality index against a
// plain quadratic ranker: ranks, round trips, the O(C) update of vertical moves, and
// the analysis of every board both engines handle, from the goal and from starts
// with the blank elsewhere.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <filesystem>
#include <set>
#include <span>

#include "analysis/analyze.hpp"
#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "analysis/engines/implicit/tile_index.hpp"
#include "analysis/engines/implicit/tile_sequence_decoder.hpp"
#include "analysis/engines/slices.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "report_compare.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

// The textbook definition, O(n^2): digit i counts the later items smaller than item i.
std::uint64_t quadratic_rank(const std::vector<unsigned>& items) {
  std::uint64_t r = 0;
  const std::size_t n = items.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t smaller_later = 0;
    for (std::size_t j = i + 1; j < n; ++j) smaller_later += items[j] < items[i];
    r += smaller_later * kFactorial[n - 1 - i];
  }
  return r;
}

std::vector<unsigned> tiles_in_reading_order(Board b, int cells) {
  std::vector<unsigned> out;
  for (int c = 0; c < cells; ++c) {
    if (b.at(c)) out.push_back(b.at(c));
  }
  return out;
}

std::vector<unsigned> cells_of(Board b, int cells) {
  std::vector<unsigned> out;
  for (int c = 0; c < cells; ++c) out.push_back(b.at(c));
  return out;
}

const std::vector<std::pair<int, int>> kBoards = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}};

TEST(TileIndex, RanksMatchTheQuadraticReferenceAndRoundTrip) {
  for (auto [rows, cols] : kBoards) {
    const Tiles p(rows, cols);
    const TileIndex index(rows, cols);
    ASSERT_EQ(index.size(), p.rank_space());
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
      const Board b = p.unrank(r);
      // Two rankers of whole boards agree: core/ranking.hpp's popcount one and ours.
      ASSERT_EQ(r, quadratic_rank(cells_of(b, p.cells())));
      const std::uint64_t i = index.rank(b);
      const int blank = find_blank(b, p.cells());
      ASSERT_EQ(i, quadratic_rank(tiles_in_reading_order(b, p.cells())) * std::uint64_t(p.cells()) + unsigned(blank));
      ASSERT_EQ(index.unrank(i), b) << p.format(b);
      const TileSequence s = index.sequence_of(b);
      const TileSequence t = index.sequence_at(s.lex);
      ASSERT_EQ(t.item, s.item);
      ASSERT_EQ(t.digit, s.digit);
    }
  }
}

TEST(TileIndex, SixteenCellRanksRoundTrip) {
  const TileIndex index(4, 4);
  const Tiles p(4, 4);
  for (std::uint64_t r : {0ull, 1ull, 987654321ull, 20922789887999ull, 20922789887998ull}) {
    const Board b = p.unrank(r);
    EXPECT_EQ(index.unrank(index.rank(b)), b);
    EXPECT_EQ(index.rank(b), quadratic_rank(tiles_in_reading_order(b, 16)) * 16 + unsigned(find_blank(b, 16)));
  }
}

TEST(TileIndex, ClassIndexIsABijectionOntoHalfTheSpaceAndFollowsReachability) {
  for (auto [rows, cols] : kBoards) {
    const Tiles p(rows, cols);
    const TileIndex index(rows, cols);
    std::vector<std::uint8_t> seen(2 * index.class_size(), 0);
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
      const Board b = p.unrank(r);
      const unsigned cls = index.class_of(b);
      ASSERT_EQ(p.same_class(b, p.goal()), cls == index.class_of(p.goal()));
      const std::uint64_t i = index.class_rank(b);
      ASSERT_LT(i, index.class_size());
      ASSERT_EQ(seen[cls * index.class_size() + i]++, 0) << p.format(b);
      ASSERT_EQ(index.class_unrank(i, cls), b) << p.format(b);
    }
  }
}

TEST(TileIndex, VerticalMoveUpdateEqualsReranking) {
  for (auto [rows, cols] : kBoards) {
    const Tiles p(rows, cols);
    const TileIndex index(rows, cols);
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
      const Board b = p.unrank(r);
      const int blank = find_blank(b, p.cells());
      const TileSequence s = index.sequence_of(b);
      if (blank + cols < p.cells()) {
        ASSERT_EQ(index.moved_lex(s, blank, true), index.sequence_of(b.slid(blank + cols, blank)).lex);
      }
      if (blank >= cols) {
        ASSERT_EQ(index.moved_lex(s, blank, false), index.sequence_of(b.slid(blank - cols, blank)).lex);
      }
      // Left and right moves keep the sequence: only the blank part of the index changes.
      if (blank % cols > 0) {
        ASSERT_EQ(index.rank(b.slid(blank - 1, blank)), index.rank(b) - 1);
      }
    }
  }
}

void expect_decoder_matches(const TileIndex& index, TileSequenceDecoder& decoder, std::uint64_t lex) {
  TileSequenceDecoder::Output out;
  const unsigned parity = decoder.decode(lex, out);
  const TileSequence& got = out.s;
  const TileSequence want = index.sequence_at(lex);
  const int m = index.tiles();
  unsigned sum = 0;
  for (int i = 0; i < m; ++i) {
    ASSERT_EQ(got.item[i], want.item[i]) << "lex " << lex << " position " << i;
    ASSERT_EQ(got.digit[i], want.digit[i]) << "lex " << lex << " position " << i;
    sum += want.digit[i];
  }
  ASSERT_EQ(got.lex, lex);
  ASSERT_EQ(parity, sum & 1) << "lex " << lex;
}

TEST(TileSequenceDecoder, AgreesWithSequenceAtInAnyOrder) {
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {3, 4}, {2, 7}, {4, 4}}) {
    const TileIndex index(rows, cols);
    const TileSuffixTable table(index);
    TileSequenceDecoder decoder(index, table);
    const std::uint64_t size = kFactorial[index.tiles()];
    // Ascending runs (the scan order), across block boundaries, and random jumps.
    const std::uint64_t block = kFactorial[table.suffix()];
    for (std::uint64_t start : {std::uint64_t{0}, block - 3, size / 3, size - 100}) {
      for (std::uint64_t lex = start; lex < std::min(size, start + 100'000); ++lex) {
        expect_decoder_matches(index, decoder, lex);
      }
    }
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 100'000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      expect_decoder_matches(index, decoder, x % size);
    }
  }
}

ImplicitResult run_implicit(const Tiles& p, Board start) {
  ImplicitOptions o;
  o.progress = false;
  return implicit_bfs(p, start, o);
}

void expect_same_analysis(const Tiles& p, const std::string& from) {
  AnalyzeOptions o;
  o.from = from;
  o.progress = false;
  const AnalysisResult ex = analyze_explicit(p, o).result;
  const ImplicitResult im = run_implicit(p, p.parse(from));
  const std::string where = p.name() + " from " + from;
  EXPECT_EQ(im.layers, ex.layers) << where;
  EXPECT_EQ(im.layer_edges, ex.layer_edges) << where;
  EXPECT_EQ(im.states(), ex.states) << where;
  EXPECT_EQ(im.edges(), ex.edges) << where;
  std::vector<std::string> farthest;
  for (Board b : im.farthest) farthest.push_back(p.format(b));
  EXPECT_EQ(farthest, ex.farthest) << where;
}

TEST(SlicePartition, PowerOfTwoSlicesCoverTheUnitsAndOwnEachOnce) {
  for (const std::uint64_t units : {1ULL, 31ULL, 32ULL, 1000ULL, 19958400ULL}) {
    for (const std::uint64_t wanted : {1ULL, 3ULL, 8ULL, 64ULL}) {
      const SlicePartition p(units, wanted, 32);
      EXPECT_TRUE(std::has_single_bit(p.length()));
      EXPECT_EQ(p.length() % 32, 0u);
      EXPECT_GE(p.count(), std::min<std::uint64_t>(wanted, (units + 31) / 32)) << units << " " << wanted;
      EXPECT_LE(p.count(), std::max<std::uint64_t>(2 * wanted, 1)) << units << " " << wanted;
      EXPECT_EQ(p.begin(0), 0u);
      EXPECT_EQ(p.end(p.count() - 1), units);
      for (unsigned s = 0; s < p.count(); ++s) {
        EXPECT_LT(p.begin(s), p.end(s));
        EXPECT_EQ(p.owner(p.begin(s)), s);
        EXPECT_EQ(p.owner(p.end(s) - 1), s);
        EXPECT_EQ(p.within(p.end(s) - 1), p.end(s) - 1 - p.begin(s));
      }
    }
  }
}

TEST(SliceQueues, KeepEachDestinationsOffsetsInOrderAcrossBlocks) {
  constexpr unsigned kSlices = 3;
  constexpr std::size_t kStep = 100, kCapacity = 3 * SliceQueues::kBlock;
  SliceQueues q(kSlices, kCapacity, kStep);
  for (int round = 0; round < 2; ++round) {
    std::vector<std::vector<std::uint32_t>> sent(kSlices);
    std::uint32_t x = 7;
    for (std::size_t i = 0; i < kCapacity; ++i) {
      if (i % kStep == 0) q.make_room();
      x = x * 1103515245u + 12345u;
      const unsigned t = (x >> 16) % 4 == 0 ? 2 : (x >> 16) % 2;  // uneven: slice 2 gets a quarter
      q.push(t, x);
      sent[t].push_back(x);
    }
    EXPECT_EQ(q.size(), kCapacity);
    for (unsigned t = 0; t < kSlices; ++t) {
      std::vector<std::uint32_t> got;
      q.for_each_run(t, [&](std::span<const std::uint32_t> run) { got.insert(got.end(), run.begin(), run.end()); });
      EXPECT_EQ(q.count(t), sent[t].size());
      EXPECT_EQ(got, sent[t]) << "slice " << t << " round " << round;
    }
    q.clear();
    EXPECT_EQ(q.size(), 0u);
  }
}

// Every chunk is scanned to its end exactly once and every queued offset applied
// once to its slice, however many lanes share the rounds.
TEST(RunRounds, EveryTargetIsAppliedOnceToItsSliceForAnyLaneCount) {
  constexpr unsigned kChunks = 37, kSlices = 5;
  constexpr std::size_t kBudget = 2000;
  constexpr std::uint32_t kPerChunk = 5000;  // targets a chunk yields
  for (const unsigned lanes : {1u, 2u, 3u}) {
    std::vector<SliceQueues> queues;
    for (unsigned l = 0; l < lanes; ++l)
      queues.emplace_back(kSlices, round_capacity(lanes, kBudget) + 64, kRoundStep + 64);
    std::vector<std::uint32_t> progress(kChunks, 0);
    std::vector<std::vector<std::uint32_t>> applied(kSlices);
    std::atomic<int> scans_after_done{0};
    run_rounds(
        kChunks, kSlices, queues, kBudget,
        [&](unsigned c, SliceQueues& out, std::size_t limit) {
          if (progress[c] == kPerChunk) ++scans_after_done;
          while (progress[c] < kPerChunk && out.size() < limit) {
            const std::uint32_t target = c * kPerChunk + progress[c]++;
            out.push(target % kSlices, target);
          }
          return progress[c] == kPerChunk;
        },
        [&](unsigned t, std::span<const std::uint32_t> run) {
          for (const std::uint32_t target : run) {
            EXPECT_EQ(target % kSlices, t);
            applied[t].push_back(target);
          }
        });
    EXPECT_EQ(scans_after_done.load(), 0);
    std::vector<std::uint32_t> all;
    for (const auto& a : applied) all.insert(all.end(), a.begin(), a.end());
    std::sort(all.begin(), all.end());
    ASSERT_EQ(all.size(), std::size_t(kChunks) * kPerChunk) << lanes << " lanes";
    for (std::uint32_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);
  }
}

TEST(ImplicitBfs, EqualsExplicitOnEveryBoardBothHandle) {
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3}, {2, 5}}) {
    const Tiles p(rows, cols);
    expect_same_analysis(p, p.format(p.goal()));
    // The blank in the first cell, and in the middle of the board.
    Board corner, middle;
    const int centre = (rows / 2) * cols + cols / 2;
    for (int c = 0, t = 1; c < p.cells(); ++c) {
      corner.set(c, c == 0 ? 0u : unsigned(t++));
    }
    for (int c = 0, t = 1; c < p.cells(); ++c) middle.set(c, c == centre ? 0u : unsigned(t++));
    expect_same_analysis(p, p.format(corner));
    expect_same_analysis(p, p.format(middle));
  }
}

TEST(ImplicitBfs, EightPuzzleNumbers) {
  const Tiles p(3, 3);
  const ImplicitResult r = run_implicit(p, p.goal());
  EXPECT_EQ(r.states(), 181440u);
  EXPECT_EQ(r.layers.size() - 1, 31u);
  ASSERT_EQ(r.farthest.size(), 2u);
  EXPECT_EQ(p.format(r.farthest[0]), "6 4 7 / 8 5 _ / 3 2 1");
  EXPECT_EQ(p.format(r.farthest[1]), "8 6 7 / 2 5 4 / 3 _ 1");
}

// The twelve-cell boards (about 5 s each on two cores). The layer counts below came
// out equal from engines that share no search code: this one, the byte-per-rank
// distance table (`generate --compare`) and, on tiles:3x4, the explicit CSR graph
// (93 s, 10 GB), whose reports were byte-identical to this engine's. The radii, 53
// and 80, are Korf's (2008).
TEST(ImplicitBfs, TwelveCellBoardsLayersAndEveryFarthestPosition) {
  struct Known {
    int rows, cols;
    std::vector<std::uint64_t> layers;
    std::vector<std::string> farthest;
  };
  const std::vector<Known> known = {
      {3,
       4,
       {1,        2,        4,        9,        20,       37,       63,       122,      232,      431,      781,
        1392,     2494,     4442,     7854,     13899,    24215,    41802,    71167,    119888,   198363,   323206,
        515778,   811000,   1248011,  1885279,  2782396,  4009722,  5621354,  7647872,  10065800, 12760413, 15570786,
        18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217,  6583181,  4242753,
        2503873,  1350268,  643245,   270303,   92311,    27116,    5390,     1115,     86,       18},
       {"_ 3 2 1 / 8 7 6 5 / 4 11 10 9", "_ 8 2 1 / 11 3 10 5 / 4 7 6 9", "_ 8 2 9 / 11 3 6 5 / 4 7 10 1",
        "_ 8 2 9 / 11 7 10 5 / 4 3 6 1", "_ 8 6 1 / 11 3 2 5 / 4 7 10 9", "_ 8 6 9 / 11 7 2 5 / 4 3 10 1",
        "_ 8 6 9 / 11 7 10 1 / 4 3 2 5", "_ 11 2 1 / 3 7 6 5 / 4 8 10 9", "4 3 2 1 / 8 7 6 9 / _ 11 10 5",
        "4 3 2 1 / 8 11 6 5 / _ 7 10 9", "4 3 2 1 / 11 7 6 5 / _ 8 10 9", "4 3 2 5 / 8 7 6 1 / _ 11 10 9",
        "4 3 6 1 / 8 7 2 5 / _ 11 10 9", "8 3 2 1 / 4 7 6 5 / _ 11 10 9", "8 3 2 9 / 4 7 6 10 / _ 11 5 1",
        "8 3 6 9 / 4 7 2 5 / _ 11 10 1", "8 7 5 9 / 4 3 10 2 / _ 11 6 1", "11 8 2 1 / 3 7 10 5 / _ 4 6 9"}},
      {2,
       6,
       {1,       2,        3,        6,        11,       20,       36,       60,       95,       155,      258,
        426,     688,      1106,     1723,     2615,     3901,     5885,     8851,     13205,    19508,    28593,
        41179,   58899,    83582,    118109,   165136,   228596,   312542,   423797,   568233,   755727,   994641,
        1296097, 1667002,  2119476,  2660415,  3300586,  4038877,  4877286,  5804505,  6810858,  7864146,  8929585,
        9958080, 10902749, 11716813, 12356080, 12791679, 13002649, 12981651, 12723430, 12245198, 11572814, 10738102,
        9772472, 8720063,  7623133,  6526376,  5459196,  4457799,  3546306,  2749552,  2068975,  1510134,  1064591,
        720002,  464913,   284204,   165094,   89649,    45758,    21471,    9583,     3829,     1427,     430,
        129,     33,       12,       2},
       {"_ 6 4 3 8 1 / 11 5 10 9 2 7", "_ 11 4 3 2 1 / 6 5 10 9 8 7"}},
  };
  for (const Known& k : known) {
    const Tiles p(k.rows, k.cols);
    const ImplicitResult r = run_implicit(p, p.goal());
    EXPECT_EQ(r.states(), 239500800u) << p.name();
    EXPECT_EQ(r.layers, k.layers) << p.name();
    std::vector<std::string> farthest;
    for (const Board b : r.farthest) farthest.push_back(p.format(b));
    EXPECT_EQ(farthest, k.farthest) << p.name();
  }
}

TEST(ImplicitBfs, SameResultForAnyThreadCount) {
  const Tiles p(2, 5);
  ImplicitResult one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = run_implicit(p, p.goal());
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    two = run_implicit(p, p.goal());
  }
  EXPECT_EQ(one.layers, two.layers);
  EXPECT_EQ(one.layer_edges, two.layer_edges);
  EXPECT_EQ(one.farthest, two.farthest);
}

TEST(ImplicitBfs, RefusesOverTheMemoryBudgetWithTheNeedAndTheFlag) {
  const Tiles p(3, 4);
  // Three bitsets of one blank colour each (6 x 11!/2 positions): 1.5 bits for each
  // of the 12!/2 positions of one class.
  EXPECT_EQ(implicit_bytes(p), 3u * 6u * 19958400u / 8u);
  ImplicitOptions o;
  o.progress = false;
  o.memory = MemoryBudget(1 << 20);
  try {
    (void)implicit_bfs(p, p.goal(), o);
    FAIL() << "expected a refusal";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(with_commas(implicit_bytes(p))), std::string::npos) << what;
    EXPECT_NE(what.find("--memory"), std::string::npos) << what;
  }
}

TEST(ImplicitBfs, CliReportsAreByteIdenticalToTheExplicitEngines) {
  const auto root = testing::fresh_dir("implicit-cli");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"tiles:2x2", ""}, {"tiles:2x3", ""},
      {"tiles:3x2", ""}, {"tiles:2x4", ""},
      {"tiles:3x3", ""}, {"tiles:3x3", "4 1 2 / 5 _ 3 / 7 8 6"},
      {"tiles:2x5", ""}, {"tiles:2x5", "_ 1 2 3 4 / 5 6 7 8 9"}};
  for (const auto& [puzzle, from] : cases) {
    const std::string start = from.empty() ? "" : " --from '" + from + "'";
    for (const char* engine : {"explicit", "implicit"}) {
      const auto r = testing::run_statespace("analyze " + puzzle + start + " --quiet --engine " + engine + " --out " +
                                             (root / engine).string());
      ASSERT_EQ(r.exit_code, 0) << r.out;
    }
    std::string folder = puzzle;
    folder[5] = '-';
    testing::expect_same_reports(root / "implicit" / folder, root / "explicit" / folder);
  }
}

TEST(ImplicitBfs, CliEngineChoiceAndRefusals) {
  const auto other = testing::run_statespace("analyze hex6 --engine implicit --quiet --out /tmp/statespace-test-x");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.out.find("hex6: --engine implicit handles the tiles:RxC puzzles only"), std::string::npos)
      << other.out;
  const auto unknown = testing::run_statespace("analyze tiles:2x3 --engine fast --quiet");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.out.find(
                "unknown --engine 'fast' (expected one of: explicit, implicit, mpi, levels, ranked, chains, auto)"),
            std::string::npos);
  // auto picks implicit for tiles:3x4 (no graph.dot at 239,500,800 positions), which needs 44,906,400 bytes.
  const auto small = testing::run_statespace("analyze tiles:3x4 --engine auto --memory 40M --quiet");
  EXPECT_EQ(small.exit_code, 2);
  EXPECT_NE(small.out.find("tiles:3x4: implicit BFS needs 44,906,400 bytes"), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("--memory"), std::string::npos);
  const auto ex = testing::run_statespace("analyze tiles:3x4 --engine explicit --memory 1G --quiet");
  EXPECT_EQ(ex.exit_code, 2);
  EXPECT_NE(ex.out.find("explicit graph needs"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("or use --engine implicit, which needs 44,906,400 bytes)"), std::string::npos) << ex.out;
  // The explicit engine's refusal names the engine that fits.
  const auto big = testing::run_statespace("analyze tiles:2x7 --engine explicit --memory 20G --quiet");
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.out.find("or use --engine implicit, which needs 8,172,964,800 bytes)"), std::string::npos) << big.out;
  // Not when the request needs the explicit graph anyway.
  const auto components = testing::run_statespace("analyze tiles:3x4 --components --memory 1G --quiet");
  EXPECT_EQ(components.exit_code, 2);
  EXPECT_EQ(components.out.find("--engine implicit"), std::string::npos) << components.out;
}

}  // namespace
}  // namespace statespace
