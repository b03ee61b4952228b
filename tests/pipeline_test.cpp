// The analysis pipeline (analysis/analyze.hpp): the table of engines, the choice
// choose_engine() makes, and the explicit engine without its CSR graph, which must
// give the numbers of the one with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "analysis/analyze.hpp"
#include "analysis/generate_plan.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solve_plan.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::run_statespace;

constexpr std::array<Engine, 11> kEveryEngine = {
    Engine::automatic, Engine::explicit_graph, Engine::implicit, Engine::mpi,           Engine::levels,
    Engine::ranked,    Engine::chains,         Engine::bfs,      Engine::bidirectional, Engine::ida,
    Engine::rank_space};

TEST(EngineTable, OneRowPerEngineAndItsNameParsesBack) {
  ASSERT_EQ(kEngines.size(), kEveryEngine.size());
  std::set<std::string_view> names;
  for (const Engine e : kEveryEngine) {
    EXPECT_EQ(std::count_if(kEngines.begin(), kEngines.end(), [&](const EngineInfo& i) { return i.engine == e; }), 1);
    EXPECT_EQ(engine_info(e).engine, e);
    EXPECT_FALSE(engine_info(e).help.empty()) << engine_name(e);
    EXPECT_NE(engine_info(e).gives, 0u) << engine_name(e);
    if (serves(e, Command::analyze)) {
      EXPECT_EQ(parse_engine(engine_name(e)), e);
    } else {
      EXPECT_THROW((void)parse_engine(engine_name(e)), ParseError) << engine_name(e);
    }
    names.insert(engine_name(e));
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"auto", "explicit", "implicit", "mpi", "levels", "ranked", "chains",
                                               "bfs", "bidirectional", "ida", "rank-space"}));
  EXPECT_EQ(engine_names(), "explicit, implicit, mpi, levels, ranked, chains, auto");
  // What each command may run: the rows that give what it needs.
  EXPECT_EQ(engine_names(", ", Command::report), "explicit, implicit, levels, ranked, chains, auto");
  EXPECT_EQ(engine_names(", ", Command::solve), "chains, bfs, bidirectional, ida, auto");
  EXPECT_EQ(engine_names(", ", Command::generate), "explicit, ida, rank-space, auto");
  EXPECT_FALSE(engine_info(Engine::mpi).in_manifests);
  EXPECT_TRUE(engine_info(Engine::implicit).in_manifests);
  try {
    (void)parse_engine("fast");
    ADD_FAILURE() << "an unknown engine was taken";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown --engine 'fast' (expected one of: explicit, implicit, mpi, levels, ranked, chains, auto)");
  }
}

TEST(EngineTable, AnalyzeHelpListsEveryEngineWithItsLine) {
  const auto r = run_statespace("analyze --help");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // Boost wraps the description, so compare with the spaces squeezed.
  std::string text;
  for (char c : r.std_out) {
    if (c == '\n') c = ' ';
    if (c == ' ' && !text.empty() && text.back() == ' ') continue;
    text += c;
  }
  for (const auto& info : kEngines) {
    const bool listed = text.find(std::string(info.name) + ": " + std::string(info.help)) != std::string::npos;
    EXPECT_EQ(listed, serves(info.engine, Command::analyze)) << info.name << "\n" << r.std_out;
  }
}

template <class Model>
Model load(const std::string& name) {
  return std::get<Model>(*make_file_puzzle((std::filesystem::path(STATESPACE_EXAMPLES) / (name + ".toml")).string()));
}

TEST(ChooseEngine, DecidesOnceAndBeforeRunning) {
  AnalyzeOptions o;
  // tiles:3x3's 181,440 positions are more than graph.dot takes: the implicit engine.
  EXPECT_EQ(choose_engine(Tiles(3, 3), o).engine, Engine::implicit);
  // tiles:2x2 (12 reachable) fits graph.dot, which needs the explicit graph.
  EXPECT_EQ(choose_engine(Tiles(2, 2), o).engine, Engine::explicit_graph);
  // A blocks file whose positions pack into a word: levels, with its packing made once.
  const auto klotski = load<Blocks>("klotski");
  const auto plan = choose_engine(klotski, o);
  EXPECT_EQ(plan.engine, Engine::levels);
  EXPECT_TRUE(plan.packing.has_value());
  EXPECT_EQ(klotski.format(plan.start), klotski.format(klotski.goal()));
  // Anything that needs the graph takes the explicit engine, and asking levels for it is refused.
  o.components = true;
  EXPECT_EQ(choose_engine(klotski, o).engine, Engine::explicit_graph);
  o.engine = Engine::levels;
  EXPECT_THROW((void)choose_engine(klotski, o), UsageError);
  // The MPI engine needs tiles:RxC, and the analyze command's entry point to run.
  AnalyzeOptions mpi;
  mpi.engine = Engine::mpi;
  EXPECT_THROW((void)choose_engine(klotski, mpi), UsageError);
  const auto tiles_plan = choose_engine(Tiles(2, 3), mpi);
  EXPECT_EQ(tiles_plan.engine, Engine::mpi);
  EXPECT_THROW((void)run_analysis(Tiles(2, 3), mpi, tiles_plan), UsageError);
}

// The explicit engine's result with the graph and without it, field for field.
template <class P>
void expect_graph_free_path_agrees(const P& p, AnalyzeOptions o = {}) {
  o.progress = false;
  const auto start = resolve_start(p, o);
  const AnalysisRun<P> with = analyze_explicit(p, o, start, true);
  AnalyzeOptions bare = o;
  bare.draw_graph = false;  // no graph.dot: nothing needs the graph
  const AnalysisRun<P> without = analyze_explicit(p, bare, start, false);
  ASSERT_TRUE(with.graph);
  ASSERT_FALSE(without.graph) << p.name();
  EXPECT_EQ(num_vertices(without.space.graph), 0u) << p.name();
  const AnalysisResult& a = with.result;
  const AnalysisResult& b = without.result;
  EXPECT_GT(a.states, 1u) << p.name();
  EXPECT_EQ(a.states, b.states) << p.name();
  EXPECT_EQ(a.edges, b.edges) << p.name();
  EXPECT_EQ(a.layers, b.layers) << p.name();
  EXPECT_EQ(a.layer_edges, b.layer_edges) << p.name();
  EXPECT_EQ(a.farthest, b.farthest) << p.name();
  EXPECT_EQ(a.engine, b.engine);
  EXPECT_EQ(a.lookup, b.lookup);
  EXPECT_EQ(a.goal.has_value(), b.goal.has_value()) << p.name();
  if (a.goal && b.goal) {
    EXPECT_EQ(a.goal->reached, b.goal->reached) << p.name();
    EXPECT_EQ(a.goal->shortest, b.goal->shortest) << p.name();
    EXPECT_EQ(a.goal->layers, b.goal->layers) << p.name();
    EXPECT_EQ(a.goal->hardest, b.goal->hardest) << p.name();
  }
  // The distances the graph's BFS gives, vertex for vertex.
  EXPECT_EQ(with.distance, without.distance) << p.name();
}

TEST(GraphFreeExplicit, SameNumbersAsTheGraph) {
  // A blocks file with a goal (the goal view), another with slides.
  const auto klotski = load<Blocks>("klotski");
  ASSERT_TRUE(klotski.has_goal());
  expect_graph_free_path_agrees(klotski);
  expect_graph_free_path_agrees(load<Blocks>("rushhour-hardest"));
  // Graph-tokens files: one with moves inside a depth (an odd cycle), one without.
  expect_graph_free_path_agrees(load<GraphTokens>("theta0"));
  expect_graph_free_path_agrees(load<GraphTokens>("hex6"));
  // Permutation files.
  expect_graph_free_path_agrees(load<CellPermutation>("pancake8"));
  expect_graph_free_path_agrees(load<CellPermutation>("topspin8"));
  // Built-ins: ranked permutations (the bucketed successors), and the others.
  expect_graph_free_path_agrees(Tiles(3, 3));
  expect_graph_free_path_agrees(Hex6{});
  expect_graph_free_path_agrees(NoOff{});
  expect_graph_free_path_agrees(Oshidori{});
}

TEST(GraphFreeExplicit, KeptWhenAnOutputNeedsIt) {
  AnalyzeOptions o;
  o.progress = false;
  const Tiles p(2, 4);
  // graph.dot within --dot-limit, --lookup, --components, --all-pairs keep it.
  o.dot_limit = 20'160;
  EXPECT_TRUE(analyze_explicit(p, o, p.goal(), false).graph);
  o.dot_limit = 20'159;
  EXPECT_FALSE(analyze_explicit(p, o, p.goal(), false).graph);
  AnalyzeOptions lookup = o;
  lookup.lookup = LookupKind::kHashed;
  EXPECT_TRUE(analyze_explicit(p, lookup, p.goal(), false).graph);
  AnalyzeOptions all_pairs = o;
  all_pairs.all_pairs = true;
  const auto run = analyze_explicit(p, all_pairs, p.goal(), false);
  EXPECT_TRUE(run.graph);
  EXPECT_EQ(run.result.diameter->length, 36u);  // tiles:2x4's diameter (Karlemo & Östergård 2000)
}

TEST(GraphFreeExplicit, PublishedCountsWithoutTheGraph) {
  // tiles:3x3 from the goal: 181,440 positions, 31 moves to the two farthest.
  AnalyzeOptions o;
  o.progress = false;
  o.draw_graph = false;
  const auto run = analyze_explicit(Tiles(3, 3), o, Tiles(3, 3).goal(), false);
  EXPECT_FALSE(run.graph);
  EXPECT_EQ(run.result.states, 181'440u);
  EXPECT_EQ(run.result.edges, 241'920u);
  EXPECT_EQ(run.result.eccentricity(), 31u);
  EXPECT_EQ(run.result.farthest.size(), 2u);
}

TEST(Pipeline, AutoSmallLevelsSpaceReportsTheExplicitEngineWithItsGraph) {
  // dads.toml packs into a word and has no bound in advance: auto runs levels; the
  // space fits a raised --dot-limit, so graph.dot gets the explicit graph, and the
  // report is the explicit engine's, as it was when auto ran that engine again.
  const auto dads = load<Blocks>("dads");
  AnalyzeOptions o;
  o.progress = false;
  o.dot_limit = 1'000'000;
  const auto plan = choose_engine(dads, o);
  ASSERT_EQ(plan.engine, Engine::levels);
  // The plan says so before the run: at most that many positions, the explicit engine.
  EXPECT_EQ(plan.explicit_within, std::optional<std::uint64_t>(1'000'000));
  const auto run = run_analysis(dads, o, plan);
  AnalyzeOptions ex = o;
  ex.engine = Engine::explicit_graph;
  const auto reference = analyze_explicit(dads, ex);
  EXPECT_TRUE(run.graph);
  EXPECT_EQ(run.space.vertices(), reference.result.states);
  EXPECT_EQ(run.distance, reference.distance);
  EXPECT_EQ(run.result.engine, "explicit");
  EXPECT_EQ(run.result.lookup, reference.result.lookup);
  EXPECT_EQ(run.result.states, reference.result.states);
  EXPECT_EQ(run.result.edges, reference.result.edges);
  EXPECT_EQ(run.result.layers, reference.result.layers);
  EXPECT_EQ(run.result.layer_edges, reference.result.layer_edges);
  EXPECT_EQ(run.result.farthest, reference.result.farthest);
  // Without the raised limit the levels result stands, graph-free.
  o.dot_limit = 300;
  const auto large = run_analysis(dads, o, choose_engine(dads, o));
  EXPECT_FALSE(large.graph);
  EXPECT_EQ(large.result.engine, "levels");
  EXPECT_EQ(large.result.states, reference.result.states);
  // An engine asked for by name is the one reported, whatever the size.
  o.dot_limit = 1'000'000;
  o.engine = Engine::levels;
  const auto asked = choose_engine(dads, o);
  EXPECT_FALSE(asked.explicit_within.has_value());
  EXPECT_EQ(run_analysis(dads, o, asked).result.engine, "levels");
}

TEST(SolvePlan, ChoosesTheMethodBeforeAnySearch) {
  SolveRequest r;
  r.from = "8 7 6 / 5 4 3 / 2 1 _";
  // tiles:3x3: breadth-first through a ranked visited set (9! bits fit).
  auto plan = plan_solve(Tiles(3, 3), r);
  ASSERT_TRUE(std::holds_alternative<BfsSolve>(plan.method));
  EXPECT_EQ(std::get<BfsSolve>(plan.method).lookup, LookupKind::kRanked);
  EXPECT_EQ(solve_engine(plan), Engine::bfs);
  // ...a hash set when the rank bitset (45,360 bytes) exceeds the budget, unless --lookup asked for it.
  r.memory = MemoryBudget(40'000);
  EXPECT_EQ(std::get<BfsSolve>(plan_solve(Tiles(3, 3), r).method).lookup, LookupKind::kHashed);
  r.lookup = LookupKind::kRanked;
  EXPECT_THROW((void)plan_solve(Tiles(3, 3), r), UsageError);
  r = {};
  // The 15-puzzle takes the optimal solver unless a goal or another method is named.
  r.from = "1 2 3 4 / 5 6 8 _ / 13 9 7 12 / 10 14 11 15";
  EXPECT_EQ(solve_engine(plan_solve(Tiles(4, 4), r)), Engine::ida);
  r.method = Engine::bidirectional;
  EXPECT_EQ(solve_engine(plan_solve(Tiles(4, 4), r)), Engine::bidirectional);
  r.lookup = LookupKind::kHashed;
  EXPECT_THROW((void)plan_solve(Tiles(4, 4), r), UsageError);  // --lookup is bfs's
  r = {};
  r.from = "1 2 3 4 / 5 6 8 _ / 13 9 7 12 / 10 14 11 15";
  r.goal = "1 2 3 _ / 4 5 6 7 / 8 9 10 11 / 12 13 14 15";
  r.method = Engine::ida;
  EXPECT_THROW((void)plan_solve(Tiles(4, 4), r), UsageError);  // the optimal solver solves to the goal only
  // Graded chain moves (peg solitaire by chains) take the graded layers, unless --lookup names a set.
  const auto peg = load<Rules>("peg-english-chain");
  SolveRequest file;
  file.from_file = true;
  const auto chained = plan_solve(peg, file);
  EXPECT_EQ(solve_engine(chained), Engine::chains);
  EXPECT_TRUE(chained.partial);
  file.lookup = LookupKind::kHashed;
  EXPECT_EQ(solve_engine(plan_solve(peg, file)), Engine::bfs);
  // A built-in model without a position is refused before any search.
  EXPECT_THROW((void)plan_solve(NoOff{}, SolveRequest{}), ParseError);
}

TEST(GeneratePlan, TablesWhereTheyFitTheOptimalSolverPastThem) {
  // Plain problems need no distance.
  EXPECT_EQ(plan_generate(Tiles(3, 3), {}).distances, Engine::automatic);
  // A csv column on a small board: the explicit table, left out when it does not fit.
  auto plan = plan_generate(Tiles(3, 3), {false, false, true});
  EXPECT_EQ(plan.distances, Engine::explicit_graph);
  EXPECT_FALSE(plan.required);
  // Exact difficulty on 12 cells: the rank-space table, required.
  plan = plan_generate(Tiles(3, 4), {true, false, false});
  EXPECT_EQ(plan.distances, Engine::rank_space);
  EXPECT_TRUE(plan.required);
  EXPECT_EQ(plan.table_engine(), TableEngine::kRankSpace);
  // Past 12 cells each problem is solved optimally; every choice gives distances.
  plan = plan_generate(Tiles(4, 4), {true, false, false});
  EXPECT_EQ(plan.distances, Engine::ida);
  for (const Engine e : {Engine::explicit_graph, Engine::rank_space, Engine::ida}) {
    EXPECT_TRUE(serves(e, Command::generate)) << engine_name(e);
  }
  // The optimal solver's databases: the largest standard partition that fits.
  const Tiles t(4, 4);
  const auto all = standard_partitions(t);
  const auto largest = plan_partition(t, "", MemoryBudget(partition_build_bytes(t, all.front())));
  EXPECT_EQ(largest.partition.name, all.front().name);
  EXPECT_FALSE(largest.larger.has_value());
  const auto smaller = plan_partition(t, "", MemoryBudget(partition_build_bytes(t, all.front()) - 1));
  EXPECT_NE(smaller.partition.name, all.front().name);
  ASSERT_TRUE(smaller.larger.has_value());
  EXPECT_EQ(smaller.larger->name, all.front().name);
}

}  // namespace
}  // namespace statespace
