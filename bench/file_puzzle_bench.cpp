// BM_Cube2HalfTurn/<set>: the 2x2x2 cube's whole space in the half-turn metric
// (examples/puzzles/cube2.toml, 3,674,160 positions, 33 M successors), breadth first
// from the goal with the engine's hashed visited set (absl, what `analyze` runs for
// permutation files) and with a plain std::unordered_set over the same states and
// moves, in the same run. items_per_second: positions per second.
#include <benchmark/benchmark.h>

#include <vector>

#include "analysis/explicit_space.hpp"
#include "bench/plain_bfs.hpp"
#include "core/lookup.hpp"
#include "puzzles/puzzle_file.hpp"

namespace statespace {
namespace {

using State = CellPermutation::State;

CellPermutation cube2() {
  return std::get<CellPermutation>(*make_file_puzzle(STATESPACE_SOURCE_DIR "/examples/puzzles/cube2.toml"));
}

void bm_engine(benchmark::State& state) {
  const auto p = cube2();
  std::size_t positions = 0;
  for (auto _ : state) {
    HashedLookup<State> visited(3'674'160);
    const auto d = discover(p, p.goal(), visited);
    positions = d.order.size();
    benchmark::DoNotOptimize(d.order.data());
  }
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

void bm_std(benchmark::State& state) {
  const auto p = cube2();
  std::size_t positions = 0;
  for (auto _ : state) positions = plain_unordered_set_bfs(p);
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

BENCHMARK(bm_engine)->Name("BM_Cube2HalfTurn/hashed")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(bm_std)->Name("BM_Cube2HalfTurn/std-unordered-set")->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace statespace
