// Additive pattern databases for the R x C sliding-tile puzzles (Korf & Felner 2002;
// Felner, Korf & Hanan 2004). A pattern is a set of k tiles; its database holds, for
// every placement of those k tiles on the n cells, the least number of moves of
// pattern tiles that bring them home, the other tiles being indistinguishable and
// their moves free. Tiles in disjoint patterns never share a move, so the values of
// a partition's databases add up to an admissible heuristic.
//
// The database is itself an exhaustive breadth-first search over the abstract space,
// done the way the rank-space engines do it (analysis/solvers/distance_table.cpp,
// analysis/engines/implicit/implicit_bfs.cpp): states are ranks, levels are found by scanning a packed
// table, successors are claimed with one compare-and-swap, and each level is a set
// that does not depend on the thread count, so neither does the database. Because the
// blank may wander through the cells no pattern tile occupies at no cost, an abstract
// state is a placement plus the connected region of free cells holding the blank,
// named by the region's lowest cell: rank * (n - k) + (index of that cell among the
// free cells). Its visited set is a TwoBitTable of four codes, unreached / frontier /
// next / old (Korf 2008), and a placement's value is the first level at which any of
// its regions is reached.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "core/ranking.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// Placements of k distinct tiles on n cells: n! / (n - k)!.
[[nodiscard]] constexpr std::uint64_t placements(int n, int k) { return kFactorial[n] / kFactorial[n - k]; }

// Lexicographic rank of the placement cells[0..k) (distinct cells of [0, n)): the
// factorial-base digits of permutation_rank, stopped after k of them.
[[nodiscard]] inline std::uint64_t placement_rank(const std::uint8_t* cells, int k, int n) {
  std::uint32_t used = 0;
  std::uint64_t r = 0;
  for (int i = 0; i < k; ++i) {
    const unsigned c = cells[i];
    r = r * std::uint64_t(n - i) + (c - unsigned(std::popcount(used & ((1u << c) - 1))));
    used |= 1u << c;
  }
  return r;
}

inline void placement_unrank(std::uint64_t r, std::uint8_t* cells, int k, int n) {
  std::array<unsigned, Board::kMaxCells> digit{};
  for (int i = k - 1; i >= 0; --i) {
    digit[std::size_t(i)] = unsigned(r % std::uint64_t(n - i));
    r /= std::uint64_t(n - i);
  }
  std::uint32_t free = (1u << n) - 1;
  for (int i = 0; i < k; ++i) {
    std::uint32_t f = free;
    for (unsigned j = 0; j < digit[std::size_t(i)]; ++j) f &= f - 1;
    cells[i] = std::uint8_t(std::countr_zero(f));
    free &= ~(1u << cells[i]);
  }
}

// Tiles grouped into disjoint patterns that together cover every tile.
struct Partition {
  std::string name;                      // "7-8", or the groups as written
  std::vector<std::vector<int>> groups;  // tile numbers, each group ascending
};

// The partitions `solve` chooses from on this board, best (largest) first: 7-8,
// 6-6-3 and 5-5-5 on 4x4; groups of at most six consecutive tiles elsewhere.
[[nodiscard]] std::vector<Partition> standard_partitions(const Tiles& t);
// "7-8", "6-6-3", "5-5-5" (4x4), or explicit groups "1,2,3,4/5,6,7/...". Throws
// ParseError naming the expected forms.
[[nodiscard]] Partition parse_partition(const Tiles& t, std::string_view text);

// Bytes of a partition's databases (one byte per entry) and the most the build of
// the largest one adds on top (its two-bit visited table).
[[nodiscard]] std::uint64_t partition_table_bytes(const Tiles& t, const Partition& p);
[[nodiscard]] std::uint64_t partition_build_bytes(const Tiles& t, const Partition& p);

// The first standard partition whose build fits `budget`; throws UsageError with the
// bytes the smallest needs and --memory when none does.
[[nodiscard]] Partition choose_partition(const Tiles& t, const MemoryBudget& budget);

// Throws UsageError unless `tiles` is a pattern t can hold: 1 to n - 2 tiles.
void check_pattern(const Tiles& t, const std::vector<int>& tiles);

// One database: owned after a build, or a read-only mapping of a cache file.
class PatternDatabase {
 public:
  static constexpr std::uint8_t kUnreached = 0xFF;

  PatternDatabase(std::vector<int> tiles, std::vector<std::uint8_t> values);
  PatternDatabase(std::vector<int> tiles, std::shared_ptr<const std::uint8_t> mapped, std::uint64_t entries);

  [[nodiscard]] const std::vector<int>& tiles() const { return tiles_; }
  [[nodiscard]] std::uint64_t entries() const { return entries_; }
  [[nodiscard]] const std::uint8_t* data() const { return data_; }
  [[nodiscard]] std::uint8_t at(std::uint64_t rank) const { return data_[rank]; }
  // counts()[v] = placements whose value is v.
  [[nodiscard]] std::vector<std::uint64_t> counts() const;

 private:
  std::vector<int> tiles_;
  std::vector<std::uint8_t> owned_;
  std::shared_ptr<const std::uint8_t> mapped_;
  const std::uint8_t* data_ = nullptr;
  std::uint64_t entries_ = 0;
};

// The database of `tiles` on board t by breadth-first search from the goal.
[[nodiscard]] PatternDatabase build_pattern_database(const Tiles& t, const std::vector<int>& tiles,
                                                     Progress* progress = nullptr);

// The cache folder: $XDG_CACHE_HOME/statespace, else ~/.cache/statespace.
[[nodiscard]] std::filesystem::path default_pdb_dir();
// The file a database is cached in: tiles4x4-p1.2.3.4.5.6.7.8.pdb.
[[nodiscard]] std::filesystem::path pdb_file(const std::filesystem::path& dir, const Tiles& t,
                                             const std::vector<int>& tiles);

// The database from its cache file when that is intact (magic, format version,
// board, tiles, size and checksum all match), mapped read-only; otherwise built,
// saved (through a temporary file and a rename) and returned, with one line on
// `log` saying why a file present was not used. `built` tells the caller which.
struct LoadedDatabase {
  PatternDatabase db;
  bool built = false;
  double seconds = 0;
};
[[nodiscard]] LoadedDatabase load_or_build(const Tiles& t, const std::vector<int>& tiles,
                                           const std::filesystem::path& dir, std::ostream& log,
                                           bool show_progress = true);

// Whether `file` holds an intact database for (t, tiles), and if not, why.
[[nodiscard]] std::string pdb_file_problem(const std::filesystem::path& file, const Tiles& t,
                                           const std::vector<int>& tiles);

}  // namespace statespace
