#include "analysis/solvers/pdb.hpp"

#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <numeric>
#include <ostream>
#include <sstream>

#include "analysis/engines/implicit/level_bits.hpp"
#include "analysis/runtime/packed_table.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

// The blank's region on an R x C grid. A state names its region by the index, among
// the free cells, of the region's lowest cell; for every set of free cells that name
// is precomputed for each cell (16 four-bit names per set, 512 KiB on 4x4, of which a
// pattern of k tiles touches only the C(n, k) sets of its size: about 100 KiB for 7
// or 8 tiles), so a successor costs one cached lookup instead of a flood fill.
class Regions {
 public:
  explicit Regions(const Tiles& t) : n_(t.cells()), names_(std::size_t(1) << n_) {
    for (int c = 0; c < n_; ++c) {
      for (int k = 0; k < t.degree(c); ++k) neighbours_[std::size_t(c)] |= 1u << t.neighbour(c, k);
    }
    tbb::parallel_for(std::uint32_t{0}, std::uint32_t{1} << n_, [&](std::uint32_t free) {
      std::uint64_t names = 0;
      for (std::uint32_t left = free; left;) {
        const int lowest = std::countr_zero(left);
        const std::uint32_t region = of(lowest, free);
        const auto name = std::uint64_t(std::popcount(free & ((1u << lowest) - 1)));
        for (std::uint32_t r = region; r; r &= r - 1) names |= name << (4 * std::countr_zero(r));
        left &= ~region;
      }
      names_[free] = names;
    });
  }
  [[nodiscard]] std::uint32_t all() const { return (1u << n_) - 1; }
  [[nodiscard]] std::uint32_t neighbours(int cell) const { return neighbours_[std::size_t(cell)]; }
  // The connected region of `free` holding `cell` (which must be free).
  [[nodiscard]] std::uint32_t of(int cell, std::uint32_t free) const {
    std::uint32_t r = 1u << cell, frontier = r;
    while (frontier) {
      std::uint32_t grown = 0;
      for (std::uint32_t f = frontier; f; f &= f - 1) grown |= neighbours_[std::size_t(std::countr_zero(f))];
      frontier = grown & free & ~r;
      r |= frontier;
    }
    return r;
  }
  // The name of the region of `free` holding `cell`.
  [[nodiscard]] std::uint64_t name(int cell, std::uint32_t free) const { return (names_[free] >> (4 * cell)) & 0xFu; }

 private:
  int n_;
  std::array<std::uint32_t, Board::kMaxCells> neighbours_{};
  std::vector<std::uint64_t> names_;
};

constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;
// The two-bit codes of the abstract BFS (Korf 2008's four states): not reached yet,
// in the level being expanded, reached in this level, expanded before.
constexpr std::uint64_t kFrontier = 1;
constexpr std::uint64_t kNext = 2;
constexpr std::size_t kInFlight = 16;  // prefetched successors awaiting their claim

struct Claimer {
  std::uint64_t* words;
  // Sets entry e from 0 (unvisited) to `code`; true when this call did it.
  bool operator()(std::uint64_t e, std::uint64_t code) const {
    std::atomic_ref<std::uint64_t> w(words[e / TwoBitTable::kPerWord]);
    const unsigned shift = unsigned(2 * (e % TwoBitTable::kPerWord));
    std::uint64_t cur = w.load(std::memory_order_relaxed);
    while (((cur >> shift) & 3u) == 0) {
      if (w.compare_exchange_weak(cur, cur | (code << shift), std::memory_order_relaxed)) return true;
    }
    return false;
  }
};

}  // namespace

void check_pattern(const Tiles& t, const std::vector<int>& tiles) {
  if (tiles.empty() || int(tiles.size()) >= t.cells()) {
    throw UsageError(t.name() + ": a pattern holds 1 to " + std::to_string(t.cells() - 2) + " tiles");
  }
}

PatternDatabase::PatternDatabase(std::vector<int> tiles, std::vector<std::uint8_t> values)
    : tiles_(std::move(tiles)), owned_(std::move(values)), data_(owned_.data()), entries_(owned_.size()) {}

PatternDatabase::PatternDatabase(std::vector<int> tiles, std::shared_ptr<const std::uint8_t> mapped,
                                 std::uint64_t entries)
    : tiles_(std::move(tiles)), mapped_(std::move(mapped)), data_(mapped_.get()), entries_(entries) {}

std::vector<std::uint64_t> PatternDatabase::counts() const {
  std::array<std::uint64_t, 256> h{};
  for (std::uint64_t i = 0; i < entries_; ++i) ++h[data_[i]];
  std::size_t top = 0;
  for (std::size_t v = 0; v < PatternDatabase::kUnreached; ++v) {
    if (h[v]) top = v;
  }
  return {h.begin(), h.begin() + std::ptrdiff_t(top + 1)};
}

PatternDatabase build_pattern_database(const Tiles& t, const std::vector<int>& tiles, Progress* progress) {
  check_pattern(t, tiles);
  const Regions regions(t);
  const int n = t.cells();
  const int k = int(tiles.size());
  const std::uint64_t free_cells = std::uint64_t(n - k);
  const std::uint64_t entries = placements(n, k);
  std::vector<std::uint8_t> values(entries, PatternDatabase::kUnreached);
  TwoBitTable seen(entries * free_cells);
  const Claimer claim{seen.words()};

  std::array<std::uint8_t, Board::kMaxCells> home{};
  std::uint32_t occupied = 0;
  for (int i = 0; i < k; ++i) {
    home[std::size_t(i)] = std::uint8_t(tiles[std::size_t(i)] - 1);  // tile v's goal cell is v - 1
    occupied |= 1u << home[std::size_t(i)];
  }
  const auto state_of = [&](std::uint64_t rank, std::uint32_t free, int blank) {
    return rank * free_cells + regions.name(blank, free);
  };
  const std::uint64_t goal_rank = placement_rank(home.data(), k, n);
  const std::uint32_t goal_free = regions.all() & ~occupied;
  claim(state_of(goal_rank, goal_free, n - 1), kFrontier);
  values[goal_rank] = 0;

  std::uint64_t total = 1;
  const std::uint64_t bytes = entries + TwoBitTable::bytes_for(entries * free_cells);
  constexpr std::size_t kWordGrain = 1024;
  for (unsigned depth = 0;; ++depth) {
    if (depth + 1 >= PatternDatabase::kUnreached) throw std::length_error(t.name() + ": pattern depth exceeds 254");
    const auto next_value = std::uint8_t(depth + 1);
    tbb::combinable<std::uint64_t> claimed([] { return std::uint64_t{0}; });
    for_each_chunk(seen.word_count(), kWordGrain, [&](const auto& range) {
      std::uint64_t mine = 0;
      // Successors land anywhere in a table of up to a gigabyte: each is prefetched
      // and claimed kInFlight successors later, so that the cache misses overlap.
      std::array<std::uint64_t, kInFlight> pending{};
      std::size_t queued = 0;
      const auto settle = [&](std::uint64_t e2) {
        if (!claim(e2, kNext)) return;
        ++mine;
        std::atomic_ref<std::uint8_t> v(values[e2 / free_cells]);
        if (v.load(std::memory_order_relaxed) == PatternDatabase::kUnreached) {
          v.store(next_value, std::memory_order_relaxed);
        }
      };
      std::array<std::uint8_t, Board::kMaxCells> cells{};
      for (std::size_t w = range.begin(); w != range.end(); ++w) {
        const std::uint64_t word = std::atomic_ref<std::uint64_t>(seen.words()[w]).load(std::memory_order_relaxed);
        const std::uint64_t x = word ^ (kFrontier * kEvenBits);
        std::uint64_t match = ~(x | (x >> 1)) & kEvenBits;
        std::uint64_t unranked = ~std::uint64_t{0};
        std::uint32_t free = 0;
        while (match) {
          const std::uint64_t e = w * TwoBitTable::kPerWord + std::uint64_t(std::countr_zero(match)) / 2;
          match &= match - 1;
          const std::uint64_t rank = e / free_cells;
          if (rank != unranked) {  // the regions of one placement are neighbours in the table
            placement_unrank(rank, cells.data(), k, n);
            std::uint32_t occ = 0;
            for (int i = 0; i < k; ++i) occ |= 1u << cells[std::size_t(i)];
            free = regions.all() & ~occ;
            unranked = rank;
          }
          std::uint32_t f = free;
          for (std::uint64_t j = e % free_cells; j > 0; --j) f &= f - 1;
          const std::uint32_t region = regions.of(std::countr_zero(f), free);
          // A pattern tile next to the blank's region moves into it; its old cell
          // becomes the blank's, and the region is found afresh.
          for (int i = 0; i < k; ++i) {
            const int from = cells[std::size_t(i)];
            std::uint32_t targets = regions.neighbours(from) & region;
            while (targets) {
              const int to = std::countr_zero(targets);
              targets &= targets - 1;
              cells[std::size_t(i)] = std::uint8_t(to);
              const std::uint32_t free2 = (free | (1u << from)) & ~(1u << to);
              const std::uint64_t e2 = state_of(placement_rank(cells.data(), k, n), free2, from);
              __builtin_prefetch(seen.words() + e2 / TwoBitTable::kPerWord, 1);
              std::uint64_t& slot = pending[queued++ % kInFlight];
              if (queued > kInFlight) settle(slot);
              slot = e2;
            }
            cells[std::size_t(i)] = std::uint8_t(from);
          }
        }
      }
      for (std::size_t i = queued > kInFlight ? queued - kInFlight : 0; i < queued; ++i) settle(pending[i % kInFlight]);
      if (mine) claimed.local() += mine;
    });
    const std::uint64_t added = claimed.combine(std::plus<>());
    if (added == 0) break;
    // The frontier becomes old and the next level the frontier, all in one pass of
    // word operations: per entry (hi, lo), 01 -> 11, 10 -> 01, 11 and 00 stay.
    for_each_chunk(seen.word_count(), kWordGrain * 64, [&](const auto& range) {
      std::uint64_t* words = seen.words();
      for (std::size_t w = range.begin(); w != range.end(); ++w) {
        const std::uint64_t lo = words[w] & kEvenBits, hi = (words[w] >> 1) & kEvenBits;
        words[w] = lo | hi | (lo << 1);
      }
    });
    total += added;
    if (progress) progress->level(depth + 1, added, total, bytes);
  }
  return PatternDatabase(tiles, std::move(values));
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
  for (const auto& g : p.groups) bytes += placements(t.cells(), int(g.size()));
  return bytes;
}

std::uint64_t partition_build_bytes(const Tiles& t, const Partition& p) {
  std::uint64_t extra = 0;
  for (const auto& g : p.groups) {
    const int k = int(g.size());
    extra = std::max(extra, TwoBitTable::bytes_for(placements(t.cells(), k) * std::uint64_t(t.cells() - k)));
  }
  return partition_table_bytes(t, p) + extra;
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
