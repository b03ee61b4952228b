// The ranked engine (analysis/engines/ranked/): against the explicit and sorted-levels
// engines on every ranked model at 1, 2 and 4 threads; on directed test models
// against a plain forward BFS over std::unordered_set and a backward one for the goal
// view; its place in choose_engine() and in the reports the CLI writes.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "analysis/engines/ranked/rank_packing.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/tws_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

template <class Model>
Model load(const std::string& name) {
  return std::get<Model>(*make_file_puzzle((std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml")).string()));
}

// A directed space on ranks 0..n-1: from r the moves lead to (2r + 1) mod n and
// (r^2 + 3) mod n, none of them undone by a move in general. Goal 0. `kReversible`
// adds the predecessors (a table built once), `kRankMoves` the rank-to-rank moves.
template <bool kReversible, bool kRankMoves>
class FunctionGraph {
 public:
  using State = std::uint64_t;
  explicit FunctionGraph(std::uint64_t n, std::uint64_t start = 1) : n_(n), start_(start) {
    if constexpr (kReversible) {
      before_.resize(n);
      for (std::uint64_t r = 0; r < n; ++r) step(r, [&](std::uint64_t t) { before_[t].push_back(r); });
    }
  }
  [[nodiscard]] int max_moves() const { return 2; }
  [[nodiscard]] std::string name() const { return "function" + std::to_string(n_); }
  [[nodiscard]] State goal() const { return 0; }
  [[nodiscard]] State start() const { return start_; }
  [[nodiscard]] std::string format(const State& s) const { return std::to_string(s); }
  [[nodiscard]] State parse(std::string_view text) const { return std::stoull(std::string(text)); }
  [[nodiscard]] std::vector<int> row_lengths() const { return {1}; }
  template <class F>
  void for_each_successor(const State& s, F&& f) const {
    step(s, f);
  }
  [[nodiscard]] std::uint64_t rank_space() const { return n_; }
  [[nodiscard]] std::uint64_t rank(const State& s) const { return s; }
  [[nodiscard]] State unrank(std::uint64_t r) const { return r; }
  [[nodiscard]] bool directed() const { return true; }
  template <class F>
  void for_each_successor_rank(std::uint64_t r, F&& f) const requires kRankMoves {
    step(r, f);
  }
  template <class F>
  void for_each_predecessor(const State& s, F&& f) const requires kReversible {
    for (const std::uint64_t t : before_[s]) f(t);
  }
  template <class F>
  void step(std::uint64_t r, F&& f) const {
    f((2 * r + 1) % n_);
    f((r * r + 3) % n_);
  }

 private:
  std::uint64_t n_, start_;
  std::vector<std::vector<std::uint64_t>> before_;
};

static_assert(RankedPuzzle<FunctionGraph<false, false>>);
static_assert(DirectedPuzzle<FunctionGraph<false, false>>);
static_assert(!ReversiblePuzzle<FunctionGraph<false, false>>);
static_assert(ReversiblePuzzle<FunctionGraph<true, false>>);
static_assert(RankSuccessorPuzzle<FunctionGraph<true, true>>);
static_assert(!RankSuccessorPuzzle<FunctionGraph<true, false>>);

// What a plain search finds on a directed model: forward from the start through an
// unordered_set, and backwards from the goal within the reachable positions.
struct PlainDirected {
  std::vector<std::uint64_t> layers;
  std::vector<std::uint64_t> farthest;  // ranks, ascending
  std::uint64_t moves = 0;              // every move from a reachable position
  std::vector<std::uint64_t> goal_layers;
  std::vector<std::uint64_t> hardest;
  std::optional<unsigned> shortest;
  std::uint64_t goals = 0;  // 1 when the goal is reachable
  std::uint64_t dead_ends = 0;
};

template <class P>
PlainDirected plain_directed(const P& p, std::uint64_t start) {
  PlainDirected out;
  std::unordered_map<std::uint64_t, unsigned> depth{{start, 0}};
  std::vector<std::uint64_t> level{start};
  while (!level.empty()) {
    out.layers.push_back(level.size());
    out.farthest = level;
    std::vector<std::uint64_t> next;
    for (const std::uint64_t r : level) {
      p.for_each_successor(p.unrank(r), [&](std::uint64_t t) {
        ++out.moves;
        if (depth.emplace(t, unsigned(out.layers.size())).second) next.push_back(t);
      });
    }
    level = std::move(next);
  }
  std::sort(out.farthest.begin(), out.farthest.end());
  if constexpr (ReversiblePuzzle<P>) {
    std::unordered_set<std::uint64_t> reached;
    std::vector<std::uint64_t> back;
    if (depth.count(0)) back.push_back(0), reached.insert(0), out.goals = 1;
    while (!back.empty()) {
      if (!out.shortest && std::count(back.begin(), back.end(), start)) out.shortest = unsigned(out.goal_layers.size());
      out.goal_layers.push_back(back.size());
      out.hardest = back;
      std::vector<std::uint64_t> next;
      for (const std::uint64_t r : back) {
        p.for_each_predecessor(r, [&](std::uint64_t t) {
          if (depth.count(t) && reached.insert(t).second) next.push_back(t);
        });
      }
      back = std::move(next);
    }
    std::sort(out.hardest.begin(), out.hardest.end());
    out.dead_ends = depth.size() - reached.size();
  }
  return out;
}

std::vector<std::string> names(const std::vector<std::uint64_t>& ranks) {
  std::vector<std::string> out;
  for (const auto r : ranks) out.push_back(std::to_string(r));
  return out;
}

template <class P>
void expect_directed_equals_plain(const P& p, std::uint64_t start) {
  const PlainDirected plain = plain_directed(p, start);
  ASSERT_GT(plain.layers.size(), 3u) << p.name();
  for (const int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    AnalyzeOptions o;
    o.progress = false;
    const AnalysisResult r = analyze_ranked(p, o, start);
    EXPECT_TRUE(r.directed);
    EXPECT_EQ(r.layers, plain.layers) << p.name() << " at " << threads;
    EXPECT_EQ(r.farthest, names(plain.farthest)) << p.name();
    EXPECT_EQ(r.edges, plain.moves) << p.name();
    std::uint64_t counted = 0;
    for (const auto& e : r.layer_edges) counted += e.count;
    EXPECT_LE(counted, r.edges);
    if constexpr (ReversiblePuzzle<P>) {
      ASSERT_TRUE(r.goal.has_value());
      EXPECT_TRUE(r.unavailable.empty());
      EXPECT_EQ(r.goal->goal, "0");
      EXPECT_EQ(r.goal->reached, plain.goals) << p.name();
      EXPECT_EQ(r.goal->layers, plain.goal_layers) << p.name();
      EXPECT_EQ(r.goal->hardest, names(plain.hardest)) << p.name();
      EXPECT_EQ(r.goal->shortest, plain.shortest) << p.name();
      EXPECT_EQ(r.goal->dead_ends, plain.dead_ends) << p.name();
    } else {
      EXPECT_FALSE(r.goal.has_value());
      ASSERT_EQ(r.unavailable.size(), 3u);
      EXPECT_EQ(r.unavailable[0].view, kViewDistanceToGoal);
      EXPECT_EQ(r.unavailable[1].view, kViewFarthestFromGoal);
      EXPECT_EQ(r.unavailable[2].view, kViewDeadEnds);
    }
  }
}

TEST(RankedEngine, DirectedSpacesEqualAPlainForwardAndBackwardSearch) {
  // From 1 on 12,345 ranks: 8,220 reachable, 1,644 of them dead ends; from 5, a
  // path of 1,643 levels; 100,003 ranks have levels for the parallel path; from 7
  // on 2^18 ranks the goal is not reachable at all.
  expect_directed_equals_plain(FunctionGraph<false, false>(12'345), 1);
  expect_directed_equals_plain(FunctionGraph<true, false>(12'345), 1);
  expect_directed_equals_plain(FunctionGraph<true, false>(12'345), 5);
  expect_directed_equals_plain(FunctionGraph<true, true>(100'003), 5);
  expect_directed_equals_plain(FunctionGraph<true, false>(1 << 18), 7);
  const auto plain = plain_directed(FunctionGraph<true, false>(12'345), 1);
  EXPECT_EQ(plain.dead_ends, 1644u);
  EXPECT_EQ(plain.goals, 1u);
  EXPECT_EQ(plain_directed(FunctionGraph<true, false>(1 << 18), 7).goals, 0u);
}

TEST(RankedEngine, RankMovesGiveTheSameResultAsTheRoundTrip) {
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult a = analyze_ranked(FunctionGraph<true, true>(65'537), o, 3);
  const AnalysisResult b = analyze_ranked(FunctionGraph<true, false>(65'537), o, 3);
  EXPECT_EQ(a.layers, b.layers);
  EXPECT_EQ(a.farthest, b.farthest);
  EXPECT_EQ(a.edges, b.edges);
  EXPECT_EQ(a.layer_edges, b.layer_edges);
  EXPECT_EQ(a.goal->layers, b.goal->layers);
  EXPECT_EQ(a.goal->hardest, b.goal->hardest);
}

// The ranked engine against the explicit one and the sorted-levels one over ranks,
// field for field, at 1, 2 and 4 threads.
template <class P>
void expect_engines_agree(const P& p) {
  AnalyzeOptions o;
  o.progress = false;
  const auto start = resolve_start(p, o);
  const AnalysisResult reference = analyze_explicit(p, o, start, false).result;
  ASSERT_GT(reference.states, 1u) << p.name();
  const RankPacked<P> packed(p);
  const AnalysisResult levels = analyze_levels(packed, o, start, *packed.packing(start));
  for (const int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const AnalysisResult r = analyze_ranked(p, o, start);
    EXPECT_EQ(r.engine, "ranked");
    EXPECT_FALSE(r.directed);
    for (const AnalysisResult* other : {&reference, &levels}) {
      EXPECT_EQ(r.states, other->states) << p.name() << " vs " << other->engine << " at " << threads;
      EXPECT_EQ(r.edges, other->edges) << p.name() << " vs " << other->engine;
      EXPECT_EQ(r.layers, other->layers) << p.name() << " vs " << other->engine;
      EXPECT_EQ(r.layer_edges, other->layer_edges) << p.name() << " vs " << other->engine;
      EXPECT_EQ(r.goal.has_value(), other->goal.has_value()) << p.name();
    }
    // The farthest positions in rank order, the explicit engine's order; the levels
    // engine sorts them by state, so only the sets compare.
    EXPECT_EQ(r.farthest, reference.farthest) << p.name();
    auto sorted = r.farthest, levels_sorted = levels.farthest;
    std::sort(sorted.begin(), sorted.end());
    std::sort(levels_sorted.begin(), levels_sorted.end());
    EXPECT_EQ(sorted, levels_sorted) << p.name();
  }
}

TEST(RankedEngine, EqualsExplicitAndLevelsOnEveryRankedModel) {
  expect_engines_agree(NoOff{});
  expect_engines_agree(Oshidori{});
  expect_engines_agree(Hex6{});
  expect_engines_agree(Tiles(2, 3));
  expect_engines_agree(Tiles(3, 3));  // levels of up to 24,000 positions: the parallel path
  expect_engines_agree(Tiles(2, 5));
  expect_engines_agree(load<GraphTokens>("grid3x3"));
  expect_engines_agree(load<GraphTokens>("hex6"));
  expect_engines_agree(load<GraphTokens>("theta0"));  // moves within a level (an odd cycle)
}

// Both ways of marking a parallel level, forced, against the engine's own choice:
// the queues to each slice's owner and the lanes' private copies of `mark`.
template <class P>
void expect_marks_agree(const P& p, const typename P::State& start) {
  AnalyzeOptions o;
  o.progress = false;
  const AnalysisResult chosen = analyze_ranked(p, o, start);
  for (const int threads : {2, 3}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    for (const auto marks :
         {RankedLayers::Marks::queued, RankedLayers::Marks::private_copies, RankedLayers::Marks::shared}) {
      RankedLayers tables(p.rank_space(), 0, marks);
      const AnalysisResult r = analyze_ranked_on(p, o, start, tables, Engine::ranked);
      EXPECT_EQ(r.layers, chosen.layers) << p.name() << " at " << threads;
      EXPECT_EQ(r.edges, chosen.edges) << p.name();
      EXPECT_EQ(r.layer_edges, chosen.layer_edges) << p.name();
      EXPECT_EQ(r.farthest, chosen.farthest) << p.name();
      EXPECT_EQ(r.goal.has_value(), chosen.goal.has_value()) << p.name();
      if (r.goal && chosen.goal) {
        EXPECT_EQ(r.goal->layers, chosen.goal->layers) << p.name();
        EXPECT_EQ(r.goal->hardest, chosen.goal->hardest) << p.name();
        EXPECT_EQ(r.goal->dead_ends, chosen.goal->dead_ends) << p.name();
      }
    }
  }
}

TEST(RankedEngine, QueuedAndPrivateMarksGiveTheSameResult) {
  // tiles:2x5: 1,814,400 positions in 3,628,800 ranks, levels far over 16,384 (the
  // parallel path); a directed space with such levels and a goal view.
  expect_marks_agree(Tiles(2, 5), Tiles(2, 5).goal());
  expect_marks_agree(FunctionGraph<true, true>(100'003), 5);
}

// Every rank's distance from `start` by a plain queue over a byte a rank (-1: not
// reached), as the planes must hold them.
template <class P>
std::vector<int> plain_depths(const P& p, std::uint64_t start) {
  std::vector<int> depth(p.rank_space(), -1);
  std::vector<std::uint64_t> queue{start};
  depth[start] = 0;
  const auto forward = ranked_detail::forward_moves(p);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::uint64_t r = queue[i];
    forward(r, [&](std::uint64_t t) {
      if (depth[t] < 0) depth[t] = depth[r] + 1, queue.push_back(t);
    });
  }
  return depth;
}

// After each level d the two planes hold exactly: `seen` the ranks at distance d or
// less, `mark` those at distance d (the frontier) and no other; after the last
// level, the farthest. Forward and backward (pull) levels, on one lane, queued and
// private marks.
template <class P>
void expect_planes_hold_levels(const P& p, std::uint64_t start) {
  const std::vector<int> depth = plain_depths(p, start);
  const auto expect_planes = [&](const RankedLayers& tables, int d, const std::string& where) {
    std::uint64_t wrong_seen = 0, wrong_mark = 0;
    for (std::uint64_t r = 0; r < p.rank_space(); ++r) {
      const bool seen = (tables.seen_words()[r >> 6] >> (r & 63)) & 1;
      const bool mark = (tables.mark_words()[r >> 6] >> (r & 63)) & 1;
      wrong_seen += seen != (depth[r] >= 0 && depth[r] <= d);
      wrong_mark += mark != (depth[r] == d);
    }
    EXPECT_EQ(wrong_seen, 0u) << p.name() << " " << where << " after level " << d;
    EXPECT_EQ(wrong_mark, 0u) << p.name() << " " << where << " after level " << d;
  };
  const int last = *std::max_element(depth.begin(), depth.end());
  for (const int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    for (const auto marks :
         {RankedLayers::Marks::queued, RankedLayers::Marks::private_copies, RankedLayers::Marks::shared}) {
      const std::string where = std::to_string(threads) + " threads, " +
                                (marks == RankedLayers::Marks::queued           ? "queued"
                                 : marks == RankedLayers::Marks::private_copies ? "private"
                                                                                : "shared") +
                                " marks";
      RankedLayers tables(p.rank_space(), 0, marks);
      tables.seed(start);
      const RankedSearch s = ranked_search(
          tables, 1, p.max_moves(), ranked_detail::forward_moves(p), nullptr,
          [&](const RankedSearch& so_far) { expect_planes(tables, int(so_far.layers.size()) - 1, where); },
          is_regular(p));
      EXPECT_EQ(int(s.layers.size()) - 1, last) << p.name() << " " << where;
      expect_planes(tables, last, where + ", finished");
    }
  }
}

TEST(RankedEngine, PlanesHoldTheLevelsAfterEveryLevel) {
  // A directed space whose levels pass 16,384 positions (the lanes' path).
  expect_planes_hold_levels(FunctionGraph<true, true>(100'003), 5);
  // The 2x2x2 cube: a regular space whose late levels are found backwards.
  const Pieces cube(read_tws(std::filesystem::path(STATESPACE_EXAMPLES) / "cube2.tws"), PieceMetric::all_powers);
  ASSERT_TRUE(cube.regular());
  expect_planes_hold_levels(cube, cube.start().rank);
}

TEST(RankedEngine, PublishedCounts) {
  AnalyzeOptions o;
  o.progress = false;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
  // tiles:3x3 from the goal: 181,440 positions, 241,920 moves, 31 moves to the two
  // farthest; the same 8-puzzle as a graph file.
  for (const AnalysisResult& r : {analyze_ranked(Tiles(3, 3), o), analyze_ranked(load<GraphTokens>("grid3x3"), o)}) {
    EXPECT_EQ(r.states, 181'440u);
    EXPECT_EQ(r.edges, 241'920u);
    EXPECT_EQ(r.eccentricity(), 31u);
    EXPECT_EQ(r.farthest.size(), 2u);
  }
  // NO-OFF (seed 001): 540 positions, 570 moves, 56 moves to the farthest three.
  const AnalysisResult nooff = analyze_ranked(NoOff{}, o);
  EXPECT_EQ(nooff.states, 540u);
  EXPECT_EQ(nooff.edges, 570u);
  EXPECT_EQ(nooff.eccentricity(), 56u);
  EXPECT_EQ(nooff.farthest.size(), 3u);
}

TEST(RankedEngine, RankRoundTripsOverWholeRankSpaces) {
  const FunctionGraph<false, true> f(4099);
  const auto grid = load<GraphTokens>("theta0");
  for (std::uint64_t r = 0; r < f.rank_space(); ++r) ASSERT_EQ(f.rank(f.unrank(r)), r);
  for (std::uint64_t r = 0; r < grid.rank_space(); ++r) ASSERT_EQ(grid.rank(grid.unrank(r)), r);
  // The word packing over ranks is the same bijection.
  const RankPacked<GraphTokens> packed(grid);
  const auto packing = *packed.packing(grid.goal());
  for (std::uint64_t r = 0; r < grid.rank_space(); ++r) ASSERT_EQ(packing.pack(packing.unpack(r)), r);
}

TEST(RankedEngine, AutoTakesItForRankedModelsThatFitTheBudget) {
  AnalyzeOptions o;
  EXPECT_EQ(choose_engine(NoOff{}, o).engine, Engine::ranked);
  EXPECT_EQ(choose_engine(Hex6{}, o).engine, Engine::ranked);
  EXPECT_EQ(choose_engine(load<GraphTokens>("grid3x3"), o).engine, Engine::ranked);
  // tiles:RxC keep their own implicit engine; a small space keeps its picture.
  EXPECT_EQ(choose_engine(Tiles(3, 3), o).engine, Engine::implicit);
  EXPECT_EQ(choose_engine(Tiles(2, 2), o).engine, Engine::explicit_graph);
  // Anything that needs the graph takes the explicit engine.
  AnalyzeOptions graph = o;
  graph.components = true;
  EXPECT_EQ(choose_engine(NoOff{}, graph).engine, Engine::explicit_graph);
  // Over the budget, auto leaves it (for the explicit engine, which refuses here
  // too); asked for, it is refused with its need.
  AnalyzeOptions tight = o;
  tight.memory = MemoryBudget(100);
  try {
    (void)choose_engine(Hex6{}, tight);
    ADD_FAILURE() << "a run over the budget was planned";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("hex6: explicit graph needs"), std::string::npos) << e.what();
  }
  // Over the budget but within four times it, auto refuses at once with the ranked
  // engine's need and a --memory that holds it, rather than trying sorted levels
  // that could not fit either.
  AnalyzeOptions near = o;
  const std::uint64_t need = ranked_bytes(Hex6{}, o);
  near.memory = MemoryBudget(need - 1);
  try {
    (void)choose_engine(Hex6{}, near);
    ADD_FAILURE() << "a run over the budget was planned";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("hex6: ranked BFS needs " + with_commas(need) + " bytes"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--engine levels"), std::string::npos) << e.what();
  }
  near.memory = MemoryBudget(need);
  EXPECT_EQ(choose_engine(Hex6{}, near).engine, Engine::ranked);
  tight.engine = Engine::ranked;
  try {
    (void)choose_engine(Hex6{}, tight);
    ADD_FAILURE() << "a ranked run over the budget was planned";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("hex6: ranked BFS needs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--memory"), std::string::npos) << e.what();
  }
  // Not a ranked model: refused.
  AnalyzeOptions ranked = o;
  ranked.engine = Engine::ranked;
  EXPECT_THROW((void)choose_engine(load<Blocks>("klotski"), ranked), UsageError);
  // Checkpoints: kept by the ranked engine on one machine, and taken by auto; not under MPI.
  ranked.checkpoint = "ck";
  EXPECT_EQ(choose_engine(NoOff{}, ranked).engine, Engine::ranked);
  ranked.engine = Engine::automatic;
  EXPECT_EQ(choose_engine(NoOff{}, ranked).engine, Engine::ranked);
  ranked.engine = Engine::mpi;
  EXPECT_THROW((void)choose_engine(NoOff{}, ranked), UsageError);
}

// Every report file of a run but summary.json (which names the engine and the run).
std::map<std::string, std::string> reports(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename() != "summary.json") out[e.path().filename().string()] = read_file(e.path());
  }
  return out;
}

TEST(RankedEngine, CliReportsEqualTheExplicitEnginesAtAnyThreadCount) {
  const auto dir = fresh_dir("ranked-cli");
  const std::string file = (std::filesystem::path(STATESPACE_EXAMPLES) / "hex6.toml").string();
  std::optional<std::map<std::string, std::string>> first;
  for (const std::string threads : {"1", "2", "4"}) {
    const auto out = dir / ("t" + threads);
    const auto r = run_statespace("analyze " + file + " --quiet --threads " + threads + " --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.out;
    // The file's folder: the built-in hex6 has the plain name.
    EXPECT_NE(read_file(out / "hex6-file" / "summary.json").find("\"engine\": \"ranked\""), std::string::npos);
    const auto files = reports(out / "hex6-file");
    if (!first) first = files;
    EXPECT_EQ(files, *first) << threads;
  }
  const auto ex = dir / "explicit";
  const auto r = run_statespace("analyze " + file + " --quiet --engine explicit --out " + ex.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto expected = reports(ex / "hex6-file");
  expected.erase("graph.dot");
  EXPECT_EQ(*first, expected);
}

}  // namespace
}  // namespace statespace
