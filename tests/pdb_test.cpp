// The optimal solver: pattern databases (analysis/solvers/pdb.hpp) and IDA* over them
// (analysis/solvers/ida.hpp), checked against the exact distance tables of the boards small
// enough to have one, and against Korf's published optimal lengths on the 15-puzzle.
#include "analysis/solvers/pdb.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <tbb/global_control.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/generate_plan.hpp"
#include "analysis/problems/generate.hpp"
#include "analysis/problems/rng.hpp"
#include "analysis/solvers/distance_table.hpp"
#include "analysis/solvers/ida.hpp"
#include "core/errors.hpp"
#include "test_util.hpp"

namespace statespace {
namespace {

using testing::fresh_dir;
using testing::run_command;
using testing::run_statespace;

// The heuristic of a partition, built in memory.
struct Built {
  std::vector<PatternDatabase> databases;
  std::unique_ptr<AdditiveHeuristic> h;
  Built(const Tiles& t, const Partition& p, bool reflect = true) {
    for (const auto& g : p.groups) databases.push_back(build_pattern_database(t, g));
    std::vector<const PatternDatabase*> pointers;
    for (const auto& db : databases) pointers.push_back(&db);
    h = std::make_unique<AdditiveHeuristic>(t, pointers, reflect);
  }
};

TEST(Placement, RankIsABijectionInLexicographicOrder) {
  for (const auto& [n, k] : {std::pair{9, 3}, {12, 4}, {6, 5}}) {
    std::vector<std::uint8_t> cells(std::size_t{16}), previous;
    for (std::uint64_t r = 0; r < placements(n, k); ++r) {
      placement_unrank(r, cells.data(), k, n);
      ASSERT_EQ(placement_rank(cells.data(), k, n), r);
      if (r) {
        ASSERT_LT(previous, cells);  // lexicographic: sorting ranks sorts placements
      }
      previous = cells;
    }
  }
  EXPECT_EQ(placements(16, 8), 518918400u);  // 16!/8! and 16!/9!: 518.9 M and 57.7 M entries
  EXPECT_EQ(placements(16, 7), 57657600u);
}

// The heuristic never exceeds the true distance (admissible): checked on every
// position of full boards against their BFS distance tables. It is not consistent:
// a database value is the least over the blank's regions, and one move can carry a
// position from a placement whose best region is far from the blank's to one whose
// best region holds it, so h may drop by more than one across a move. IDA* needs only
// admissibility to be optimal; the counts below are a signature of the databases.
TEST(PatternDatabase, AdmissibleOnWholeSmallBoards) {
  struct Expected {
    int rows, cols;
    std::uint64_t exact, jumps;
  };
  for (const auto& [rows, cols, want_exact, want_jumps] : {Expected{3, 3, 37246, 32836}, {2, 5, 61531, 517896}}) {
    const Tiles t(rows, cols);
    const DistanceTable table = build_distance_table(t, MemoryBudget(1'000'000'000), distance_table_engine(t));
    const Built built(t, standard_partitions(t).front());
    std::uint64_t exact = 0, solvable = 0, jumps = 0;
    int largest_jump = 0;
    for (std::uint64_t r = 0; r < t.rank_space(); ++r) {
      const std::uint8_t d = table.distance(r);
      if (d == DistanceTable::kUnreached) continue;
      const Board b = t.unrank(r);
      const int h = (*built.h)(b);
      ASSERT_LE(h, int(d)) << t.format(b);
      exact += h == int(d);
      ++solvable;
      t.for_each_successor(b, [&](Board s) {
        const int jump = std::abs((*built.h)(s)-h);
        jumps += jump > 1;
        largest_jump = std::max(largest_jump, jump);
      });
    }
    EXPECT_EQ(exact, want_exact) << t.name();  // h equals the distance
    EXPECT_EQ(jumps, want_jumps) << t.name();  // moves changing h by more than one
    EXPECT_EQ(largest_jump, 7) << t.name();
    EXPECT_EQ(solvable, t.reachable_bound());
    // The goal is the only position at 0, and every pattern database reaches every
    // placement (at least two free cells leave no parity constraint).
    EXPECT_EQ((*built.h)(t.goal()), 0);
    for (const auto& db : built.databases) EXPECT_EQ(db.counts()[0], 1u);
  }
}

// IDA* lengths equal the BFS distance on sampled positions of 3x3, 2x5 and 3x4 (the
// last through the 479 MB rank-space table).
TEST(Ida, LengthsEqualTheDistanceTable) {
  for (const auto& [rows, cols, samples] : {std::tuple{3, 3, 200}, {2, 5, 200}, {3, 4, 20}}) {
    const Tiles t(rows, cols);
    const DistanceTable table = build_distance_table(t, MemoryBudget(2'000'000'000), distance_table_engine(t));
    const Built built(t, standard_partitions(t).front());
    Rng rng(std::uint64_t(rows * 10 + cols));
    for (int i = 0; i < samples; ++i) {
      const Board b = uniform_solvable(t, rng);
      const IdaResult r = solve_ida(*built.h, b);
      ASSERT_EQ(r.length(), int(table.distance(t.rank(b)))) << t.name() << " " << t.format(b);
      ASSERT_EQ(r.path.front(), b);
      ASSERT_EQ(r.path.back(), t.goal());
      for (std::size_t s = 1; s < r.path.size(); ++s) {  // each step one move
        bool adjacent = false;
        t.for_each_successor(r.path[s - 1], [&](Board n) { adjacent = adjacent || n == r.path[s]; });
        ASSERT_TRUE(adjacent) << t.format(r.path[s - 1]) << " -> " << t.format(r.path[s]);
      }
    }
  }
}

// The same solution and node count on 1 and 2 threads: the first optimal solution in
// depth-first order, and nodes counted up to the subtree holding it.
TEST(Ida, DeterministicAcrossThreadCounts) {
  const Tiles t(3, 4);
  const Built built(t, standard_partitions(t).front());
  Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    const Board b = uniform_solvable(t, rng);
    IdaResult one, two;
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
      one = solve_ida(*built.h, b);
    }
    {
      tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
      two = solve_ida(*built.h, b);
    }
    ASSERT_EQ(one.path, two.path) << t.format(b);
    ASSERT_EQ(one.nodes, two.nodes) << t.format(b);
  }
}

std::vector<std::uint8_t> packed_of(const PatternDatabase& db) {
  return {db.packed(), db.packed() + PatternDatabase::packed_bytes(db.entries())};
}

// Databases are the same bytes whatever the thread count.
TEST(PatternDatabase, DeterministicAcrossThreadCounts) {
  const Tiles t(4, 4);
  const std::vector<int> tiles{10, 11, 14, 15};
  std::vector<std::uint8_t> one, two;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = packed_of(build_pattern_database(t, tiles));
  }
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 2);
    two = packed_of(build_pattern_database(t, tiles));
  }
  EXPECT_EQ(one, two);
}

// The values of a pattern by the plainest search of the same abstract space: a FIFO
// queue over (placement, region of the blank), the region found by flood fill, and a
// placement's value the first distance at which any of its regions is dequeued.
std::vector<int> reference_values(const Tiles& t, const std::vector<int>& tiles) {
  const int n = t.cells(), k = int(tiles.size());
  const std::uint64_t entries = placements(n, k), names = std::uint64_t(n - k);
  const auto region_of = [&](int cell, std::uint32_t free) {
    std::uint32_t region = 1u << cell;
    for (bool grown = true; grown;) {
      grown = false;
      for (int c = 0; c < n; ++c) {
        if (!(region >> c & 1)) continue;
        for (int j = 0; j < t.degree(c); ++j) {
          const int m = t.neighbour(c, j);
          if ((free >> m & 1) && !(region >> m & 1)) {
            region |= 1u << m;
            grown = true;
          }
        }
      }
    }
    return region;
  };
  const auto state_of = [&](const std::vector<std::uint8_t>& cells, int blank) {
    std::uint32_t free = (1u << n) - 1;
    for (const auto c : cells) free &= ~(1u << c);
    const std::uint32_t region = region_of(blank, free);
    const int lowest = std::countr_zero(region);
    return placement_rank(cells.data(), k, n) * names + std::uint64_t(std::popcount(free & ((1u << lowest) - 1)));
  };
  std::vector<int> distance(entries * names, -1), value(entries, -1);
  std::vector<std::uint8_t> cells(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) cells[std::size_t(i)] = std::uint8_t(tiles[std::size_t(i)] - 1);
  std::vector<std::pair<std::uint64_t, int>> queue{{state_of(cells, n - 1), 0}};
  distance[queue[0].first] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto [state, d] = queue[head];
    const std::uint64_t rank = state / names;
    if (value[rank] < 0) value[rank] = d;
    placement_unrank(rank, cells.data(), k, n);
    std::uint32_t free = (1u << n) - 1;
    for (const auto c : cells) free &= ~(1u << c);
    std::uint32_t f = free;
    for (std::uint64_t j = state % names; j > 0; --j) f &= f - 1;
    const std::uint32_t region = region_of(std::countr_zero(f), free);
    for (int i = 0; i < k; ++i) {
      const int from = cells[std::size_t(i)];
      for (int j = 0; j < t.degree(from); ++j) {
        const int to = t.neighbour(from, j);
        if (!(region >> to & 1)) continue;
        cells[std::size_t(i)] = std::uint8_t(to);
        const std::uint64_t next = state_of(cells, from);
        cells[std::size_t(i)] = std::uint8_t(from);
        if (distance[next] >= 0) continue;
        distance[next] = d + 1;
        queue.emplace_back(next, d + 1);
      }
    }
  }
  return value;
}

// The sliced bitset search gives exactly the values of the plain search, and the
// four-bit entries with their escapes give them back: on patterns of 3x3, 3x4, 2x6
// and 4x4, at 1 and 2 threads. The exceptions are exactly the placements whose
// value exceeds their Manhattan distance by 30 or more.
TEST(PatternDatabase, ValuesEqualAPlainSearch) {
  struct Case {
    int rows, cols;
    std::vector<int> tiles;
  };
  for (const Case& c : {Case{3, 3, {1, 2, 3, 4}}, Case{3, 3, {5, 6, 7, 8}}, Case{3, 4, {7, 8, 9, 10, 11}},
                        Case{2, 6, {1, 2, 3, 4, 5}}, Case{4, 4, {10, 11, 14, 15}}}) {
    const Tiles t(c.rows, c.cols);
    const std::vector<int> want = reference_values(t, c.tiles);
    for (const int threads : {1, 2}) {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
      const PatternDatabase db = build_pattern_database(t, c.tiles);
      ASSERT_EQ(db.entries(), want.size());
      std::vector<std::uint64_t> counts;
      std::size_t escaped = 0;
      std::array<std::uint8_t, Board::kMaxCells> cells{};
      for (std::uint64_t r = 0; r < db.entries(); ++r) {
        ASSERT_EQ(db.at(r), want[r]) << t.name() << " rank " << r << " threads " << threads;
        placement_unrank(r, cells.data(), int(c.tiles.size()), t.cells());
        escaped += want[r] - db.manhattan(cells.data()) >= 30;
        if (counts.size() <= std::size_t(want[r])) counts.resize(std::size_t(want[r]) + 1, 0);
        ++counts[std::size_t(want[r])];
      }
      EXPECT_EQ(db.counts(), counts) << t.name();
      EXPECT_EQ(db.exceptions().size(), escaped) << t.name();
    }
  }
}

// Four bits an entry: (value - manhattan) / 2, two entries a byte with the even rank
// low, 15 sending to the exceptions; checked on a hand-made database of one tile.
TEST(PatternDatabase, PackingRoundTrip) {
  const Tiles t(3, 3);
  // Tile 5's Manhattan distance from cell c (its home is cell 4, the centre).
  const std::vector<int> manhattan{2, 1, 2, 1, 0, 1, 2, 1, 2};
  const std::vector<int> excess{0, 1, 14, 2, 0, 7, 30, 3, 1};
  BigVector<std::uint8_t> packed(PatternDatabase::packed_bytes(9), 0);
  std::vector<PatternDatabase::Exception> exceptions;
  for (std::size_t r = 0; r < 9; ++r) {
    unsigned code = unsigned(excess[r]) / 2;
    if (code >= PatternDatabase::kEscape) {
      exceptions.push_back({r, std::uint64_t(manhattan[r] + excess[r])});
      code = PatternDatabase::kEscape;
    }
    packed[r / 2] |= std::uint8_t(code << (4 * (r % 2)));
  }
  EXPECT_EQ(packed.size(), 5u);
  EXPECT_EQ(packed[0], 0x00);  // ranks 0 and 1: excess 0 and 1 -> codes 0, 0
  EXPECT_EQ(packed[1], 0x17);  // ranks 2 (code 7) and 3 (code 1)
  EXPECT_EQ(packed[3], 0x1F);  // ranks 6 (escape) and 7
  const PatternDatabase db(t, {5}, packed, exceptions, {});
  for (std::uint64_t r = 0; r < 9; ++r) {
    EXPECT_EQ(db.at(r), manhattan[r] + excess[r] / 2 * 2) << r;
  }
  EXPECT_EQ(db.at(6), 32);  // the escaped value
}

struct Korf {
  int id = 0;
  int length = 0;
  std::string position;
};

std::vector<Korf> korf100() {
  std::ifstream in(std::string(STATESPACE_SOURCE_DIR) + "/tests/data/korf100.csv");
  std::vector<Korf> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.starts_with("id,")) continue;
    std::stringstream fields(line);
    std::string id, length, korf, position;
    std::getline(fields, id, ',');
    std::getline(fields, length, ',');
    std::getline(fields, korf, ',');
    std::getline(fields, position);
    out.push_back({std::stoi(id), std::stoi(length), position});
  }
  return out;
}

// The data file: 100 instances, lengths summing to 5305 (Korf 1985), each converted
// from Korf's goal (blank top-left) by the 180-degree turn and the relabelling t -> 16 - t.
TEST(Korf100, DataFileMatchesThePublishedNumbers) {
  const auto all = korf100();
  ASSERT_EQ(all.size(), 100u);
  int sum = 0;
  const Tiles t(4, 4);
  std::ifstream in(std::string(STATESPACE_SOURCE_DIR) + "/tests/data/korf100.csv");
  std::string line;
  for (const auto& k : all) {
    sum += k.length;
    const Board b = t.parse(k.position);
    EXPECT_TRUE(t.same_class(b, t.goal())) << k.id;
  }
  EXPECT_EQ(sum, 5305);
  // Instance 1, by hand: Korf's "14 13 15 7 / 11 12 9 5 / 6 0 2 1 / 4 8 10 3".
  EXPECT_EQ(all[0].position, "13 6 8 12 / 15 14 _ 10 / 11 7 4 5 / 9 1 3 2");
}

// The easiest of Korf's instances, solved with the small 5-5-5 databases (a few MB,
// built in seconds); the whole set runs in scripts/korf100.sh with 7-8.
TEST(Korf100, EasyInstancesWithFiveFiveFive) {
  const Tiles t(4, 4);
  const Built built(t, parse_partition(t, "5-5-5"));
  int solved = 0;
  for (const auto& k : korf100()) {
    if (k.length > 42) continue;
    const IdaResult r = solve_ida(*built.h, t.parse(k.position));
    EXPECT_EQ(r.length(), k.length) << "instance " << k.id;
    ++solved;
  }
  EXPECT_EQ(solved, 4);  // instances 16, 42, 55 and 79
}

TEST(Partition, NamedAndExplicit) {
  const Tiles t(4, 4);
  EXPECT_EQ(standard_partitions(t).size(), 3u);
  EXPECT_EQ(partition_table_bytes(t, parse_partition(t, "7-8")), 28828800u + 259459200u);  // four bits an entry
  // The 8-tile build: one bit per abstract state (8 regions a placement), two bits per
  // placement for the levels, both tables, and some MiB of region tables and queues.
  const std::uint64_t build = partition_build_bytes(t, parse_partition(t, "7-8"));
  EXPECT_GT(build, 28828800u + 259459200u + 518918400u + 2 * 64864800u);
  EXPECT_LT(build, 28828800u + 259459200u + 518918400u + 2 * 64864800u + (32u << 20));
  EXPECT_EQ(parse_partition(t, "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15").groups.size(), 3u);
  EXPECT_THROW((void)parse_partition(t, "1,2,3/4,5"), ParseError);  // tiles left out
  EXPECT_THROW((void)parse_partition(t, "1,2,3/3,4"), ParseError);  // twice
  EXPECT_THROW((void)parse_partition(t, "8-7"), ParseError);        // not a name
  EXPECT_THROW((void)choose_partition(t, MemoryBudget(1000)), UsageError);
  EXPECT_EQ(choose_partition(t, MemoryBudget(100'000'000)).name, "6-6-3");
  EXPECT_EQ(standard_partitions(Tiles(3, 4)).front().name, "6-5");
}

// A cache file is used when intact, and rebuilt with a warning when corrupt or stale.
TEST(PdbCache, CorruptAndStaleFilesAreRebuilt) {
  const Tiles t(3, 3);
  const std::vector<int> tiles{1, 2, 3, 4};
  const auto dir = fresh_dir("pdb-cache");
  std::ostringstream log;
  const auto first = load_or_build(t, tiles, dir, log, false);
  EXPECT_TRUE(first.built);
  const auto file = pdb_file(dir, t, tiles);
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "");
  const auto second = load_or_build(t, tiles, dir, log, false);
  EXPECT_FALSE(second.built);
  EXPECT_EQ(log.str(), "");
  EXPECT_EQ(packed_of(first.db), packed_of(second.db));
  EXPECT_EQ(first.db.counts(), second.db.counts());

  const auto poke = [&](std::streamoff offset, char value) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    f.put(value);
  };
  poke(64 + 2048 + 100, 77);  // two entries
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "checksum mismatch (corrupt)");
  const auto third = load_or_build(t, tiles, dir, log, false);
  EXPECT_TRUE(third.built);
  EXPECT_NE(log.str().find("checksum mismatch (corrupt); rebuilding it"), std::string::npos) << log.str();
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "");

  poke(64 + 8, 1);  // a count
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "checksum mismatch (corrupt)");
  EXPECT_TRUE(load_or_build(t, tiles, dir, log, false).built);
  const auto size = std::filesystem::file_size(file);
  EXPECT_EQ(size, 64u + 2048u + 3024u / 2);  // 9!/5! entries
  std::filesystem::resize_file(file, size - 1);
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "truncated or padded");
  std::filesystem::resize_file(file, size + 16);
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "truncated or padded");
  EXPECT_TRUE(load_or_build(t, tiles, dir, log, false).built);
  poke(20, 5);  // the pattern's size
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "holds another board or pattern");
  poke(0, 'X');  // the magic
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "not a statespace pattern database");
  EXPECT_TRUE(load_or_build(t, tiles, dir, log, false).built);
  poke(8, 99);  // the format version
  EXPECT_NE(pdb_file_problem(file, t, tiles).find("(stale)"), std::string::npos);
  std::filesystem::resize_file(file, 10);
  EXPECT_EQ(pdb_file_problem(file, t, tiles), "shorter than its header");
  EXPECT_TRUE(load_or_build(t, tiles, dir, log, false).built);
  std::filesystem::remove_all(dir);
}

// A build killed at any moment leaves no file a later run would trust: a database
// gets its name only once complete. Killed after a few moments of the 6-6-3 build
// (two databases of 5.8 M entries), the folder holds complete databases or nothing.
TEST(PdbCache, KilledBuildLeavesNoPartialFile) {
  const Tiles t(4, 4);
  const Partition p = parse_partition(t, "6-6-3");
  const auto dir = fresh_dir("pdb-killed");
  int killed = 0;
  for (const char* after : {"0.3", "0.8", "1.5", "3", "5"}) {
    std::filesystem::remove_all(dir);
    const auto r = run_command("timeout --signal=KILL " + std::string(after) + " " + STATESPACE_BINARY +
                               " pdb build tiles:4x4 --partition 6-6-3 --pdb-dir " + dir.string() + " 2>&1");
    if (r.exit_code == 128 + SIGKILL) {
      ++killed;
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.out;
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      bool known = false;
      for (const auto& g : p.groups) {
        if (entry.path() != pdb_file(dir, t, g)) continue;
        known = true;
        EXPECT_EQ(pdb_file_problem(entry.path(), t, g), "") << "killed after " << after << " s";
      }
      EXPECT_TRUE(known) << entry.path() << " left by a build killed after " << after << " s";
    }
  }
  EXPECT_GT(killed, 0);
  std::filesystem::remove_all(dir);
}

// solve --batch runs problems side by side and prints them in input order: the same
// output on 1 and 2 threads (csv: all but the seconds).
TEST(OptimalCli, BatchIsTheSameOnAnyThreads) {
  const Tiles t(3, 4);
  const auto dir = fresh_dir("pdb-batch");
  const auto batch = dir / "problems.txt";
  {
    std::ofstream out(batch);
    Rng rng(11);
    for (int i = 0; i < 16; ++i) out << t.format(uniform_solvable(t, rng)) << "\n";
  }
  const std::string args = "solve tiles:3x4 --batch " + batch.string() + " --pdb-dir " + dir.string();
  const auto without_seconds = [](const std::string& csv) {
    std::istringstream lines(csv);
    std::string out, line;
    while (std::getline(lines, line)) {
      const auto length = line.find(',');
      const auto seconds = line.find(',', length + 1), nodes = line.find(',', seconds + 1);
      out += line.substr(0, seconds) + line.substr(nodes) + "\n";
    }
    return out;
  };
  const auto one = run_statespace(args + " --format csv --threads 1");
  const auto two = run_statespace(args + " --format csv --threads 2");
  ASSERT_EQ(one.exit_code, 0) << one.out;
  ASSERT_EQ(two.exit_code, 0) << two.out;
  EXPECT_EQ(std::count(one.std_out.begin(), one.std_out.end(), '\n'), 17);
  EXPECT_EQ(without_seconds(one.std_out), without_seconds(two.std_out));
  const auto boards_one = run_statespace(args + " --threads 1"), boards_two = run_statespace(args + " --threads 2");
  ASSERT_EQ(boards_one.exit_code, 0) << boards_one.out;
  EXPECT_EQ(boards_one.std_out, boards_two.std_out);
  std::filesystem::remove_all(dir);
}

TEST(OptimalCli, SolveBatchAndBadInput) {
  const auto dir = fresh_dir("pdb-cli");
  const std::string pdb = " --pdb-dir " + dir.string();
  // tiles:3x4's default partition is 6-5, no reflection (the board is not square).
  auto r = run_statespace("solve tiles:3x4 \"1 2 3 4 / 5 6 7 8 / 9 10 _ 11\" --method ida" + pdb);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(
      r.std_out.starts_with("tiles:3x4: 1 move from 1 2 3 4 / 5 6 7 8 / 9 10 _ 11 to 1 2 3 4 / 5 6 7 8 / "
                            "9 10 11 _ (optimal: IDA* over the 6-5 pattern databases, "))
      << r.out;
  const auto batch = dir / "problems.txt";
  std::ofstream(batch) << "# two problems\n1 2 3 4 / 5 6 7 8 / 9 10 _ 11\n\n_ 1 2 3 / 5 6 7 4 / 9 10 11 8\n";
  r = run_statespace("solve tiles:3x4 --batch " + batch.string() + " --format csv" + pdb);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::istringstream lines(r.std_out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "position,length,seconds,nodes");
  std::getline(lines, line);
  EXPECT_TRUE(line.starts_with("1 2 3 4 / 5 6 7 8 / 9 10 _ 11,1,")) << line;
  std::getline(lines, line);
  EXPECT_TRUE(line.starts_with("_ 1 2 3 / 5 6 7 4 / 9 10 11 8,5,")) << line;
  // The 15-puzzle's default is the optimal solver.
  r = run_statespace("solve tiles:4x4 \"1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 _ 15\" --partition 5-5-5" + pdb);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(
      r.std_out.starts_with("tiles:4x4: 1 move from 1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 _ 15 to 1 2 3 4 / "
                            "5 6 7 8 / 9 10 11 12 / 13 14 15 _ (optimal: IDA* over the 5-5-5 pattern "
                            "databases with reflection, "))
      << r.out;

  std::ofstream(batch) << "1 2 3 4 / 5 6 7 8 / 9 10 _ 11\n2 1 3 4 / 5 6 7 8 / 9 10 11 _\n";
  r = run_statespace("solve tiles:3x4 --batch " + batch.string() + pdb);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(batch.string() + ":2:1: tiles:3x4: no solution"), std::string::npos) << r.out;
  EXPECT_EQ(r.std_out, "");

  for (const std::string args : {"solve tiles:4x4 \"2 1 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _\"",
                                 "solve tiles:4x4 \"1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _\" --memory 1M",
                                 "solve tiles:4x4 \"1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _\" --partition 9-6",
                                 "pdb build tiles:4x4 --memory 1M", "pdb frobnicate tiles:4x4",
                                 "generate tiles:4x4 --distance 5", "generate tiles:4x4 --distance 81"}) {
    r = run_statespace(args + pdb);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
  }
  r = run_statespace("solve tiles:4x4 \"1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _\" --memory 1M" + pdb);
  EXPECT_NE(r.out.find("--memory"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

// generate on tiles:4x4 with the 5-5-5 databases: exact distances by rejection
// sampling, the same bytes on 1 and 2 threads.
TEST(OptimalCli, GenerateWithExactDistances) {
  const auto dir = fresh_dir("pdb-generate");
  const std::string pdb = " --pdb-dir " + dir.string() + " --partition 5-5-5";
  const std::string args = "generate tiles:4x4 --count 2 --min 50 --max 80 --seed 3 --format csv" + pdb;
  const auto one = run_statespace(args + " --threads 1"), two = run_statespace(args + " --threads 2");
  ASSERT_EQ(one.exit_code, 0) << one.out;
  EXPECT_EQ(one.std_out, two.std_out);
  std::istringstream lines(one.std_out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "position,distance");
  int n = 0;
  for (; std::getline(lines, line); ++n) EXPECT_GE(std::stoi(line.substr(line.find(',') + 1)), 50) << line;
  EXPECT_EQ(n, 2);
  EXPECT_NE(one.std_err.find(" solved per kept)"), std::string::npos) << one.std_err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace statespace
