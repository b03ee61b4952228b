// BM_Lookup/<lookup>/<size>: the visited set alone, without successor generation.
// Per iteration: an empty set, `size` inserts of distinct states in random order,
// then `size` finds that hit and `size` that miss. items_per_second counts those
// 3 x size lookups. The states are random 2x5 sliding-tile positions (ranks drawn
// from 10!), so the ranked set is the 450 KB bitset of tiles:2x5, allocated and
// cleared each iteration like every other strategy's table.
//
// Sizes 2^10 .. 2^20; the linear scans stop at 2^14 (their cost grows with
// size^2: 2^17 would already be 2.6e10 comparisons per iteration).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/lookup.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {
namespace {

struct Keys {
  std::vector<Board> present;
  std::vector<Board> absent;
};

// 2 x size distinct positions of `p`, fixed seed: the first half to insert.
Keys make_keys(const Tiles& p, std::size_t size) {
  std::mt19937_64 rng(20240611);
  std::unordered_set<std::uint64_t> ranks;
  Keys k;
  while (ranks.size() < 2 * size) {
    const std::uint64_t r = rng() % p.rank_space();
    if (!ranks.insert(r).second) continue;
    (ranks.size() <= size ? k.present : k.absent).push_back(p.unrank(r));
  }
  return k;
}

void bm_lookup(benchmark::State& state, LookupKind kind) {
  const Tiles p(2, 5);
  const auto size = std::size_t(state.range(0));
  const Keys keys = make_keys(p, size);
  LookupStats stats;
  for (auto _ : state) {
    with_lookup(
        kind, p,
        [&](auto& set) {
          for (const Board b : keys.present) benchmark::DoNotOptimize(set.insert(b));
          for (const Board b : keys.present) benchmark::DoNotOptimize(set.contains(b));
          for (const Board b : keys.absent) benchmark::DoNotOptimize(set.contains(b));
          stats = set.stats();
        },
        size);
  }
  state.counters["lookups"] = double(stats.lookups);
  state.counters["comparisons"] = double(stats.comparisons);
  state.SetItemsProcessed(std::int64_t(state.iterations() * 3 * size));
}

int register_all() {
  for (const auto kind : kLookupKinds) {
    const std::string name = "BM_Lookup/" + std::string(lookup_name(kind));
    auto* b = benchmark::RegisterBenchmark(name.c_str(), bm_lookup, kind);
    for (const int size : {1 << 10, 1 << 12, 1 << 14, 1 << 17, 1 << 20}) {
      if (!counts_comparisons(kind) || size <= 1 << 14) b->Arg(size);
    }
    b->Unit(benchmark::kMicrosecond);
  }
  return 0;
}

[[maybe_unused]] const int kRegistered = register_all();

}  // namespace
}  // namespace statespace
