// Additive pattern databases for the R x C sliding-tile puzzles (Korf & Felner 2002;
// Felner, Korf & Hanan 2004). A pattern is a set of k tiles; its database holds, for
// every placement of those k tiles on the n cells, the least number of moves of
// pattern tiles that bring them home, the other tiles being indistinguishable and
// their moves free. Tiles in disjoint patterns never share a move, so the values of
// a partition's databases add up to an admissible heuristic.
//
// Because the blank may wander through the cells no pattern tile occupies at no
// cost, an abstract state is a placement plus the connected region of free cells
// holding the blank, named by the index among the free cells of the region's lowest
// cell; a placement's value is the first level at which any of its regions is
// reached. The database is a breadth-first search over that space done the way the
// implicit engine does its levels (analysis/engines/common/slices.hpp): one "seen" bit per
// abstract state, frontier and next bitsets per placement, placements split into
// slices whose owners alone write their bits, and targets in other slices queued to
// their owners, so no write needs an atomic and every level is a set that does not
// depend on the thread count.
//
// A placement's value is at least the Manhattan distance of its tiles (a move
// carries one pattern tile one cell) and has its parity (the move also flips the
// colour of that tile's cell), so an entry holds (value - manhattan) / 2 in four
// bits: 0..14, or 15 for the rare larger excess, whose values a sorted list keeps.
// The 7-8 partition of the 15-puzzle fits in 288 MB this way instead of 577 MB.
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

#include "analysis/runtime/huge_pages.hpp"
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

// Bytes of a partition's databases (four bits per entry) and the most its build
// needs: the databases plus the largest one's seen, frontier and next bitsets.
[[nodiscard]] std::uint64_t partition_table_bytes(const Tiles& t, const Partition& p);
[[nodiscard]] std::uint64_t partition_build_bytes(const Tiles& t, const Partition& p);
// The bytes build_pattern_database needs for one pattern of k tiles, the database
// included.
[[nodiscard]] std::uint64_t pattern_build_bytes(const Tiles& t, int k);

// The first standard partition whose build fits `budget`; throws UsageError with the
// bytes the smallest needs and --memory when none does.
[[nodiscard]] Partition choose_partition(const Tiles& t, const MemoryBudget& budget);

// Throws UsageError unless `tiles` is a pattern t can hold: 1 to n - 2 tiles.
void check_pattern(const Tiles& t, const std::vector<int>& tiles);

// One database: owned after a build, or a read-only mapping of a cache file.
class PatternDatabase {
 public:
  // The four-bit code of an excess that the exceptions list holds.
  static constexpr unsigned kEscape = 15;
  struct Exception {
    std::uint64_t rank = 0;
    std::uint64_t value = 0;
    friend bool operator==(const Exception&, const Exception&) = default;
  };
  // Bytes of the packed entries of `entries` placements: two per byte, the even
  // rank in the low half.
  [[nodiscard]] static constexpr std::uint64_t packed_bytes(std::uint64_t entries) { return (entries + 1) / 2; }

  // `counts[v]` = placements of value v; `exceptions` ascending by rank.
  PatternDatabase(const Tiles& t, std::vector<int> tiles, BigVector<std::uint8_t> packed,
                  std::vector<Exception> exceptions, std::vector<std::uint64_t> counts);
  PatternDatabase(const Tiles& t, std::vector<int> tiles, std::shared_ptr<const std::uint8_t> packed,
                  std::vector<Exception> exceptions, std::vector<std::uint64_t> counts);

  [[nodiscard]] const std::vector<int>& tiles() const { return tiles_; }
  [[nodiscard]] std::uint64_t entries() const { return entries_; }
  [[nodiscard]] const std::uint8_t* packed() const { return data_; }
  [[nodiscard]] const std::vector<Exception>& exceptions() const { return exceptions_; }
  // counts()[v] = placements whose value is v.
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const { return counts_; }

  // The value of the placement cells[i] = cell of tiles()[i]: its rank and its
  // Manhattan distance in one pass, then the entry.
  [[nodiscard]] int value(const std::uint8_t* cells) const {
    std::uint32_t used = 0;
    std::uint64_t r = 0;
    int base = 0;
    for (int i = 0; i < k_; ++i) {
      const unsigned c = cells[i];
      r = r * std::uint64_t(n_ - i) + (c - unsigned(std::popcount(used & ((1u << c) - 1))));
      used |= 1u << c;
      base += manhattan_[std::size_t(i * Board::kMaxCells) + c];
    }
    const unsigned code = (data_[r >> 1] >> ((r & 1) * 4)) & 0xFu;
    return code == kEscape ? escaped(r) : base + 2 * int(code);
  }
  // The value of the placement of rank r (unranked: for tests and tools).
  [[nodiscard]] int at(std::uint64_t rank) const;
  // The Manhattan distance of the placement cells[0..k) of the pattern's tiles.
  [[nodiscard]] int manhattan(const std::uint8_t* cells) const;

 private:
  [[nodiscard]] int escaped(std::uint64_t rank) const;

  std::vector<int> tiles_;
  int n_ = 0, k_ = 0;
  std::array<std::uint8_t, Board::kMaxCells * Board::kMaxCells> manhattan_{};  // [slot * 16 + cell]
  std::shared_ptr<const std::uint8_t> packed_;                                 // a built database's, or a mapped file's
  const std::uint8_t* data_ = nullptr;
  std::uint64_t entries_ = 0;
  std::vector<Exception> exceptions_;
  std::vector<std::uint64_t> counts_;
};

// The database of `tiles` on board t by breadth-first search from the goal. The
// caller checks pattern_build_bytes against the memory budget.
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
