#include "analysis/pdb.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <ostream>
#include <sstream>

#include "analysis/level_bits.hpp"
#include "analysis/two_bit_table.hpp"
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

void check_tiles(const Tiles& t, const std::vector<int>& tiles) {
  if (tiles.empty() || int(tiles.size()) >= t.cells()) {
    throw UsageError(t.name() + ": a pattern holds 1 to " + std::to_string(t.cells() - 2) + " tiles");
  }
}

}  // namespace

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
  check_tiles(t, tiles);
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

// ---- the cache ----

namespace {

constexpr std::array<char, 8> kMagic = {'S', 'S', 'P', 'D', 'B', '\n', '\x1a', '\0'};
constexpr std::uint32_t kFormatVersion = 1;

// The file's first 64 bytes; the values follow.
struct Header {
  std::array<char, 8> magic{};
  std::uint32_t version = 0;
  std::uint32_t rows = 0;
  std::uint32_t cols = 0;
  std::uint32_t k = 0;
  std::array<std::uint8_t, 16> tiles{};
  std::uint64_t entries = 0;
  std::uint64_t checksum = 0;
  std::array<std::uint8_t, 8> reserved{};
};
static_assert(sizeof(Header) == 64);

Header header_for(const Tiles& t, const std::vector<int>& tiles) {
  Header h;
  h.magic = kMagic;
  h.version = kFormatVersion;
  h.rows = std::uint32_t(t.rows());
  h.cols = std::uint32_t(t.cols());
  h.k = std::uint32_t(tiles.size());
  for (std::size_t i = 0; i < tiles.size(); ++i) h.tiles[i] = std::uint8_t(tiles[i]);
  h.entries = placements(t.cells(), int(tiles.size()));
  return h;
}

// 64-bit checksum of the values: a multiply-xorshift hash per 1 MiB block, the block
// hashes combined in order, so it runs in parallel and gives the same number.
std::uint64_t checksum(const std::uint8_t* data, std::uint64_t size) {
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
  const std::uint64_t blocks = (size + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> part(blocks);
  const auto mix = [](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
  };
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t begin = b * kBlock;
    const std::uint64_t end = std::min(size, begin + kBlock);
    std::uint64_t h = 0x243F6A8885A308D3ULL ^ b;
    std::uint64_t i = begin;
    for (; i + 8 <= end; i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, data + i, 8);
      h = mix(h, w);
    }
    for (; i < end; ++i) h = mix(h, data[i]);
    part[b] = h;
  });
  std::uint64_t h = size;
  for (const auto p : part) h = mix(h, p);
  return h;
}

struct Mapping {
  std::shared_ptr<const std::uint8_t> base;  // the whole file
  std::uint64_t size = 0;
};

Mapping map_file(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < std::int64_t(sizeof(Header))) {
    ::close(fd);
    return {nullptr, st.st_size < 0 ? 0 : std::uint64_t(st.st_size)};
  }
  const auto size = std::uint64_t(st.st_size);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return {};
  std::shared_ptr<const std::uint8_t> base(static_cast<const std::uint8_t*>(p), [size](const std::uint8_t* q) {
    ::munmap(const_cast<std::uint8_t*>(q), size);
  });
  return {std::move(base), size};
}

// Why the mapped file cannot be used, or "" when it can.
std::string problem_of(const Mapping& m, const Tiles& t, const std::vector<int>& tiles) {
  if (!m.base) return m.size ? "shorter than its header" : "cannot be read";
  Header h;
  std::memcpy(&h, m.base.get(), sizeof h);
  const Header want = header_for(t, tiles);
  if (h.magic != kMagic) return "not a statespace pattern database";
  if (h.version != kFormatVersion) {
    return "format version " + std::to_string(h.version) + ", expected " + std::to_string(kFormatVersion) + " (stale)";
  }
  if (h.rows != want.rows || h.cols != want.cols || h.k != want.k || h.tiles != want.tiles) {
    return "holds another board or pattern";
  }
  if (h.entries != want.entries || m.size != sizeof(Header) + h.entries) return "truncated or padded";
  if (checksum(m.base.get() + sizeof(Header), h.entries) != h.checksum) return "checksum mismatch (corrupt)";
  return "";
}

void save(const std::filesystem::path& file, const Tiles& t, const PatternDatabase& db) {
  Header h = header_for(t, db.tiles());
  h.checksum = checksum(db.data(), db.entries());
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path tmp = file.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(db.data()), std::streamsize(db.entries()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw std::runtime_error("cannot write " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace

std::filesystem::path default_pdb_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "statespace";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".cache" / "statespace";
  }
  return std::filesystem::path(".statespace-cache");
}

std::filesystem::path pdb_file(const std::filesystem::path& dir, const Tiles& t, const std::vector<int>& tiles) {
  std::string name = "tiles" + std::to_string(t.rows()) + "x" + std::to_string(t.cols()) + "-p";
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (i) name += '.';
    name += std::to_string(tiles[i]);
  }
  return dir / (name + ".pdb");
}

std::string pdb_file_problem(const std::filesystem::path& file, const Tiles& t, const std::vector<int>& tiles) {
  return problem_of(map_file(file), t, tiles);
}

LoadedDatabase load_or_build(const Tiles& t, const std::vector<int>& tiles, const std::filesystem::path& dir,
                             std::ostream& log, bool show_progress) {
  check_tiles(t, tiles);
  const std::filesystem::path file = pdb_file(dir, t, tiles);
  const Progress clock("", false);
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    Mapping m = map_file(file);
    const std::string problem = problem_of(m, t, tiles);
    if (problem.empty()) {
      std::shared_ptr<const std::uint8_t> values(m.base, m.base.get() + sizeof(Header));
      return {PatternDatabase(tiles, std::move(values), placements(t.cells(), int(tiles.size()))), false,
              clock.seconds()};
    }
    log << "statespace: warning: " << file.string() << ": " << problem << "; rebuilding it\n";
  }
  std::string label = t.name() + " pattern";
  for (const int v : tiles) {
    label += ' ';
    label += std::to_string(v);
  }
  Progress progress(label, show_progress);
  PatternDatabase db = build_pattern_database(t, tiles, &progress);
  try {
    save(file, t, db);
  } catch (const std::exception& e) {
    log << "statespace: warning: pattern database not cached in " << dir.string() << ": " << e.what() << "\n";
  }
  return {std::move(db), true, clock.seconds()};
}

}  // namespace statespace
