// Peg solitaire by jumps (bench/peg_solitaire.hpp: one word a position, a directed,
// graded space), each engine against a plain std::unordered_set BFS over the same
// jumps in the same run:
//   BM_Peg/<board>/levels             the whole analysis by sorted levels: every level
//                                     kept, the distance to the goal by predecessors,
//                                     the dead ends;
//   BM_Peg/<board>/levels-forward     the forward search alone;
//   BM_Peg/<board>/std-unordered-set  the reachable set alone, plain BFS.
// The board: a 5x5 square, centre empty (1,183,924 positions). The whole English
// board (187,636,299 positions) is bench/peg_english.cpp.
// items_per_second: positions per second; `positions` is the bench's signature.
#include <benchmark/benchmark.h>

#include "analysis/engines/levels/analyze_levels.hpp"
#include "bench/peg_solitaire.hpp"
#include "bench/plain_bfs.hpp"

namespace statespace {
namespace {

PegSolitaire square() { return PegSolitaire("square5", {"OOOOO", "OOOOO", "OO.OO", "OOOOO", "OOOOO"}, 1, 12); }

void finish(benchmark::State& state, std::size_t positions) {
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

void bm_levels(benchmark::State& state, PegSolitaire (*board)()) {
  const PegSolitaire p = board();
  AnalyzeOptions o;
  o.progress = false;
  std::size_t positions = 0;
  for (auto _ : state) {
    const AnalysisResult r = analyze_levels(p, o);
    positions = r.states;
    benchmark::DoNotOptimize(r.goal);
  }
  finish(state, positions);
}

void bm_forward(benchmark::State& state, PegSolitaire (*board)()) {
  const PegSolitaire p = board();
  const auto packing = p.packing(p.goal());
  std::size_t positions = 0;
  for (auto _ : state) {
    const auto r = sorted_levels_bfs(*packing, p.goal(), p.name(), MemoryBudget(), nullptr, SortedLevelsMode{true});
    positions = r.states();
  }
  finish(state, positions);
}

void bm_std(benchmark::State& state, PegSolitaire (*board)()) {
  const PegSolitaire p = board();
  std::size_t positions = 0;
  for (auto _ : state) positions = plain_unordered_set_bfs(p);
  finish(state, positions);
}

BENCHMARK_CAPTURE(bm_levels, square5 / levels, square)->Name("BM_Peg/square5/levels")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_forward, square5 / levels - forward, square)
    ->Name("BM_Peg/square5/levels-forward")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(bm_std, square5 / std, square)
    ->Name("BM_Peg/square5/std-unordered-set")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace statespace
