// Distance tables (analyze --table, statespace query): every entry against a plain
// breadth-first search from the goal over the whole space, the walk's exact
// distances, the same bytes at 1 and 2 threads, and damaged, truncated and foreign
// tables refused with one line.
#include <absl/container/flat_hash_map.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/pipeline/analyze_puzzle.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/tables/table_probe.hpp"
#include "cli/args.hpp"
#include "core/errors.hpp"
#include "puzzles/registry.hpp"
#include "reports/puzzle_report.hpp"
#include "reports/table_file.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::read_file;
using testing::run_statespace;

std::string example(const std::string& file) { return std::string(STATESPACE_EXAMPLES) + "/" + file; }

// The table analyze --table makes of `name` on `threads` threads, written to `path`.
AnyPuzzle write_table(const std::string& name, const std::filesystem::path& path, int threads = 2,
                      const std::string& metric = {}, Engine engine = Engine::automatic) {
  const tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
  AnyPuzzle puzzle = make_puzzle(name);
  cli::apply_move_options(puzzle, "", metric);
  AnalyzeOptions o;
  o.progress = false;
  o.table = true;
  o.threads = threads;
  o.engine = engine;
  const PuzzleRun run = analyze_puzzle(puzzle, o, plan_puzzle(puzzle, o));
  EXPECT_TRUE(run.result.table);
  if (engine != Engine::automatic) {
    EXPECT_EQ(run.result.engine, engine_name(engine)) << name;
  }
  if (run.result.table) reports::write_goal_table(path, *run.result.table);
  return puzzle;
}

// Distance to the goal of every position that reaches it: a plain BFS from the goal
// positions, over predecessors on a directed space, within the reachable set.
template <class State>
struct PlainDistances {
  absl::flat_hash_map<State, unsigned> dist;
  std::uint64_t reachable = 0;
};

template <Puzzle P>
PlainDistances<typename P::State> plain_goal_distances(const P& p) {
  using State = typename P::State;
  std::vector<State> reachable{p.goal()};
  absl::flat_hash_map<State, unsigned> seen{{p.goal(), 0}};
  for (std::size_t i = 0; i < reachable.size(); ++i) {
    const State s = reachable[i];
    p.for_each_successor(s, [&](const State& t) {
      if (seen.emplace(t, 0).second) reachable.push_back(t);
    });
  }
  absl::flat_hash_map<State, unsigned> dist;
  std::vector<State> queue;
  for (const State& s : reachable) {
    bool goal = s == p.goal();
    if constexpr (PartialGoalPuzzle<P>) {
      if (p.has_goal()) goal = p.is_goal(s);
    }
    if (goal) {
      dist.emplace(s, 0);
      queue.push_back(s);
    }
  }
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const State s = queue[i];
    const unsigned d = dist.at(s);
    const auto visit = [&](const State& t) {
      if (seen.contains(t) && dist.emplace(t, d + 1).second) queue.push_back(t);
    };
    if constexpr (ReversiblePuzzle<P>) {
      if (is_directed(p)) {
        p.for_each_predecessor(s, visit);
        continue;
      }
    }
    p.for_each_successor(s, visit);
  }
  return {std::move(dist), reachable.size()};
}

// Every entry of the table at `path` against the plain BFS: each position's code,
// the number of positions with one, and the walk's exact distance from a sample.
void expect_table_equals_bfs(const AnyPuzzle& puzzle, const std::filesystem::path& path) {
  const GoalTableFile file = GoalTableFile::open(path);
  std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        const TableProbe<P> probe(p, file);
        const auto plain = plain_goal_distances(p);
        const auto& dist = plain.dist;
        EXPECT_EQ(file.header().reached, plain.reachable) << p.name();
        EXPECT_EQ(file.header().dead, plain.reachable - dist.size()) << p.name();
        const bool bytes = file.header().encoding != TableEncoding::two_bits;
        std::uint64_t with_distance = 0, wrong = 0;
        std::vector<std::uint64_t> layers;
        for (const auto& [s, d] : dist) {
          const unsigned want = bytes ? kByteFirstDistance + d : d % 3 + 1;
          wrong += probe.code(s) != want;
          ++with_distance;
          if (layers.size() <= d) layers.resize(d + 1);
          ++layers[d];
        }
        EXPECT_EQ(wrong, 0u) << p.name();
        EXPECT_EQ(file.header().layers, layers) << p.name();
        std::uint64_t coded = 0;
        for (std::uint64_t i = 0; i < file.header().entries; ++i) coded += file.code(i) >= (bytes ? 2u : 1u);
        EXPECT_EQ(coded, with_distance) << p.name();
        // The exact distance by the walk, from every 97th position.
        std::uint64_t k = 0, walked = 0;
        for (const auto& [s, d] : dist) {
          if (k++ % 97) continue;
          const TableEntry e = probe.entry(s);
          walked += e == TableEntry{Standing::distance, d};
        }
        EXPECT_EQ(walked, (dist.size() + 96) / 97) << p.name();
      },
      puzzle);
}

TEST(Tables, ImplicitTilesEqualPlainBfsFromTheGoal) {
  const auto dir = fresh_dir("tables-tiles");
  for (const std::string name : {"tiles:3x3", "tiles:2x5"}) {
    const auto path = dir / (name.substr(6) + ".table");
    const AnyPuzzle p = write_table(name, path);
    expect_table_equals_bfs(p, path);
    const GoalTableFile f = GoalTableFile::open(path);
    EXPECT_EQ(f.header().index, "tile-class");
    EXPECT_EQ(f.header().reached, name == "tiles:3x3" ? 181'440u : 1'814'400u);
    EXPECT_EQ(f.header().layers.size(), name == "tiles:3x3" ? 32u : 56u);  // eccentricities 31 and 55
  }
}

TEST(Tables, RankedModelsEqualPlainBfsFromTheGoal) {
  const auto dir = fresh_dir("tables-ranked");
  for (const std::string& name :
       {std::string("hex6"), std::string("nooff"), std::string("oshidori"), example("theta0.toml")}) {
    const auto path = dir / "t.table";
    const AnyPuzzle p = write_table(name, path);
    expect_table_equals_bfs(p, path);
    EXPECT_EQ(GoalTableFile::open(path).header().encoding, TableEncoding::two_bits) << name;
  }
}

TEST(Tables, DirectedRankedModelHoldsBytesEqualToPlainBfsOverPredecessors) {
  const auto dir = fresh_dir("tables-directed");
  const auto path = dir / "t.table";
  const AnyPuzzle p = write_table(example("cube2.tws"), path, 2, "given");
  const GoalTableFile f = GoalTableFile::open(path);
  EXPECT_TRUE(f.header().directed);
  EXPECT_EQ(f.header().encoding, TableEncoding::byte);
  EXPECT_EQ(f.header().reached, 3'674'160u);
  EXPECT_EQ(f.header().dead, 0u);  // a group: every position returns to the goal
  expect_table_equals_bfs(p, path);
}

TEST(Tables, SortedLevelsModelsEqualPlainBfsFromTheGoal) {
  const auto dir = fresh_dir("tables-levels");
  for (const std::string file : {"klotski.toml", "frogs-and-toads.toml", "sokoban-yard.toml"}) {
    const auto path = dir / "t.table";
    const AnyPuzzle p = write_table(example(file), path);
    expect_table_equals_bfs(p, path);
    const GoalTableFile f = GoalTableFile::open(path);
    EXPECT_EQ(f.header().encoding, TableEncoding::words) << file;
    if (file == "klotski.toml") {
      EXPECT_EQ(f.header().reached, 25'955u);
      EXPECT_EQ(f.header().layers.size(), 127u);  // the hardest positions lie 126 moves from any goal
    }
    if (file == "sokoban-yard.toml") {
      EXPECT_TRUE(f.header().directed);
      EXPECT_GT(f.header().dead, 0u);
    }
  }
}

// A permutation file of 17 distinct labels (5 bits each), 15 cells moving: 75-bit
// positions, the levels engine's 128-bit words. Adjacent swaps order cells 1-4, 5-8
// and 9-12 (24 ways each) and 13-15 (6): 82,944 positions, 6 x 3 + 3 = 21 moves
// apart at most. Every cell moved by moves of its own, no two cells form a piece:
// the file stays on its stickers.
std::string wide_permutation() {
  return "name = \"wide15\"\nkind = \"permutation\"\n"
         "start = \"A B C D E F G H I J K L M N O P Q\"\nmetric = \"given\"\n[moves]\n"
         "A = \"(1,2)\"\nB = \"(2,3)\"\nC = \"(3,4)\"\nD = \"(5,6)\"\nE = \"(6,7)\"\nF = \"(7,8)\"\n"
         "G = \"(9,10)\"\nH = \"(10,11)\"\nI = \"(11,12)\"\nJ = \"(13,14)\"\nK = \"(14,15)\"\n";
}

// Positions past 64 bits: the words grouped by their high part, each keeping its
// low bytes and code. Every entry against the plain BFS, the bytes a position, the
// same data from another start (the search from the goal for the table alone),
// query and solve reading it, and a damaged or truncated table refused.
TEST(Tables, WideWordsEqualPlainBfsFromTheGoal) {
  const auto dir = fresh_dir("tables-wide");
  const std::string file = testing::write_file(dir / "wide15.toml", wide_permutation()).string();
  const auto path = dir / "t.table";
  const AnyPuzzle p = write_table(file, path, 2, {}, Engine::levels);
  const GoalTableFile f = GoalTableFile::open(path);
  const GoalTableHeader& h = f.header();
  EXPECT_EQ(h.encoding, TableEncoding::wide_words);
  EXPECT_EQ(h.index, "wide-words");
  EXPECT_EQ(h.reached, 82'944u);
  EXPECT_EQ(h.entries, 82'944u);
  EXPECT_EQ(h.layers.size(), 22u);
  expect_table_equals_bfs(p, path);
  // The low bytes and a code a position, and 16 bytes a group of one high part.
  EXPECT_EQ(h.data_words() * 8, 16 * h.groups + 8 + (h.entries * (h.low_bytes + 1) + 7) / 8 * 8);
  // 4 low bytes (the high part 43 bits), 576 groups: 5.1 bytes a position.
  EXPECT_EQ(h.low_bytes, 4u);
  EXPECT_EQ(h.groups, 576u);
  EXPECT_EQ(h.data_words() * 8, 423'944u);
  write_table(file, dir / "one.table", 1, {}, Engine::levels);
  EXPECT_EQ(read_file(dir / "one.table"), read_file(path));

  // The command: another start gives the same data (the header names the start whose
  // packing made the words); query and solve read the table.
  const std::string out = (dir / "out").string();
  const auto a =
      run_statespace("analyze " + file + " --table -q --from \"B A C D E F G H I J K L M N O P Q\" --out " + out);
  ASSERT_EQ(a.exit_code, 0) << a.out;
  const std::string moved = read_file(dir / "out" / "wide15" / "goal-distances.table");
  const std::string here = read_file(path);
  ASSERT_GT(here.size(), 423'944u);
  EXPECT_EQ(moved.substr(moved.size() - 423'944), here.substr(here.size() - 423'944));
  // A farthest position by the plain BFS, the least in text.
  std::string far;
  unsigned most = 0;
  std::visit(
      [&](const auto& m) {
        for (const auto& [state, dist] : plain_goal_distances(m).dist) {
          const std::string text = m.format(state);
          if (dist > most || (dist == most && text < far)) {
            far = text;
            most = dist;
          }
        }
      },
      p);
  EXPECT_EQ(most, 21u);
  const auto q = run_statespace("query " + file + " \"" + far + "\" --line 100 --format json --out " + out);
  ASSERT_EQ(q.exit_code, 0) << q.out;
  const auto j = nlohmann::json::parse(q.std_out);
  ASSERT_EQ(j["standing"], "distance") << q.std_out;
  const unsigned d = j["distance"];
  EXPECT_EQ(d, most);
  EXPECT_EQ(j["line"].size(), d);
  EXPECT_EQ(j["moves"].size(), 11u);
  EXPECT_EQ(j["moves"][0]["change"], "closer");
  const std::string table = (dir / "out" / "wide15" / "goal-distances.table").string();
  const auto walked = run_statespace("solve " + file + " \"" + far + "\" --format csv --table " + table);
  const auto searched = run_statespace("solve " + file + " \"" + far + "\" --format csv");
  ASSERT_EQ(walked.exit_code, 0) << walked.out;
  ASSERT_EQ(searched.exit_code, 0) << searched.out;
  EXPECT_EQ(std::count(walked.std_out.begin(), walked.std_out.end(), '\n'),
            std::count(searched.std_out.begin(), searched.std_out.end(), '\n'));

  const std::string good = read_file(path);
  for (const auto& [bytes, why] :
       {std::pair{good.substr(0, good.size() - 8), std::string("truncated")},
        std::pair{good.substr(0, good.size() - 1) + char(good.back() ^ 1), std::string("data checksum")}}) {
    testing::write_file(dir / "bad.table", bytes);
    const auto r = run_statespace("query " + file + " --table " + (dir / "bad.table").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.std_err.find(why), std::string::npos) << r.std_err;
  }
}

// Peg solitaire on the 4x4 square (an edge hole, down to one peg anywhere) with
// symmetry = "board": the table holds one entry a class, and every position of the
// plain board (looked up through its class) has the plain board's distance.
TEST(Tables, SymmetricPegBoardHoldsOneEntryAClassWithThePlainDistances) {
  const auto dir = fresh_dir("tables-peg");
  const auto square = [&](bool symmetric) {
    return testing::write_file(dir / (symmetric ? "sym.toml" : "plain.toml"),
                               std::string("name = \"peg-4x4\"\nkind = \"rules\"\n") +
                                   (symmetric ? "symmetry = \"board\"\n" : "") +
                                   "start = \"\"\"\n. O O O\nO O O O\nO O O O\nO O O O\n\"\"\"\ngoal = { pieces = 2 }\n"
                                   "[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n");
  };
  const AnyPuzzle sym = write_table(square(true).string(), dir / "sym.table");
  const AnyPuzzle plain = make_puzzle(square(false).string());
  const GoalTableFile f = GoalTableFile::open(dir / "sym.table");
  EXPECT_EQ(f.header().encoding, TableEncoding::words);
  EXPECT_TRUE(f.header().directed);
  const auto& ps = std::get<Rules>(sym);
  const auto& pp = std::get<Rules>(plain);
  const TableProbe<Rules> probe(ps, f);
  const auto dist = plain_goal_distances(pp);
  std::uint64_t wrong = 0;
  for (const auto& [s, d] : dist.dist) wrong += probe.code(s) != kByteFirstDistance + d;
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(dist.reachable, dist.dist.size());  // some positions are dead
  std::set<std::uint64_t> classes;
  for (const auto& [s, d] : dist.dist) classes.insert(*probe.index(s));
  EXPECT_LT(classes.size(), dist.dist.size());
  EXPECT_EQ(f.header().entries - f.header().dead, classes.size());
}

// Lights Out 5x5 against linear algebra over GF(2): a pattern is A x for a set x of
// presses, and its distance from all lights off is the fewest presses among the x
// that make it, independent of any search. Every one of the 2^23 entries.
TEST(Tables, LightsOutEqualsTheFewestPressesOverGf2) {
  const auto dir = fresh_dir("tables-lights");
  const auto path = dir / "t.table";
  const AnyPuzzle puzzle = write_table(example("lights-out-5x5.toml"), path);
  std::vector<std::uint32_t> press(25);
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 5; ++c) {
      std::uint32_t m = 1u << (5 * r + c);
      if (r > 0) m |= 1u << (5 * (r - 1) + c);
      if (r < 4) m |= 1u << (5 * (r + 1) + c);
      if (c > 0) m |= 1u << (5 * r + c - 1);
      if (c < 4) m |= 1u << (5 * r + c + 1);
      press[std::size_t(5 * r + c)] = m;
    }
  }
  // Every x in Gray-code order: one press more or less a step.
  std::vector<std::uint8_t> fewest(std::size_t{1} << 25, 255);
  std::uint32_t lights = 0;
  fewest[0] = 0;
  for (std::uint32_t i = 1; i < (1u << 25); ++i) {
    lights ^= press[std::size_t(std::countr_zero(i))];
    const auto n = std::uint8_t(std::popcount(i ^ (i >> 1)));
    fewest[lights] = std::min(fewest[lights], n);
  }
  std::vector<std::uint64_t> layers;
  for (const std::uint8_t d : fewest) {
    if (d == 255) continue;
    if (layers.size() <= d) layers.resize(d + 1u);
    ++layers[d];
  }
  const GoalTableFile f = GoalTableFile::open(path);
  EXPECT_EQ(f.header().entries, 8'388'608u);
  EXPECT_EQ(f.header().dead, 0u);
  EXPECT_EQ(f.header().layers, layers);
  const auto& p = std::get<Rules>(puzzle);
  const auto packing = p.packing(p.start());
  ASSERT_TRUE(packing);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < f.header().entries; ++i) {
    const Rules::State s = packing->unpack(f.data()[i]);
    std::uint32_t on = 0;
    for (int c = 0; c < 25; ++c) on |= std::uint32_t(s.cell[std::size_t(c)] != Rules::kEmpty) << c;
    wrong += f.code(i) != kByteFirstDistance + fewest[on];
  }
  EXPECT_EQ(wrong, 0u);
}

// The graded-chain engine's table (peg solitaire by chain moves on the 4x4 square,
// down to two pegs) against a plain BFS by chain moves over predecessors; with
// symmetry = "board" one entry a class, every plain position through its class.
TEST(Tables, GradedChainTablesEqualPlainBfsByChainMoves) {
  const auto dir = fresh_dir("tables-chains");
  const auto square = [&](bool symmetric) {
    return testing::write_file(dir / (symmetric ? "sym.toml" : "plain.toml"),
                               std::string("name = \"peg-4x4-chain\"\nkind = \"rules\"\nmoves = \"chain\"\n") +
                                   (symmetric ? "symmetry = \"board\"\n" : "") +
                                   "start = \"\"\"\n. O O O\nO O O O\nO O O O\nO O O O\n\"\"\"\ngoal = { pieces = 2 }\n"
                                   "[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n");
  };
  const std::string plain_file = square(false).string();
  const AnyPuzzle plain = write_table(plain_file, dir / "plain.table", 2, {}, Engine::chains);
  expect_table_equals_bfs(plain, dir / "plain.table");
  const GoalTableFile pf = GoalTableFile::open(dir / "plain.table");
  EXPECT_TRUE(pf.header().directed);
  EXPECT_GT(pf.header().dead, 0u);
  EXPECT_GT(pf.header().layers.size(), 2u);
  // The sorted-levels engine's table by chain successors: the same bytes.
  write_table(plain_file, dir / "levels.table", 2, {}, Engine::levels);
  EXPECT_EQ(read_file(dir / "plain.table"), read_file(dir / "levels.table"));

  const AnyPuzzle sym = write_table(square(true).string(), dir / "sym.table", 2, {}, Engine::chains);
  const GoalTableFile f = GoalTableFile::open(dir / "sym.table");
  const TableProbe<Rules> probe(std::get<Rules>(sym), f);
  const auto dist = plain_goal_distances(std::get<Rules>(plain));
  std::uint64_t wrong = 0;
  std::set<std::uint64_t> classes;
  for (const auto& [s, d] : dist.dist) {
    wrong += probe.code(s) != kByteFirstDistance + d;
    classes.insert(*probe.index(s));
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_LT(classes.size(), dist.dist.size());
  EXPECT_EQ(f.header().entries - f.header().dead, classes.size());
  write_table(square(true).string(), dir / "sym-levels.table", 1, {}, Engine::levels);
  EXPECT_EQ(read_file(dir / "sym.table"), read_file(dir / "sym-levels.table"));
}

// The explicit engine writes the table the ranked or sorted-levels engine writes for
// the same model, byte for byte: by rank (tiles:3x3, hex6) and by 64-bit words
// (klotski; sokoban-yard, directed).
TEST(Tables, ExplicitEngineTablesEqualTheOtherEnginesBytes) {
  const auto dir = fresh_dir("tables-explicit");
  struct Case {
    std::string puzzle, metric;
    Engine other;
  };
  for (const Case& c :
       {Case{"tiles:3x3", "", Engine::ranked}, Case{"hex6", "", Engine::ranked},
        Case{example("klotski.toml"), "", Engine::levels}, Case{example("sokoban-yard.toml"), "", Engine::levels}}) {
    const AnyPuzzle p = write_table(c.puzzle, dir / "explicit.table", 2, c.metric, Engine::explicit_graph);
    write_table(c.puzzle, dir / "other.table", 2, c.metric, c.other);
    EXPECT_EQ(read_file(dir / "explicit.table"), read_file(dir / "other.table")) << c.puzzle;
    expect_table_equals_bfs(p, dir / "explicit.table");
  }
}

// query --line from farthest positions (the first three of each) walks legal moves
// to a goal in exactly the position's distance.
TEST(Tables, QueryLinesFromTheFarthestPositionsReachTheGoalInTheirDistance) {
  const auto dir = fresh_dir("tables-query");
  struct Case {
    std::string puzzle, farthest_file;
  };
  for (const Case& c :
       {Case{"tiles:3x3", "farthest.csv"}, Case{example("klotski.toml"), "farthest.csv"},
        Case{example("cube2.tws"), "farthest.csv"}, Case{example("sokoban-yard.toml"), "hardest.csv"}}) {
    const auto a = run_statespace("analyze " + c.puzzle + " --table -q --out " + dir.string());
    ASSERT_EQ(a.exit_code, 0) << a.out;
    AnyPuzzle puzzle = make_puzzle(c.puzzle);
    const std::string folder = std::visit([](const auto& p) { return reports::folder_name(p.name()); }, puzzle);
    std::istringstream csv(read_file(dir / folder / c.farthest_file));
    std::string line;
    std::getline(csv, line);  // header
    int checked = 0;
    while (checked < 3 && std::getline(csv, line)) {
      const std::string position = line.substr(line.find(',') + 1);
      const auto q =
          run_statespace("query " + c.puzzle + " \"" + position + "\" --line 1000 --format json --out " + dir.string());
      ASSERT_EQ(q.exit_code, 0) << q.out;
      const auto j = nlohmann::json::parse(q.std_out);
      ASSERT_EQ(j["standing"], "distance") << q.std_out;
      const unsigned d = j["distance"];
      ASSERT_EQ(j["line"].size(), d) << c.puzzle << " " << position;
      EXPECT_EQ(j["moves"][0]["change"], "closer");
      std::visit(
          [&](const auto& p) {
            using P = std::decay_t<decltype(p)>;
            auto at = p.parse(j["position"].template get<std::string>());
            for (const auto& step : j["line"]) {
              const auto next = p.parse(step["position"].template get<std::string>());
              bool legal = false;
              p.for_each_successor(at, [&](const typename P::State& t) { legal = legal || t == next; });
              EXPECT_TRUE(legal) << p.format(at) << " -> " << p.format(next);
              at = next;
            }
            bool goal = at == p.goal();
            if constexpr (PartialGoalPuzzle<P>) {
              if (p.has_goal()) goal = p.is_goal(at);
            }
            EXPECT_TRUE(goal) << p.format(at);
          },
          puzzle);
      ++checked;
    }
    EXPECT_GT(checked, 0) << c.puzzle;
  }
}

// Moves are listed closer, same, farther, dead, then not in the table (docs/tables.md).
// Positions outside the reachable set (predecessors of reachable ones that the
// start never reaches) have moves of every kind on a directed space.
TEST(Tables, MovesAreListedByDistanceThenDeadThenNotReachable) {
  const auto dir = fresh_dir("tables-order");
  for (const std::string file : {"frogs-and-toads.toml", "sokoban-yard.toml"}) {
    const auto path = dir / "t.table";
    const AnyPuzzle puzzle = write_table(example(file), path);
    const GoalTableFile table = GoalTableFile::open(path);
    std::visit(
        [&](const auto& p) {
          using P = std::decay_t<decltype(p)>;
          if constexpr (ReversiblePuzzle<P>) {
            const TableProbe<P> probe(p, table);
            const auto order = [](const TableEntry& e) {
              return e.standing == Standing::distance ? std::uint64_t(e.distance)
                                                      : (e.standing == Standing::dead ? 1000u : 1001u);
            };
            int mixed = 0;
            for (std::uint64_t i = 0; i < table.header().entries; ++i) {
              p.for_each_predecessor(probe.position(i), [&](const typename P::State& s) {
                const TableEntry here = probe.entry(s);
                const auto moves = probe.moves(s, here);
                bool dead = false, unreached = false;
                for (std::size_t k = 0; k < moves.size(); ++k) {
                  dead = dead || moves[k].entry.standing == Standing::dead;
                  unreached = unreached || moves[k].entry.standing == Standing::unreached;
                  if (k) {
                    EXPECT_LE(order(moves[k - 1].entry), order(moves[k].entry)) << p.format(s);
                  }
                }
                mixed += dead && unreached;
              });
            }
            EXPECT_GT(mixed, 0) << file;
          } else {
            ADD_FAILURE() << file << " lists no predecessors";
          }
        },
        puzzle);
  }
}

// solve walks the table and finds solutions as long as the search's.
TEST(Tables, SolveByTheTableEqualsTheSearchInLength) {
  const auto dir = fresh_dir("tables-solve");
  ASSERT_EQ(run_statespace("analyze tiles:3x3 --table -q --out " + dir.string()).exit_code, 0);
  const std::string table = (dir / "tiles-3x3" / "goal-distances.table").string();
  for (const std::string position : {"8 6 7 / 2 5 4 / 3 _ 1", "1 2 3 / 4 5 6 / _ 7 8", "_ 1 2 / 3 4 5 / 6 7 8"}) {
    const auto walked = run_statespace("solve tiles:3x3 \"" + position + "\" --format csv --table " + table);
    const auto searched = run_statespace("solve tiles:3x3 \"" + position + "\" --format csv");
    ASSERT_EQ(walked.exit_code, 0) << walked.out;
    ASSERT_EQ(searched.exit_code, 0) << searched.out;
    EXPECT_EQ(std::count(walked.std_out.begin(), walked.std_out.end(), '\n'),
              std::count(searched.std_out.begin(), searched.std_out.end(), '\n'))
        << position;
  }
}

TEST(Tables, SameBytesAtOneAndTwoThreads) {
  const auto dir = fresh_dir("tables-threads");
  for (const std::string& name : {std::string("tiles:2x5"), example("cube2.tws"), example("klotski.toml")}) {
    write_table(name, dir / "one.table", 1);
    write_table(name, dir / "two.table", 2);
    EXPECT_EQ(read_file(dir / "one.table"), read_file(dir / "two.table")) << name;
  }
}

// A link planted at the table's temporary name (NAME.tmpPID, guessable) is refused
// with one line naming it, and the file it points to keeps its bytes: the table is
// created with O_CREAT | O_EXCL | O_NOFOLLOW as every other temporary is (before, it
// was opened with O_TRUNC through the link). A dead run's regular file there goes.
TEST(Tables, ALinkAtTheTablesTemporaryNameIsRefused) {
  const auto dir = fresh_dir("tables-hostile");
  testing::write_file(dir / "precious", "precious\n");
  const auto path = dir / "hex6.table";
  const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  std::filesystem::create_symlink(dir / "precious", tmp);
  try {
    write_table("hex6", path);
    ADD_FAILURE() << "the link was written through";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "refusing to write through '" + tmp.string() +
                                         "': it is a symbolic link (expected no file there, or a regular file; "
                                         "remove it)");
  }
  EXPECT_EQ(read_file(dir / "precious"), "precious\n");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_symlink(tmp));

  std::filesystem::remove(tmp);
  testing::write_file(tmp, "left by a dead run");
  write_table("hex6", path);
  write_table("hex6", dir / "plain.table");
  EXPECT_FALSE(std::filesystem::exists(tmp));
  EXPECT_EQ(read_file(path), read_file(dir / "plain.table"));
  EXPECT_EQ(read_file(dir / "precious"), "precious\n");
}

TEST(Tables, DamagedTruncatedAndForeignTablesAreRefused) {
  const auto dir = fresh_dir("tables-refused");
  write_table("tiles:3x3", dir / "good.table");
  const std::string good = read_file(dir / "good.table");
  const auto refused = [&](const std::string& bytes, const std::string& why) {
    testing::write_file(dir / "bad.table", bytes);
    try {
      (void)GoalTableFile::open(dir / "bad.table");
      ADD_FAILURE() << "accepted: " << why;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  };
  refused(good.substr(0, good.size() - 8), "truncated");
  refused(good.substr(0, 40), "header");
  refused(good + "x", "trailing");
  std::string flipped = good;
  flipped[good.size() - 100] ^= 0x10;
  refused(flipped, "data checksum");
  flipped = good;
  flipped[20] ^= 0x01;
  refused(flipped, "header checksum");
  refused("PK\x03\x04 not a table at all", "not a statespace distance table");

  // Another puzzle's table, through the command.
  const auto r = run_statespace("query tiles:2x5 --table " + (dir / "good.table").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("is for tiles:3x3, not tiles:2x5"), std::string::npos) << r.std_err;
  // The same file under another metric: another identity.
  write_table(example("cube2.tws"), dir / "cube2.table");
  const auto m =
      run_statespace("query " + example("cube2.tws") + " --metric quarter --table " + (dir / "cube2.table").string());
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_NE(m.std_err.find("pass the same puzzle file, --moves and --metric"), std::string::npos) << m.std_err;
  const auto d = run_statespace("query tiles:3x3 --table " + (dir / "nothing.table").string());
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.std_err.find("cannot open"), std::string::npos) << d.std_err;
}

// A table of the same puzzle and moves toward another goal is refused before any
// probe; an engine that writes no table says so before any work, writing nothing.
TEST(Tables, AnotherGoalAndEnginesWithoutTablesAreRefused) {
  const auto dir = fresh_dir("tables-goal");
  const auto peg = [&](int pieces) {
    return testing::write_file(dir / ("peg-" + std::to_string(pieces) + ".toml"),
                               "name = \"peg-4x4\"\nkind = \"rules\"\nstart = \"\"\"\n. O O O\nO O O O\nO O O O\nO O O "
                               "O\n\"\"\"\ngoal = { pieces = " +
                                   std::to_string(pieces) +
                                   " }\n[[rule]]\nname = \"jump\"\nfrom = \"O O .\"\nto = \". . O\"\n");
  };
  write_table(peg(2).string(), dir / "two.table");
  const auto r = run_statespace("query " + peg(3).string() + " --table " + (dir / "two.table").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.std_err.find("measures distances to"), std::string::npos) << r.std_err;
  EXPECT_EQ(std::count(r.std_err.begin(), r.std_err.end(), '\n'), 1) << r.std_err;

  const std::string wide = testing::write_file(dir / "wide15.toml", wide_permutation()).string();
  const auto e = run_statespace("analyze " + wide + " --engine explicit --table -q --out " + (dir / "e").string());
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_NE(e.std_err.find("--table: positions with neither a dense rank nor a packing into 64 bits have no table "
                           "index"),
            std::string::npos)
      << e.std_err;
  EXPECT_FALSE(std::filesystem::exists(dir / "e" / "wide15"));
}

}  // namespace
}  // namespace statespace
