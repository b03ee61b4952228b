// BM_Cube2HalfTurn/<set>: the 2x2x2 cube's whole space in the half-turn metric
// (examples/puzzles/cube2.toml, 3,674,160 positions, 33 M successors), breadth first
// from the goal with the engine's hashed visited set (absl, what `analyze` runs for
// permutation files) and with a plain std::unordered_set over the same states and
// moves, in the same run. items_per_second: positions per second.
#include <benchmark/benchmark.h>

#include <unordered_set>
#include <vector>

#include "analysis/explicit_space.hpp"
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
  for (auto _ : state) {
    std::unordered_set<State, absl::Hash<State>> seen{p.goal()};
    std::vector<State> queue{p.goal()};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const State from = queue[i];  // the callback grows the queue, which may move its elements
      p.for_each_successor(from, [&](const State& s) {
        if (seen.insert(s).second) queue.push_back(s);
      });
    }
    positions = queue.size();
    benchmark::DoNotOptimize(queue.data());
  }
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

BENCHMARK(bm_engine)->Name("BM_Cube2HalfTurn/hashed")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(bm_std)->Name("BM_Cube2HalfTurn/std-unordered-set")->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace statespace
