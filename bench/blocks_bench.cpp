// Sliding-block files through the engine, each against a plain std::unordered_set
// BFS over the same moves in the same run:
//   BM_Blocks/klotski/analysis          the whole `analyze` of Klotski (enumeration,
//                                       CSR graph, BFS, farthest, layer edges, goal view);
//   BM_Blocks/klotski/std-unordered-set the reachable set alone, plain BFS;
//   BM_Blocks/klotski-6x4/hashed        discover() with the engine's visited set on a
//                                       9,724,992-position puzzle (bench/data);
//   BM_Blocks/klotski-6x4/std-unordered-set  the same closure, plain BFS.
// items_per_second: positions per second; the `positions` counter is the bench's
// signature (a changed count is a bug).
#include <benchmark/benchmark.h>

#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/explicit_space.hpp"
#include "bench/plain_bfs.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"

namespace statespace {
namespace {

using State = Blocks::State;

Blocks load(const char* file) { return std::get<Blocks>(*make_file_puzzle(file)); }
const char* const kKlotski = STATESPACE_SOURCE_DIR "/examples/puzzles/klotski.toml";
const char* const kLarge = STATESPACE_SOURCE_DIR "/bench/data/klotski-6x4.toml";

void finish(benchmark::State& state, std::size_t positions) {
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

void bm_klotski_analysis(benchmark::State& state) {
  const Blocks p = load(kKlotski);
  AnalyzeOptions o;
  o.progress = false;
  std::size_t positions = 0;
  for (auto _ : state) {
    const auto run = analyze_explicit(p, o);
    positions = run.result.states;
    benchmark::DoNotOptimize(run.result.goal);
  }
  finish(state, positions);
}

void bm_std(benchmark::State& state, const char* file) {
  const Blocks p = load(file);
  std::size_t positions = 0;
  for (auto _ : state) positions = plain_unordered_set_bfs(p);
  finish(state, positions);
}

void bm_hashed(benchmark::State& state, const char* file) {
  const Blocks p = load(file);
  std::size_t positions = 0;
  for (auto _ : state) {
    HashedLookup<State> visited;
    const auto d = discover(p, p.goal(), visited);
    positions = d.order.size();
    benchmark::DoNotOptimize(d.order.data());
  }
  finish(state, positions);
}

BENCHMARK(bm_klotski_analysis)->Name("BM_Blocks/klotski/analysis")->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_CAPTURE(bm_std, klotski, kKlotski)
    ->Name("BM_Blocks/klotski/std-unordered-set")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);
BENCHMARK_CAPTURE(bm_hashed, large, kLarge)
    ->Name("BM_Blocks/klotski-6x4/hashed")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(bm_std, large, kLarge)
    ->Name("BM_Blocks/klotski-6x4/std-unordered-set")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace statespace
