// The visited-set strategies: the same answers for the same sequence of lookups,
// the seed's comparison counting on hand-checked cases, the name table, and the
// enumerations they drive (discover() with each strategy, the parallel ranked
// enumeration) giving the same reachable sets and layers on every model.
#include "core/lookup.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <random>
#include <set>
#include <vector>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/explicit/permutation_enumerate.hpp"
#include "analysis/engines/explicit/ranked_enumerate.hpp"
#include "core/rank_delta.hpp"
#include "models.hpp"
#include "puzzles/registry.hpp"

namespace statespace {
namespace {

Board board(std::uint64_t bits) { return Board{bits}; }

using testing::ranked_only;
using testing::small_models;

TEST(LinearLookup, CountsComparisonsLikeTheSeed) {
  LinearLookup<Board> set;
  EXPECT_TRUE(set.insert(board(10)));  // nothing stored: 0 comparisons
  EXPECT_TRUE(set.insert(board(20)));  // 1
  EXPECT_TRUE(set.insert(board(30)));  // 2
  EXPECT_EQ(set.stats(), (LookupStats{3, 3}));
  EXPECT_FALSE(set.insert(board(20)));    // hit at index 1: 2
  EXPECT_TRUE(set.contains(board(10)));   // hit at index 0: 1
  EXPECT_FALSE(set.contains(board(99)));  // miss: 3
  EXPECT_EQ(set.stats(), (LookupStats{6, 9}));
  EXPECT_EQ(set.size(), 3u);
}

TEST(LinearLookup, BlockScanFindsEveryIndex) {
  LinearLookup<Board> set;
  for (std::uint64_t i = 0; i < 37; ++i) set.insert(board(i * 7 + 1));
  for (std::uint64_t i = 0; i < 37; ++i) {
    const auto before = set.stats().comparisons;
    EXPECT_TRUE(set.contains(board(i * 7 + 1)));
    EXPECT_EQ(set.stats().comparisons - before, i + 1);
  }
}

TEST(SentinelLookup, OneMoreComparisonPerMissThanLinear) {
  SentinelLookup<Board> set;
  EXPECT_TRUE(set.insert(board(10)));     // the sentinel itself: 1
  EXPECT_TRUE(set.insert(board(20)));     // 1 + sentinel
  EXPECT_FALSE(set.insert(board(10)));    // hit at index 0: 1
  EXPECT_TRUE(set.contains(board(20)));   // 2
  EXPECT_FALSE(set.contains(board(30)));  // 2 + sentinel
  EXPECT_EQ(set.stats(), (LookupStats{5, 9}));
  EXPECT_EQ(set.size(), 2u);
}

// Every strategy answers a long random sequence of inserts and finds exactly as a
// std::set does.
TEST(Lookups, AgreeWithStdSetOnRandomSequences) {
  const Tiles p(3, 3);
  std::mt19937_64 rng(3);
  std::vector<Board> sequence;
  for (int i = 0; i < 3000; ++i) sequence.push_back(p.unrank(rng() % 400));  // many repeats
  std::set<std::uint64_t> reference;
  std::vector<bool> expected;
  for (const Board b : sequence) expected.push_back(reference.insert(b.bits).second);
  for (const auto kind : kLookupKinds) {
    with_lookup(kind, p, [&](auto& set) {
      std::vector<bool> got;
      for (const Board b : sequence) got.push_back(set.insert(b));
      EXPECT_EQ(got, expected) << lookup_name(kind);
      EXPECT_EQ(set.size(), reference.size()) << lookup_name(kind);
      for (std::uint64_t r = 0; r < 500; ++r) {
        EXPECT_EQ(set.contains(p.unrank(r)), reference.count(p.unrank(r).bits) == 1) << lookup_name(kind) << r;
      }
      EXPECT_EQ(set.stats().lookups, sequence.size() + 500) << lookup_name(kind);
      EXPECT_EQ(set.stats().comparisons > 0, counts_comparisons(kind)) << lookup_name(kind);
    });
  }
}

TEST(Lookups, NamesRoundTripAndUnknownNamesListTheAcceptedOnes) {
  for (const auto kind : kLookupKinds) EXPECT_EQ(parse_lookup(lookup_name(kind)), kind);
  EXPECT_EQ(lookup_names(), "linear|linear-sentinel|hashed|std-hashed|ranked");
  try {
    (void)parse_lookup("bloom");
    FAIL() << "accepted 'bloom'";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown lookup 'bloom' (expected one of: linear, linear-sentinel, hashed, std-hashed, ranked)");
  }
  EXPECT_THROW(with_lookup("Linear", Hex6{}, [](auto&) {}), ParseError);
}

TEST(Lookups, WithLookupHandsOverTheNamedType) {
  const Hex6 p;
  for (const auto kind : kLookupKinds) {
    EXPECT_EQ(with_lookup(kind, p, [](auto& set) { return std::remove_reference_t<decltype(set)>::kKind; }), kind);
  }
}

TEST(Lookups, MemoryEstimatesCoverTheRealTables) {
  const Tiles p(3, 3);
  EXPECT_EQ(lookup_bytes(LookupKind::kRanked, p, 0), 362880u / 8);
  EXPECT_EQ(lookup_bytes(LookupKind::kLinear, p, 181440), 181441u * 8);
  // absl: 181440 states need 2^18 slots (7/8 full at most), 9 bytes each.
  EXPECT_EQ(lookup_bytes(LookupKind::kHashed, p, 181440), (1u << 18) * 9u);
}

// discover() with every strategy visits the same states in the same order: the
// strategies differ in cost only. (The linear scans skip tiles:3x3: 4.4e10
// comparisons, 10-20 s each; the CLI test runs them on the seed puzzles.)
TEST(Lookups, DiscoverIsIdenticalWithEveryStrategyOnEveryModel) {
  for (const auto& any : small_models()) {
    std::visit(ranked_only([](const auto& p) {
                 RankedLookup ranked(p);
                 const auto reference = discover(p, p.goal(), ranked);
                 for (const auto kind : kLookupKinds) {
                   if (counts_comparisons(kind) && reference.order.size() > 50'000) continue;
                   with_lookup(kind, p, [&](auto& set) {
                     const auto d = discover(p, p.goal(), set);
                     EXPECT_EQ(d.order, reference.order) << p.name() << " " << lookup_name(kind);
                     EXPECT_EQ(d.layers, reference.layers) << p.name() << " " << lookup_name(kind);
                     EXPECT_EQ(set.size(), d.order.size());
                   });
                 }
               }),
               any);
  }
}

// The parallel ranked enumeration finds the same set and layers as the sequential
// discover(), whatever the thread count.
TEST(EnumerateRanked, EqualsDiscoverForAnyThreadCount) {
  for (const auto& any : small_models()) {
    std::visit(ranked_only([](const auto& p) {
                 RankedLookup ranked(p);
                 const auto reference = discover(p, p.goal(), ranked);
                 std::vector<std::uint64_t> reference_ranks;
                 ranked.bits().for_each([&](std::uint64_t r) { reference_ranks.push_back(r); });
                 for (int threads : {1, 2, 4}) {
                   tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
                   const auto e = enumerate_ranked(p, p.goal());
                   std::vector<std::uint64_t> ranks;
                   e.members.for_each([&](std::uint64_t r) { ranks.push_back(r); });
                   EXPECT_EQ(ranks, reference_ranks) << p.name() << " threads " << threads;
                   EXPECT_EQ(e.layers, reference.layers) << p.name() << " threads " << threads;
                   EXPECT_EQ(e.states(), reference.order.size());
                   // discover() also looks up the start; permutation puzzles skip the move
                   // back to the parent, one per state but the start.
                   const std::uint64_t skipped =
                       std::derived_from<std::decay_t<decltype(p)>, PermutationPuzzle> ? reference.order.size() - 1 : 0;
                   EXPECT_EQ(e.lookups, ranked.stats().lookups - 1 - skipped) << p.name();
                 }
               }),
               any);
  }
}

// The incremental child ranks equal the model's rank on every move of every
// position of hex6 and tiles:3x3, and on samples of tiles:2x5 and tiles:4x4.
TEST(RankDelta, ChildRanksEqualPermutationRank) {
  const auto check = [](const PermutationPuzzle& p, std::uint64_t step) {
    for (std::uint64_t r = 0; r < p.rank_space(); r += step) {
      const Board s = p.unrank(r);
      const int blank = find_blank(s, p.cells());
      std::vector<Board> expected;
      p.for_each_successor(s, [&](Board child) { expected.push_back(child); });
      ASSERT_EQ(expected.size(), std::size_t(p.degree(blank)));
      for (int k = 0; k < p.degree(blank); ++k) {
        const SwapMove move(p.cells(), blank, p.neighbour(blank, k));
        ASSERT_EQ(move.apply(s), expected[std::size_t(k)]);
        EXPECT_EQ(move.rank_after(s, r), p.rank(expected[std::size_t(k)])) << p.format(s) << " move " << k;
      }
    }
  };
  check(Hex6{}, 1);
  check(Tiles(3, 3), 1);
  check(Tiles(2, 5), 7);
  check(Tiles(4, 4), 1'000'000'007);
}

// Each bucket's moves skip exactly the move back to where the blank came from.
TEST(RankDelta, BucketMovesLeaveOutTheWayBack) {
  const Tiles p(3, 3);
  const BucketMoves moves(p);
  EXPECT_EQ(moves.moves(BucketMoves::bucket(4, BucketMoves::kStart)).size(), 4u);
  const auto& from_up = moves.moves(BucketMoves::bucket(4, 1));
  ASSERT_EQ(from_up.size(), 3u);
  for (const auto& m : from_up) {
    EXPECT_NE(m.swap.tile(), 1);
    EXPECT_EQ(m.swap.blank(), 4);
    EXPECT_EQ(m.destination, BucketMoves::bucket(m.swap.tile(), 4));
  }
}

TEST(RankBitset, FromWordsKeepsTheBits) {
  std::vector<std::uint64_t> words(16, 0);
  words[15] = std::uint64_t{1} << 39;  // rank 999
  const RankBitset bits = RankBitset::from_words(1000, std::move(words));
  EXPECT_EQ(bits.size(), 1000u);
  EXPECT_TRUE(bits.test(999));
  EXPECT_FALSE(bits.test(998));
  EXPECT_EQ(bits.count(), 1u);
}

}  // namespace
}  // namespace statespace
