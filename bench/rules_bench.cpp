// Rules files through the engines, each against a plain std::unordered_set BFS over
// the same rules in the same run:
//   BM_Rules/lights-out-5x5/levels             the whole analysis of Lights Out's
//                                              8,388,608 positions by sorted levels
//                                              of packed words (25 bits a position);
//   BM_Rules/lights-out-5x5/std-unordered-set  the reachable set alone, plain BFS
//                                              over the byte states;
//   BM_Rules/peg-english/word-successors       the packing's successors of the
//                                              positions six jumps into English peg
//                                              solitaire: one mask test per rule
//                                              instance (76 of them).
// items_per_second: positions per second; the `positions` counter is the bench's
// signature (a changed count is a bug).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "bench/plain_bfs.hpp"
#include "puzzles/puzzle_file.hpp"

namespace statespace {
namespace {

Rules load(const char* file) { return std::get<Rules>(*make_file_puzzle(file)); }
const char* const kLightsOut = STATESPACE_SOURCE_DIR "/examples/puzzles/lights-out-5x5.toml";
const char* const kPeg = STATESPACE_SOURCE_DIR "/examples/puzzles/peg-english.toml";

void finish(benchmark::State& state, std::size_t positions) {
  state.counters["positions"] = double(positions);
  state.SetItemsProcessed(std::int64_t(state.iterations() * positions));
}

void bm_levels(benchmark::State& state) {
  const Rules p = load(kLightsOut);
  AnalyzeOptions o;
  o.progress = false;
  std::size_t positions = 0;
  for (auto _ : state) {
    const AnalysisResult r = analyze_levels(p, o, p.start(), *p.packing(p.start()));
    positions = r.states;
    benchmark::DoNotOptimize(r.layers.data());
  }
  finish(state, positions);
}

void bm_std(benchmark::State& state) {
  const Rules p = load(kLightsOut);
  std::size_t positions = 0;
  for (auto _ : state) positions = plain_unordered_set_bfs(p);
  finish(state, positions);
}

void bm_word_successors(benchmark::State& state) {
  const Rules p = load(kPeg);
  const RulesPacking k = *p.packing(p.start());
  std::vector<std::uint64_t> level{k.pack(p.start())}, out(std::size_t(k.moves()));
  for (int jump = 0; jump < 6; ++jump) {
    std::vector<std::uint64_t> next;
    for (const auto w : level) next.insert(next.end(), out.begin(), out.begin() + k.successors(w, out.data()));
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    level = std::move(next);
  }
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const auto w : level) sum += std::uint64_t(k.successors(w, out.data()));
    benchmark::DoNotOptimize(sum);
  }
  finish(state, level.size());
}

BENCHMARK(bm_levels)->Name("BM_Rules/lights-out-5x5/levels")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_std)->Name("BM_Rules/lights-out-5x5/std-unordered-set")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_word_successors)->Name("BM_Rules/peg-english/word-successors")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace statespace
