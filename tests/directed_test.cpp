// Directed spaces on the explicit engine, the solvers and every report: two small
// models written here, a row of pegs (peg solitaire in one dimension: a jump removes
// a peg, so no move is ever undone) and a cyclic toy with moves back to earlier
// depths and dead ends, with and without predecessors. Every number is checked
// against a brute-force reference (a forward search from each position) and, for
// the cases below, against values worked out by hand.
#include "analysis/engines/directed.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solvers/bidirectional.hpp"
#include "analysis/solvers/solve.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "reports/article.hpp"
#include "reports/dot.hpp"
#include "reports/puzzle_report.hpp"
#include "reports/summary_json.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

// n cells in a row, bit i a peg in cell i: a peg jumps over a neighbouring peg into
// the hole beyond it, and the peg jumped over is removed. The goal is one peg left.
// Ranked by the bits themselves, so the ranked enumeration runs it.
class PegRow {
 public:
  using State = std::uint32_t;
  PegRow(int cells, std::string_view start, bool with_goal = true)
      : cells_(cells), start_(parse(start)), with_goal_(with_goal) {}

  [[nodiscard]] int max_moves() const { return 2 * cells_; }
  [[nodiscard]] std::string name() const { return "peg-row"; }
  // A puzzle file's convention: goal() is the start, the goal a predicate.
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] std::string format(State s) const {
    std::string out;
    for (int i = 0; i < cells_; ++i) out += std::string(i ? " " : "") + ((s >> i & 1) ? "O" : ".");
    return out;
  }
  [[nodiscard]] State parse(std::string_view text) const {
    State s = 0;
    int i = 0;
    for (char c : text) {
      if (c == ' ') continue;
      if (c == 'O') s |= State(1) << i;
      ++i;
    }
    return s;
  }
  [[nodiscard]] std::vector<int> row_lengths() const { return {cells_}; }
  template <class F>
  void for_each_successor(State s, F&& f) const {
    for (int i = 0; i < cells_; ++i) {
      for (int d : {1, -1}) {
        const int j = i + d, k = i + 2 * d;
        if (k < 0 || k >= cells_) continue;
        if (peg(s, i) && peg(s, j) && !peg(s, k)) f(State((s & ~bit(i) & ~bit(j)) | bit(k)));
      }
    }
  }
  [[nodiscard]] bool directed() const { return true; }
  // A jump read backwards: a peg at k with two holes behind it came from pegs there.
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for (int k = 0; k < cells_; ++k) {
      for (int d : {1, -1}) {
        const int j = k - d, i = k - 2 * d;
        if (i < 0 || i >= cells_) continue;
        if (peg(s, k) && !peg(s, j) && !peg(s, i)) f(State((s & ~bit(k)) | bit(i) | bit(j)));
      }
    }
  }
  [[nodiscard]] bool has_goal() const { return with_goal_; }
  [[nodiscard]] bool is_goal(State s) const { return std::popcount(s) == 1; }
  [[nodiscard]] std::string goal_text() const { return "one peg"; }
  [[nodiscard]] std::uint64_t rank_space() const { return std::uint64_t(1) << cells_; }
  [[nodiscard]] std::uint64_t rank(State s) const { return s; }
  [[nodiscard]] State unrank(std::uint64_t r) const { return State(r); }

 private:
  static State bit(int i) { return State(1) << i; }
  static bool peg(State s, int i) { return (s >> i & 1) != 0; }
  int cells_;
  State start_;
  bool with_goal_;
};

// Eight positions 0..7 and ten one-way moves: the cycle 0 -> 1 -> 2 -> 0, a way on
// 2 -> 3, the pair 3 <-> 4, 3 -> 5 -> 6 and 1 -> 7 -> 6. From 0 the goal 5 is four
// moves away; 6 and 7 never reach it. Unranked, so the hashed enumeration runs it;
// kPredecessors decides whether it is a ReversiblePuzzle.
template <bool kPredecessors>
class CyclicToy {
 public:
  using State = int;
  static constexpr std::array<std::pair<int, int>, 10> kMoves = {
      {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}, {3, 5}, {5, 6}, {1, 7}, {7, 6}}};

  [[nodiscard]] int max_moves() const { return 2; }
  [[nodiscard]] std::string name() const { return kPredecessors ? "toy-reversible" : "toy-forward"; }
  [[nodiscard]] State goal() const { return 5; }
  [[nodiscard]] std::string format(State s) const { return std::to_string(s); }
  [[nodiscard]] State parse(std::string_view text) const { return std::stoi(std::string(text)); }
  [[nodiscard]] std::vector<int> row_lengths() const { return {1}; }
  template <class F>
  void for_each_successor(State s, F&& f) const {
    for (const auto& [from, to] : kMoves) {
      if (from == s) f(to);
    }
  }
  template <class F>
  void for_each_position(F&& f) const {
    for (int s = 0; s < 8; ++s) f(s);
  }
  [[nodiscard]] bool directed() const { return true; }
  template <class F>
  void for_each_predecessor(State s, F&& f) const requires kPredecessors {
    for (const auto& [from, to] : kMoves) {
      if (to == s) f(from);
    }
  }
};

static_assert(ReversiblePuzzle<PegRow>);
static_assert(ReversiblePuzzle<CyclicToy<true>>);
static_assert(DirectedPuzzle<CyclicToy<false>> && !ReversiblePuzzle<CyclicToy<false>>);

// What a directed analysis must find, by brute force: a forward search from the
// start, then one forward search from every reachable position for its distance to
// the nearest goal.
struct Reference {
  std::uint64_t states = 0, moves = 0;
  std::vector<std::uint64_t> layers;
  std::set<std::string> farthest;
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> layer_edges;
  std::vector<std::uint64_t> goal_layers;
  std::set<std::string> hardest;
  std::uint64_t dead_ends = 0, goals = 0;
  std::optional<unsigned> shortest;
};

template <class P, class Goal>
std::map<typename P::State, unsigned> forward_distances(const P& p, typename P::State from, const Goal& stop) {
  std::map<typename P::State, unsigned> dist{{from, 0}};
  std::queue<typename P::State> queue;
  queue.push(from);
  while (!queue.empty()) {
    const auto u = queue.front();
    queue.pop();
    if (stop(u)) break;
    p.for_each_successor(u, [&](const typename P::State& v) {
      if (dist.try_emplace(v, dist[u] + 1).second) queue.push(v);
    });
  }
  return dist;
}

template <class P, class Goal>
Reference brute_force(const P& p, typename P::State start, const Goal& is_goal) {
  Reference ref;
  const auto dist = forward_distances(p, start, [](const auto&) { return false; });
  ref.states = dist.size();
  unsigned far = 0;
  for (const auto& [s, d] : dist) far = std::max(far, d);
  ref.layers.assign(far + 1, 0);
  std::map<typename P::State, unsigned> to_goal;
  for (const auto& [s, d] : dist) {
    ++ref.layers[d];
    if (d == far) ref.farthest.insert(p.format(s));
    p.for_each_successor(s, [&](const typename P::State& t) {
      ++ref.moves;
      ++ref.layer_edges[{d, dist.at(t)}];
    });
    if (is_goal(s)) ++ref.goals;
    const auto mine = forward_distances(p, s, is_goal);
    std::optional<unsigned> best;
    for (const auto& [t, e] : mine) {
      if (is_goal(t) && (!best || e < *best)) best = e;
    }
    if (best) {
      to_goal[s] = *best;
    } else {
      ++ref.dead_ends;
    }
  }
  if (to_goal.contains(start)) ref.shortest = to_goal[start];
  unsigned hardest = 0;
  for (const auto& [s, d] : to_goal) hardest = std::max(hardest, d);
  if (!to_goal.empty()) ref.goal_layers.assign(hardest + 1, 0);
  for (const auto& [s, d] : to_goal) {
    ++ref.goal_layers[d];
    if (d == hardest) ref.hardest.insert(p.format(s));
  }
  return ref;
}

void expect_matches(const AnalysisResult& r, const Reference& ref) {
  EXPECT_TRUE(r.directed);
  EXPECT_EQ(r.states, ref.states);
  EXPECT_EQ(r.edges, ref.moves);  // each move once, in its direction
  EXPECT_EQ(r.layers, ref.layers);
  EXPECT_EQ(std::set<std::string>(r.farthest.begin(), r.farthest.end()), ref.farthest);
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> edges;
  for (const auto& e : r.layer_edges) edges[{e.from, e.to}] += e.count;
  EXPECT_EQ(edges, ref.layer_edges);
  ASSERT_TRUE(r.goal);
  EXPECT_EQ(r.goal->reached, ref.goals);
  EXPECT_EQ(r.goal->shortest, ref.shortest);
  EXPECT_EQ(r.goal->layers, ref.goal_layers);
  EXPECT_EQ(std::set<std::string>(r.goal->hardest.begin(), r.goal->hardest.end()), ref.hardest);
  EXPECT_EQ(r.goal->dead_ends, std::optional<std::uint64_t>(ref.dead_ends));
  EXPECT_TRUE(r.unavailable.empty());
}

// Both of the explicit engine's paths: the CSR graph kept, and the search through the
// model's successors without it.
template <class P>
std::array<AnalysisResult, 2> both_paths(const P& p, AnalyzeOptions o) {
  AnalysisResult with_graph = analyze_explicit(p, o).result;
  o.draw_graph = false;
  AnalysisResult without = analyze_explicit(p, o, resolve_start(p, o), false).result;
  return {with_graph, without};
}

AnalysisResult toy_result(bool predecessors) {
  AnalyzeOptions o;
  o.from = "0";
  return predecessors ? analyze_explicit(CyclicToy<true>(), o).result : analyze_explicit(CyclicToy<false>(), o).result;
}

TEST(DirectedExplicit, PegRowEqualsBruteForceOnBothPathsAtOneTwoFourThreads) {
  const PegRow eight(8, "O O O O . O O O");
  for (int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    for (const auto& r : both_paths(eight, AnalyzeOptions())) {
      // Worked out by hand: a jump removes a peg, so depth d has 7 - d pegs.
      EXPECT_EQ(r.states, 16u);
      EXPECT_EQ(r.edges, 19u);
      EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 2, 3, 3, 3, 2, 2}));
      EXPECT_EQ(r.farthest, (std::vector<std::string>{". . . O . . . .", ". . . . . . O ."}));
      EXPECT_EQ(r.layer_edges,
                (std::vector<LayerEdges>{{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 4}, {4, 5, 4}, {5, 6, 2}}));
      ASSERT_TRUE(r.goal);
      EXPECT_EQ(r.goal->goal, "one peg");
      EXPECT_EQ(r.goal->reached, 2u);
      EXPECT_EQ(r.goal->shortest, 6u);
      EXPECT_EQ(r.goal->layers, (std::vector<std::uint64_t>{2, 1, 2, 2, 2, 1, 1}));
      EXPECT_EQ(r.goal->dead_ends, 5u);
      EXPECT_EQ(r.goal->hardest, (std::vector<std::string>{"O O O O . O O O"}));
      expect_matches(r, brute_force(eight, eight.goal(), [&](auto s) { return eight.is_goal(s); }));
    }
  }
  // The hashed visited set takes the breadth-first discovery instead of the ranked
  // enumeration: the same space.
  AnalyzeOptions hashed;
  hashed.lookup = LookupKind::kHashed;
  for (const auto& r : both_paths(eight, hashed)) {
    EXPECT_EQ(r.lookup, "hashed");
    expect_matches(r, brute_force(eight, eight.goal(), [&](auto s) { return eight.is_goal(s); }));
  }
  // Other rows and starts, each against the brute force.
  for (const auto& [cells, start] : std::vector<std::pair<int, std::string>>{
           {6, "O O O O . O"}, {7, "O O O O . O O"}, {9, "O O . O O O . O O"}, {10, "O . O O O O . O O O"}}) {
    const PegRow p(cells, start);
    for (const auto& r : both_paths(p, AnalyzeOptions())) {
      expect_matches(r, brute_force(p, p.goal(), [&](auto s) { return p.is_goal(s); }));
    }
  }
}

TEST(DirectedExplicit, CyclicToyCountsMovesBackToEarlierDepthsAndDeadEnds) {
  AnalyzeOptions o;
  o.from = "0";
  const CyclicToy<true> toy;
  for (int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    for (const auto& r : both_paths(toy, o)) {
      EXPECT_EQ(r.states, 8u);
      EXPECT_EQ(r.edges, 10u);
      EXPECT_EQ(r.layers, (std::vector<std::uint64_t>{1, 1, 2, 2, 2}));
      EXPECT_EQ(r.farthest, (std::vector<std::string>{"4", "5"}));
      // 2 -> 0 goes back two depths, 4 -> 3 and 5 -> 6 one.
      EXPECT_EQ(r.layer_edges,
                (std::vector<LayerEdges>{{0, 1, 1}, {1, 2, 2}, {2, 0, 1}, {2, 3, 2}, {3, 4, 2}, {4, 3, 2}}));
      ASSERT_TRUE(r.goal);
      EXPECT_EQ(r.goal->goal, "5");
      EXPECT_EQ(r.goal->reached, 1u);
      EXPECT_EQ(r.goal->shortest, 4u);
      // 5; 3; 2 and 4; 1; 0. An undirected search would put 6 one move from 5.
      EXPECT_EQ(r.goal->layers, (std::vector<std::uint64_t>{1, 1, 2, 1, 1}));
      EXPECT_EQ(r.goal->hardest, (std::vector<std::string>{"0"}));
      EXPECT_EQ(r.goal->dead_ends, 2u);
      EXPECT_TRUE(r.unavailable.empty());
      expect_matches(r, brute_force(toy, 0, [](int s) { return s == 5; }));
    }
  }
}

TEST(DirectedExplicit, WithoutPredecessorsTheGoalViewsAreNamedUnavailable) {
  AnalyzeOptions o;
  o.from = "0";
  for (const auto& r : both_paths(CyclicToy<false>(), o)) {
    const AnalysisResult with = toy_result(true);
    // The forward facts are the same as with predecessors.
    EXPECT_EQ(r.layers, with.layers);
    EXPECT_EQ(r.farthest, with.farthest);
    EXPECT_EQ(r.layer_edges, with.layer_edges);
    EXPECT_EQ(r.edges, 10u);
    ASSERT_TRUE(r.goal);
    EXPECT_EQ(r.goal->reached, 1u);
    EXPECT_EQ(r.goal->shortest, 4u);  // the search from the start finds it
    EXPECT_TRUE(r.goal->layers.empty());
    EXPECT_TRUE(r.goal->hardest.empty());
    EXPECT_FALSE(r.goal->dead_ends);
    ASSERT_EQ(r.unavailable.size(), 3u);
    EXPECT_EQ(r.unavailable[0].view, "distance to the goal");
    EXPECT_EQ(r.unavailable[1].view, "farthest from the goal");
    EXPECT_EQ(r.unavailable[2].view, "dead ends");
    for (const auto& u : r.unavailable) EXPECT_EQ(u.reason, no_predecessors_reason());
  }
}

TEST(DirectedExplicit, WithoutAGoalTheGoalViewsAreNamedUnavailable) {
  const PegRow p(8, "O O O O . O O O", false);
  const AnalysisResult r = analyze_explicit(p, AnalyzeOptions()).result;
  EXPECT_EQ(r.states, 16u);
  EXPECT_FALSE(r.goal);
  EXPECT_EQ(r.unavailable, goal_views_unavailable("the puzzle names no goal"));
}

TEST(DirectedExplicit, AllPairsAndComponentsAreRefusedBeforeAnyWork) {
  const PegRow p(8, "O O O O . O O O");
  for (const bool all_pairs : {true, false}) {
    AnalyzeOptions o;
    o.all_pairs = all_pairs;
    o.components = !all_pairs;
    const std::string flag = all_pairs ? "--all-pairs" : "--components";
    try {
      (void)choose_engine(p, o);
      ADD_FAILURE() << flag << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("peg-row: " + flag), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cannot always be undone"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)analyze_explicit(p, o), UsageError);
  }
}

TEST(DirectedExplicit, ThePipelineRunsTheExplicitEngineOnADirectedModel) {
  const PegRow p(8, "O O O O . O O O");
  const AnalyzeOptions o;
  const auto plan = choose_engine(p, o);
  EXPECT_EQ(plan.engine, Engine::explicit_graph);
  const AnalysisResult r = run_analysis(p, o, plan).result;
  expect_matches(r, brute_force(p, p.goal(), [&](auto s) { return p.is_goal(s); }));
}

// --- solvers ---

template <class P>
void expect_path_of_moves(const P& p, const std::vector<typename P::State>& path) {
  for (std::size_t i = 1; i < path.size(); ++i) {
    bool move = false;
    p.for_each_successor(path[i - 1], [&](const auto& s) { move = move || s == path[i]; });
    EXPECT_TRUE(move) << p.format(path[i - 1]) << " -> " << p.format(path[i]) << " is not a move";
  }
}

TEST(DirectedSolvers, BidirectionalFollowsPredecessorsOrSearchesForwardOnly) {
  const CyclicToy<true> with;
  const CyclicToy<false> without;
  const auto a = solve_bidirectional(with, 0, 5, MemoryBudget());
  const auto b = solve_bidirectional(without, 0, 5, MemoryBudget());
  EXPECT_EQ(a.path, (std::vector<int>{0, 1, 2, 3, 5}));
  EXPECT_EQ(b.path, (std::vector<int>{0, 1, 2, 3, 5}));
  // 4 -> 3 -> 2 would be two moves if moves could be undone; 3 never reaches 2.
  EXPECT_TRUE(solve_bidirectional(with, 4, 2, MemoryBudget()).path.empty());
  EXPECT_TRUE(solve_bidirectional(without, 4, 2, MemoryBudget()).path.empty());
  // 6 -> ... : 6 is a dead end, and 7 reaches 6 only.
  EXPECT_TRUE(solve_bidirectional(with, 7, 5, MemoryBudget()).path.empty());
  // 2 -> 0 is one move; 0 -> 2 is two.
  EXPECT_EQ(solve_bidirectional(with, 2, 0, MemoryBudget()).path, (std::vector<int>{2, 0}));
  EXPECT_EQ(solve_bidirectional(with, 0, 2, MemoryBudget()).path, (std::vector<int>{0, 1, 2}));

  // A peg row: every distance to a one-peg position equals the BFS's.
  const PegRow p(8, "O O O O . O O O");
  for (const char* goal : {". . . O . . . .", ". . . . . . O ."}) {
    const auto both = solve_bidirectional(p, p.goal(), p.parse(goal), MemoryBudget());
    HashedLookup<PegRow::State> visited(0);
    const auto forward = solve_bfs(p, p.goal(), p.parse(goal), visited, MemoryBudget());
    EXPECT_EQ(both.path.size(), 7u) << goal;
    EXPECT_EQ(forward.path.size(), 7u) << goal;
    expect_path_of_moves(p, both.path);
    expect_path_of_moves(p, forward.path);
  }
}

TEST(DirectedSolvers, ForwardSearchToAPredicateAndTheUnsolvableReason) {
  const PegRow p(8, "O O O O . O O O");
  HashedLookup<PegRow::State> visited(0);
  const auto sol = solve_bfs_until(
      p, p.goal(), [&](auto s) { return p.is_goal(s); }, visited, MemoryBudget());
  EXPECT_EQ(sol.path.size(), 7u);  // the shortest solution: 6 jumps
  expect_path_of_moves(p, sol.path);
  EXPECT_EQ(unsolvable_reason(CyclicToy<true>(), 4, 2, 4),
            "toy-reversible: no solution from 4 to 2: the 4 positions it reaches do not include the goal");
}

// --- reports ---

TEST(DirectedReports, SummaryJsonAddsDirectedKeysAndReadsBack) {
  const AnalysisResult with = toy_result(true), without = toy_result(false);
  const std::string a = reports::summary_json(with), b = reports::summary_json(without);
  EXPECT_NE(a.find("\"edges\": 10,\n  \"directed\": true,"), std::string::npos) << a;
  EXPECT_NE(a.find("\"distribution\": [\n      1,\n      1,\n      2,\n      1,\n      1\n    ],"), std::string::npos)
      << a;
  EXPECT_NE(a.find("\"dead_ends\": 2"), std::string::npos) << a;
  EXPECT_EQ(a.find("unavailable"), std::string::npos) << a;
  // Without predecessors: no distance to the goal written as if it were one.
  EXPECT_EQ(b.find("hardest_distance"), std::string::npos) << b;
  EXPECT_EQ(b.find("dead_ends"), std::string::npos) << b;
  EXPECT_NE(b.find("\"shortest\": 4"), std::string::npos) << b;
  EXPECT_NE(
      b.find("\"unavailable\": [\n    {\n      \"view\": \"distance to the goal\",\n      \"reason\": \"the moves "
             "cannot always be undone"),
      std::string::npos)
      << b;
  for (const auto& r : {with, without}) {
    const std::string text = reports::summary_json(r);
    const AnalysisResult back = reports::read_summary_json(text);
    EXPECT_EQ(reports::summary_json(back), text);
    EXPECT_TRUE(back.directed);
    EXPECT_EQ(back.unavailable, r.unavailable);
  }
}

TEST(DirectedReports, UndirectedSummaryKeepsItsKeys) {
  AnalyzeOptions o;
  const AnalysisResult r = analyze_explicit(std::get<Oshidori>(make_puzzle("oshidori")), o).result;
  const std::string text = reports::summary_json(r);
  EXPECT_EQ(text.find("directed"), std::string::npos);
  EXPECT_EQ(text.find("unavailable"), std::string::npos);
  EXPECT_TRUE(reports::summary_csv({r}).starts_with(
      "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component\noshidori,"));
  EXPECT_TRUE(reports::layers_dot(r).starts_with("graph layers {"));
  EXPECT_EQ(reports::layers_dot(r).find("->"), std::string::npos);
}

TEST(DirectedReports, GoalDistributionHardestAndSummaryTables) {
  const AnalysisResult with = toy_result(true), without = toy_result(false);
  EXPECT_EQ(reports::goal_distribution_csv(with),
            "distance_to_goal,count,cumulative\n0,1,1\n1,1,2\n2,2,4\n3,1,5\n4,1,6\ndead_ends,2,8\n");
  EXPECT_EQ(reports::hardest_csv(with), "distance_to_goal,position\n4,0\n");
  EXPECT_EQ(reports::distribution_csv(with), "depth,count,cumulative\n0,1,1\n1,1,2\n2,2,4\n3,2,6\n4,2,8\n");
  EXPECT_EQ(reports::farthest_csv(with), "distance,position\n4,4\n4,5\n");
  EXPECT_EQ(reports::summary_csv({with, without}),
            "puzzle,start,states,edges,eccentricity,farthest,diameter,components,start_component,directed,shortest,"
            "hardest_to_goal,dead_ends\n"
            "toy-reversible,0,8,10,4,2,,,,yes,4,4,2\n"
            "toy-forward,0,8,10,4,2,,,,yes,4,n/a,n/a\n");
  EXPECT_EQ(
      reports::summary_markdown({with, without}),
      "| puzzle | start | states | edges | eccentricity | farthest positions | diameter | components | directed | "
      "shortest solution | hardest to the goal | dead ends |\n"
      "|---|---|--:|--:|--:|--:|--:|---|---|--:|--:|--:|\n"
      "| toy-reversible | `0` | 8 | 10 | 4 | 2 |  |  | yes | 4 | 4 | 2 |\n"
      "| toy-forward | `0` | 8 | 10 | 4 | 2 |  |  | yes | 4 | n/a | n/a |\n");
  AnalysisResult no_goal = analyze_explicit(PegRow(8, "O O O O . O O O", false), AnalyzeOptions()).result;
  EXPECT_EQ(reports::summary_csv({no_goal}).substr(reports::summary_csv({no_goal}).find('\n') + 1),
            "peg-row,O O O O . O O O,16,19,6,2,,,,yes,n/a,n/a,n/a\n");
}

TEST(DirectedReports, DotFilesDrawArrowsOncePerMove) {
  const AnalysisResult with = toy_result(true);
  EXPECT_EQ(reports::layers_dot(with),
            "digraph layers {\nrankdir=TB;\nnode [shape=box];\n"
            "d0 [label=\"depth 0\\n1 position\"];\nd1 [label=\"depth 1\\n1 position\"];\n"
            "d2 [label=\"depth 2\\n2 positions\"];\nd3 [label=\"depth 3\\n2 positions\"];\n"
            "d4 [label=\"depth 4\\n2 positions\"];\n"
            "d0 -> d1 [label=\"1\"];\nd1 -> d2 [label=\"2\"];\nd2 -> d0 [label=\"1\", constraint=false];\n"
            "d2 -> d3 [label=\"2\"];\nd3 -> d4 [label=\"2\"];\nd4 -> d3 [label=\"2\", constraint=false];\n}\n");
  AnalyzeOptions o;
  o.from = "0";
  const auto run = analyze_explicit(CyclicToy<true>(), o);
  std::vector<std::string> labels;
  for (Vertex v = 0; v < run.space.vertices(); ++v) labels.push_back(std::to_string(run.space.state(v)));
  const std::string dot = reports::graph_dot(run.space.graph, labels, run.distance, true);
  EXPECT_EQ(dot.find("dir=none"), std::string::npos);
  std::size_t arrows = 0;
  for (std::size_t at = dot.find("->"); at != std::string::npos; at = dot.find("->", at + 1)) ++arrows;
  EXPECT_EQ(arrows, 10u);
  // Vertices are the positions in ascending order, so vertex v is position v.
  EXPECT_NE(dot.find("\n2->0 [constraint=false];\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\n3->4 ;\n3->5 ;\n4->3 [constraint=false];\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\n2->3 ;\n"), std::string::npos) << dot;
}

TEST(DirectedReports, TerminalSummarySaysDirectedAndNamesWhatIsUnavailable) {
  EXPECT_EQ(reports::directed_summary_text(toy_result(true)),
            "toy-reversible: directed (moves cannot always be undone): depths, eccentricity and farthest count from "
            "the start\n"
            "toy-reversible goal 5: 1 goal positions reached, shortest solution 4 moves; 6 positions can reach the "
            "goal, 2 dead ends; hardest solvable 1 at 4 moves to the goal; distance to the goal: 1, 1, 2, 1, 1\n");
  const std::string forward = reports::directed_summary_text(toy_result(false));
  EXPECT_EQ(forward,
            "toy-forward: directed (moves cannot always be undone): depths, eccentricity and farthest count from the "
            "start\n"
            "toy-forward goal 5: 1 goal positions reached, shortest solution 4 moves\n"
            "toy-forward: not available: distance to the goal (" +
                no_predecessors_reason() + ")\ntoy-forward: not available: farthest from the goal (" +
                no_predecessors_reason() + ")\ntoy-forward: not available: dead ends (" + no_predecessors_reason() +
                ")\n");
}

TEST(DirectedReports, ArticleTablesAndProvenanceNameDirectedFacts) {
  const reports::ArticleAnalysis with{"with", toy_result(true), "statespace analyze toy", "here"};
  const reports::ArticleAnalysis without{"without", toy_result(false), "statespace analyze toy", "here"};
  const std::vector<std::string> columns = {"label", "directed", "shortest", "hardest_to_goal", "dead_ends"};
  EXPECT_EQ(reports::table_csv(columns, {&with, &without}),
            "label,directed,shortest,hardest_to_goal,dead_ends\nwith,yes,4,4,2\nwithout,yes,4,n/a,n/a\n");
  EXPECT_EQ(reports::table_latex(columns, {&with, &without}),
            "% Generated by statespace report; needs \\usepackage{booktabs}.\n\\begin{tabular}{llrrr}\n\\toprule\n"
            "Label & Directed & Shortest solution & Hardest to the goal & Dead ends \\\\\n\\midrule\n"
            "with & yes & 4 & 4 & 2 \\\\\nwithout & yes & 4 & n/a & n/a \\\\\n\\bottomrule\n\\end{tabular}\n");
  const std::string index = reports::index_markdown("t", {}, {with, without});
  EXPECT_NE(index.find("  - directed: its moves cannot always be undone"), std::string::npos) << index;
  EXPECT_NE(index.find("  - not available: dead ends (the moves cannot always be undone"), std::string::npos) << index;
}

TEST(DirectedReports, ReportFolderHoldsGoalDistributionOnlyWhereItExists) {
  const auto dir = std::filesystem::temp_directory_path() / ("statespace-directed-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  reports::write_report_folder(dir, toy_result(true), std::nullopt);
  EXPECT_EQ(testing::read_file(dir / "goal-distribution.csv"), reports::goal_distribution_csv(toy_result(true)));
  EXPECT_EQ(testing::read_file(dir / "hardest.csv"), "distance_to_goal,position\n4,0\n");
  reports::write_report_folder(dir, toy_result(false), std::nullopt);
  EXPECT_FALSE(std::filesystem::exists(dir / "goal-distribution.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir / "hardest.csv"));
  EXPECT_NE(testing::read_file(dir / "summary.json").find("\"unavailable\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace statespace
