// The sorted-levels engine on directed spaces and on 128-bit words. Directed: peg
// solitaire boards (graded: a jump never returns to a level) and a toy on the
// integers mod N with cycles and self-loops (every earlier level must be checked),
// against a plain forward BFS over a std::unordered_set and a BFS over the reversed
// edges of the reachable set, at 1, 2 and 4 threads. Wide words: a permutation file
// of 120 bits against the explicit engine, and 64-bit files through both words.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "bench/peg_solitaire.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/toml_input.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

namespace fs = std::filesystem;

// x -> 2x + 1, x -> 3x and, for even x, x -> x / 2, all mod N: cycles, moves back to
// much earlier levels, and the self-loop 0 -> 0 (3 * 0). The goal: x == goal.
// Predecessors (when kReversible) by trying every y: the toy is small.
template <bool kReversible>
class ModToy {
 public:
  using State = std::uint64_t;
  ModToy(std::uint64_t n, std::uint64_t start, std::uint64_t goal) : n_(n), start_(start), goal_(goal) {}
  [[nodiscard]] int max_moves() const { return 3; }
  [[nodiscard]] std::string name() const { return "mod-toy"; }
  [[nodiscard]] State goal() const { return start_; }
  [[nodiscard]] std::string format(const State& s) const { return std::to_string(s); }
  [[nodiscard]] State parse(std::string_view text) const { return std::stoull(std::string(text)); }
  [[nodiscard]] std::vector<int> row_lengths() const { return {1}; }
  template <class F>
  void for_each_successor(const State s, F&& f) const {
    f((2 * s + 1) % n_);
    f(3 * s % n_);
    if (s % 2 == 0) f(s / 2);
  }
  [[nodiscard]] bool directed() const { return true; }
  [[nodiscard]] bool has_goal() const { return true; }
  [[nodiscard]] bool is_goal(const State& s) const { return s == goal_; }
  [[nodiscard]] std::string goal_text() const { return std::to_string(goal_); }

  class Packing {
   public:
    explicit Packing(const ModToy& p) : p_(p) {}
    [[nodiscard]] std::uint64_t pack(const State& s) const { return s; }
    [[nodiscard]] State unpack(std::uint64_t w) const { return w; }
    [[nodiscard]] int moves() const { return 4; }  // the predecessors' bound; successors are at most 3
    int successors(std::uint64_t w, std::uint64_t* out) const {
      int k = 0;
      p_.for_each_successor(w, [&](State t) { out[k++] = t; });
      return k;
    }
    int predecessors(std::uint64_t w, std::uint64_t* out) const requires kReversible {
      int k = 0;
      for (std::uint64_t y = 0; y < p_.n_; ++y) {
        bool hit = false;
        p_.for_each_successor(y, [&](State t) { hit = hit || t == w; });
        if (hit) out[k++] = y;
      }
      EXPECT_LE(k, 4);
      return k;
    }

   private:
    const ModToy& p_;
  };
  [[nodiscard]] std::optional<Packing> packing(const State&) const { return Packing(*this); }

 private:
  std::uint64_t n_, start_, goal_;
};
static_assert(DirectedPuzzle<ModToy<true>> && WordPackedPuzzle<ModToy<true>>);
static_assert(ReversiblePacking<ModToy<true>::Packing> && !ReversiblePacking<ModToy<false>::Packing>);
static_assert(!GradedPacking<ModToy<true>::Packing>);

// What a plain search finds: forward from the start by a std::unordered_set, and
// backwards from the reachable goals over the reversed edges of the reachable set.
struct Reference {
  std::vector<std::uint64_t> layers;
  std::vector<std::string> farthest;
  std::uint64_t moves = 0;  // every successor of every reachable position, self-loops included
  std::vector<std::uint64_t> goal_layers;
  std::vector<std::string> hardest;
  std::uint64_t dead_ends = 0;
  std::uint64_t reached = 0;
  std::optional<unsigned> shortest;
};

template <class P>
Reference plain_bfs(const P& p) {
  using State = typename P::State;
  Reference ref;
  std::unordered_map<State, unsigned> depth{{p.goal(), 0}};
  std::vector<State> order{p.goal()};
  std::unordered_map<State, std::vector<State>> back;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const State s = order[i];
    p.for_each_successor(s, [&](const State& t) {
      ++ref.moves;
      back[t].push_back(s);
      if (depth.emplace(t, depth[s] + 1).second) order.push_back(t);
    });
  }
  const auto by_depth = [&](const std::unordered_map<State, unsigned>& d, std::vector<std::uint64_t>& layers,
                            std::vector<std::string>& last) {
    std::map<unsigned, std::vector<State>> at;
    for (const auto& [s, k] : d) at[k].push_back(s);
    for (const auto& [k, states] : at) layers.push_back(states.size());
    if (at.empty()) return;
    auto deepest = at.rbegin()->second;
    std::sort(deepest.begin(), deepest.end());
    for (const State s : deepest) last.push_back(p.format(s));
  };
  by_depth(depth, ref.layers, ref.farthest);
  std::unordered_map<State, unsigned> to_goal;
  std::vector<State> queue;
  for (const State s : order) {
    if (p.is_goal(s)) {
      to_goal.emplace(s, 0), queue.push_back(s), ++ref.reached;
      if (!ref.shortest || depth[s] < *ref.shortest) ref.shortest = depth[s];
    }
  }
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (const State t : back[queue[i]]) {
      if (to_goal.emplace(t, to_goal[queue[i]] + 1).second) queue.push_back(t);
    }
  }
  by_depth(to_goal, ref.goal_layers, ref.hardest);
  ref.dead_ends = order.size() - to_goal.size();
  return ref;
}

template <class P>
AnalysisResult levels_run(const P& p, int threads, std::uint64_t pass_words = 0) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  AnalyzeOptions o;
  o.progress = false;
  if (pass_words == 0) return analyze_levels(p, o);
  // The search alone, its successors made in passes of pass_words words.
  const auto packing = p.packing(p.goal());
  const auto r = sorted_levels_bfs(
      *packing, std::vector<std::uint64_t>{p.goal()}, p.name(), o.memory, nullptr,
      [](std::size_t, std::span<const std::uint64_t>) {}, SortedLevelsMode{true, pass_words});
  AnalysisResult out;
  out.states = r.states();
  out.layers = r.layers;
  out.farthest = detail::format_sorted(p, *packing, r.farthest);
  out.edges = r.successors;
  return out;
}

template <class P>
void expect_equals_plain(const P&, const Reference& ref, const AnalysisResult& r) {
  EXPECT_TRUE(r.directed);
  EXPECT_EQ(r.layers, ref.layers);
  EXPECT_EQ(r.farthest, ref.farthest);
  EXPECT_EQ(r.edges, ref.moves);
  ASSERT_TRUE(r.goal.has_value());
  EXPECT_EQ(r.goal->reached, ref.reached);
  EXPECT_EQ(r.goal->shortest, ref.shortest);
  if constexpr (ReversiblePacking<typename P::Packing>) {
    EXPECT_TRUE(r.unavailable.empty());
    EXPECT_EQ(r.goal->layers, ref.goal_layers);
    EXPECT_EQ(r.goal->hardest, ref.hardest);
    EXPECT_EQ(r.goal->dead_ends, ref.dead_ends);
  } else {
    EXPECT_TRUE(r.goal->layers.empty());
    EXPECT_FALSE(r.goal->dead_ends.has_value());
    ASSERT_EQ(r.unavailable.size(), 3u);
    EXPECT_EQ(r.unavailable[0].view, "distance to the goal");
  }
}

// Boards small enough for the plain search; the 4x4 one has every kind of jump.
std::vector<PegSolitaire> small_boards() {
  return {PegSolitaire("row", {"OO.OOOO.OOO"}, 1), PegSolitaire("square", {"OOOO", "OOOO", "O.OO", "OOOO"}, 1),
          PegSolitaire("cross", {" OOO ", "OOOOO", "OO.OO", "OOOOO", " OOO "}, 1, 10),
          PegSolitaire("rect", {"OOOOO", "OO.OO", "OOOOO", "OOOOO"}, 2)};
}

TEST(LevelsDirected, PegBoardsEqualPlainBfsForwardAndBackward) {
  for (const auto& p : small_boards()) {
    const Reference ref = plain_bfs(p);
    for (const int threads : {1, 2, 4}) {
      SCOPED_TRACE(p.name() + " at " + std::to_string(threads) + " threads");
      const AnalysisResult r = levels_run(p, threads);
      expect_equals_plain(p, ref, r);
      // A jump removes a peg: every move goes one level on.
      ASSERT_EQ(r.layer_edges.size(), r.layers.size() - 1);
      for (std::size_t d = 0; d + 1 < r.layers.size(); ++d) EXPECT_EQ(r.layer_edges[d].to, r.layer_edges[d].from + 1);
    }
  }
}

// Every reachable position either reaches a goal or is a dead end; some boards'
// goals are out of reach from their start, some are reached.
TEST(LevelsDirected, SolvablePositionsAndDeadEndsPartitionTheReachable) {
  std::uint64_t dead = 0, solved = 0;
  for (const auto& p : small_boards()) {
    SCOPED_TRACE(p.name());
    const AnalysisResult r = levels_run(p, 2);
    ASSERT_TRUE(r.goal && r.goal->dead_ends);
    std::uint64_t solvable = 0;
    for (const auto n : r.goal->layers) solvable += n;
    EXPECT_EQ(solvable + *r.goal->dead_ends, r.states);
    dead += *r.goal->dead_ends > 0;
    solved += r.goal->shortest.has_value();
  }
  EXPECT_GT(dead, 0u);
  EXPECT_GT(solved, 0u);
}

// The peg packing without successors_within: passes then filter what a whole
// generation makes.
class UnrangedPegPacking {
 public:
  explicit UnrangedPegPacking(const PegSolitaire& p) : k_(*p.packing(p.goal())) {}
  [[nodiscard]] std::uint64_t pack(const std::uint64_t& s) const { return k_.pack(s); }
  [[nodiscard]] std::uint64_t unpack(std::uint64_t w) const { return k_.unpack(w); }
  [[nodiscard]] int moves() const { return k_.moves(); }
  [[nodiscard]] int word_bits() const { return k_.word_bits(); }
  [[nodiscard]] int grade(std::uint64_t w) const { return k_.grade(w); }
  int successors(std::uint64_t w, std::uint64_t* out) const { return k_.successors(w, out); }

 private:
  PegSolitaire::Packing k_;
};
static_assert(WordPacking<UnrangedPegPacking, std::uint64_t> && !RangedPacking<UnrangedPegPacking>);

// Passes of a few words each give the same levels as one pass.
TEST(LevelsDirected, SuccessorsMadeInPassesGiveTheSameLevels) {
  for (const auto& p : small_boards()) {
    const Reference ref = plain_bfs(p);
    for (const int threads : {1, 4}) {
      for (const std::uint64_t words : {std::uint64_t{1}, std::uint64_t{1000}}) {
        SCOPED_TRACE(p.name() + " at " + std::to_string(threads) + " threads, passes of " + std::to_string(words));
        const AnalysisResult r = levels_run(p, threads, words);
        EXPECT_EQ(r.layers, ref.layers);
        EXPECT_EQ(r.farthest, ref.farthest);
        EXPECT_EQ(r.edges, ref.moves);
        const auto unranged = sorted_levels_bfs(
            UnrangedPegPacking(p), std::vector<std::uint64_t>{p.goal()}, p.name(), MemoryBudget(), nullptr,
            [](std::size_t, std::span<const std::uint64_t>) {}, SortedLevelsMode{true, words});
        EXPECT_EQ(unranged.layers, ref.layers);
        EXPECT_EQ(unranged.successors, ref.moves);
      }
    }
  }
}

// The English board's first levels (Beasley: 1, 4, 12, 60, 296, 1,338 positions after
// 0..5 jumps) on a board whose far pegs cannot move within five jumps' reach is too
// long a run for the suite: its whole space takes a minute (bench/, docs/benchmarks.md).
// The published first levels come from the same model stopped early instead.
TEST(LevelsDirected, EnglishBoardFirstLevelsArePublished) {
  const PegSolitaire english = english_peg_solitaire();
  EXPECT_EQ(english.holes(), 33);
  EXPECT_EQ(english.jumps().size(), 76u);
  const auto packing = english.packing(english.goal());
  std::vector<std::uint64_t> level{english.goal()}, layers;
  for (int d = 0; d <= 5; ++d) {
    layers.push_back(level.size());
    std::vector<std::uint64_t> next(level.size() * 76);
    std::size_t at = 0;
    for (const auto w : level) at += std::size_t(packing->successors(w, next.data() + at));
    next.resize(at);
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    level = std::move(next);
  }
  EXPECT_EQ(layers, (std::vector<std::uint64_t>{1, 4, 12, 60, 296, 1338}));
}

TEST(LevelsDirected, CyclesAndSelfLoopsEqualPlainBfs) {
  for (const auto& [n, start, goal] : {std::tuple{1000, 1, 7}, std::tuple{997, 5, 0}, std::tuple{1024, 1, 45}}) {
    const ModToy<true> p{std::uint64_t(n), std::uint64_t(start), std::uint64_t(goal)};
    const Reference ref = plain_bfs(p);
    for (const int threads : {1, 2, 4}) {
      SCOPED_TRACE("N = " + std::to_string(n) + " at " + std::to_string(threads) + " threads");
      expect_equals_plain(p, ref, levels_run(p, threads));
    }
  }
  // The first toy's goal lies several moves from most positions, and every position
  // reaches it (dead ends are the peg boards' test).
  const Reference ref = plain_bfs(ModToy<true>(1000, 1, 7));
  EXPECT_EQ(ref.dead_ends, 0u);
  EXPECT_GT(ref.goal_layers.size(), 1u);
}

TEST(LevelsDirected, WithoutPredecessorsTheGoalViewsAreUnavailable) {
  const ModToy<false> p(1000, 1, 7);
  const Reference ref = plain_bfs(p);
  for (const int threads : {1, 2}) expect_equals_plain(p, ref, levels_run(p, threads));
}

// 24 cells of distinct labels (5 bits each): 120 bits, past one word. Two 12-cycles
// and the swap of the halves: 12 x 12 x 2 = 288 positions.
std::string wide_permutation_file() {
  std::string start, first, second, swap;
  for (int i = 1; i <= 24; ++i) start += (i > 1 ? " " : "") + std::string(1, char('A' + i - 1));
  for (int i = 1; i <= 12; ++i) {
    first += (i > 1 ? "," : "") + std::to_string(i);
    second += (i > 1 ? "," : "") + std::to_string(i + 12);
    swap += "(" + std::to_string(i) + "," + std::to_string(i + 12) + ")";
  }
  return "name = \"wide\"\nkind = \"permutation\"\nstart = \"" + start + "\"\nmetric = \"quarter\"\n[moves]\nX = \"(" +
         first + ")\"\nY = \"(" + second + ")\"\nS = \"" + swap + "\"\n";
}

template <class P>
AnalysisResult analyze_with(const P& p, Engine engine, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  AnalyzeOptions o;
  o.engine = engine;
  o.progress = false;
  o.dot_limit = 0;
  const auto plan = choose_engine(p, o);
  return run_analysis(p, o, plan).result;
}

TEST(LevelsWide, PermutationPast64BitsRunsOnLevelsAndEqualsExplicit) {
  const auto dir = testing::fresh_dir("levels_wide");
  const auto file = testing::write_file(dir / "wide.toml", wide_permutation_file());
  const auto p = CellPermutation(TomlInput(file));
  ASSERT_FALSE(p.packing(p.goal()));
  const auto wide = p.wide_packing(p.goal());
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->width(), 120);
  const AnalysisResult expected = analyze_with(p, Engine::explicit_graph, 1);
  EXPECT_EQ(expected.states, 288u);
  for (const int threads : {1, 2, 4}) {
    AnalyzeOptions o;
    EXPECT_EQ(choose_engine(p, o).engine, Engine::levels);  // auto: levels, not the explicit graph
    const AnalysisResult r = analyze_with(p, Engine::automatic, threads);
    EXPECT_EQ(r.engine, "levels");
    EXPECT_EQ(r.states, expected.states);
    EXPECT_EQ(r.edges, expected.edges);
    EXPECT_EQ(r.layers, expected.layers);
    EXPECT_EQ(r.farthest, expected.farthest);
    EXPECT_EQ(r.layer_edges, expected.layer_edges);
  }
}

// The same search in both words on files that fit 64 bits: one result.
TEST(LevelsWide, WideWordsEqualNarrowOnExampleFiles) {
  for (const char* name : {"pancake8.toml", "topspin8.toml"}) {
    const auto p = CellPermutation(TomlInput(std::filesystem::path(STATESPACE_EXAMPLES) / name));
    const auto narrow = p.packing(p.goal());
    const auto wide = p.wide_packing(p.goal());
    ASSERT_TRUE(narrow && wide) << name;
    for (const int threads : {1, 2, 4}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      AnalyzeOptions o;
      o.progress = false;
      const AnalysisResult a = analyze_levels(p, o, p.goal(), *narrow);
      const AnalysisResult b = analyze_levels(p, o, p.goal(), *wide);
      EXPECT_EQ(a.states, 40320u) << name;
      EXPECT_EQ(a.layers, b.layers) << name;
      EXPECT_EQ(a.farthest, b.farthest) << name;
      EXPECT_EQ(a.layer_edges, b.layer_edges) << name;
      EXPECT_EQ(a.edges, b.edges) << name;
    }
  }
}

}  // namespace
}  // namespace statespace
