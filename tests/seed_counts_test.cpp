// Seed 003's published costs, reproduced by running the seeds' own search orders
// with our lookups: 43,454,059 comparisons for hex3.c's enumeration from the goal,
// 7,598,140 and 2818 states for hex1.c's solve, 64 states for oshidori.c's, 342 for
// hex2.c's bidirectional search; and the bidirectional solver against forward BFS
// on every NO-OFF and 6-puzzle position.
#include <gtest/gtest.h>

#include "analysis/bidirectional.hpp"
#include "analysis/explicit_space.hpp"
#include "analysis/solve.hpp"
#include "core/lookup.hpp"
#include "core/registry.hpp"

namespace statespace {
namespace {

constexpr std::uint64_t kHex3Comparisons = 43'454'059;
constexpr std::uint64_t kHex1Comparisons = 7'598'140;

TEST(SeedCounts, Hex3EnumerationFromTheGoalMakes43454059Comparisons) {
  const Hex6 p;
  LinearLookup<Board> linear;
  const auto d = discover(p, p.goal(), linear);
  EXPECT_EQ(d.order.size(), 5040u);
  EXPECT_EQ(d.layers.size(), 16u);  // depths 0..15
  EXPECT_EQ(linear.stats().comparisons, kHex3Comparisons);
  // The sentinel variant pays one more comparison per new state (start included).
  SentinelLookup<Board> sentinel;
  (void)discover(p, p.goal(), sentinel);
  EXPECT_EQ(sentinel.stats().comparisons, kHex3Comparisons + 5040);
  EXPECT_EQ(sentinel.stats().lookups, linear.stats().lookups);
}

TEST(SeedCounts, Hex1SolveMakes7598140ComparisonsAndStores2818States) {
  const Hex6 p;
  LinearLookup<Board> linear;
  const auto sol = solve_bfs(p, p.parse("1 5 2 6 3 4 _"), p.goal(), linear, MemoryBudget());
  EXPECT_EQ(sol.path.size() - 1, 11u);
  EXPECT_EQ(sol.stored, 2818u);
  EXPECT_EQ(linear.stats().comparisons, kHex1Comparisons);
}

TEST(SeedCounts, OshidoriSolveWithTheSentinelStores64States) {
  const Oshidori p;
  SentinelLookup<Board> sentinel;
  const auto sol = solve_bfs(p, p.start(), p.goal(), sentinel, MemoryBudget());
  EXPECT_EQ(sol.path.size() - 1, 4u);
  EXPECT_EQ(sol.stored, 64u);  // oshidori.c: 状態数 64
}

// The lookup changes the cost, never the answer: the same stored count and path
// with every strategy.
TEST(SeedCounts, SolveIsIdenticalWithEveryLookup) {
  const Hex6 p;
  const auto start = p.parse("1 5 2 6 3 4 _");
  RankedLookup reference_set(p);
  const auto reference = solve_bfs(p, start, p.goal(), reference_set, MemoryBudget());
  for (const auto kind : kLookupKinds) {
    with_lookup(kind, p, [&](auto& set) {
      const auto sol = solve_bfs(p, start, p.goal(), set, MemoryBudget());
      EXPECT_EQ(sol.path, reference.path) << lookup_name(kind);
      EXPECT_EQ(sol.stored, reference.stored) << lookup_name(kind);
      EXPECT_EQ(set.stats().lookups, reference_set.stats().lookups) << lookup_name(kind);
    });
  }
}

TEST(SeedCounts, Hex2BidirectionalStores342States) {
  const Hex6 p;
  const auto sol = solve_bidirectional(p, p.parse("1 5 2 6 3 4 _"), p.goal(), MemoryBudget());
  EXPECT_EQ(sol.stored, 342u);  // hex2.c: 状態数 342
  EXPECT_EQ(sol.path.size() - 1, 11u);
  EXPECT_EQ(sol.seed_moves, 11u);
}

// A valid path: starts and ends right, every step is a move.
template <Puzzle P>
bool is_path(const P& p, const std::vector<typename P::State>& path, const typename P::State& start,
             const typename P::State& goal) {
  if (path.empty() || path.front() != start || path.back() != goal) return false;
  for (std::size_t i = 1; i < path.size(); ++i) {
    bool step = false;
    p.for_each_successor(path[i - 1], [&](const auto& s) { step = step || s == path[i]; });
    if (!step) return false;
  }
  return true;
}

// Every position of the puzzle, solved to the goal both ways. Returns how many
// positions the seed's stop-at-first-meeting rule would solve one move too long.
template <Puzzle P>
std::uint64_t check_every_position(const P& p) {
  std::uint64_t longer = 0;
  for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
    const auto start = p.unrank(r);
    RankedLookup visited(p);
    const auto forward = solve_bfs(p, start, p.goal(), visited, MemoryBudget());
    const auto both = solve_bidirectional(p, start, p.goal(), MemoryBudget());
    EXPECT_EQ(both.path.size(), forward.path.size()) << p.format(start);
    EXPECT_TRUE(is_path(p, both.path, start, p.goal())) << p.format(start);
    if (both.path.size() > 1) {
      EXPECT_GE(both.seed_moves, both.path.size() - 1);
      EXPECT_LE(both.seed_moves, both.path.size());
      longer += both.seed_moves != both.path.size() - 1;
    }
  }
  return longer;
}

TEST(Bidirectional, SameLengthAsForwardBfsOnEveryNoOffAndHex6Position) {
  const std::uint64_t nooff_longer = check_every_position(NoOff{});
  const std::uint64_t hex6_longer = check_every_position(Hex6{});
  // The seed's rule is not always optimal; finishing the meeting level fixes it.
  RecordProperty("nooff_seed_rule_longer", std::to_string(nooff_longer));
  RecordProperty("hex6_seed_rule_longer", std::to_string(hex6_longer));
  EXPECT_EQ(nooff_longer, 0u);
  EXPECT_EQ(hex6_longer, 0u);
}

TEST(Bidirectional, UnreachableGoalGivesNoPath) {
  const Tiles p(2, 3);
  const auto start = p.parse("2 1 3 / 4 5 _");  // the other parity class
  const auto sol = solve_bidirectional(p, start, p.goal(), MemoryBudget());
  EXPECT_TRUE(sol.path.empty());
  EXPECT_EQ(sol.stored, 720u);  // both classes explored in full
  const auto same = solve_bidirectional(p, p.goal(), p.goal(), MemoryBudget());
  EXPECT_EQ(same.path, std::vector<Board>{p.goal()});
}

}  // namespace
}  // namespace statespace
