// Boards of rules files. Counted up to symmetry: every printed solution is a run of
// the file's own moves (each step checked by applying the move it is named by), as
// short as a search without symmetry finds; and the group is the start's
// stabiliser, so that the positions each depth's classes stand for are the positions
// a search without symmetry finds there, whether the start is symmetric or not.
// Rules tied to cells ('#' in a pattern, `at`) and boards that wrap: Merlin's Magic
// Square and Lights Out on a torus against searches over press masks written here.
#include <absl/container/flat_hash_set.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/solvers/bidirectional.hpp"
#include "analysis/solvers/graded_chain_solve.hpp"
#include "analysis/solvers/solve.hpp"
#include "bad_file.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/rules.hpp"
#include "reports/tables.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

const std::string kExamples = STATESPACE_EXAMPLES;

Rules from_text(const std::string& text) { return std::get<Rules>(load_puzzle_file(TomlInput("rules.toml", text))); }

AnalyzeOptions quiet() {
  AnalyzeOptions o;
  o.progress = false;
  return o;
}

std::vector<Rules::State> successors(const Rules& p, const Rules::State& s) {
  std::vector<Rules::State> out;
  p.for_each_successor(s, [&](const Rules::State& t) { out.push_back(t); });
  return out;
}

// The positions `name` (as move_name writes it: "jump at 2,4") leads to from `from`:
// the instances of that rule at that cell that match, and by chains every run that
// goes on with the piece each one placed.
std::set<Rules::State> named_move(const Rules& p, const Rules::State& from, const std::string& name) {
  std::set<Rules::State> out;
  const auto at = name.rfind(" at ");
  if (at == std::string::npos) return out;
  const std::string rule = name.substr(0, at);
  const std::string where = name.substr(at + 4);
  const std::pair<int, int> cell_name{std::stoi(where.substr(0, where.find(','))),
                                      std::stoi(where.substr(where.find(',') + 1))};
  std::vector<std::pair<Rules::State, std::uint8_t>> stack;
  for (const Rules::Instance& in : p.instances()) {
    const int cell = in.mover != Rules::kNone ? in.mover : in.cells.front().at;
    if (p.rule_names()[std::size_t(in.rule)] != rule || p.cell_name(cell) != cell_name) continue;
    if (Rules::matches(in, from)) stack.emplace_back(Rules::applied(in, from), in.landing);
  }
  while (!stack.empty()) {
    const auto [t, landing] = stack.back();
    stack.pop_back();
    if (!out.insert(t).second || p.metric() == RuleMetric::kStep || landing == Rules::kNone) continue;
    for (const Rules::Instance& in : p.instances()) {
      if (in.mover == landing && Rules::matches(in, t)) stack.emplace_back(Rules::applied(in, t), in.landing);
    }
  }
  return out;
}

// The fewest moves from the start to a position `reached` accepts, by a search
// without symmetry; nothing when none is within `limit`.
template <class F>
std::optional<std::size_t> plain_distance(const Rules& plain, F&& reached, int limit) {
  absl::flat_hash_set<Rules::State> seen{plain.start()};
  std::vector<Rules::State> level{plain.start()};
  for (int d = 0; d <= limit && !level.empty(); ++d) {
    std::vector<Rules::State> next;
    for (const auto& s : level) {
      if (reached(s)) return std::size_t(d);
      for (const auto& t : successors(plain, s)) {
        if (seen.insert(t).second) next.push_back(t);
      }
    }
    level = std::move(next);
  }
  return std::nullopt;
}

// Each step of `path` is the move it is named by, applied to the step before; the
// path starts at the file's start.
void expect_named_moves(const Rules& plain, const Rules& sym, const std::vector<Rules::State>& path,
                        const std::string& what) {
  ASSERT_FALSE(path.empty()) << what;
  EXPECT_EQ(path.front(), plain.start()) << what;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const std::string name = sym.move_name(path[i - 1], path[i]);
    EXPECT_NE(name, "?") << what << " step " << i;
    EXPECT_TRUE(named_move(plain, path[i - 1], name).contains(path[i])) << what << " step " << i << ": " << name << "\n"
                                                                        << plain.format(path[i - 1]) << "\n"
                                                                        << plain.format(path[i]);
  }
}

// A position some moves from the start, walked without symmetry: at step i the
// successor 7i modulo their number.
Rules::State walked(const Rules& plain, int moves) {
  Rules::State s = plain.start();
  for (int i = 0; i < moves; ++i) {
    const auto next = successors(plain, s);
    if (next.empty()) break;
    s = next[std::size_t(7 * i) % next.size()];
  }
  return s;
}

struct Example {
  std::string file;
  int symmetries;  // of the group used (the start's stabiliser)
  int walk;        // moves to the target position
};

// Every shipped rules file with symmetry = "board" added: the board's group is there
// for four of them (frogs and toads hop one way, oshidori's goal is not symmetric), and
// their solutions, to a position some moves off and to the file's goal where a search
// reaches it quickly, are runs of named moves as long as a search without symmetry
// finds. By the levels (bfs), bidirectional and graded-chain solvers.
TEST(RulesSymmetry, SolutionsAreRunsOfTheFilesMoves) {
  const std::vector<Example> examples = {{"lights-out-5x5.toml", 8, 5},
                                         {"peg-english.toml", 8, 6},
                                         {"peg-english-chain.toml", 8, 3},
                                         {"sokoban-yard.toml", 2, 9}};
  for (const auto& e : examples) {
    const Rules plain = std::get<Rules>(*make_file_puzzle(kExamples + "/" + e.file));
    const Rules sym = from_text(testing::rules_with_board_symmetry(kExamples + "/" + e.file));
    ASSERT_EQ(sym.symmetries(), e.symmetries) << e.file;
    ASSERT_EQ(sym.start(), plain.start()) << e.file;
    const Rules::State target = walked(plain, e.walk);
    const Rules::State target_class = sym.canonical(target);
    const auto distance = plain_distance(
        plain, [&](const Rules::State& s) { return s == target; }, e.walk);
    ASSERT_TRUE(distance.has_value()) << e.file;
    ASSERT_GT(*distance, 1u) << e.file;
    HashedLookup<Rules::State> visited;
    const auto bfs = solve_bfs_until(
        sym, sym.start(), [&](const Rules::State& s) { return s == target_class; }, visited, MemoryBudget());
    EXPECT_EQ(bfs.path.size(), *distance + 1) << e.file;
    EXPECT_EQ(sym.canonical(bfs.path.back()), target_class) << e.file;
    expect_named_moves(plain, sym, bfs.path, e.file + " bfs");
    if (!sym.directed()) {
      const auto both = solve_bidirectional(sym, sym.start(), target_class, MemoryBudget());
      EXPECT_EQ(both.path.size(), *distance + 1) << e.file;
      EXPECT_EQ(sym.canonical(both.path.back()), target_class) << e.file;
      expect_named_moves(plain, sym, both.path, e.file + " bidirectional");
    }
    if (const auto chains = solve_by_graded_chains(sym, sym.start(), target_class, false, MemoryBudget(), nullptr)) {
      EXPECT_EQ(chains->path.size(), *distance + 1) << e.file;
      EXPECT_EQ(sym.canonical(chains->path.back()), target_class) << e.file;
      expect_named_moves(plain, sym, chains->path, e.file + " graded chains");
    }
  }
  // The file's goal, the yard's boxes on their targets: 23 moves, the last a goal.
  const Rules plain = std::get<Rules>(*make_file_puzzle(kExamples + "/sokoban-yard.toml"));
  const Rules sym = from_text(testing::rules_with_board_symmetry(kExamples + "/sokoban-yard.toml"));
  HashedLookup<Rules::State> visited;
  const auto sol = solve_bfs_until(
      sym, sym.start(), [&](const Rules::State& s) { return sym.is_goal(s); }, visited, MemoryBudget());
  EXPECT_EQ(sol.path.size(), 24u);
  EXPECT_EQ(plain_distance(
                plain, [&](const Rules::State& s) { return plain.is_goal(s); }, 30),
            23u);
  ASSERT_FALSE(sol.path.empty());
  EXPECT_TRUE(plain.is_goal(sol.path.back()));
  expect_named_moves(plain, sym, sol.path, "sokoban-yard to its goal");
  for (const std::string file : {"frogs-and-toads.toml", "oshidori.toml"}) {
    EXPECT_THROW(from_text(testing::rules_with_board_symmetry(kExamples + "/" + file)), ParseError) << file;
  }
}

// `solve` prints every step named, none '?'.
TEST(RulesSymmetry, SolvePrintsNamedMoves) {
  const auto dir = testing::fresh_dir("rules-symmetry-solve");
  const auto file =
      testing::write_file(dir / "yard.toml", testing::rules_with_board_symmetry(kExamples + "/sokoban-yard.toml"));
  const auto run = testing::run_statespace("solve " + file.string());
  ASSERT_EQ(run.exit_code, 0) << run.std_err;
  EXPECT_NE(run.out.find("sokoban-yard: 23 moves"), std::string::npos) << run.out;
  const std::string moves = run.out.substr(run.out.find("moves:"), run.out.find('\n', run.out.find("moves:")));
  EXPECT_EQ(moves.find('?'), std::string::npos) << moves;
}

// A table walk under symmetry prints the file's moves too: the table's classes
// unfolded into real positions, as a search's path is.
TEST(RulesSymmetry, TableWalkPrintsNamedMoves) {
  const auto dir = testing::fresh_dir("rules-symmetry-table");
  const std::string file = kExamples + "/peg-triangle.toml";
  const auto analyzed = testing::run_statespace("analyze " + file + " --table -q --out " + (dir / "out").string());
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.std_err;
  const auto run = testing::run_statespace("solve " + file + " --table " +
                                           (dir / "out" / "peg-triangle" / "goal-distances.table").string());
  ASSERT_EQ(run.exit_code, 0) << run.std_err;
  EXPECT_NE(run.out.find("peg-triangle: 13 moves"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("distance table"), std::string::npos) << run.out;
  const std::size_t at = run.out.find("moves:");
  ASSERT_NE(at, std::string::npos) << run.out;
  const std::string moves = run.out.substr(at, run.out.find('\n', at) - at);
  EXPECT_EQ(moves.find('?'), std::string::npos) << moves;
  EXPECT_EQ(std::count(moves.begin(), moves.end(), 'j'), 13) << moves;  // "jump at R,C" 13 times
}

// Peg solitaire on the 15-hole triangle drawn on the square grid as a staircase,
// jumps along the rows, the columns and the one diagonal. The reflection in the other
// diagonal maps the board and the jumps onto themselves; it fixes the corner at the
// bottom left and swaps the other two.
std::string staircase(int hole_row, int hole_col, bool symmetric) {
  std::string picture;
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 5; ++c) {
      picture += c > r ? "#" : r == hole_row && c == hole_col ? "." : "O";
      picture += c < 4 ? " " : "\n";
    }
  }
  return std::string("name = \"triangle\"\nkind = \"rules\"\n") + (symmetric ? "symmetry = \"board\"\n" : "") +
         "start = \"\"\"\n" + picture + "\"\"\"\n[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n" +
         "directions = \"right left up down down-right up-left\"\n";
}

// Peg solitaire on the 4x4 square, a corner empty: the square's eight symmetries map
// the board and the jumps onto themselves, and the diagonal through the corner fixes
// the start too.
std::string square_peg(bool symmetric) {
  return std::string("name = \"peg-4x4\"\nkind = \"rules\"\n") + (symmetric ? "symmetry = \"board\"\n" : "") +
         "start = \"\"\"\n. O O O\nO O O O\nO O O O\nO O O O\n\"\"\"\ngoal = { pieces = 1 }\n"
         "[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n";
}

struct Board {
  std::string text_plain, text_sym;
  int board_group, used;        // the board's group's order and the stabiliser's
  std::uint64_t positions = 0;  // reachable from the start; 0: not asserted
};

// With and without symmetry, positions by depth are the same, and each depth's
// classes times their sizes are its positions; the report names the group.
TEST(RulesSymmetry, PositionsByDepthAreThoseWithoutSymmetry) {
  const std::vector<Board> boards = {
      {staircase(0, 0, false), staircase(0, 0, true), 2, 1, 3016},  // Jaap's Puzzle Page: 3,016 from a corner
      {staircase(4, 4, false), staircase(4, 4, true), 2, 1, 3016},
      {staircase(4, 0, false), staircase(4, 0, true), 2, 2, 3016},
      {square_peg(false), square_peg(true), 8, 2, 0},
      {testing::read_file(kExamples + "/sokoban-yard.toml"),
       testing::rules_with_board_symmetry(kExamples + "/sokoban-yard.toml"), 2, 2, 0},
  };
  for (const Board& b : boards) {
    const Rules plain = from_text(b.text_plain);
    const Rules sym = from_text(b.text_sym);
    EXPECT_EQ(sym.board_symmetries(), b.board_group) << b.text_sym;
    EXPECT_EQ(sym.symmetries(), b.used) << b.text_sym;
    const AnalysisResult whole = analyze_levels(plain, quiet(), plain.start(), *plain.packing(plain.start()));
    const AnalysisResult levels = analyze_levels(sym, quiet(), sym.start(), *sym.packing(sym.start()));
    const AnalysisResult graph = analyze_explicit(sym, quiet()).result;
    if (b.positions) {
      EXPECT_EQ(whole.states, b.positions);
    }
    EXPECT_EQ(whole.layers[0], 1u);
    for (const AnalysisResult* r : {&levels, &graph}) {
      EXPECT_EQ(r->positions(), whole.states) << r->engine << b.text_sym;
      if (b.used == 1) {
        EXPECT_EQ(r->layers, whole.layers) << r->engine;
        EXPECT_TRUE(r->layer_positions.empty()) << r->engine;
      } else {
        EXPECT_EQ(r->layer_positions, whole.layers) << r->engine << b.text_sym;
        EXPECT_LT(r->states, whole.states) << r->engine;
      }
      EXPECT_EQ(r->symmetry, sym.symmetry_group());
    }
    // Classes times their sizes, depth by depth, against the search without symmetry.
    absl::flat_hash_set<Rules::State> seen{sym.start()};
    std::vector<Rules::State> level{sym.start()};
    for (std::size_t d = 0; !level.empty(); ++d) {
      std::uint64_t n = 0;
      for (const auto& s : level) n += sym.orbit_size(s);
      ASSERT_LT(d, whole.layers.size());
      EXPECT_EQ(n, whole.layers[d]) << d;
      std::vector<Rules::State> next;
      for (const auto& s : level) {
        for (const auto& t : successors(sym, s)) {
          if (seen.insert(t).second) next.push_back(t);
        }
      }
      level = std::move(next);
    }
  }
  EXPECT_EQ(from_text(staircase(0, 0, true)).symmetry_group(),
            "none of the board's 2 symmetries but the identity fixes the start");
  EXPECT_EQ(from_text(square_peg(true)).symmetry_group(), "the 2 of the board's 8 symmetries that fix the start");
  const Rules english = from_text(testing::rules_with_board_symmetry(kExamples + "/peg-english.toml"));
  EXPECT_EQ(english.symmetry_group(), "the board's 8 symmetries (the start is symmetric)");
  const Rules corner = from_text(staircase(0, 0, true));
  const AnalysisResult r = analyze_levels(corner, quiet(), corner.start(), *corner.packing(corner.start()));
  EXPECT_EQ(reports::symmetry_summary_text(r),
            "triangle: symmetry: none of the board's 2 symmetries but the identity fixes the start, so the positions "
            "are counted one by one\n");
  const Rules square = from_text(square_peg(true));
  const AnalysisResult q = analyze_levels(square, quiet(), square.start(), *square.packing(square.start()));
  EXPECT_EQ(reports::symmetry_summary_text(q).rfind("peg-4x4: counted up to the 2 of the board's 8 symmetries that "
                                                    "fix the start: ",
                                                    0),
            0u)
      << reports::symmetry_summary_text(q);
}

// Positions by their fewest presses from all dark, by a search over press masks:
// each press XORs its mask into the lights.
std::vector<std::uint64_t> press_levels(const std::vector<std::uint32_t>& presses, std::uint32_t target,
                                        unsigned* target_depth) {
  std::vector<std::int8_t> depth(std::size_t(1) << presses.size(), -1);
  std::vector<std::uint32_t> level{0};
  depth[0] = 0;
  std::vector<std::uint64_t> sizes;
  for (int d = 0; !level.empty(); ++d) {
    sizes.push_back(level.size());
    std::vector<std::uint32_t> next;
    for (const auto x : level) {
      for (const auto m : presses) {
        if (depth[x ^ m] < 0) {
          depth[x ^ m] = std::int8_t(d + 1);
          next.push_back(x ^ m);
        }
      }
    }
    level = std::move(next);
  }
  *target_depth = unsigned(depth[target]);
  return sizes;
}

// The lights as a mask, the first cell in the top bit as the packing has it.
std::uint32_t lights(std::initializer_list<std::pair<int, int>> on, int side) {
  std::uint32_t m = 0;
  for (const auto& [r, c] : on) m |= std::uint32_t{1} << (side * side - 1 - (r * side + c));
  return m;
}

// Counting from another position (analyze --from) under symmetry takes the group
// that fixes that position: from a hole the file's start's reflection does not fix,
// no symmetry but the identity, and positions by depth as without symmetry; from
// one it fixes, that reflection again.
TEST(RulesSymmetry, FromAnotherStartTakesItsStabiliser) {
  const Rules plain = from_text(square_peg(false));
  for (const auto& [from, used] : std::vector<std::pair<std::string, int>>{
           {"O . O O / O O O O / O O O O / O O O O", 1}, {"O O O O / O . O O / O O O O / O O O O", 2}}) {
    Rules sym = from_text(square_peg(true));
    ASSERT_EQ(sym.symmetries(), 2);
    sym.start_at(from);
    EXPECT_EQ(sym.symmetries(), used) << from;
    EXPECT_EQ(sym.board_symmetries(), 8);
    const AnalysisResult whole = analyze_levels(plain, quiet(), plain.parse(from), *plain.packing(plain.start()));
    const AnalysisResult classes = analyze_levels(sym, quiet(), sym.parse(from), *sym.packing(sym.start()));
    EXPECT_EQ(used == 1 ? classes.layers : classes.layer_positions, whole.layers) << from;
    EXPECT_EQ(classes.symmetry, sym.symmetry_group());
  }
  // The command line does the same.
  const auto dir = testing::fresh_dir("rules-symmetry-from");
  const auto file = testing::write_file(dir / "peg.toml", square_peg(true));
  const auto run =
      testing::run_statespace("analyze " + file.string() +
                              " --from \"O . O O / O O O O / O O O O / O O O O\" -q --out " + (dir / "out").string());
  ASSERT_EQ(run.exit_code, 0) << run.std_err;
  EXPECT_NE(testing::read_file(dir / "out" / "peg-4x4" / "summary.json")
                .find("none of the board's 8 symmetries but the identity fixes the start"),
            std::string::npos);
}

// Merlin's Magic Square: 512 patterns, the presses independent (so the numbers at
// each depth are the binomial coefficients of 9), and the magic square 8 presses
// from all dark; the file's presses are exactly the published nine.
TEST(RulesBoards, MerlinsMagicSquare) {
  const Rules p = std::get<Rules>(*make_file_puzzle(kExamples + "/merlin.toml"));
  EXPECT_EQ(p.instances().size(), 9u);
  std::vector<std::uint32_t> presses;
  for (const int r : {0, 2}) {
    for (const int c : {0, 2}) {
      presses.push_back(lights({{r, c}, {1, c}, {r, 1}, {1, 1}}, 3));  // a corner's block
    }
  }
  presses.push_back(lights({{0, 0}, {0, 1}, {0, 2}}, 3));  // the four edges
  presses.push_back(lights({{2, 0}, {2, 1}, {2, 2}}, 3));
  presses.push_back(lights({{0, 0}, {1, 0}, {2, 0}}, 3));
  presses.push_back(lights({{0, 2}, {1, 2}, {2, 2}}, 3));
  presses.push_back(lights({{1, 1}, {0, 1}, {2, 1}, {1, 0}, {1, 2}}, 3));  // the centre's plus
  const auto k = p.packing(p.start());
  ASSERT_TRUE(k.has_value());
  std::set<std::uint64_t> flips, expected(presses.begin(), presses.end());
  std::vector<std::uint64_t> out(std::size_t(k->moves()));
  const int n = k->successors(k->pack(p.start()), out.data());
  flips.insert(out.begin(), out.begin() + n);
  EXPECT_EQ(flips, expected);
  unsigned square = 0;
  const auto levels =
      press_levels(presses, lights({{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}, {2, 2}}, 3), &square);
  EXPECT_EQ(levels, (std::vector<std::uint64_t>{1, 9, 36, 84, 126, 126, 84, 36, 9, 1}));
  EXPECT_EQ(square, 8u);
  const AnalysisResult r = analyze_levels(p, quiet(), p.start(), *k);
  EXPECT_EQ(r.states, 512u);
  EXPECT_EQ(r.layers, levels);
  ASSERT_TRUE(r.goal && r.goal->shortest);
  EXPECT_EQ(*r.goal->shortest, 8u);
  // `at` as a picture and as a list of cells place the centre's rule alike.
  std::string text = testing::read_file(kExamples + "/merlin.toml");
  text.replace(text.find("at = [\"2,2\"]"), 12, "at = \". . . / . X . / . . .\"");
  EXPECT_EQ(from_text(text).instances(), p.instances());
}

// Lights Out on the 5x5 torus: 2^17 = 131,072 patterns (the torus's press matrix has
// rank 17 over GF(2)), the farthest 8 presses from all dark, as a search over the
// torus's press masks finds.
TEST(RulesBoards, LightsOutOnTheTorus) {
  const Rules p = std::get<Rules>(*make_file_puzzle(kExamples + "/lights-out-torus.toml"));
  EXPECT_EQ(p.instances().size(), 25u);
  std::vector<std::uint32_t> presses;
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 5; ++c) {
      presses.push_back(lights({{r, c}, {(r + 1) % 5, c}, {(r + 4) % 5, c}, {r, (c + 1) % 5}, {r, (c + 4) % 5}}, 5));
    }
  }
  unsigned corner = 0;
  const auto levels = press_levels(presses, lights({{0, 0}}, 5), &corner);
  std::uint64_t total = 0;
  for (const auto n : levels) total += n;
  EXPECT_EQ(total, 131'072u);
  EXPECT_EQ(levels.size(), 9u);
  const AnalysisResult r = analyze_levels(p, quiet(), p.start(), *p.packing(p.start()));
  EXPECT_EQ(r.states, 131'072u);
  EXPECT_EQ(r.layers, levels);
  // Up to the square's eight symmetries (the torus's rules map onto themselves).
  const Rules sym = from_text(testing::rules_with_board_symmetry(kExamples + "/lights-out-torus.toml"));
  EXPECT_EQ(sym.symmetries(), 8);
  const AnalysisResult classes = analyze_levels(sym, quiet(), sym.start(), *sym.packing(sym.start()));
  EXPECT_EQ(classes.layer_positions, levels);
}

// Bad boards: one line each, naming the problem and the expected form.
TEST(RulesBoards, BadFilesAreRefusedWithOneLine) {
  const std::string head = "name = \"x\"\nkind = \"rules\"\n";
  const std::string rule = "[[rule]]\nfrom = \"O O .\"\nto = \". . O\"\n";
  const std::vector<testing::BadFile> cases = {
      {head + "wrap = \"diagonal\"\nstart = \"O O . .\"\n" + rule, "unknown wrap 'diagonal'"},
      {head + "wrap = \"rows\"\nstart = \"O O . #\"\n" + rule, "cell 1,4 on that edge is '#'"},
      {head + "wrap = \"columns\"\nstart = \"O O / # .\"\n" + rule, "joins the board's columns"},
      {head + "start = \"O O . .\"\n[[rule]]\nfrom = \"# O .\"\nto = \"O . O\"\n",
       "'#' (off the board) stands at the same place"},
      {head + "start = \"O O . .\"\n[[rule]]\nfrom = \"O O . .\"\nto = \". . O O\"\nat = [\"1,1\"]\n",
       "at = ... places the rule by its centre cell"},
      {head + "start = \"O O . .\"\n" + rule + "at = [\"1,5\"]\n", "cell 1,5 is not on the board"},
      {head + "start = \"O O . .\"\n" + rule + "at = [\"one\"]\n", "a cell of at is \"ROW,COLUMN\""},
      {head + "start = \"O O . .\"\n" + rule + "at = \". x . .\"\n", "unknown character 'x' in at"},
      {head + "start = \"O O . .\"\n" + rule + "at = \". . .\"\n", "at picture is 1x3, expected 1x4"},
  };
  testing::expect_refused(testing::fresh_dir("rules-boards-bad"), cases);
}

// Peg solitaire on a board of the triangular lattice, by a search written here on
// axial coordinates: the positions at each depth from the start.
std::vector<std::uint64_t> lattice_peg_levels(const std::vector<std::pair<int, int>>& holes, int empty) {
  std::map<std::pair<int, int>, int> index;
  for (std::size_t i = 0; i < holes.size(); ++i) index[holes[i]] = int(i);
  std::vector<std::array<int, 3>> jumps;
  const int steps[6][2] = {{0, 1}, {0, -1}, {1, 1}, {1, 0}, {-1, 0}, {-1, -1}};
  for (const auto& [r, c] : holes) {
    for (const auto& d : steps) {
      const auto over = index.find({r + d[0], c + d[1]});
      const auto to = index.find({r + 2 * d[0], c + 2 * d[1]});
      if (over != index.end() && to != index.end()) jumps.push_back({index[{r, c}], over->second, to->second});
    }
  }
  const std::uint64_t start = ((std::uint64_t{1} << holes.size()) - 1) ^ (std::uint64_t{1} << empty);
  std::set<std::uint64_t> seen{start};
  std::vector<std::uint64_t> level{start}, sizes;
  while (!level.empty()) {
    sizes.push_back(level.size());
    std::vector<std::uint64_t> next;
    for (const auto w : level) {
      for (const auto& [a, b, c] : jumps) {
        if ((w >> a & 1) && (w >> b & 1) && !(w >> c & 1)) {
          const std::uint64_t t = w ^ (std::uint64_t{1} << a) ^ (std::uint64_t{1} << b) ^ (std::uint64_t{1} << c);
          if (seen.insert(t).second) next.push_back(t);
        }
      }
    }
    level = std::move(next);
  }
  return sizes;
}

// The 15-hole triangle drawn as it stands (lattice = "triangular"): the triangle's
// six symmetries, two of which fix the empty corner; 3,016 positions and 1,544
// classes from a corner (Jaap's Puzzle Page), by depth as the search above finds;
// one peg left after 13 jumps, each step of the solution a named jump.
TEST(RulesBoards, TriangleOnTheTriangularLattice) {
  const std::string file = kExamples + "/peg-triangle.toml";
  const Rules sym = std::get<Rules>(*make_file_puzzle(file));
  std::string text = testing::read_file(file);
  text.erase(text.find("symmetry = \"board\"\n"), std::string("symmetry = \"board\"\n").size());
  const Rules plain = from_text(text);
  EXPECT_EQ(sym.board_symmetries(), 6);
  EXPECT_EQ(sym.symmetries(), 2);
  std::vector<std::pair<int, int>> holes;
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c <= r; ++c) holes.emplace_back(r, c);
  }
  const auto levels = lattice_peg_levels(holes, 0);
  EXPECT_EQ(levels, (std::vector<std::uint64_t>{1, 2, 8, 35, 122, 293, 530, 679, 623, 414, 212, 75, 18, 4}));
  const AnalysisResult whole = analyze_levels(plain, quiet(), plain.start(), *plain.packing(plain.start()));
  EXPECT_EQ(whole.states, 3016u);
  EXPECT_EQ(whole.layers, levels);
  const AnalysisResult classes = analyze_levels(sym, quiet(), sym.start(), *sym.packing(sym.start()));
  EXPECT_EQ(classes.states, 1544u);
  EXPECT_EQ(classes.layer_positions, levels);
  ASSERT_TRUE(classes.goal && classes.goal->shortest);
  EXPECT_EQ(*classes.goal->shortest, 13u);
  // Written as drawn, each row half a cell off the next; read back in any layout.
  EXPECT_EQ(sym.format(sym.start()), "    . /    O O /   O O O /  O O O O / O O O O O");
  EXPECT_EQ(sym.parse(". O O O O O O O O O O O O O O"), sym.start());
  EXPECT_EQ(sym.parse(sym.format(sym.start())), sym.start());
  HashedLookup<Rules::State> visited;
  const auto sol = solve_bfs_until(
      sym, sym.start(), [&](const Rules::State& s) { return sym.is_goal(s); }, visited, MemoryBudget());
  EXPECT_EQ(sol.path.size(), 14u);
  EXPECT_TRUE(plain.is_goal(sol.path.back()));
  expect_named_moves(plain, sym, sol.path, "triangle");
  EXPECT_EQ(sym.move_name(sym.start(), sol.path[1]).substr(0, 8), "jump at ");
}

// A hexagon of side 3, the centre empty (lattice = "hex"): all twelve symmetries of
// the hexagon fix the start; positions by depth as the search above finds.
TEST(RulesBoards, HexagonOnTheHexLattice) {
  const std::string picture = "  O O O\n O O O O\nO O . O O\n O O O O\n  O O O\n";
  const auto text = [&](bool symmetric) {
    return std::string("name = \"hexagon\"\nkind = \"rules\"\nlattice = \"hex\"\n") +
           (symmetric ? "symmetry = \"board\"\n" : "") + "start = \"\"\"\n" + picture +
           "\"\"\"\n[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n";
  };
  const Rules sym = from_text(text(true));
  const Rules plain = from_text(text(false));
  EXPECT_EQ(sym.board_symmetries(), 12);
  EXPECT_EQ(sym.symmetries(), 12);
  std::vector<std::pair<int, int>> holes;  // axial: row r holds places c from max(0, r - 2) to min(4, r + 2)
  for (int r = 0; r < 5; ++r) {
    for (int c = std::max(0, r - 2); c <= std::min(4, r + 2); ++c) holes.emplace_back(r, c);
  }
  ASSERT_EQ(holes.size(), 19u);
  const auto levels = lattice_peg_levels(holes, 9);
  const AnalysisResult whole = analyze_levels(plain, quiet(), plain.start(), *plain.packing(plain.start()));
  EXPECT_EQ(whole.layers, levels);
  const AnalysisResult classes = analyze_levels(sym, quiet(), sym.start(), *sym.packing(sym.start()));
  EXPECT_EQ(classes.layer_positions, levels);
  EXPECT_EQ(classes.layers[1], 1u);  // the six first jumps are one class
  EXPECT_EQ(sym.format(sym.start()), "  O O O /  O O O O / O O . O O /  O O O O /   O O O");
}

// Lights Out on a hexagon of 19 cells (lattice = "hex", a picture pattern drawn on
// the lattice): 2^16 = 65,536 patterns (the presses have rank 16 over GF(2)), at
// most 10 presses, as a search over the presses' masks on axial coordinates finds;
// the same by depth up to the hexagon's twelve symmetries.
TEST(RulesBoards, LightsOutOnTheHexagon) {
  const Rules p = std::get<Rules>(*make_file_puzzle(kExamples + "/lights-out-hex.toml"));
  EXPECT_EQ(p.instances().size(), 19u);
  std::vector<std::pair<int, int>> cells;  // axial: row r holds places c from max(0, r - 2) to min(4, r + 2)
  for (int r = 0; r < 5; ++r) {
    for (int c = std::max(0, r - 2); c <= std::min(4, r + 2); ++c) cells.emplace_back(r, c);
  }
  const auto bit = [&](int r, int c) -> std::uint32_t {
    const auto it = std::find(cells.begin(), cells.end(), std::pair{r, c});
    return it == cells.end() ? 0 : std::uint32_t{1} << (it - cells.begin());
  };
  std::vector<std::uint32_t> presses;
  for (const auto& [r, c] : cells) {
    presses.push_back(bit(r, c) | bit(r, c - 1) | bit(r, c + 1) | bit(r - 1, c - 1) | bit(r - 1, c) | bit(r + 1, c) |
                      bit(r + 1, c + 1));
  }
  unsigned all = 0;
  const auto levels = press_levels(presses, (std::uint32_t{1} << 19) - 1, &all);
  EXPECT_EQ(std::accumulate(levels.begin(), levels.end(), std::uint64_t{0}), 65'536u);
  EXPECT_EQ(levels.size(), 11u);
  const AnalysisResult r = analyze_levels(p, quiet(), p.start(), *p.packing(p.start()));
  EXPECT_EQ(r.states, 65'536u);
  EXPECT_EQ(r.layers, levels);
  const Rules sym = from_text(testing::rules_with_board_symmetry(kExamples + "/lights-out-hex.toml"));
  EXPECT_EQ(sym.symmetries(), 12);
  const AnalysisResult classes = analyze_levels(sym, quiet(), sym.start(), *sym.packing(sym.start()));
  EXPECT_EQ(classes.layer_positions, levels);
}

// Bad lattice files: one line each.
TEST(RulesBoards, BadLatticeFilesAreRefusedWithOneLine) {
  const std::string head = "name = \"x\"\nkind = \"rules\"\n";
  const std::string start = "start = \"\"\"\n  .\n O O\nO O O\n\"\"\"\n";
  const std::string rule = "[[rule]]\nfrom = \"O O .\"\nto = \". . O\"\n";
  const std::vector<testing::BadFile> cases = {
      {head + "lattice = \"kagome\"\n" + start + rule, "unknown lattice 'kagome'"},
      {head + "lattice = \"triangular\"\nstart = \"\"\"\n. O\nO O\n\"\"\"\n" + rule, "row 2 does not fit the lattice"},
      {head + "lattice = \"triangular\"\nstart = \"\"\"\n . O O\nO O  O\n\"\"\"\n" + rule, "does not fit the lattice"},
      {head + "lattice = \"triangular\"\nwrap = \"both\"\n" + start + rule, "wrap joins the edges of a square grid"},
      {head + "lattice = \"triangular\"\n" + start + "[[rule]]\nfrom = \"O O / . .\"\nto = \". . / O O\"\n",
       "a row of a lattice picture after '/'"},
      {head + "lattice = \"triangular\"\n" + start +
           "[[rule]]\nfrom = \"\"\"\nO O\nO .\n\"\"\"\nto = \"\"\"\n. .\n. O\n\"\"\"\n",
       "row 2 stands a whole cell off the rows around it"},
      {head + "lattice = \"triangular\"\n" + start +
           "[[rule]]\nfrom = \"\"\"\n O O\nO  O\n\"\"\"\nto = \"\"\"\n . .\n.  .\n\"\"\"\n",
       "a cell out of step with the others"},
      {head + "lattice = \"triangular\"\n" + start +
           "[[rule]]\nfrom = \"\"\"\n O O\nO O .\n\"\"\"\nto = \"\"\"\n . .\n. . O O\n\"\"\"\n",
       "the replacement"},
      {head + "lattice = \"triangular\"\n" + start + rule + "directions = \"up\"\n",
       "unknown direction 'up' on the lattice"},
      {head + "lattice = \"triangular\"\n" + start + "goal = \"\"\"\n  .\n O O\n\"\"\"\n" + rule,
       "the picture has 2 rows, expected 3"},
  };
  testing::expect_refused(testing::fresh_dir("rules-lattice-bad"), cases);
}

}  // namespace
}  // namespace statespace
