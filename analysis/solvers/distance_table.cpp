#include "analysis/solvers/distance_table.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <numeric>
#include <optional>

#include "analysis/engines/explicit/bfs.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "core/errors.hpp"

namespace statespace {

namespace {

constexpr std::uint64_t kBlock = std::uint64_t{1} << 16;  // ranks per parallel task
constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::size_t kInFlight = 16;  // prefetched successors awaiting their claim

// Calls f(i) for every i in [begin, end) with bytes[i] == value. Eight bytes at a
// time: words without such a byte (the classic "has zero byte" test on w ^ value)
// are skipped, the rest are checked byte by byte (the test may flag extra bytes).
template <class F>
void for_each_equal(const std::uint8_t* bytes, std::uint64_t begin, std::uint64_t end, std::uint8_t value, F&& f) {
  std::uint64_t i = begin;
  const std::uint64_t pattern = kOnes * value;
  for (; i + 8 <= end; i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes + i, 8);
    const std::uint64_t x = w ^ pattern;
    if (((x - kOnes) & ~x & (kOnes << 7)) == 0) continue;
    for (std::uint64_t k = i; k < i + 8; ++k) {
      if (bytes[k] == value) f(k);
    }
  }
  for (; i < end; ++i) {
    if (bytes[i] == value) f(i);
  }
}

std::vector<std::uint8_t> explicit_distances(const Tiles& t, const MemoryBudget& budget, Progress* progress) {
  const ExplicitSpace<Tiles> space = enumerate_explicit(t, t.goal(), budget, progress);
  const BfsResult bfs = parallel_bfs(space.graph, space.vertex_of(t.goal()), progress);
  std::vector<std::uint8_t> distance(t.rank_space(), DistanceTable::kUnreached);
  for (std::uint64_t v = 0; v < space.vertices(); ++v) distance[space.ranks[v]] = std::uint8_t(bfs.distance[v]);
  return distance;
}

// Unranks the ranks of one aligned block of k! consecutive ranks (k = min(n, 8))
// without divisions. Lexicographic ranks in such a block share their first n - k
// cells, and the block's first rank holds the other k values in ascending order, so
// one full unrank per block gives the prefix and the sorted remaining values; each
// rank's last k cells are then a precomputed pattern of indices into those values
// (k! patterns, 157 KiB for k = 8). Twelve 64-bit divisions per unrank otherwise
// dominate the BFS.
class BlockUnranker {
 public:
  explicit BlockUnranker(int n) : n_(n), k_(std::min(n, 8)), patterns_(kFactorial[std::size_t(k_)]) {
    for (std::uint64_t lo = 0; lo < patterns_.size(); ++lo)
      patterns_[lo] = std::uint32_t(permutation_unrank(lo, k_).bits);
  }
  [[nodiscard]] std::uint64_t block_size() const { return patterns_.size(); }

  struct Prefix {
    Board cells;  // the first n - k cells; the rest zero
    std::array<unsigned, 8> remaining{};
  };
  [[nodiscard]] Prefix prefix(std::uint64_t block) const {
    const Board first = permutation_unrank(block * block_size(), n_);
    Prefix p;
    for (int i = 0; i < n_ - k_; ++i) p.cells.set(i, first.at(i));
    for (int j = 0; j < k_; ++j) p.remaining[std::size_t(j)] = first.at(n_ - k_ + j);
    return p;
  }
  // The board of rank block * block_size() + lo.
  [[nodiscard]] Board at(const Prefix& p, std::uint64_t lo) const {
    Board b = p.cells;
    const std::uint32_t pattern = patterns_[lo];
    for (int j = 0; j < k_; ++j) b.set(n_ - k_ + j, p.remaining[(pattern >> (4 * j)) & 0xFu]);
    return b;
  }

 private:
  int n_;
  int k_;
  std::vector<std::uint32_t> patterns_;
};

// Level-synchronous BFS over the rank space, one parallel task per unranker block.
// The scan reads bytes plainly while other workers claim bytes from kUnreached to
// depth + 1; neither value equals the depth being scanned, so a stale read never
// changes which positions are expanded, and the compare-and-swap makes each claim
// (and each count) happen exactly once.
std::vector<std::uint8_t> rank_space_distances(const Tiles& t, Progress* progress) {
  const std::uint64_t n = t.rank_space();
  const BlockUnranker unranker(t.cells());
  const std::uint64_t blocks = n / unranker.block_size();
  std::vector<std::uint8_t> distance(n, DistanceTable::kUnreached);
  distance[t.rank(t.goal())] = 0;
  std::uint64_t total = 1;
  for (std::uint8_t depth = 0;; ++depth) {
    if (depth + 1 >= DistanceTable::kUnreached) throw std::length_error(t.name() + ": BFS depth exceeds 254");
    const auto next = std::uint8_t(depth + 1);
    tbb::combinable<std::uint64_t> claimed([] { return std::uint64_t{0}; });
    tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t block) {
      const std::uint64_t begin = block * unranker.block_size();
      std::optional<BlockUnranker::Prefix> prefix;
      std::uint64_t mine = 0;
      const auto claim = [&](std::uint64_t rank) {
        std::atomic_ref<std::uint8_t> d(distance[rank]);
        std::uint8_t expected = DistanceTable::kUnreached;
        if (d.load(std::memory_order_relaxed) == expected &&
            d.compare_exchange_strong(expected, next, std::memory_order_relaxed)) {
          ++mine;
        }
      };
      // Successor bytes are scattered over the table: prefetch each and claim it
      // kInFlight successors later, so that cache misses overlap.
      std::array<std::uint64_t, kInFlight> pending{};
      std::size_t queued = 0;
      for_each_equal(distance.data(), begin, begin + unranker.block_size(), depth, [&](std::uint64_t r) {
        if (!prefix) prefix = unranker.prefix(block);
        t.for_each_successor(unranker.at(*prefix, r - begin), [&](Board s) {
          const std::uint64_t rank = t.rank(s);
          __builtin_prefetch(distance.data() + rank, 1);
          std::uint64_t& slot = pending[queued++ % kInFlight];
          if (queued > kInFlight) claim(slot);
          slot = rank;
        });
      });
      for (std::size_t i = queued > kInFlight ? queued - kInFlight : 0; i < queued; ++i) claim(pending[i % kInFlight]);
      if (mine) claimed.local() += mine;
    });
    const std::uint64_t added = claimed.combine(std::plus<>());
    if (added == 0) break;
    total += added;
    if (progress) progress->level(next, added, total, n);
  }
  return distance;
}

}  // namespace

DistanceTable::DistanceTable(std::vector<std::uint8_t> distance, std::string engine)
    : distance_(std::move(distance)), engine_(std::move(engine)) {
  using Histogram = std::array<std::uint64_t, 256>;
  tbb::combinable<Histogram> local([] { return Histogram{}; });
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, distance_.size(), kBlock), [&](const auto& range) {
    Histogram& h = local.local();
    for (auto r = range.begin(); r != range.end(); ++r) ++h[distance_[r]];
  });
  Histogram h{};
  local.combine_each([&](const Histogram& part) {
    for (std::size_t d = 0; d < h.size(); ++d) h[d] += part[d];
  });
  std::size_t deepest = 0;
  for (std::size_t d = 0; d < kUnreached; ++d) {
    if (h[d]) deepest = d;
  }
  layers_.assign(h.begin(), h.begin() + std::ptrdiff_t(deepest + 1));
}

std::uint64_t DistanceTable::reachable() const {
  return std::accumulate(layers_.begin(), layers_.end(), std::uint64_t{0});
}

std::uint64_t DistanceTable::count_between(int lo, int hi) const {
  std::uint64_t n = 0;
  for (int d = std::max(lo, 0); d <= std::min(hi, max_distance()); ++d) n += layers_[std::size_t(d)];
  return n;
}

std::vector<std::uint64_t> DistanceTable::select(int lo, int hi, std::span<const std::uint64_t> ordinals) const {
  const auto in_range = [&](std::uint8_t d) { return d != kUnreached && int(d) >= lo && int(d) <= hi; };
  // Positions in range per block, then prefix sums: block b holds ordinals
  // [prefix[b], prefix[b + 1]).
  const std::uint64_t blocks = (distance_.size() + kBlock - 1) / kBlock;
  std::vector<std::uint64_t> prefix(blocks + 1, 0);
  tbb::parallel_for(std::uint64_t{0}, blocks, [&](std::uint64_t b) {
    const std::uint64_t end = std::min(distance_.size(), (b + 1) * kBlock);
    std::uint64_t c = 0;
    for (std::uint64_t r = b * kBlock; r < end; ++r) c += in_range(distance_[r]);
    prefix[b + 1] = c;
  });
  std::partial_sum(prefix.begin(), prefix.end(), prefix.begin());
  for (auto k : ordinals) {
    if (k >= prefix.back()) throw std::out_of_range("DistanceTable::select: ordinal out of range");
  }
  // Each ordinal is found by one scan of its block; sorting them first lets ordinals
  // that share a block share the scan.
  std::vector<std::size_t> order(ordinals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ordinals[a] < ordinals[b]; });
  std::vector<std::uint64_t> ranks(ordinals.size());
  std::size_t i = 0;
  while (i < order.size()) {
    const std::uint64_t b =
        std::uint64_t(std::upper_bound(prefix.begin(), prefix.end(), ordinals[order[i]]) - prefix.begin()) - 1;
    std::uint64_t seen = prefix[b];
    for (std::uint64_t r = b * kBlock; i < order.size() && ordinals[order[i]] < prefix[b + 1]; ++r) {
      if (!in_range(distance_[r])) continue;
      while (i < order.size() && ordinals[order[i]] == seen) ranks[order[i++]] = r;
      ++seen;
    }
  }
  return ranks;
}

bool distance_table_supported(const Tiles& t) { return t.cells() <= DistanceTable::kMaxCells; }

std::uint64_t distance_table_bytes(const Tiles& t, TableEngine engine) {
  const std::uint64_t table = t.rank_space();
  if (engine == TableEngine::kRankSpace) return table;
  const std::uint64_t v = t.reachable_bound();
  return table + explicit_bytes(t.rank_space(), v, v * Tiles::kMaxMoves);
}

DistanceTable build_distance_table(const Tiles& t, const MemoryBudget& budget, TableEngine engine, Progress* progress) {
  if (!distance_table_supported(t)) {
    throw UsageError(t.name() + ": no exact distance table (" + std::to_string(t.rank_space()) +
                     " positions; tables exist for boards of up to " + std::to_string(DistanceTable::kMaxCells) +
                     " cells: tiles:3x4, tiles:2x6 and smaller)");
  }
  budget.require(distance_table_bytes(t, engine), t.name() + ": distance table");
  if (engine == TableEngine::kExplicit) return DistanceTable(explicit_distances(t, budget, progress), "explicit");
  return DistanceTable(rank_space_distances(t, progress), "rank-space");
}

}  // namespace statespace
