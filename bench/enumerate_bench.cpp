// BM_Enumerate/<puzzle>/<lookup>: the full enumeration of a puzzle's reachable
// set from its goal, once per visited-set strategy: linear vs hashed vs ranked
// (seed 003 promised faster lookups than its linear scan; this measures how much).
//
//   linear, linear-sentinel, hashed, std-hashed, ranked-serial
//       discover() (analysis/engines/explicit/explicit_space.hpp): one sequential BFS loop, the
//       same sequence of lookups for every strategy, so only the lookup differs;
//   ranked
//       enumerate_ranked() (analysis/engines/explicit/ranked_enumerate.hpp): what
//       `analyze --lookup ranked` runs, level-synchronous over all cores.
//
// BM_RankedOverHashed/<puzzle>: the issue's "ranked at least 5x faster than
// absl::flat_hash_set" as one paired measurement. This machine's speed drifts by
// 2x within minutes (a shared VM), so medians of separate benchmarks taken minutes
// apart can put that ratio anywhere from 3 to 7. Here each iteration runs both, in
// alternating order, and the counter `speedup` is the ratio of their medians.
//
// Counters (per enumeration): states, lookups, comparisons (linear variants only),
// and items_per_second = states per second. A changed count is a bug, as with
// Stockfish's bench signature. Wall-clock time throughout, because the ranked path
// is parallel.
//
// Skipped: linear and linear-sentinel on tiles:2x5. A scan costs one comparison per
// stored state, so an enumeration costs about lookups x states / 2 comparisons:
// 4.4e10 on tiles:3x3 (10-20 s, measured once per repetition), but 4.4e12 on
// tiles:2x5, over half an hour per run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/explicit/ranked_enumerate.hpp"
#include "core/lookup.hpp"
#include "puzzles/registry.hpp"

namespace statespace {
namespace {

struct Counts {
  std::uint64_t states = 0;
  std::uint64_t lookups = 0;
  std::uint64_t comparisons = 0;
};

template <Puzzle P>
Counts enumerate_once(const P& p, const std::string& lookup) {
  const auto run = [&](auto& set) {
    const auto d = discover(p, p.goal(), set);
    benchmark::DoNotOptimize(d.order.data());
    return Counts{d.order.size(), set.stats().lookups, set.stats().comparisons};
  };
  if constexpr (RankedPuzzle<P>) {
    if (lookup == "ranked") {
      const auto e = enumerate_ranked(p, p.goal());
      return {e.states(), e.lookups, 0};
    }
    if (lookup == "ranked-serial") {
      RankedLookup<P> set(p);
      return run(set);
    }
  }
  return with_lookup(lookup, p, run, reachable_bound(p));
}

// f(p) for the models register_all() names: a visit over every model of AnyPuzzle
// would compile discover() with every lookup for all of them (35 s of the build).
template <class F>
void visit_measured(const AnyPuzzle& any, F&& f) {
  std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, Oshidori> || std::is_same_v<P, NoOff> || std::is_same_v<P, Hex6> ||
                      std::is_same_v<P, Tiles>) {
          f(p);
        } else {
          throw std::logic_error("enumerate_bench: " + p.name() + " is not one of the measured models");
        }
      },
      any);
}

void bm_enumerate(benchmark::State& state, const AnyPuzzle& any, const std::string& lookup) {
  visit_measured(any, [&](const auto& p) {
    Counts c;
    for (auto _ : state) {
      c = enumerate_once(p, lookup);
      benchmark::ClobberMemory();
    }
    state.counters["states"] = double(c.states);
    state.counters["lookups"] = double(c.lookups);
    state.counters["comparisons"] = double(c.comparisons);
    state.SetItemsProcessed(std::int64_t(state.iterations() * c.states));
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bm_ranked_over_hashed(benchmark::State& state, const AnyPuzzle& any) {
  visit_measured(any, [&](const auto& p) {
    using Clock = std::chrono::steady_clock;
    std::vector<double> seconds[2];  // hashed, ranked
    const std::string names[2] = {"hashed", "ranked"};
    Counts c[2];
    int first = 0;  // alternates which of the two runs first
    for (auto _ : state) {
      first ^= 1;
      for (int k : {first, 1 - first}) {
        const auto t0 = Clock::now();
        c[k] = enumerate_once(p, names[k]);
        seconds[k].push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      }
      if (c[0].states != c[1].states) state.SkipWithError("hashed and ranked disagree on the state count");
    }
    state.counters["hashed_ms"] = 1e3 * median(seconds[0]);
    state.counters["ranked_ms"] = 1e3 * median(seconds[1]);
    state.counters["speedup"] = median(seconds[0]) / median(seconds[1]);
    state.counters["states"] = double(c[1].states);
  });
}

struct Case {
  std::string puzzle;
  std::vector<std::string> lookups;
};

const std::vector<std::string> kAll = {"linear", "linear-sentinel", "std-hashed", "hashed", "ranked-serial", "ranked"};
const std::vector<std::string> kNoLinear = {"std-hashed", "hashed", "ranked-serial", "ranked"};

int register_all() {
  const std::vector<Case> cases = {
      {"oshidori", kAll}, {"nooff", kAll}, {"hex6", kAll}, {"tiles:3x3", kAll}, {"tiles:2x5", kNoLinear}};
  for (const auto& c : cases) {
    const AnyPuzzle p = make_puzzle(c.puzzle);
    for (const auto& lookup : c.lookups) {
      auto* b =
          benchmark::RegisterBenchmark(("BM_Enumerate/" + c.puzzle + "/" + lookup).c_str(), bm_enumerate, p, lookup);
      b->Unit(benchmark::kMillisecond)->UseRealTime();
      // The quadratic scans on the 8-puzzle take 10-20 s: one iteration per repetition.
      if (c.puzzle == "tiles:3x3" && lookup.starts_with("linear")) b->Iterations(1);
    }
  }
  for (const char* puzzle : {"tiles:3x3", "tiles:2x5"}) {
    benchmark::RegisterBenchmark((std::string("BM_RankedOverHashed/") + puzzle).c_str(), bm_ranked_over_hashed,
                                 make_puzzle(puzzle))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(2.0);
  }
  return 0;
}

[[maybe_unused]] const int kRegistered = register_all();

}  // namespace
}  // namespace statespace
