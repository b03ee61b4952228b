// BM_Cube2HalfTurn/<engine>: the 2x2x2 cube's whole space in the half-turn metric
// (examples/puzzles/cube2.toml, 3,674,160 positions, 33 M successors), breadth first
// from the goal:
//   levels             the sorted-levels engine over 64-bit words (what `analyze` runs)
//   hashed             discover() with the absl hash set over 32-byte states
//   std-unordered-set  a plain std::unordered_set BFS over the same states and moves
// items_per_second: positions per second. BM_Cube2HalfTurn/levels-over-std times
// levels and std-unordered-set in alternation within one benchmark, so the machine's
// drift cancels out of their ratio (counter `speedup`, target >= 10).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"
#include "bench/plain_bfs.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"

namespace statespace {
namespace {

using State = CellPermutation::State;
constexpr std::uint64_t kCube2Positions = 3'674'160;

// The sticker model (the loader would run the file on its pieces).
CellPermutation cube2() { return CellPermutation(TomlInput(STATESPACE_SOURCE_DIR "/examples/puzzles/cube2.toml")); }

std::uint64_t levels_once(const CellPermutation& p) {
  const auto packing = *p.packing(p.goal());
  const auto r = sorted_levels_bfs(packing, p.goal(), p.name(), MemoryBudget());
  benchmark::DoNotOptimize(r.farthest.data());
  return r.states();
}

std::uint64_t std_once(const CellPermutation& p) { return plain_unordered_set_bfs(p); }

std::uint64_t hashed_once(const CellPermutation& p) {
  HashedLookup<State> visited(kCube2Positions);
  const auto d = discover(p, p.goal(), visited);
  benchmark::DoNotOptimize(d.order.data());
  return d.order.size();
}

template <std::uint64_t (*Run)(const CellPermutation&)>
void bm_run(benchmark::State& state) {
  const auto p = cube2();
  std::uint64_t positions = 0;
  for (auto _ : state) positions = Run(p);
  if (positions != kCube2Positions) state.SkipWithError("wrong number of positions");
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void bm_levels_over_std(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const auto p = cube2();
  std::vector<double> seconds[2];
  for (auto _ : state) {
    for (int round = 0; round < 3; ++round) {
      for (int k : {round % 2, 1 - round % 2}) {
        const auto t0 = Clock::now();
        const std::uint64_t n = k == 0 ? levels_once(p) : std_once(p);
        seconds[k].push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        if (n != kCube2Positions) state.SkipWithError("wrong number of positions");
      }
    }
  }
  state.counters["levels_ms"] = 1e3 * median(seconds[0]);
  state.counters["std_ms"] = 1e3 * median(seconds[1]);
  state.counters["speedup"] = median(seconds[1]) / median(seconds[0]);
  state.counters["levels_positions_per_s"] = double(kCube2Positions) / median(seconds[0]);
}

BENCHMARK(bm_run<levels_once>)->Name("BM_Cube2HalfTurn/levels")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_run<hashed_once>)->Name("BM_Cube2HalfTurn/hashed")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_run<std_once>)
    ->Name("BM_Cube2HalfTurn/std-unordered-set")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(bm_levels_over_std)
    ->Name("BM_Cube2HalfTurn/levels-over-std")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace statespace
