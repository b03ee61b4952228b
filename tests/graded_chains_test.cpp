// The graded-chain engine (analysis/engines/levels/graded_chains.hpp): chain moves
// searched one jump at a time with each position's fewest chain moves and last
// landing cells. Checked against the generic search by chain moves (the sorted-levels
// engine over chain successors) on small boards, at 1 and 2 threads, with and without
// symmetry; its solutions are walked jump by jump; and on the English board it proves
// Bergholt's 18 chain moves minimal.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_chains.hpp"
#include "analysis/solvers/graded_chain_solve.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/rules.hpp"
#include "reports/summary_json.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::run_statespace;

const std::string kExamples = STATESPACE_EXAMPLES;

Rules from_text(const std::string& text) { return std::get<Rules>(load_puzzle_file(TomlInput("chain.toml", text))); }

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

// Peg solitaire by chains on a small board, down to one peg anywhere.
std::string chain_board(const std::string& picture, bool symmetric) {
  return std::string("name = \"chain\"\nkind = \"rules\"\nmoves = \"chain\"\n") +
         (symmetric ? "symmetry = \"board\"\n" : "") + "start = \"\"\"\n" + picture +
         "\"\"\"\ngoal = { pieces = 1 }\n[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n";
}

const std::vector<std::string> kBoards = {
    ". O O O\nO O O O\nO O O O\nO O O O\n",                     // the 4x4 square, a corner empty
    "O O O O\nO O O O\nO O O O\nO . O O\n",                     // the same, an edge hole: solvable
    "O O . O O\n",                                              // a line of five
    "# O O O #\nO O O O O\nO O . O O\nO O O O O\n# O O O #\n",  // a 21-hole cross
    "O O . O O O\nO O O O O O\nO O O O O O\n",                  // 3x6: solvable
};

// Every position's count by chain moves, the farthest positions and the goal's
// distance equal the generic chain search's.
TEST(GradedChains, EqualTheGenericChainSearchOnSmallBoards) {
  for (const auto& board : kBoards) {
    for (const bool symmetric : {false, true}) {
      const Rules p = from_text(chain_board(board, symmetric));
      const auto k = p.packing(p.start());
      ASSERT_TRUE(k && k->chain_graded()) << board;
      const AnalysisResult generic = analyze_levels(p, quiet(), p.start(), *k);
      for (const int threads : {1, 2}) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
        const AnalysisResult chains = analyze_graded_chains(p, quiet(), p.start(), *k);
        EXPECT_EQ(chains.engine, "chains");
        EXPECT_EQ(chains.layers, generic.layers) << board << symmetric << threads;
        EXPECT_EQ(chains.layer_positions, generic.layer_positions) << board << symmetric;
        EXPECT_EQ(chains.states, generic.states) << board;
        EXPECT_EQ(chains.farthest, generic.farthest) << board << symmetric;
        ASSERT_TRUE(chains.goal && generic.goal) << board;
        EXPECT_EQ(chains.goal->reached, generic.goal->reached) << board;
        EXPECT_EQ(chains.goal->shortest, generic.goal->shortest) << board;
        EXPECT_FALSE(chains.goal->dead_ends);  // not computed: named as unavailable instead
        std::vector<std::string> views;
        for (const auto& u : chains.unavailable) views.push_back(u.view);
        EXPECT_EQ(views,
                  (std::vector<std::string>{"edges", "distance to the goal", "farthest from the goal", "dead ends"}));
      }
    }
  }
}

// A layer made in passes (a range of words each, the successors made again for each)
// is the layer made at once, entry for entry, with and without symmetry.
TEST(GradedChains, PassesGiveTheSameLayers) {
  for (const bool symmetric : {false, true}) {
    const Rules p = from_text(chain_board(kBoards[4], symmetric));
    const auto k = *p.packing(p.start());
    std::vector<std::vector<std::uint64_t>> once, passes;
    const auto collect = [](std::vector<std::vector<std::uint64_t>>& into) {
      return [&into](std::size_t, std::span<const ChainEntry> layer) {
        auto& out = into.emplace_back();
        for (const ChainEntry& e : layer) out.insert(out.end(), {e.key, e.landed});
      };
    };
    const std::uint64_t n = graded_chain_layers(k, k.pack(p.start()), "p", MemoryBudget(), nullptr, collect(once));
    EXPECT_EQ(graded_chain_layers(k, k.pack(p.start()), "p", MemoryBudget(), nullptr, collect(passes), 64), n);
    EXPECT_EQ(passes, once) << symmetric;
    EXPECT_GT(once.size(), 10u);
  }
}

// A solution from the layers is a path of chain moves (each a successor by the model's
// own chain moves) to a goal, as short as a breadth-first search by chains finds.
TEST(GradedChains, SolutionsAreChainMovesAsFewAsBreadthFirst) {
  int solved = 0;
  for (const auto& board : kBoards) {
    const Rules p = from_text(chain_board(board, false));
    HashedLookup<Rules::State> visited;
    const auto bfs = solve_bfs_until(
        p, p.start(), [&](const Rules::State& s) { return p.is_goal(s); }, visited, MemoryBudget());
    const auto sol = solve_by_graded_chains(p, p.start(), p.goal(), true, MemoryBudget(), nullptr);
    ASSERT_TRUE(sol.has_value());
    ASSERT_EQ(sol->path.size(), bfs.path.size()) << board;
    if (bfs.path.empty()) continue;  // no single peg can be left (the 4x4 square from a corner)
    ++solved;
    EXPECT_EQ(sol->path.front(), p.start());
    EXPECT_TRUE(p.is_goal(sol->path.back()));
    for (std::size_t i = 1; i < sol->path.size(); ++i) {
      bool next = false;
      p.for_each_successor(sol->path[i - 1], [&](const Rules::State& t) { next = next || t == sol->path[i]; });
      EXPECT_TRUE(next) << board << " step " << i;
    }
  }
  EXPECT_EQ(solved, 2);
  // By steps the layers do not apply.
  Rules steps = from_text(chain_board(kBoards[0], false));
  steps.set_moves(RuleMetric::kStep);
  EXPECT_FALSE(solve_by_graded_chains(steps, steps.start(), steps.goal(), true, MemoryBudget(), nullptr));
}

// auto takes the engine for graded chains only; --engine chains elsewhere is refused
// before any work.
TEST(GradedChains, ChosenForGradedChainMovesOnly) {
  AnalyzeOptions o = quiet();
  o.dot_limit = 0;
  const Rules chains = from_text(chain_board(kBoards[2], false));
  EXPECT_EQ(choose_engine(chains, o).engine, Engine::chains);
  Rules steps = chains;
  steps.set_moves(RuleMetric::kStep);
  EXPECT_EQ(choose_engine(steps, o).engine, Engine::levels);
  o.engine = Engine::chains;
  EXPECT_THROW((void)choose_engine(steps, o), UsageError);
  o.engine = Engine::levels;
  EXPECT_EQ(choose_engine(chains, o).engine, Engine::levels);  // the generic chain search, when asked
  const auto r = run_statespace("analyze " + kExamples + "/frogs-and-toads.toml --engine chains --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--engine chains needs a rules file with moves = \"chain\""), std::string::npos) << r.out;
}

// The engine counts no edges: summary.json leaves the key out and the tables write
// n/a, as for every view a result names unavailable; the summary reads back.
TEST(GradedChains, ReportsSayTheEdgesWereNotCounted) {
  const Rules p = from_text(chain_board(kBoards[3], true));
  const AnalysisResult r = analyze_graded_chains(p, quiet(), p.start(), *p.packing(p.start()));
  ASSERT_FALSE(r.gives(kViewEdges));
  const std::string json = reports::summary_json(r);
  EXPECT_EQ(json.find("\"edges\":"), std::string::npos) << json;
  EXPECT_EQ(reports::read_summary_json(json).states, r.states);
  const std::string csv = reports::summary_csv({r});
  EXPECT_NE(csv.find("," + std::to_string(r.states) + "," + std::to_string(r.positions()) + ",n/a,"), std::string::npos)
      << csv;
  EXPECT_NE(reports::summary_markdown({r}).find(" | n/a | "), std::string::npos);
}

// English peg solitaire up to the board's symmetries: the single peg in the centre is
// 18 chain moves from the start and no fewer (Bergholt's 1912 solution has 18;
// Beasley proved in 1964 that none is shorter). The classes stand for the
// 187,636,299 positions, as by jumps.
TEST(GradedChainsLong, PegEnglishCentreFinishIsEighteenChainMoves) {
  const Rules p = from_text(testing::rules_with_board_symmetry(kExamples + "/peg-english-chain.toml"));
  const AnalysisResult r = analyze_graded_chains(p, quiet(), p.start(), *p.packing(p.start()));
  EXPECT_EQ(r.positions(), 187'636'299u);
  ASSERT_TRUE(r.goal && r.goal->shortest);
  EXPECT_EQ(r.goal->reached, 1u);
  EXPECT_EQ(*r.goal->shortest, 18u);
}

}  // namespace
}  // namespace statespace
