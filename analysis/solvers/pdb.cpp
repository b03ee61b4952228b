#include "analysis/solvers/pdb.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <numeric>
#include <ostream>
#include <span>
#include <sstream>
#include <stdexcept>

#include "analysis/solvers/pdb_search.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

// A built database's entries, owned the way a mapped file's are: by a shared pointer.
std::shared_ptr<const std::uint8_t> shared_bytes(BigVector<std::uint8_t> bytes) {
  auto owner = std::make_shared<BigVector<std::uint8_t>>(std::move(bytes));
  return {owner, owner->data()};
}

}  // namespace

void check_pattern(const Tiles& t, const std::vector<int>& tiles) {
  if (tiles.empty() || int(tiles.size()) >= t.cells() - 1) {
    throw UsageError(t.name() + ": a pattern holds 1 to " + std::to_string(t.cells() - 2) + " tiles");
  }
}

PatternDatabase::PatternDatabase(const Tiles& t, std::vector<int> tiles, BigVector<std::uint8_t> packed,
                                 std::vector<Exception> exceptions, std::vector<std::uint64_t> counts)
    : PatternDatabase(t, std::move(tiles), shared_bytes(std::move(packed)), std::move(exceptions), std::move(counts)) {}

PatternDatabase::PatternDatabase(const Tiles& t, std::vector<int> tiles, std::shared_ptr<const std::uint8_t> packed,
                                 std::vector<Exception> exceptions, std::vector<std::uint64_t> counts)
    : tiles_(std::move(tiles)),
      n_(t.cells()),
      k_(int(tiles_.size())),
      manhattan_(pdb_search::manhattan_table(t, tiles_)),
      packed_(std::move(packed)),
      data_(packed_.get()),
      entries_(placements(n_, k_)),
      exceptions_(std::move(exceptions)),
      counts_(std::move(counts)) {}

int PatternDatabase::manhattan(const std::uint8_t* cells) const {
  int base = 0;
  for (int i = 0; i < k_; ++i) base += manhattan_[std::size_t(i * Board::kMaxCells + cells[i])];
  return base;
}

int PatternDatabase::at(std::uint64_t rank) const {
  std::array<std::uint8_t, Board::kMaxCells> cells{};
  placement_unrank(rank, cells.data(), k_, n_);
  return value(cells.data());
}

int PatternDatabase::escaped(std::uint64_t rank) const {
  const auto it = std::lower_bound(exceptions_.begin(), exceptions_.end(), rank,
                                   [](const Exception& e, std::uint64_t r) { return e.rank < r; });
  if (it == exceptions_.end() || it->rank != rank)
    throw std::logic_error("pattern database: an escape without its value");
  return int(it->value);
}

// ---- partitions ----

std::vector<Partition> standard_partitions(const Tiles& t) {
  if (t.rows() == 4 && t.cols() == 4) {
    // The goal is 1..15 in reading order with the blank last: 7-8 splits the board
    // into its bottom and top halves (Korf & Felner's split, turned to our goal);
    // the smaller ones use compact blocks.
    return {
        {"7-8", {{9, 10, 11, 12, 13, 14, 15}, {1, 2, 3, 4, 5, 6, 7, 8}}},
        {"6-6-3", {{1, 2, 5, 6, 9, 13}, {3, 4, 7, 8, 11, 12}, {10, 14, 15}}},
        {"5-5-5", {{1, 2, 5, 6, 9}, {3, 4, 7, 8, 12}, {10, 11, 13, 14, 15}}},
    };
  }
  const int tiles = t.cells() - 1;
  const int groups = (tiles + 5) / 6;
  Partition p;
  for (int g = 0, next = 1; g < groups; ++g) {
    const int size = tiles / groups + (g < tiles % groups ? 1 : 0);
    std::vector<int> group;
    for (int i = 0; i < size; ++i) group.push_back(next++);
    if (g) p.name += '-';
    p.name += std::to_string(size);
    p.groups.push_back(std::move(group));
  }
  return {p};
}

Partition parse_partition(const Tiles& t, std::string_view text) {
  for (auto& p : standard_partitions(t)) {
    if (p.name == text) return p;
  }
  std::string names;
  for (const auto& p : standard_partitions(t)) names += p.name + ", ";
  const auto bad = [&](const std::string& why) {
    return ParseError("bad --partition '" + std::string(text) + "' for " + t.name() + ": " + why + " (expected " +
                      names + "or tile groups such as 1,2,3/4,5,6/7,8 covering every tile once)");
  };
  Partition p{std::string(text), {}};
  std::vector<int> seen(std::size_t(t.cells()), 0);
  std::stringstream groups{std::string(text)};
  std::string group;
  while (std::getline(groups, group, '/')) {
    std::vector<int> tiles;
    std::stringstream items(group);
    std::string item;
    while (std::getline(items, item, ',')) {
      int v = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
      if (ec != std::errc{} || end != item.data() + item.size() || v < 1 || v >= t.cells()) {
        throw bad("'" + item + "' is not a tile");
      }
      if (seen[std::size_t(v)]++) throw bad("tile " + std::to_string(v) + " appears twice");
      tiles.push_back(v);
    }
    if (tiles.empty()) throw bad("an empty group");
    if (int(tiles.size()) > t.cells() - 2)
      throw bad("a group of more than " + std::to_string(t.cells() - 2) + " tiles");
    std::sort(tiles.begin(), tiles.end());
    p.groups.push_back(std::move(tiles));
  }
  for (int v = 1; v < t.cells(); ++v) {
    if (!seen[std::size_t(v)]) throw bad("tile " + std::to_string(v) + " is in no group");
  }
  return p;
}

std::uint64_t partition_table_bytes(const Tiles& t, const Partition& p) {
  std::uint64_t bytes = 0;
  for (const auto& g : p.groups) bytes += PatternDatabase::packed_bytes(placements(t.cells(), int(g.size())));
  return bytes;
}

std::uint64_t partition_build_bytes(const Tiles& t, const Partition& p) {
  // Every database stays in memory once built, on whole huge pages, while the
  // largest search runs.
  std::uint64_t tables = 0, most = 0;
  for (const auto& g : p.groups) {
    const int k = int(g.size());
    const std::uint64_t table = huge_resident_bytes(PatternDatabase::packed_bytes(placements(t.cells(), k)));
    tables += table;
    most = std::max(most, pattern_build_bytes(t, k) - table);
  }
  return tables + most;
}

Partition choose_partition(const Tiles& t, const MemoryBudget& budget) {
  const auto all = standard_partitions(t);
  for (const auto& p : all) {
    if (partition_build_bytes(t, p) <= budget.bytes()) return p;
  }
  budget.require(partition_build_bytes(t, all.back()), t.name() + ": pattern databases " + all.back().name);
  return all.back();
}

}  // namespace statespace
