// Rules files (kind = "rules"): the published numbers of oshidori, frogs and toads,
// English peg solitaire and Lights Out, a Sokoban level solved, the packed words and
// the reversed rules against the byte states, and the loader's one-line errors.
#include "puzzles/rules.hpp"

#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solvers/solve.hpp"
#include "bad_file.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"
#include "reports/summary_json.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::BadFile;
using testing::expect_refused;
using testing::fresh_dir;
using testing::run_statespace;

const std::string kExamples = STATESPACE_EXAMPLES;
// The shortest solution of examples/puzzles/sokoban-yard.toml, walks and pushes.
constexpr std::size_t kSokobanMoves = 23;

Rules load(const std::string& file) {
  auto any = make_file_puzzle(kExamples + "/" + file);
  EXPECT_TRUE(any.has_value());
  return std::get<Rules>(*any);
}

Rules from_text(const std::string& text) { return std::get<Rules>(load_puzzle_file(TomlInput("rules.toml", text))); }

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

// Positions by their distance from `start`, every earlier level kept (the space may
// be directed), up to `depth`.
std::vector<std::uint64_t> forward_levels(const Rules& p, const Rules::State& start, int depth) {
  absl::flat_hash_set<Rules::State> seen{start};
  std::vector<Rules::State> level{start};
  std::vector<std::uint64_t> sizes{1};
  for (int d = 0; d < depth && !level.empty(); ++d) {
    std::vector<Rules::State> next;
    for (const auto& s : level) {
      p.for_each_successor(s, [&](const Rules::State& t) {
        if (seen.insert(t).second) next.push_back(t);
      });
    }
    level = std::move(next);
    if (!level.empty()) sizes.push_back(level.size());
  }
  return sizes;
}

// A shortest path from the file's start to its goal.
Solution<Rules> solve_to_goal(const Rules& p) {
  HashedLookup<Rules::State> visited;
  return solve_bfs_until(
      p, p.start(), [&](const Rules::State& s) { return p.is_goal(s); }, visited, MemoryBudget());
}

std::vector<Rules::State> successors(const Rules& p, const Rules::State& s) {
  std::vector<Rules::State> out;
  p.for_each_successor(s, [&](const Rules::State& t) { out.push_back(t); });
  return out;
}

// Every position within `depth` moves of the start, for the property tests.
std::vector<Rules::State> around_start(const Rules& p, int depth) {
  absl::flat_hash_set<Rules::State> seen{p.start()};
  std::vector<Rules::State> all{p.start()}, level{p.start()};
  for (int d = 0; d < depth; ++d) {
    std::vector<Rules::State> next;
    for (const auto& s : level) {
      for (const auto& t : successors(p, s)) {
        if (seen.insert(t).second) next.push_back(t);
      }
    }
    all.insert(all.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return all;
}

// The packed words move as the byte states do, forwards and backwards, and every
// move is undone by a predecessor.
void expect_words_follow_states(const Rules& p, int depth) {
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value()) << p.name();
  std::vector<std::uint64_t> out(std::size_t(k->moves()));
  for (const auto& s : around_start(p, depth)) {
    const std::uint64_t w = k->pack(s);
    ASSERT_EQ(k->unpack(w), s);
    std::vector<std::uint64_t> bytes, words;
    for (const auto& t : successors(p, s)) bytes.push_back(k->pack(t));
    words.assign(out.begin(), out.begin() + k->successors(w, out.data()));
    if (p.symmetries() > 1) {  // classes come sorted by word, not by state
      std::sort(bytes.begin(), bytes.end());
    }
    EXPECT_EQ(words, bytes) << p.format(s);
    std::vector<std::uint64_t> back_bytes, back_words;
    p.for_each_predecessor(s, [&](const Rules::State& t) { back_bytes.push_back(k->pack(t)); });
    back_words.assign(out.begin(), out.begin() + k->predecessors(w, out.data()));
    if (p.symmetries() > 1) std::sort(back_bytes.begin(), back_bytes.end());
    EXPECT_EQ(back_words, back_bytes) << p.format(s);
    for (const auto& t : successors(p, s)) {
      bool undone = false;
      p.for_each_predecessor(t, [&](const Rules::State& u) { undone = undone || u == s; });
      EXPECT_TRUE(undone) << p.format(s) << " -> " << p.format(t);
    }
  }
}

std::string oshidori_file(int n) {
  std::string start;
  for (int i = 0; i < 2 * n; ++i) start += i < n ? "B " : "W ";
  return "name = \"o\"\nkind = \"rules\"\nstart = \"" + start +
         ". .\"\n[[rule]]\nfrom = \"x y ... . .\"\nto = \". . ... x y\"\ndirections = \"right left\"\n";
}

TEST(Rules, OshidoriFileEqualsTheBuiltInModelForEveryN) {
  for (int n = 1; n <= Oshidori::kMaxPairs; ++n) {
    const Rules file = from_text(oshidori_file(n));
    EXPECT_FALSE(file.directed());
    const auto ours = analyze_explicit(file, quiet()).result;
    const auto builtin = analyze_explicit(Oshidori{n}, quiet()).result;
    EXPECT_EQ(ours.states, builtin.states) << n;
    EXPECT_EQ(ours.layers, builtin.layers) << n;
    EXPECT_EQ(ours.edges, builtin.edges) << n;
    std::vector<std::string> theirs;
    for (auto f : builtin.farthest) {
      std::replace(f.begin(), f.end(), '_', '.');
      theirs.push_back(f);
    }
    std::sort(theirs.begin(), theirs.end());
    auto mine = ours.farthest;
    std::sort(mine.begin(), mine.end());
    EXPECT_EQ(mine, theirs) << n;
    if (n == 3) {
      EXPECT_EQ(ours.states, 140u);
      EXPECT_EQ(ours.eccentricity(), 6u);
    }
  }
  // The shipped file: from the seed's problem, its goal at the built-in's distance.
  const Rules shipped = load("oshidori.toml");
  const auto r = analyze_explicit(shipped, quiet()).result;
  EXPECT_EQ(r.states, 140u);
  ASSERT_TRUE(r.goal && r.goal->shortest);
  const auto builtin = analyze_explicit(Oshidori{3}, quiet()).result;
  EXPECT_EQ(r.goal->layers, builtin.layers);
  const Oshidori o{3};
  HashedLookup<Board> visited;
  const auto seed = solve_bfs(o, o.start(), o.goal(), visited, MemoryBudget());
  EXPECT_EQ(*r.goal->shortest, seed.path.size() - 1);
}

TEST(Rules, FrogsAndToadsSwapInFifteenMoves) {
  const Rules p = load("frogs-and-toads.toml");
  EXPECT_TRUE(p.directed());
  const auto sol = solve_to_goal(p);
  ASSERT_EQ(sol.path.size(), 16u);
  EXPECT_EQ(p.format(sol.path.back()), "T T T . F F F");
  for (const auto& s : sol.path) EXPECT_EQ(p.parse(p.format(s)), s);
  expect_words_follow_states(p, 20);
}

TEST(Rules, PegEnglishPositionsAfterZeroToFiveJumps) {
  const Rules p = load("peg-english.toml");
  EXPECT_TRUE(p.directed());
  EXPECT_EQ(p.instances().size(), 76u);  // 19 jumps along the rows and 19 along the columns, both ways
  EXPECT_EQ(forward_levels(p, p.start(), 5), (std::vector<std::uint64_t>{1, 4, 12, 60, 296, 1338}));
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->bits_per_cell(), 1);
  expect_words_follow_states(p, 3);
}

// symmetry = "board": the cross has the square's eight symmetries; the classes after
// 0..5 jumps, weighted by their sizes, are the positions.
TEST(Rules, PegEnglishClassesUnderTheBoardSymmetryAddUpToThePositions) {
  const Rules p = from_text(testing::rules_with_board_symmetry(kExamples + "/peg-english.toml"));
  EXPECT_EQ(p.symmetries(), 8);
  absl::flat_hash_set<Rules::State> seen{p.start()};
  std::vector<Rules::State> level{p.start()};
  std::vector<std::uint64_t> classes{1}, positions{p.orbit_size(p.start())};
  for (int d = 0; d < 5; ++d) {
    std::vector<Rules::State> next;
    for (const auto& s : level) {
      for (const auto& t : successors(p, s)) {
        EXPECT_EQ(p.canonical(t), t);
        if (seen.insert(t).second) next.push_back(t);
      }
    }
    level = std::move(next);
    classes.push_back(level.size());
    std::uint64_t n = 0;
    for (const auto& s : level) n += p.orbit_size(s);
    positions.push_back(n);
  }
  EXPECT_EQ(positions, (std::vector<std::uint64_t>{1, 4, 12, 60, 296, 1338}));
  EXPECT_EQ(classes[0], 1u);
  EXPECT_EQ(classes[1], 1u);  // the four first jumps are one class
  expect_words_follow_states(p, 3);
}

// Peg solitaire on the 4x4 square, a corner empty, down to one peg anywhere: the
// square's eight symmetries map the board, the rules and the goal onto themselves,
// and two of them (the identity, the diagonal through the corner) the start too.
std::string square_peg(bool symmetric) {
  return std::string("name = \"peg-4x4\"\nkind = \"rules\"\n") + (symmetric ? "symmetry = \"board\"\n" : "") +
         "start = \"\"\"\n. O O O\nO O O O\nO O O O\nO O O O\n\"\"\"\ngoal = { pieces = 1 }\n"
         "[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n";
}

// Up to symmetry every engine reports classes (layers, states, one farthest position
// a class) and the positions they stand for (layer_positions): both found here from a
// search without symmetry from every image of the start under the group used (the
// start's stabiliser: the start alone), each level's states mapped to their least
// members.
TEST(Rules, SymmetricEnginesGiveClassesAndPositions) {
  const Rules plain = from_text(square_peg(false));
  const Rules sym = from_text(square_peg(true));
  ASSERT_EQ(sym.symmetries(), 2);
  ASSERT_EQ(sym.board_symmetries(), 8);
  std::vector<std::uint64_t> positions, classes;
  std::vector<std::string> farthest;
  {
    std::set<Rules::State> images{plain.start()};
    for (const Rules::CellMap& g : sym.symmetry_maps()) {
      Rules::State t = plain.start();
      for (std::size_t c = 0; c < std::size_t(Rules::kMaxCells); ++c) t.cell[g[c]] = plain.start().cell[c];
      images.insert(t);
    }
    ASSERT_EQ(images.size(), 1u);
    absl::flat_hash_set<Rules::State> seen(images.begin(), images.end());
    std::vector<Rules::State> level(images.begin(), images.end());
    while (!level.empty()) {
      positions.push_back(level.size());
      std::set<Rules::State> least;
      for (const auto& s : level) least.insert(sym.canonical(s));
      classes.push_back(least.size());
      farthest.clear();
      for (const auto& s : least) farthest.push_back(sym.format(s));
      std::vector<Rules::State> next;
      for (const auto& s : level) {
        for (const auto& t : successors(plain, s)) {
          if (seen.insert(t).second) next.push_back(t);
        }
      }
      level = std::move(next);
    }
  }
  ASSERT_GT(classes.size(), 10u);
  EXPECT_LT(classes[5], positions[5]);
  std::uint64_t total = 0;
  for (const auto n : positions) total += n;
  const auto packing = sym.packing(sym.start());
  ASSERT_TRUE(packing.has_value());
  EXPECT_TRUE(packing->graded());
  const AnalysisResult levels = analyze_levels(sym, quiet(), sym.start(), *packing);
  const AnalysisResult graph = analyze_explicit(sym, quiet()).result;
  for (const AnalysisResult* r : {&levels, &graph}) {
    EXPECT_EQ(r->layers, classes) << r->engine;
    EXPECT_EQ(r->layer_positions, positions) << r->engine;
    EXPECT_EQ(r->positions(), total) << r->engine;
    EXPECT_EQ(r->farthest, farthest) << r->engine;
    ASSERT_TRUE(r->goal && r->goal->dead_ends) << r->engine;
  }
  EXPECT_EQ(levels.goal->layers, graph.goal->layers);
  EXPECT_EQ(*levels.goal->dead_ends, *graph.goal->dead_ends);
  // Without symmetry the same engines give the positions alone.
  const AnalysisResult whole = analyze_levels(plain, quiet(), plain.start(), *plain.packing(plain.start()));
  EXPECT_EQ(whole.layers[0], 1u);
  EXPECT_TRUE(whole.layer_positions.empty());
  EXPECT_EQ(whole.positions(), whole.states);

  // Every writer gives both numbers: distribution.csv, summary.csv and summary.md
  // a column, summary.json a key that reads back.
  const std::string csv = reports::distribution_csv(levels);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "depth,count,cumulative,positions,positions_cumulative");
  EXPECT_NE(csv.find("\n1," + std::to_string(classes[1]) + "," + std::to_string(classes[0] + classes[1]) + "," +
                     std::to_string(positions[1]) + "," + std::to_string(positions[0] + positions[1]) + "\n"),
            std::string::npos)
      << csv;
  const std::string summary = reports::summary_csv({levels});
  EXPECT_EQ(summary.substr(0, summary.find("edges")), "puzzle,start,states,positions,");
  EXPECT_NE(summary.find("," + std::to_string(levels.states) + "," + std::to_string(total) + ","), std::string::npos);
  const std::string md = reports::summary_markdown({levels, whole});
  EXPECT_NE(md.find("| states | positions | edges |"), std::string::npos) << md;
  EXPECT_NE(md.find(" | " + with_commas(levels.states) + " | " + with_commas(total) + " | "), std::string::npos) << md;
  EXPECT_NE(md.find(" | " + with_commas(whole.states) + " | " + with_commas(whole.states) + " | "), std::string::npos)
      << md;
  const AnalysisResult back = reports::read_summary_json(reports::summary_json(levels));
  EXPECT_EQ(back.layer_positions, positions);
  EXPECT_NE(reports::summary_json(levels).find("\"positions\": " + std::to_string(total)), std::string::npos);
  EXPECT_EQ(reports::summary_json(whole).find("positions_distribution"), std::string::npos);
  EXPECT_NE(reports::symmetry_summary_text(levels).find(with_commas(total) + " positions"), std::string::npos);
  EXPECT_EQ(reports::symmetry_summary_text(whole), "");
}

// Graded packings: every jump takes one peg off, so the levels need no check against
// earlier ones. Rules that keep the count (frogs and toads), toggle (Lights Out) or
// run in chains (several jumps a move) are not graded.
TEST(Rules, GradedWhenEveryRuleChangesThePieceCountAlike) {
  Rules peg = load("peg-english.toml");
  const auto k = peg.packing(peg.start());
  ASSERT_TRUE(k && k->graded());
  EXPECT_EQ(k->grade(k->pack(peg.start())), 1);  // 33 holes, 32 pegs
  std::vector<std::uint64_t> out(std::size_t(k->moves()));
  const int n = k->successors(k->pack(peg.start()), out.data());
  ASSERT_EQ(n, 4);
  for (int i = 0; i < n; ++i) EXPECT_EQ(k->grade(out[std::size_t(i)]), 2);
  Rules::State centre = peg.start();
  for (auto& cell : centre.cell) {
    if (cell != Rules::kOutside) cell = Rules::kEmpty;
  }
  centre.cell[3 * 7 + 3] = 1;
  EXPECT_TRUE(peg.is_goal(centre));
  EXPECT_TRUE(k->is_goal(k->pack(centre)));
  centre.cell[0 * 7 + 2] = 1;
  EXPECT_FALSE(k->is_goal(k->pack(centre)));
  EXPECT_FALSE(k->is_goal(k->pack(peg.start())));
  for (const std::string f : {"frogs-and-toads.toml", "lights-out-5x5.toml", "oshidori.toml"}) {
    const Rules p = load(f);
    const auto q = p.packing(p.start());
    ASSERT_TRUE(q.has_value()) << f;
    EXPECT_FALSE(q->graded()) << f;
  }
  peg.set_moves(RuleMetric::kChain);
  EXPECT_FALSE(peg.packing(peg.start())->graded());
}

// The whole English board from the file on the sorted-levels engine, counted up to
// the board's symmetries: the positions are the published 187,636,299, after 0..5
// jumps 1, 4, 12, 60, 296, 1,338; one class after the first jump.
TEST(RulesLong, PegEnglishWholeBoardUpToSymmetry) {
  const Rules p = from_text(testing::rules_with_board_symmetry(kExamples + "/peg-english.toml"));
  const AnalysisResult r = analyze_levels(p, quiet(), p.start(), *p.packing(p.start()));
  EXPECT_EQ(r.positions(), 187'636'299u);
  ASSERT_EQ(r.layer_positions.size(), 32u);
  EXPECT_EQ(std::vector<std::uint64_t>(r.layer_positions.begin(), r.layer_positions.begin() + 6),
            (std::vector<std::uint64_t>{1, 4, 12, 60, 296, 1338}));
  EXPECT_EQ(r.layers[1], 1u);
  EXPECT_LT(r.states, r.positions() / 7);
  ASSERT_TRUE(r.goal && r.goal->shortest);
  EXPECT_EQ(*r.goal->shortest, 31u);
}

// Depth first with the positions known to fail (Bell's and many others' solvers):
// the words of the packing make it a matter of milliseconds.
bool solve_peg(const RulesPacking& k, std::uint64_t w, std::uint64_t goal, absl::flat_hash_set<std::uint64_t>& failed,
               std::vector<std::uint64_t>& path) {
  if (w == goal) return true;
  if (failed.contains(w)) return false;
  std::vector<std::uint64_t> out(std::size_t(k.moves()));
  const int n = k.successors(w, out.data());
  for (int i = 0; i < n; ++i) {
    path.push_back(out[std::size_t(i)]);
    if (solve_peg(k, out[std::size_t(i)], goal, failed, path)) return true;
    path.pop_back();
  }
  failed.insert(w);
  return false;
}

TEST(Rules, PegEnglishOnePegLeftInTheCentreAfterThirtyOneJumps) {
  const Rules p = load("peg-english.toml");
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value());
  const Rules::State centre = p.parse(
      "# # . . . # # / # # . . . # # / . . . . . . . / . . . O . . . / . . . . . . . / "
      "# # . . . # # / # # . . . # #");
  EXPECT_TRUE(p.is_goal(centre));
  absl::flat_hash_set<std::uint64_t> failed;
  std::vector<std::uint64_t> path{k->pack(p.start())};
  ASSERT_TRUE(solve_peg(*k, path[0], k->pack(centre), failed, path));
  EXPECT_EQ(path.size(), 32u);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const auto next = successors(p, k->unpack(path[i - 1]));
    EXPECT_NE(std::find(next.begin(), next.end(), k->unpack(path[i])), next.end());
  }
}

// A chain of jumps by one peg is one move: every step successor is a chain successor,
// and a double jump is one move.
TEST(Rules, ChainMetricJoinsTheJumpsOfOnePeg) {
  Rules p = from_text(
      "name = \"c\"\nkind = \"rules\"\nstart = \"O O . O . . / . . . . . .\"\nmoves = \"chain\"\n"
      "[[rule]]\nfrom = \"O O .\"\nto = \". . O\"\n");
  EXPECT_EQ(p.metric(), RuleMetric::kChain);
  std::vector<std::string> shown;
  for (const auto& t : successors(p, p.start())) shown.push_back(p.format(t));
  EXPECT_EQ(shown, (std::vector<std::string>{". . O O . . / . . . . . .", ". . . . O . / . . . . . ."}));
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value());
  std::vector<std::uint64_t> out(std::size_t(k->moves()));
  EXPECT_EQ(k->successors(k->pack(p.start()), out.data()), 2);
  EXPECT_EQ(k->unpack(out[1]), p.parse(". . . . O . / . . . . . ."));
  // Backwards: the double jump's end leads back to the start in one move.
  bool back = false;
  p.for_each_predecessor(p.parse(". . . . O . / . . . . . ."),
                         [&](const Rules::State& s) { back = back || s == p.start(); });
  EXPECT_TRUE(back);
  EXPECT_EQ(p.move_name(p.start(), p.parse(". . . . O . / . . . . . .")), "rule 1 at 1,1");
  p.set_moves(RuleMetric::kStep);
  EXPECT_EQ(successors(p, p.start()).size(), 1u);
}

// Bergholt's 18-move solution (1912; Beasley proved in 1964 that none is shorter), as
// published: "46*44" is a peg at row 4, column 6 jumping to row 4, column 4, "75*73*53"
// one peg's three jumps. Under the chain metric each line is one move.
TEST(Rules, PegEnglishBergholtsEighteenMovesAreChainMoves) {
  Rules p = load("peg-english.toml");
  p.set_moves(RuleMetric::kChain);
  const std::vector<std::string> moves = {"46*44",
                                          "65*45",
                                          "57*55",
                                          "54*56",
                                          "52*54",
                                          "73*53",
                                          "43*63",
                                          "75*73*53",
                                          "35*55",
                                          "15*35",
                                          "23*43*63*65*45*25",
                                          "37*57*55*53",
                                          "31*33",
                                          "34*32",
                                          "51*31*33",
                                          "13*15*35",
                                          "36*34*32*52*54*34",
                                          "24*44"};
  Rules::State s = p.start();
  int jumps = 0;
  for (const auto& move : moves) {
    Rules::State t = s;
    for (std::size_t i = 0; i + 4 < move.size(); i += 3) {
      const int r0 = move[i] - '1', c0 = move[i + 1] - '1', r1 = move[i + 3] - '1', c1 = move[i + 4] - '1';
      const auto cell = [](int r, int c) { return std::size_t(r * 7 + c); };
      ASSERT_EQ(t.cell[cell(r0, c0)], 1) << move;
      ASSERT_EQ(t.cell[cell((r0 + r1) / 2, (c0 + c1) / 2)], 1) << move;
      ASSERT_EQ(t.cell[cell(r1, c1)], Rules::kEmpty) << move;
      t.cell[cell(r0, c0)] = t.cell[cell((r0 + r1) / 2, (c0 + c1) / 2)] = Rules::kEmpty;
      t.cell[cell(r1, c1)] = 1;
      ++jumps;
    }
    const auto next = successors(p, s);
    ASSERT_NE(std::find(next.begin(), next.end(), t), next.end()) << move << " from " << p.format(s);
    s = t;
  }
  EXPECT_EQ(jumps, 31);
  EXPECT_TRUE(p.is_goal(s));
}

TEST(Rules, LightsOutEveryPatternFromAllOffAndItsFewestPresses) {
  const Rules p = load("lights-out-5x5.toml");
  EXPECT_FALSE(p.directed());
  ASSERT_EQ(p.instances().size(), 25u);
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value());
  auto o = quiet();
  o.threads = 2;
  const auto r = analyze_levels(p, o, p.start(), *k);
  EXPECT_EQ(r.states, 8'388'608u);
  // Brute force over GF(2): every set of presses, the pattern it makes, the fewest
  // presses for each pattern.
  std::array<std::uint32_t, 25> press{};
  for (int c = 0; c < 25; ++c) {
    const int row = c / 5, col = c % 5;
    press[std::size_t(c)] = 1u << c;
    if (row > 0) press[std::size_t(c)] |= 1u << (c - 5);
    if (row < 4) press[std::size_t(c)] |= 1u << (c + 5);
    if (col > 0) press[std::size_t(c)] |= 1u << (c - 1);
    if (col < 4) press[std::size_t(c)] |= 1u << (c + 1);
  }
  std::vector<std::uint8_t> fewest(std::size_t(1) << 25, 255);
  std::uint32_t pattern = 0;
  for (std::uint32_t g = 0; g < (1u << 25); ++g) {
    // Gray code order: one press more or less each step.
    if (g) pattern ^= press[std::size_t(std::countr_zero(g))];
    const std::uint32_t presses = g ^ (g >> 1);
    fewest[pattern] = std::min<std::uint8_t>(fewest[pattern], std::uint8_t(std::popcount(presses)));
  }
  std::vector<std::uint64_t> layers;
  for (const auto f : fewest) {
    if (f == 255) continue;
    if (layers.size() <= f) layers.resize(f + 1u);
    ++layers[f];
  }
  EXPECT_EQ(r.layers, layers);
  EXPECT_EQ(r.eccentricity(), 15u);
}

TEST(Rules, SokobanYardIsSolvedBoardByBoard) {
  const Rules p = load("sokoban-yard.toml");
  EXPECT_TRUE(p.directed());
  const auto sol = solve_to_goal(p);
  ASSERT_FALSE(sol.path.empty());
  EXPECT_EQ(sol.path.size() - 1, kSokobanMoves);
  EXPECT_TRUE(p.is_goal(sol.path.back()));
  expect_words_follow_states(p, 6);
  const auto r = run_statespace("solve " + kExamples + "/sokoban-yard.toml");
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.out.find(std::to_string(kSokobanMoves) + " moves"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("push at"), std::string::npos) << r.out;
}

TEST(Rules, EveryExampleRunsFromTheCommandLine) {
  const auto dir = fresh_dir("rules-cli");
  for (const std::string f : {"oshidori.toml", "frogs-and-toads.toml", "sokoban-yard.toml"}) {
    const auto r =
        run_statespace("analyze " + kExamples + "/" + f + " --engine explicit --quiet --out " + dir.string());
    EXPECT_EQ(r.exit_code, 0) << f << r.std_err;
  }
  const auto r = run_statespace("solve " + kExamples + "/frogs-and-toads.toml");
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_NE(r.out.find("15 moves"), std::string::npos) << r.out;
}

TEST(Rules, BrokenFilesAreOneLineWithTheirPosition) {
  const auto dir = fresh_dir("rules-errors");
  const std::string head = "name = \"x\"\nkind = \"rules\"\nstart = \"O O . .\"\n[[rule]]\n";
  const std::vector<BadFile> cases = {
      {head + "from = \"O O .\"\nto = \". . O\"\ndirections = \"right sideways\"\n",
       "bad.toml:7:21: unknown direction 'sideways'"},
      {head + "from = \"O O .\"\nto = \". O\"\n", "bad.toml:6:6: the replacement is 1x2 cells, the pattern 1x3"},
      {head + "from = \"x .\"\nto = \". y\"\n", "bad.toml:6:9: variable 'y' is never bound by the pattern"},
      {head + "from = \"Z .\"\nto = \". Z\"\n", "bad.toml:5:9: this rule can never match: no 'Z'"},
      {head + "from = \"O O . . .\"\nto = \". . . . O\"\n", "bad.toml:5:8: this rule can never match: it fits nowhere"},
      {head + "from = \"O .\"\nto = \"O .\"\n", "the replacement changes nothing"},
      {head + "from = \"O ?\"\nto = \". O\"\n", "bad.toml:5:11: unknown cell '?'"},
      {head + "from = \"O * .\"\nto = \". . O\"\n", "bad.toml:6:9: the pattern's '*' is left as it is"},
      {"name = \"x\"\nkind = \"rules\"\nstart = \"O o .\"\n[[rule]]\nfrom = \"O .\"\nto = \". O\"\n",
       "bad.toml:3:12: 'o' is lower case"},
      {"name = \"x\"\nkind = \"rules\"\nstart = \"O O .\"\n", "no rule"},
      {head + "from = \"O .\"\nto = \". O\"\ncolour = 1\n", "bad.toml:7:1: unknown key 'colour'"},
  };
  expect_refused(dir, cases);
}

}  // namespace
}  // namespace statespace
