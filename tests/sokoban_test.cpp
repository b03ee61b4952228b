// Sokoban levels read from XSB: the model in both metrics against a search written
// here on the level's characters, against the rules file of the same level, and
// every LURD solution replayed by a checker of its own.
#include "puzzles/sokoban.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/rules.hpp"
#include "puzzles/xsb_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_statespace;
using testing::write_file;

const std::string kExamples = STATESPACE_EXAMPLES;  // examples/puzzles

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

Sokoban level_of(const std::string& xsb, SokobanMetric metric = SokobanMetric::kPushes) {
  const auto levels = read_xsb("t.xsb", xsb);
  EXPECT_EQ(levels.size(), 1u);
  EXPECT_TRUE(levels.front().level) << levels.front().error;
  return Sokoban(*levels.front().level, metric);
}

// The level's characters, searched here without the model: a position is the set of
// box cells and the keeper's cell, on the grid of the text.
struct Grid {
  std::vector<std::string> rows;
  int keeper = -1, width = 0;
  std::set<int> boxes, goals;
  explicit Grid(const std::string& xsb) {
    std::string row;
    for (const char c : xsb + "\n") {
      if (c != '\n') {
        row += c;
        continue;
      }
      if (!row.empty()) rows.push_back(row);
      row.clear();
    }
    for (const auto& r : rows) width = std::max(width, int(r.size()));
    for (auto& r : rows) r.resize(std::size_t(width), ' ');
    for (int i = 0; i < int(rows.size()) * width; ++i) {
      const char c = rows[std::size_t(i / width)][std::size_t(i % width)];
      if (c == '@' || c == '+') keeper = i;
      if (c == '$' || c == '*') boxes.insert(i);
      if (c == '.' || c == '*' || c == '+') goals.insert(i);
    }
  }
  [[nodiscard]] bool wall(int i) const { return rows[std::size_t(i / width)][std::size_t(i % width)] == '#'; }
  [[nodiscard]] int step(int i, char d) const {
    switch (d) {
      case 'l':
        return i - 1;
      case 'r':
        return i + 1;
      case 'u':
        return i - width;
      default:
        return i + width;
    }
  }
};

struct Pos {
  std::set<int> boxes;
  int keeper;
  friend auto operator<=>(const Pos&, const Pos&) = default;
};

// The keeper's step from p in direction d (one of "lurd"), pushing the box ahead of
// it when there is one: the position after it and whether it pushed, or nothing when
// a wall or a second box is in the way.
std::optional<std::pair<Pos, bool>> moved(const Grid& g, const Pos& p, char d) {
  Pos t = p;
  t.keeper = g.step(p.keeper, d);
  if (g.wall(t.keeper)) return std::nullopt;
  if (!t.boxes.count(t.keeper)) return std::pair{t, false};
  const int ahead = g.step(t.keeper, d);
  if (g.wall(ahead) || t.boxes.count(ahead)) return std::nullopt;
  t.boxes.erase(t.keeper);
  t.boxes.insert(ahead);
  return std::pair{t, true};
}

// Every position the keeper reaches by steps and pushes, and the fewest moves and the
// fewest pushes to a solved one (a 0-1 search: walking costs no push).
struct Searched {
  std::set<Pos> positions;
  int fewest_moves = -1, fewest_pushes = -1;
  std::uint64_t solvable = 0;  // positions from which a solved one is reachable
};

Searched search(const Grid& g) {
  Searched out;
  std::map<Pos, int> moves;
  std::map<Pos, std::vector<Pos>> back;
  std::deque<Pos> queue{{g.boxes, g.keeper}};
  moves[queue.front()] = 0;
  while (!queue.empty()) {
    const Pos p = queue.front();
    queue.pop_front();
    if (p.boxes == g.goals && out.fewest_moves < 0) out.fewest_moves = moves[p];
    for (const char d : std::string("lurd")) {
      const auto step = moved(g, p, d);
      if (!step) continue;
      const Pos& t = step->first;
      back[t].push_back(p);
      if (moves.emplace(t, moves[p] + 1).second) queue.push_back(t);
    }
  }
  for (const auto& [p, m] : moves) out.positions.insert(p);
  // Fewest pushes: 0-1 breadth-first.
  std::map<Pos, int> pushes;
  std::deque<Pos> dq{{g.boxes, g.keeper}};
  pushes[dq.front()] = 0;
  while (!dq.empty()) {
    const Pos p = dq.front();
    dq.pop_front();
    for (const char d : std::string("lurd")) {
      const auto step = moved(g, p, d);
      if (!step) continue;
      const auto& [t, pushed] = *step;
      const int cost = pushed ? 1 : 0;
      const auto it = pushes.find(t);
      if (it != pushes.end() && it->second <= pushes[p] + cost) continue;
      pushes[t] = pushes[p] + cost;
      cost ? dq.push_back(t) : dq.push_front(t);
    }
  }
  for (const auto& [p, n] : pushes) {
    if (p.boxes == g.goals && (out.fewest_pushes < 0 || n < out.fewest_pushes)) out.fewest_pushes = n;
  }
  // Solvable: backwards from the solved positions over the recorded moves.
  std::set<Pos> live;
  std::vector<Pos> stack;
  for (const auto& p : out.positions) {
    if (p.boxes == g.goals) {
      live.insert(p);
      stack.push_back(p);
    }
  }
  while (!stack.empty()) {
    const Pos p = stack.back();
    stack.pop_back();
    for (const auto& q : back[p]) {
      if (live.insert(q).second) stack.push_back(q);
    }
  }
  out.solvable = live.size();
  return out;
}

// Replays LURD on the characters: whether it ends solved, and its pushes and moves;
// an illegal letter ends the replay unsolved.
struct Replayed {
  bool solved = false;
  int pushes = 0, moves = 0;
};
Replayed replay(const Grid& g, const std::string& lurd) {
  Replayed r;
  Pos p{g.boxes, g.keeper};
  for (const char c : lurd) {
    const char d = char(c | 0x20);
    const auto step = moved(g, p, d);
    // A capital letter must push, a small one must not.
    if (!step || step->second != (c != d)) return r;
    p = step->first;
    r.pushes += step->second;
    ++r.moves;
  }
  r.solved = p.boxes == g.goals;
  return r;
}

// Our own levels, small enough for the search above.
const std::vector<std::string> kLevels = {
    "#####\n#@$.#\n#####\n",
    // examples/puzzles/sokoban-yard.toml drawn in XSB
    "#######\n#.   .#\n# $#$ #\n#  @  #\n##   ##\n#######\n",
    "######\n#    #\n# #@ #\n# $* #\n# .$ #\n#  . #\n######\n",
    "#######\n#  .  #\n# $$$ #\n#. @ .#\n#######\n",
    // a floor of 20 cells
    "#######\n#.$  .#\n# $@$ #\n#   $ #\n#.   .#\n#######\n",
};

TEST(Sokoban, BothMetricsAgreeWithASearchOnTheCharacters) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    const std::string& text = kLevels[i];
    const Grid g(text);
    if (g.boxes.size() > 4) continue;  // the search here is slow past a few boxes
    const Searched s = search(g);
    const Sokoban moves = level_of(text, SokobanMetric::kMoves);
    const Sokoban pushes = level_of(text, SokobanMetric::kPushes);
    const AnalysisResult m = analyze_levels(moves, quiet(), moves.start(), *moves.packing(moves.start()));
    const AnalysisResult p = analyze_levels(pushes, quiet(), pushes.start(), *pushes.packing(pushes.start()));
    EXPECT_EQ(m.states, s.positions.size()) << i;
    ASSERT_TRUE(m.goal && p.goal) << i;
    EXPECT_EQ(int(m.goal->shortest.value_or(~0u)), s.fewest_moves) << i;
    EXPECT_EQ(int(p.goal->shortest.value_or(~0u)), s.fewest_pushes) << i;
    EXPECT_EQ(m.states - m.goal->dead_ends.value_or(0), s.solvable) << i;
    // The explicit engine gives the same numbers.
    const AnalysisResult e = analyze_explicit(pushes, quiet()).result;
    EXPECT_EQ(e.states, p.states) << i;
    EXPECT_EQ(e.goal->dead_ends, p.goal->dead_ends) << i;
    EXPECT_EQ(e.goal->shortest, p.goal->shortest) << i;
  }
}

// The fewest (primary, secondary) counts to a solved position, by a Dijkstra search
// on the characters: by pushes then moves (push_first), or by moves then pushes.
std::pair<int, int> fewest(const Grid& g, bool push_first) {
  using Cost = std::pair<int, int>;
  std::map<Pos, Cost> best;
  std::set<std::pair<Cost, Pos>> open{{{0, 0}, {g.boxes, g.keeper}}};
  best[{g.boxes, g.keeper}] = {0, 0};
  while (!open.empty()) {
    const auto [cost, p] = *open.begin();
    open.erase(open.begin());
    if (p.boxes == g.goals) return cost;
    for (const char d : std::string("lurd")) {
      const auto step = moved(g, p, d);
      if (!step) continue;
      const auto& [t, pushed] = *step;
      const int push = pushed ? 1 : 0;
      const Cost c = push_first ? Cost{cost.first + push, cost.second + 1} : Cost{cost.first + 1, cost.second + push};
      const auto it = best.find(t);
      if (it != best.end() && it->second <= c) continue;
      if (it != best.end()) open.erase({it->second, t});
      best[t] = c;
      open.insert({c, t});
    }
  }
  return {-1, -1};
}

// Published optima of small public levels: David W. Skinner's Microban (2000), levels
// 1 to 6, freely distributed with credit to their author; the text as in
// github.com/tintor/Workspace, data/sokoban/microban (commit f2bf431, 2017-04-19).
//
// Fewest moves: the expected solution lengths of that repository's optimal solver,
// src/tintor/sokoban/SolverTest.java at the same commit: test("microban:1", 33),
// 2: 16, 3: 41, 4: 23, 5: 25, 6: 107.
// Fewest pushes: published for level 1 only, 8, by the push-optimal run of Naoyuki
// Tamura's Copris Sokoban solver in its README ("-o opt", Steps = 8, a step being one
// box push); the other levels' push optima come from the search written here.
// LURD: the solutions of levels 3 to 6 in github.com/ShenMian/soukoban,
// tests/actions.rs (commit 06d8d69), with the moves and pushes that test asserts
// (41/13, 23/7, 27/6, 107/29; run-length "3L" written out here as "LLL").
struct Published {
  std::string xsb;
  int moves;         // the published fewest moves
  int pushes;        // the published fewest pushes, or -1
  std::string lurd;  // a published solution, or ""
  int lurd_moves, lurd_pushes;
};
const std::vector<Published> kMicroban = {
    {"####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n", 33, 8, "", 0, 0},
    {"######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######\n", 16, -1, "", 0, 0},
    {"  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########\n", 41, -1,
     "ruuLLLulDrrrrddlUruLLLddllluurRDrdLuuurDD", 41, 13},
    {"########\n#      #\n# .**$@#\n#      #\n#####  #\n    ####\n", 23, -1, "ullDLdRuurrdLLrrddlUruL", 23, 7},
    {" #######\n #     #\n # .$. #\n## $@$ #\n#  .$. #\n#      #\n########\n", 25, -1, "LulDuurrrdLrrddlUlldRdllluR",
     27, 6},
    {"###### #####\n#    ###   #\n# $$     #@#\n# $ #...   #\n#   ########\n#####\n", 107, -1,
     "ulldllllulDulldRRRRRRdrrruullDurrddlLLLulllllddrUluRRRRRRdrrruullDurrddlLLulllllddrUluRRRRRdrrruullDurrddlL", 107,
     29},
};

TEST(Sokoban, MicrobanMatchesPublishedOptimaInBothMetrics) {
  for (std::size_t i = 0; i < kMicroban.size(); ++i) {
    const Published& level = kMicroban[i];
    const Grid g(level.xsb);
    const Sokoban moves = level_of(level.xsb, SokobanMetric::kMoves);
    const Sokoban pushes = level_of(level.xsb, SokobanMetric::kPushes);
    const AnalysisResult m = analyze_levels(moves, quiet(), moves.start(), *moves.packing(moves.start()));
    const AnalysisResult p = analyze_levels(pushes, quiet(), pushes.start(), *pushes.packing(pushes.start()));
    ASSERT_TRUE(m.goal && p.goal) << i;
    // The moves metric's optimum is the published one; so is the search's here.
    const auto [by_moves, then_pushes] = fewest(g, false);
    const auto [by_pushes, then_moves] = fewest(g, true);
    EXPECT_EQ(by_moves, level.moves) << i;
    EXPECT_EQ(m.goal->shortest, std::optional<unsigned>(unsigned(level.moves))) << i;
    // The pushes metric's optimum: the published one where there is one, and the search's.
    if (level.pushes >= 0) {
      EXPECT_EQ(by_pushes, level.pushes) << i;
    }
    EXPECT_EQ(p.goal->shortest, std::optional<unsigned>(unsigned(by_pushes))) << i;
    // solve's LURD in each metric: its counts are the optimum and then the fewest of
    // the other count, and the checker here replays it solved with those counts.
    for (const auto& [model, first, second] :
         {std::tuple{&pushes, by_pushes, then_moves}, std::tuple{&moves, by_moves, then_pushes}}) {
      int np = 0, nm = 0;
      const auto lurd = model->lurd(model->placed_start(), &np, &nm);
      ASSERT_TRUE(lurd) << i;
      const Replayed r = replay(g, *lurd);
      EXPECT_TRUE(r.solved) << i << " " << *lurd;
      EXPECT_EQ(r.pushes, np) << i;
      EXPECT_EQ(r.moves, nm) << i;
      const bool by_push = model->metric() == SokobanMetric::kPushes;
      EXPECT_EQ(by_push ? np : nm, first) << i;
      EXPECT_EQ(by_push ? nm : np, second) << i;
    }
    // The published solution replays solved with its published counts, no better than
    // the optima.
    if (!level.lurd.empty()) {
      const Replayed r = replay(g, level.lurd);
      EXPECT_TRUE(r.solved) << i;
      EXPECT_EQ(r.moves, level.lurd_moves) << i;
      EXPECT_EQ(r.pushes, level.lurd_pushes) << i;
      EXPECT_GE(r.moves, level.moves) << i;
      EXPECT_GE(r.pushes, by_pushes) << i;
      EXPECT_TRUE(pushes.is_goal(pushes.replay(pushes.placed_start(), level.lurd))) << i;
    }
  }
}

// The pushes positions a search here over the model's successors reaches, and the
// keeper cells they stand for (the positions of the moves metric).
std::pair<std::uint64_t, std::uint64_t> pushes_positions(const Sokoban& pushes) {
  absl::flat_hash_set<SokobanState> seen{pushes.start()};
  std::vector<SokobanState> todo{pushes.start()};
  std::uint64_t standing = 0;
  while (!todo.empty()) {
    const SokobanState s = todo.back();
    todo.pop_back();
    standing += std::uint64_t(std::popcount(pushes.region(s)));
    pushes.for_each_successor(s, [&](const SokobanState& t) {
      if (seen.insert(t).second) todo.push_back(t);
    });
  }
  return {seen.size(), standing};
}

TEST(Sokoban, PushesPositionsTimesTheirRegionsAreTheMovesPositions) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    const Sokoban pushes = level_of(kLevels[i], SokobanMetric::kPushes);
    const Sokoban moves = level_of(kLevels[i], SokobanMetric::kMoves);
    const auto [positions, standing] = pushes_positions(pushes);
    const AnalysisResult p = analyze_levels(pushes, quiet(), pushes.start(), *pushes.packing(pushes.start()));
    const AnalysisResult m = analyze_levels(moves, quiet(), moves.start(), *moves.packing(moves.start()));
    EXPECT_EQ(p.states, positions) << i;
    EXPECT_EQ(m.states, standing) << i;
    EXPECT_LE(p.states, m.states) << i;
  }
}

TEST(Sokoban, YardEqualsItsRulesFile) {
  auto rules = std::get<Rules>(*make_file_puzzle(kExamples + "/sokoban-yard.toml"));
  const Sokoban moves = level_of(kLevels[1], SokobanMetric::kMoves);
  const AnalysisResult r = analyze_levels(rules, quiet(), rules.start(), *rules.packing(rules.start()));
  const AnalysisResult m = analyze_levels(moves, quiet(), moves.start(), *moves.packing(moves.start()));
  EXPECT_EQ(m.states, r.states);
  EXPECT_EQ(m.edges, r.edges);
  EXPECT_EQ(m.layers, r.layers);
  EXPECT_EQ(m.goal->shortest, r.goal->shortest);
  EXPECT_EQ(m.goal->shortest, std::optional<unsigned>(23));
  EXPECT_EQ(m.goal->dead_ends, r.goal->dead_ends);
  EXPECT_EQ(m.goal->layers, r.goal->layers);
}

// A rules file that declares its keeper (keeper = "K") is the level it draws: the
// same positions, layers and solutions as the level in XSB, in either metric; and the
// pushes positions, each times its keeper's region, count the rules engine's positions
// of the same file without a keeper (every step a move).
std::string with_keeper(const std::string& toml, const std::string& lines) {
  const std::size_t start = toml.find("\nstart = ") + 1;
  return toml.substr(0, start) + lines + toml.substr(start);
}

TEST(Sokoban, RulesFileWithAKeeperIsItsXsbLevel) {
  const std::string yard_toml = testing::read_file(kExamples + "/sokoban-yard.toml");
  // A board that reaches the picture's edge: the level gets walls round it.
  const std::string open_toml =
      "name = \"open\"\nkind = \"rules\"\nstart = \"\"\"\n. . . . .\n. B B B .\n. . K . .\n\"\"\"\n"
      "marks = \"\"\"\n. . + . .\n. . . . .\n+ . . . +\n\"\"\"\ngoal = { on_marks = \"B\" }\n"
      "[[rule]]\nfrom = \"K .\"\nto = \". K\"\n[[rule]]\nfrom = \"K B .\"\nto = \". K B\"\n";
  const auto dir = fresh_dir("keeper-rules");
  struct Case {
    std::string toml, xsb;
  };
  for (const Case& c : {Case{yard_toml, kLevels[1]}, Case{open_toml, kLevels[3]}}) {
    const auto file = write_file(dir / "level.toml", with_keeper(c.toml, "keeper = \"K\"\n"));
    Sokoban from_rules = std::get<Sokoban>(*make_file_puzzle(file.string()));
    EXPECT_EQ(from_rules.metric(), SokobanMetric::kPushes);
    for (const auto metric : {SokobanMetric::kPushes, SokobanMetric::kMoves}) {
      from_rules.set_metric(metric);
      const Sokoban xsb = level_of(c.xsb, metric);
      EXPECT_EQ(from_rules.xsb(from_rules.start()), xsb.xsb(xsb.start()));
      const AnalysisResult r =
          analyze_levels(from_rules, quiet(), from_rules.start(), *from_rules.packing(from_rules.start()));
      const AnalysisResult x = analyze_levels(xsb, quiet(), xsb.start(), *xsb.packing(xsb.start()));
      EXPECT_EQ(r.states, x.states);
      EXPECT_EQ(r.edges, x.edges);
      EXPECT_EQ(r.layers, x.layers);
      ASSERT_TRUE(r.goal && x.goal);
      EXPECT_EQ(r.goal->shortest, x.goal->shortest);
      EXPECT_EQ(r.goal->dead_ends, x.goal->dead_ends);
      EXPECT_EQ(from_rules.lurd(from_rules.placed_start()), xsb.lurd(xsb.placed_start()));
      // Against the search on the characters.
      const Searched s = search(Grid(c.xsb));
      EXPECT_EQ(int(r.goal->shortest.value_or(~0u)),
                metric == SokobanMetric::kPushes ? s.fewest_pushes : s.fewest_moves);
    }
  }
  // The yard: the rules engine counts the file without a keeper step by step; the
  // pushes positions times their regions are those positions.
  const auto file = write_file(dir / "yard.toml", with_keeper(yard_toml, "keeper = \"K\"\nmetric = \"pushes\"\n"));
  const Sokoban pushes = std::get<Sokoban>(*make_file_puzzle(file.string()));
  auto rules = std::get<Rules>(*make_file_puzzle(kExamples + "/sokoban-yard.toml"));
  const auto [positions, standing] = pushes_positions(pushes);
  const AnalysisResult r = analyze_levels(rules, quiet(), rules.start(), *rules.packing(rules.start()));
  const AnalysisResult p = analyze_levels(pushes, quiet(), pushes.start(), *pushes.packing(pushes.start()));
  EXPECT_EQ(p.states, positions);
  EXPECT_EQ(standing, r.states);
  EXPECT_LT(p.states * 5, r.states);
  // metric = "moves" asks for the moves metric, whose count is the rules engine's.
  const auto moves_file =
      write_file(dir / "moves.toml", with_keeper(yard_toml, "keeper = \"K\"\nmetric = \"moves\"\n"));
  const Sokoban moves = std::get<Sokoban>(*make_file_puzzle(moves_file.string()));
  EXPECT_EQ(moves.metric(), SokobanMetric::kMoves);
  const AnalysisResult m = analyze_levels(moves, quiet(), moves.start(), *moves.packing(moves.start()));
  EXPECT_EQ(m.states, r.states);
  EXPECT_EQ(m.goal->shortest, r.goal->shortest);
  EXPECT_EQ(m.goal->dead_ends, r.goal->dead_ends);
  // From the command line: solve prints LURD, in the metric --metric names.
  const auto cli = run_statespace("solve " + file.string() + " --metric moves");
  EXPECT_EQ(cli.exit_code, 0) << cli.std_err;
  const auto lurd = moves.lurd(moves.placed_start());
  ASSERT_TRUE(lurd);
  EXPECT_NE(cli.std_out.find("\n" + *lurd + "\n"), std::string::npos) << cli.std_out;
}

// Bad keeper declarations: one line each, FILE:LINE:COLUMN at the key or rule at
// fault and the expected form, before any search.
TEST(Sokoban, BadKeeperDeclarationsAreRefusedWithTheirPlace) {
  const std::string yard = testing::read_file(kExamples + "/sokoban-yard.toml");
  const int start_line =
      int(std::count(yard.begin(), yard.begin() + std::ptrdiff_t(yard.find("\nstart = ")), '\n')) + 2;
  const int goal_line = int(std::count(yard.begin(), yard.begin() + std::ptrdiff_t(yard.find("goal =")), '\n')) + 1;
  const int push_line =
      int(std::count(yard.begin(), yard.begin() + std::ptrdiff_t(yard.find("name = \"push\"")), '\n'));
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = yard;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  struct Bad {
    std::string text;
    int line;  // the line the error names
    std::string says;
  };
  const std::vector<Bad> bad = {
      {with_keeper(yard, "keeper = \"X\"\n"), start_line, "keeper must name one piece of the start"},
      {with_keeper(yard, "keeper = \"KB\"\n"), start_line, "keeper must name one piece of the start"},
      {with_keeper(yard, "keeper = 1\n"), start_line, "keeper"},
      {with_keeper(yard, "metric = \"pushes\"\n"), start_line, "metric needs a keeper"},
      {with_keeper(yard, "keeper = \"K\"\nmetric = \"steps\"\n"), start_line + 1, "unknown metric 'steps'"},
      {with_keeper(yard, "keeper = \"K\"\nmoves = \"chain\"\n"), start_line + 1, "cannot go with a keeper"},
      {with_keeper(yard, "keeper = \"K\"\nsymmetry = \"board\"\n"), start_line + 1, "cannot go with a keeper"},
      {with_keeper(replaced("goal = { on_marks = \"B\" }", "goal = { pieces = 3 }"), "keeper = \"K\"\n"), goal_line + 1,
       "every mark under a box (expected goal = { on_marks = \"B\" })"},
      {with_keeper(replaced("# . B # B . #", "# . B # C . #"), "keeper = \"K\"\n"), start_line,
       "the keeper and one kind of box"},
      {with_keeper(replaced("# . . K . . #", "# . K K . . #"), "keeper = \"K\"\n"), start_line,
       "not a Sokoban level: a second keeper"},
      {with_keeper(replaced("from = \"K B .\"\nto   = \". K B\"", "from = \"K B .\"\nto   = \". B K\""),
                   "keeper = \"K\"\n"),
       push_line + 1, "rule 'push' is neither the keeper's walk nor his push (expected 'K .' -> '. K'"},
      {with_keeper(yard + "\n[[rule]]\nname = \"pull\"\nfrom = \"B K .\"\nto = \". B K\"\n", "keeper = \"K\"\n"),
       int(std::count(yard.begin(), yard.end(), '\n')) + 3, "rule 'pull' is neither"},
      {with_keeper(yard.substr(0, yard.find("[[rule]]\nname = \"push\"")), "keeper = \"K\"\n"), 0, "no push from row"},
  };
  const auto dir = fresh_dir("keeper-bad");
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const auto file = write_file(dir / ("bad" + std::to_string(i) + ".toml"), bad[i].text);
    try {
      (void)make_file_puzzle(file.string());
      ADD_FAILURE() << i << ": loaded";
    } catch (const ParseError& e) {
      const std::string what = e.what();
      const std::string at = file.string() + ":" + (bad[i].line ? std::to_string(bad[i].line) + ":" : "");
      EXPECT_EQ(what.rfind(at, 0), 0u) << i << ": " << what;
      EXPECT_NE(what.find(bad[i].says), std::string::npos) << i << ": " << what;
      EXPECT_NE(what.find("expected"), std::string::npos) << i << ": " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << i << ": " << what;
    }
  }
  const auto r = run_statespace("analyze " + (dir / "bad0.toml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(Sokoban, EveryLurdSolutionReplaysSolvedWithItsCounts) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    const Grid g(kLevels[i]);
    for (const auto metric : {SokobanMetric::kPushes, SokobanMetric::kMoves}) {
      const Sokoban p = level_of(kLevels[i], metric);
      int pushes = 0, steps = 0;
      const auto lurd = p.lurd(p.placed_start(), &pushes, &steps);
      ASSERT_TRUE(lurd) << i;
      const Replayed r = replay(g, *lurd);
      EXPECT_TRUE(r.solved) << i << " " << *lurd;
      EXPECT_EQ(r.pushes, pushes) << i;
      EXPECT_EQ(r.moves, steps) << i;
      const AnalysisResult a = analyze_levels(p, quiet(), p.start(), *p.packing(p.start()));
      // The first count is the metric's optimum.
      EXPECT_EQ(unsigned(metric == SokobanMetric::kPushes ? pushes : steps), a.goal->shortest.value_or(0)) << i;
      EXPECT_TRUE(p.is_goal(p.replay(p.placed_start(), *lurd))) << i;
    }
  }
}

TEST(Sokoban, TiesGoToFewerMovesAndFewerPushes) {
  // Pushing the box left twice needs a walk round it either way; the pushes metric
  // takes the fewest pushes first, then the fewest moves.
  const std::string text = "#######\n#.    #\n#  $  #\n#   @ #\n#######\n";
  const Grid g(text);
  const Searched s = search(g);
  const Sokoban pushes = level_of(text, SokobanMetric::kPushes);
  const Sokoban moves = level_of(text, SokobanMetric::kMoves);
  int pp = 0, pm = 0, mp = 0, mm = 0;
  const auto a = pushes.lurd(pushes.placed_start(), &pp, &pm);
  const auto b = moves.lurd(moves.placed_start(), &mp, &mm);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(pp, s.fewest_pushes);
  EXPECT_EQ(mm, s.fewest_moves);
  EXPECT_LE(pp, mp);
  EXPECT_LE(mm, pm);
}

TEST(Sokoban, PositionsReadAsXsbLinesOrAsWritten) {
  const Sokoban p = level_of(kLevels[2], SokobanMetric::kMoves);
  const auto s = p.start();
  EXPECT_EQ(p.parse(p.format(s)), s);
  EXPECT_EQ(p.parse(p.xsb(s)), s);
  std::string bars = p.xsb(s);
  std::replace(bars.begin(), bars.end(), '\n', '|');
  EXPECT_EQ(p.parse(bars), s);
  EXPECT_THROW((void)p.parse("#####\n#@$.#\n#####"), ParseError);
  // The pushes metric writes the keeper on the first cell of his region.
  const Sokoban q = level_of(kLevels[2], SokobanMetric::kPushes);
  EXPECT_EQ(q.xsb(q.start()), "######\n#@---#\n#-#--#\n#-$*-#\n#-.$-#\n#--.-#\n######");
  EXPECT_EQ(q.parse(kLevels[2]), q.start());
}

// Twenty malformed levels in one file with good ones: each refused with its line,
// column and number, the good ones still loaded.
TEST(Sokoban, BadLevelsAreRefusedOneLineEachAndTheOthersLoad) {
  struct Bad {
    std::string level, error;
  };
  const std::vector<Bad> bad = {
      {"#####\n#@$.\n#####", "2:4: level N: not closed by walls"},
      {"#####\n#$ .#\n#####", "1:1: level N: no keeper"},
      {"#####\n#@@.#\n#$  #\n#####", "2:3: level N: a second keeper"},
      {"######\n#@$$.#\n######", "1:1: level N: 2 boxes and 1 goals"},
      {"#####\n#@$.#\n#.  #\n#####", "1:1: level N: 1 boxes and 2 goals"},
      {"#####\n#@ .#\n#####", "1:1: level N: no box"},
      {"#####\n#@  #\n#####", "1:1: level N: no box"},
      {"#######\n#@ #$.#\n#######", "2:5: level N: a box the keeper cannot reach"},
      {"#######\n#@$#..#\n#######", "2:5: level N: a goal the keeper cannot reach"},
      {"#####\n#@$x#\n#####", "2:4: level N: unexpected 'x'"},
      {"#####\n#@$.#\n#  \t#\n#####", "3:4: level N: unexpected '\\x09'"},
      {"  ###\n  #@$.\n  ###", "2:6: level N: not closed by walls"},
      {"#####\n @$.#\n#####", "2:1: level N: not closed by walls"},
      {"#####\n#@$.#\n#   #\n## ##\n # \n", "5:3: level N: not closed by walls"},
      {"#####\n#@$.#\n#####\n#  #x", "4:5: level N: unexpected 'x'"},
      {"######\n#@*$ #\n######", "1:1: level N: 2 boxes and 1 goals"},
      {"#####\n#+$.#\n#####", "1:1: level N: 1 boxes and 2 goals"},
      {"####\n#@$#\n#.##\n####", ""},  // solvable? no, but well formed: loads
      {"#####\n#@$.#\n#####\n#@$.#\n#####", "4:2: level N: a second keeper"},
      {std::string(72, '#') + "\n#@$." + std::string(66, '-') + "#\n#" + std::string(70, '-') + "#\n" +
           std::string(72, '#'),
       "1:1: level N: 139 floor cells"},
      {"#####\n#@$.#\n#-_ #\n#####\n#####\n#*@ #\n# $ #\n#####", "6:3: level N: a second keeper"},
  };
  std::string file = "; a collection with broken levels\n\nGood one\n#####\n#@$.#\n#####\n\n";
  int line = 7;
  std::vector<std::pair<int, std::string>> expected;  // level number, error with its absolute line
  int number = 1;
  for (const auto& b : bad) {
    file += "Level " + std::to_string(number + 1) + "\n";
    ++line;
    ++number;
    std::string e = b.error;
    if (!e.empty()) {
      const int rel = std::stoi(e.substr(0, e.find(':')));
      e = std::to_string(line + rel) + e.substr(e.find(':'));
      e.replace(e.find("level N"), 7, "level " + std::to_string(number));
    }
    expected.emplace_back(number, e);
    file += b.level + "\n\n";
    line += int(std::count(b.level.begin(), b.level.end(), '\n')) + 2;
  }
  file += "Good two\n######\n#@ $.#\n######\n";
  const auto levels = read_xsb("bad.xsb", file);
  ASSERT_EQ(levels.size(), bad.size() + 2);
  EXPECT_TRUE(levels.front().level);
  EXPECT_EQ(levels.front().title, "Good one");
  EXPECT_TRUE(levels.back().level);
  EXPECT_EQ(levels.back().title, "Good two");
  int refused = 0;
  for (const auto& [n, e] : expected) {
    const XsbEntry& entry = levels[std::size_t(n - 1)];
    EXPECT_EQ(entry.number, n);
    if (e.empty()) {
      EXPECT_TRUE(entry.level) << entry.error;
      continue;
    }
    ++refused;
    EXPECT_FALSE(entry.level) << n;
    EXPECT_EQ(entry.error.rfind("bad.xsb:" + e, 0), 0u) << entry.error << "\nexpected: bad.xsb:" << e;
    EXPECT_EQ(entry.error.find('\n'), std::string::npos) << entry.error;
  }
  EXPECT_EQ(refused, 20);
  // From the command line: a refused level is one line, exit 2; a good one solves.
  const auto dir = fresh_dir("xsb-bad");
  const auto path = write_file(dir / "bad.xsb", file);
  const auto r = run_statespace("solve " + path.string() + ":2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.std_err.rfind("statespace: " + path.string() + ":" + expected.front().second, 0), 0u) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;
  const auto good = run_statespace("solve " + path.string() + ":'Good two'");
  EXPECT_EQ(good.exit_code, 0) << good.std_err;
  EXPECT_EQ(good.std_out, "Good-two: 1 push, 2 moves\nrR\n");
  const auto first = run_statespace("solve " + path.string() + ":1 --metric moves");
  EXPECT_EQ(first.std_out, "Good-one: 1 push, 1 move\nR\n");
}

// query counts in the metric's unit: pushes where walking is free.
TEST(Sokoban, QueryCountsInTheMetricsUnit) {
  const std::string yard = kExamples + "/../sokoban/yard.sok:1";
  const auto dir = fresh_dir("xsb-query");
  for (const auto& [metric, says] : {std::pair<std::string, std::string>{"pushes", ": 4 pushes to the goal\n"},
                                     std::pair<std::string, std::string>{"moves", ": 23 moves to the goal\n"}}) {
    const std::string out = (dir / metric).string();
    const auto a = run_statespace("analyze " + yard + " --metric " + metric + " --table --quiet --out " + out);
    ASSERT_EQ(a.exit_code, 0) << a.std_err;
    const auto q = run_statespace("query " + yard + " --metric " + metric + " --line 1 --out " + out);
    EXPECT_EQ(q.exit_code, 0) << q.std_err;
    const std::string first = q.std_out.substr(0, q.std_out.find('\n') + 1);
    EXPECT_TRUE(first.ends_with(says)) << q.std_out;
    EXPECT_NE(q.std_out.find("line of 1 " + std::string(metric == "pushes" ? "push" : "move") + ":\n"),
              std::string::npos)
        << q.std_out;
  }
}

// A collection's run prints one progress line per level, not the engine's lines.
TEST(Sokoban, CollectionRunsPrintALineALevel) {
  const auto dir = fresh_dir("xsb-progress");
  const auto r = run_statespace("analyze " + kExamples + "/../sokoban/yard.sok --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 4) << r.std_err;
  for (int k = 1; k <= 4; ++k) {
    EXPECT_NE(r.std_err.find("statespace: [" + std::to_string(k) + "/4] "), std::string::npos) << r.std_err;
  }
  EXPECT_NE(r.std_err.find("yard.sok:1 (The-yard): 93 positions, "), std::string::npos) << r.std_err;
}

TEST(Sokoban, TitlesFromTitleLinesOrTheTextBefore) {
  const auto sok = read_xsb("t.sok",
                            "Collection\n\n#####\n#@$.#\n#####\nTitle: First\nAuthor: us\n\n"
                            "#####\n#.$@#\n#####\nTitle: Second one\n");
  ASSERT_EQ(sok.size(), 2u);
  EXPECT_EQ(sok[0].title, "First");
  EXPECT_EQ(sok[1].title, "Second one");
  EXPECT_EQ(sok[1].level->name, "Second-one");
  const auto txt = read_xsb("t.txt", "; 1\n\n#####\n#@$.#\n#####\n\n; 2\n#####\n#.$@#\n#####\n#####\n#.$@#\n#####\n");
  ASSERT_EQ(txt.size(), 2u);  // lines of one level run on
  EXPECT_EQ(txt[0].title, "1");
  EXPECT_EQ(txt[0].level->name, "t-1");
  EXPECT_FALSE(txt[1].level);  // two keepers
  EXPECT_THROW((void)read_xsb("t.txt", "no level here\n"), ParseError);
}

}  // namespace
}  // namespace statespace
