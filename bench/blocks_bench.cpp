// Sliding-block files through the engines, each against a plain std::unordered_set
// BFS over the same moves in the same run:
//   BM_Blocks/klotski/levels            the whole `analyze` of Klotski as the CLI runs
//                                       it: sorted levels of packed words, layers,
//                                       farthest, layer edges, the goal view;
//   BM_Blocks/klotski/explicit          the same facts by the explicit engine (CSR graph);
//   BM_Blocks/klotski/std-unordered-set the reachable set alone, plain BFS;
//   BM_Blocks/klotski-6x4/levels        the whole analysis of a 9,724,992-position
//                                       puzzle (bench/data) by sorted levels;
//   BM_Blocks/klotski-6x4/hashed        discover() with the explicit engine's visited set;
//   BM_Blocks/klotski-6x4/std-unordered-set  the same closure, plain BFS.
// items_per_second: positions per second; the `positions` counter is the bench's
// signature (a changed count is a bug).
#include <benchmark/benchmark.h>

#include <vector>

#include "analysis/analyze.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
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

// The whole analysis of `file` by `analyse`, one engine's entry point.
template <class Analyse>
void bm_analysis(benchmark::State& state, const char* file, Analyse analyse) {
  const Blocks p = load(file);
  AnalyzeOptions o;
  o.progress = false;
  std::size_t positions = 0;
  for (auto _ : state) {
    const AnalysisResult r = analyse(p, o);
    positions = r.states;
    benchmark::DoNotOptimize(r.goal);
  }
  finish(state, positions);
}
const auto by_levels = [](const Blocks& p, const AnalyzeOptions& o) { return analyze_levels(p, o); };
const auto by_graph = [](const Blocks& p, const AnalyzeOptions& o) { return analyze_explicit(p, o).result; };

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

BENCHMARK_CAPTURE(bm_analysis, klotski_levels, kKlotski, by_levels)
    ->Name("BM_Blocks/klotski/levels")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(1.0);
BENCHMARK_CAPTURE(bm_analysis, klotski_graph, kKlotski, by_graph)
    ->Name("BM_Blocks/klotski/explicit")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);
BENCHMARK_CAPTURE(bm_std, klotski, kKlotski)
    ->Name("BM_Blocks/klotski/std-unordered-set")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);
BENCHMARK_CAPTURE(bm_analysis, large_levels, kLarge, by_levels)
    ->Name("BM_Blocks/klotski-6x4/levels")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
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
