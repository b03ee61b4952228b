// The analysis pipeline (analysis/analyze.hpp): the table of engines, the choice
// choose_engine() makes, and the explicit engine without its CSR graph, which must
// give the numbers of the one with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "analysis/analyze.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::run_statespace;

constexpr std::array<Engine, 7> kEveryEngine = {Engine::automatic, Engine::explicit_graph, Engine::implicit,
                                                Engine::mpi,       Engine::levels,         Engine::ranked,
                                                Engine::chains};

TEST(EngineTable, OneRowPerEngineAndItsNameParsesBack) {
  ASSERT_EQ(kEngines.size(), kEveryEngine.size());
  std::set<std::string_view> names;
  for (const Engine e : kEveryEngine) {
    EXPECT_EQ(std::count_if(kEngines.begin(), kEngines.end(), [&](const EngineInfo& i) { return i.engine == e; }), 1);
    EXPECT_EQ(engine_info(e).engine, e);
    EXPECT_FALSE(engine_info(e).help.empty()) << engine_name(e);
    EXPECT_EQ(parse_engine(engine_name(e)), e);
    names.insert(engine_name(e));
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"auto", "explicit", "implicit", "mpi", "levels", "ranked", "chains"}));
  EXPECT_EQ(engine_names(), "explicit, implicit, mpi, levels, ranked, chains, auto");
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
    EXPECT_NE(text.find(std::string(info.name) + ": " + std::string(info.help)), std::string::npos) << info.name << "\n"
                                                                                                    << r.std_out;
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
}

}  // namespace
}  // namespace statespace
