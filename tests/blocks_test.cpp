// Sliding-block puzzle files: the published numbers of Klotski, NO-OFF and a Rush
// Hour card, the file NO-OFF against the built-in model, the loader's one-line
// errors, and a randomised test of the loader over mutated files.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solvers/solve.hpp"
#include "bad_file.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::BadFile;
using testing::expect_refused;
using testing::fresh_dir;
using testing::run_statespace;

const std::string kExamples = STATESPACE_EXAMPLES;

Blocks load(const std::string& file, std::optional<BlockMoves> moves = std::nullopt) {
  auto any = make_file_puzzle(kExamples + "/" + file);
  EXPECT_TRUE(any.has_value());
  Blocks b = std::get<Blocks>(*any);
  if (moves) b.set_moves(*moves);
  return b;
}

AnalysisResult analyse(const Blocks& b, bool components = false) {
  AnalyzeOptions o;
  o.progress = false;
  o.components = components;
  return analyze_explicit(b, o).result;
}

TEST(Blocks, KlotskiCountsAndShortestSolutionsInEachMetric) {
  const std::vector<std::pair<BlockMoves, unsigned>> metrics = {
      {BlockMoves::kStep, 116}, {BlockMoves::kSlide, 90}, {BlockMoves::kPath, 81}};
  for (const auto& [moves, shortest] : metrics) {
    const auto r = analyse(load("klotski.toml", moves), moves == BlockMoves::kStep);
    EXPECT_EQ(r.states, 25'955u);
    ASSERT_TRUE(r.goal && r.goal->shortest);
    EXPECT_EQ(*r.goal->shortest, shortest) << block_moves_name(moves);
    if (moves == BlockMoves::kStep) {
      ASSERT_TRUE(r.components);
      EXPECT_EQ(r.components->positions, 65'880u);
      EXPECT_EQ(r.components->sizes.front(), 25'955u);
      EXPECT_EQ(r.components->sizes.size(), 898u);
      EXPECT_EQ(r.components->start, 25'955u);
      // The goal view's layers cover the reachable space.
      std::uint64_t total = 0;
      for (auto n : r.goal->layers) total += n;
      EXPECT_EQ(total, r.states);
      EXPECT_EQ(r.goal->reached, r.goal->layers.front());
    }
  }
}

TEST(Blocks, SolveReachesTheGoalInTheShortestLength) {
  const Blocks b = load("klotski.toml", BlockMoves::kPath);
  HashedLookup<Blocks::State> visited;
  const auto sol = solve_bfs_until(
      b, b.goal(), [&](const Blocks::State& s) { return b.is_goal(s); }, visited, MemoryBudget());
  ASSERT_EQ(sol.path.size(), 82u);
  EXPECT_TRUE(b.is_goal(sol.path.back()));
  EXPECT_EQ(b.format(b.goal()), "B A A C / B A A C / D F F E / D G H E / I _ _ J");
  // Every printed position reads back to itself.
  for (const auto& s : sol.path) EXPECT_EQ(b.parse(b.format(s)), s);
}

// The file NO-OFF is the built-in one once the interchangeable pieces' letters are
// identified (P is the second O, G the second F).
TEST(Blocks, NoOffFileEqualsTheBuiltInModel) {
  const Blocks file = load("nooff.toml");
  const auto r = analyse(file);
  AnalyzeOptions o;
  o.progress = false;
  const auto builtin = analyze_explicit(NoOff{}, o).result;
  EXPECT_EQ(r.states, 540u);
  EXPECT_EQ(r.eccentricity(), 56u);
  EXPECT_EQ(r.layers, builtin.layers);
  EXPECT_EQ(r.edges, builtin.edges);
  std::set<std::string> ours, theirs(builtin.farthest.begin(), builtin.farthest.end());
  for (auto f : r.farthest) {
    std::replace(f.begin(), f.end(), 'P', 'O');
    std::replace(f.begin(), f.end(), 'G', 'F');
    ours.insert(f);
  }
  EXPECT_EQ(ours, theirs);
  EXPECT_EQ(theirs.size(), 3u);
  // The seed's problems: A 44 moves, its second example 36, B (a farthest) 56.
  for (const auto& [from, moves] : std::vector<std::pair<std::string, std::size_t>>{
           {"L L O N / O F F _", 44}, {"O N L L / O F F _", 36}, {"N O L L / F O F _", 56}}) {
    HashedLookup<Blocks::State> visited;
    const auto sol = solve_bfs(file, file.parse(from), file.goal(), visited, MemoryBudget());
    EXPECT_EQ(sol.path.size(), moves + 1) << from;
  }
}

// Cars keep to their lines, so the placements of --components are the places of
// the cars on their lines: 15,670 of them, the start's cluster Fogleman's 2,332.
TEST(Blocks, RushHourCardMatchesFoglemansDatabase) {
  const auto r = analyse(load("rushhour-hardest.toml"), true);
  EXPECT_EQ(r.states, 2'332u);
  ASSERT_TRUE(r.goal && r.goal->shortest);
  EXPECT_EQ(*r.goal->shortest, 60u);
  ASSERT_TRUE(r.components);
  EXPECT_EQ(r.components->positions, 15'670u);
  EXPECT_EQ(r.components->sizes.size(), 30u);
  EXPECT_EQ(r.components->start, 2'332u);
  const Blocks b = load("rushhour-hardest.toml");
  try {
    (void)b.parse("I B B # . . / I A A L D D / J . . L . . / J . K E E M / F F K . . M / G G H H H M");
    ADD_FAILURE() << "a car off its line was accepted";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("on the line it moves along"), std::string::npos) << e.what();
  }
}

// Shortest solutions as J. A. Storer's pages give them for the grid positions:
// rectilinear moves are our `path`, straight-line moves our `slide`, unit moves our
// `step`. The position counts are ours (same-shape pieces identified).
TEST(Blocks, ClassicPuzzlesMatchTheirPublishedSolutionLengths) {
  struct Classic {
    std::string file;
    std::uint64_t states;
    std::vector<std::pair<BlockMoves, unsigned>> shortest;
  };
  const std::vector<Classic> classics = {
      {"dads.toml", 1'398, {{BlockMoves::kPath, 59}, {BlockMoves::kSlide, 62}}},
      {"century.toml", 81'340, {{BlockMoves::kPath, 99}, {BlockMoves::kSlide, 111}}},
      {"century-and-a-half.toml",
       81'340,
       {{BlockMoves::kPath, 148}, {BlockMoves::kSlide, 169}, {BlockMoves::kStep, 205}}},
  };
  for (const auto& c : classics) {
    for (const auto& [moves, shortest] : c.shortest) {
      const auto r = analyse(load(c.file, moves));
      EXPECT_EQ(r.states, c.states) << c.file;
      ASSERT_TRUE(r.goal && r.goal->shortest) << c.file;
      EXPECT_EQ(*r.goal->shortest, shortest) << c.file << " " << block_moves_name(moves);
    }
  }
}

// The sorted levels of packed words against the explicit graph, at 1 and 2 threads,
// in every metric: every fact the reports show, the goal view included.
TEST(Blocks, SortedLevelsAgreeWithTheExplicitGraph) {
  AnalyzeOptions o;
  o.progress = false;
  for (const char* file : {"klotski.toml", "nooff.toml", "dads.toml", "rushhour-hardest.toml"}) {
    for (const BlockMoves moves : {BlockMoves::kStep, BlockMoves::kSlide, BlockMoves::kPath}) {
      const Blocks b = load(file, moves);
      ASSERT_TRUE(b.packing(b.goal())) << file;
      const AnalysisResult expected = analyze_explicit(b, o).result;
      for (int threads : {1, 2}) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
        const AnalysisResult r = analyze_levels(b, o);
        const std::string what = std::string(file) + " " + std::string(block_moves_name(moves));
        EXPECT_EQ(r.states, expected.states) << what;
        EXPECT_EQ(r.edges, expected.edges) << what;
        EXPECT_EQ(r.layers, expected.layers) << what;
        EXPECT_EQ(r.farthest, expected.farthest) << what;
        EXPECT_EQ(r.layer_edges, expected.layer_edges) << what;
        ASSERT_EQ(r.goal.has_value(), expected.goal.has_value()) << what;
        if (!r.goal) continue;
        EXPECT_EQ(r.goal->reached, expected.goal->reached) << what;
        EXPECT_EQ(r.goal->shortest, expected.goal->shortest) << what;
        EXPECT_EQ(r.goal->layers, expected.goal->layers) << what;
        EXPECT_EQ(r.goal->hardest, expected.goal->hardest) << what;
      }
    }
  }
}

// A position packs into its pieces' anchors and back; interchangeable pieces give
// one word whatever their letters; every placement of Klotski's pieces checks that
// the moves on words are the moves on boards. A board whose anchors need more than
// 64 bits gets no packing.
TEST(Blocks, PackedWordsFollowTheMoves) {
  for (const BlockMoves moves : {BlockMoves::kStep, BlockMoves::kSlide, BlockMoves::kPath}) {
    const Blocks b = load("klotski.toml", moves);
    const auto packing = b.packing(b.goal());
    ASSERT_TRUE(packing);
    std::vector<std::uint64_t> words(std::size_t(packing->moves())), again(words.size());
    std::uint64_t placements = 0;
    // One run through every word, which re-reads only the fields that changed.
    BlocksPacking::Successors run(*packing);
    b.for_each_position([&](const Blocks::State& s) {
      ++placements;
      const std::uint64_t w = packing->pack(s);
      ASSERT_EQ(packing->unpack(w), s);
      std::set<std::uint64_t> expected;
      b.for_each_successor(s, [&](const Blocks::State& t) { expected.insert(packing->pack(t)); });
      const int n = packing->successors(w, words.data());
      ASSERT_LE(n, b.max_moves());
      EXPECT_EQ(std::set<std::uint64_t>(words.begin(), words.begin() + n), expected);
      EXPECT_EQ(std::size_t(n), expected.size());
      ASSERT_EQ(run(w, again.data()), n);
      EXPECT_TRUE(std::equal(words.begin(), words.begin() + n, again.begin()));
    });
    EXPECT_EQ(placements, 65'880u);
  }
  const Blocks k = load("klotski.toml");
  EXPECT_EQ(k.packing(k.goal())->pack(k.parse("B A A C / B A A C / D F F E / D G H E / I _ _ J")),
            k.packing(k.goal())->pack(k.parse("E A A D / E A A D / B F F C / B J I C / H _ _ G")));
  // 48 cells need 6 bits an anchor: 11 pieces are 66 bits.
  const auto wide = load_blocks(TomlInput("wide.toml", R"toml(name = "wide"
kind = "blocks"
start = """
A B C D E F G H
I J K . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
"""
)toml"));
  EXPECT_FALSE(wide.packing(wide.goal()));
}

TEST(Blocks, SameReportsForAnyThreadCount) {
  const auto dir = fresh_dir("blocks-threads");
  std::string first;
  for (int threads : {1, 2, 3}) {
    const auto out = dir / std::to_string(threads);
    const auto r = run_statespace("--threads " + std::to_string(threads) + " analyze " + kExamples +
                                  "/klotski.toml --moves slide --quiet --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.std_err;
    auto json = testing::read_file(out / "klotski" / "summary.json");
    json = json.substr(0, json.find("\"run\""));
    if (first.empty()) first = json;
    EXPECT_EQ(json, first);
  }
  EXPECT_NE(first.find("\"shortest\": 90"), std::string::npos) << first;
}

TEST(Blocks, BrokenFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("blocks-errors");
  const std::string head = "name = \"x\"\nkind = \"blocks\"\n";
  const std::vector<BadFile> cases = {
      {head + "start = \"\"\"\nA A .\nB . A\n\"\"\"\n", "bad.toml:4:1: piece 'A' is not connected"},
      {head + "start = \"\"\"\nA A .\nB .\n\"\"\"\n", "bad.toml:5:1: row 2 has 2 cells, expected 3"},
      {head + "start = \"\"\"\nA A .\nB . ?\n\"\"\"\n", "bad.toml:5:5: unknown character '?'"},
      {head + "start = \"AB.\"\nsame = [\"AZ\"]\n", "bad.toml:4:9: 'same' names 'Z', which is not a piece"},
      {head + "start = \"AAB.\"\nsame = [\"AB\"]\n", "'same' group mixes shapes"},
      {head + "start = \"AB.\"\ngoal = \"*.\"\n", "bad.toml:4:8: goal picture is 1x2, expected 1x3"},
      {head + "start = \"AB.\"\ngoal = \"*.Q\"\n", "bad.toml:4:11: goal names 'Q', which is not a piece"},
      {head + "start = \"A/.\"\n[axis]\nA = \"horizontal\"\n", "bad.toml:5:5: piece 'A' cannot move horizontally"},
      {head + "start = \"AB.\"\ncolour = 1\n", "bad.toml:4:1: unknown key 'colour'"},
      {head + "start = \"AB.\"\nmoves = \"jump\"\n", "bad.toml:4:9: unknown moves 'jump'"},
      {head + "start = \"AAAAAAA/.......\\n.......\\n.......\\n.......\\n.......\\n.......\\n.......\"\n",
       "too large for the state encoding (at most 48 cells)"},
  };
  expect_refused(dir, cases);
}

// A folder's listing: one row per file, sorted, with the placements counted; a broken
// file gets its one line on stderr and the others are still listed.
TEST(Blocks, ListShowsThePuzzleFilesOfAFolder) {
  const auto dir = fresh_dir("blocks-list");
  for (const char* f : {"klotski.toml", "dads.toml"}) {
    std::filesystem::copy_file(kExamples + "/" + f, dir / f);
  }
  std::ofstream(dir / "broken.toml") << "name = \"x\"\nkind = \"blocks\"\nstart = \"A.A\"\n";
  std::ofstream(dir / "notes.txt") << "not a puzzle\n";
  const auto r = run_statespace("list " + dir.string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.std_err.find("broken.toml:3:10: piece 'A' is not connected"), std::string::npos) << r.std_err;
  const auto dads = r.std_out.find("dads.toml     dads     blocks       5x4");
  const auto klotski = r.std_out.find("klotski.toml  klotski  blocks       5x4");
  ASSERT_NE(dads, std::string::npos) << r.std_out;
  ASSERT_NE(klotski, std::string::npos) << r.std_out;
  EXPECT_LT(dads, klotski);
  EXPECT_NE(r.std_out.find("65,880  Klotski (Huarong Dao), standard start"), std::string::npos) << r.std_out;
  EXPECT_EQ(r.std_out.find("notes.txt"), std::string::npos);
  // Every shipped example loads.
  const auto examples = run_statespace("list " + kExamples);
  EXPECT_EQ(examples.exit_code, 0) << examples.out;
  EXPECT_NE(examples.std_out.find("40,320  Pancake sorting, 8 pancakes"), std::string::npos) << examples.std_out;
}

TEST(Blocks, UnreachableGoalIsReportedAndAnalysedAnyway) {
  const auto dir = fresh_dir("blocks-unreachable");
  const auto file = dir / "stuck.toml";
  std::ofstream(file) << "name = \"stuck\"\nkind = \"blocks\"\nstart = \"A#.\"\ngoal = \"*#A\"\n";
  const auto r = run_statespace("analyze " + file.string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.std_err.find("is not reachable from the start (analysed anyway)"), std::string::npos) << r.std_err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "stuck" / "summary.json"));
}

// Mutated copies of the corpus either load or fail with a ParseError naming the
// file; a loaded puzzle prints and reads back its start and generates moves.
// STATESPACE_FUZZ_ROUNDS raises the default number of files.
TEST(Blocks, LoaderSurvivesMutatedFiles) {
  std::vector<std::string> corpus;
  for (const auto& e : std::filesystem::directory_iterator(STATESPACE_BLOCKS_CORPUS)) {
    corpus.push_back(testing::read_file(e.path()));
  }
  std::sort(corpus.begin(), corpus.end());
  ASSERT_GE(corpus.size(), 4u);
  const char* env = std::getenv("STATESPACE_FUZZ_ROUNDS");
  const int rounds = env ? std::atoi(env) : 20'000;
  const std::string alphabet = "AB.#*_ \n\"'=[]{}/,x9-\\";
  std::mt19937_64 rng(11);
  const std::string file = "m.toml";
  int loaded = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string text = corpus[rng() % corpus.size()];
    for (int k = 1 + int(rng() % 4); k > 0 && !text.empty(); --k) {
      const std::size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          text.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text.erase(at, 1 + rng() % 8);
      }
    }
    try {
      const Blocks b = load_blocks(TomlInput(file, text));
      ++loaded;
      EXPECT_EQ(b.parse(b.format(b.goal())), b.goal()) << text;
      int n = 0;
      b.for_each_successor(b.goal(), [&](const Blocks::State& s) {
        ++n;
        EXPECT_EQ(b.parse(b.format(s)), s) << text;
      });
      EXPECT_LE(n, b.max_moves());
      if (const auto packing = b.packing(b.goal())) {
        std::vector<std::uint64_t> words(std::size_t(packing->moves()));
        EXPECT_EQ(packing->successors(packing->pack(b.goal()), words.data()), n) << text;
      }
    } catch (const ParseError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file + ":", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_GT(loaded, rounds / 20);
}

}  // namespace
}  // namespace statespace
