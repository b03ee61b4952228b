// BM_RankedOverLevels/<puzzle>: the ranked engine (bitsets over the rank space) and
// the sorted-levels engine over the same model's ranks (RankPacked: the word of a
// position is its rank), timed in alternation within one benchmark so the machine's
// drift cancels out of their ratio. Both make successors the same way (unrank,
// successors, rank), so the ratio is what testing bits saves over sorting and
// merging levels. Counters: ranked_ms, levels_ms (medians of 3 each per iteration),
// speedup = levels / ranked, and the positions (a changed count is a bug).
//   grid3x3   examples/puzzles/grid3x3.toml, the 8-puzzle as a graph file: 181,440
//             positions in a rank space of 362,880
//   tiles2x5  the built-in tiles:2x5: 1,814,400 positions in 3,628,800 ranks
//   cube2     examples/puzzles/cube2.tws, the 2x2x2 cube as 7 ranked corners:
//             3,674,160 positions in as many ranks; both engines take the
//             successors' ranks from the model's coordinate tables
//
// BM_RankedPull/3p1-small: the ranked engine on bench/data/3p1-small.tws
// (53,747,712 positions, 18 moves; identical pieces make self-loops, so the space is
// uniform but not regular), finding its late levels backwards (pulled) against
// expanding every level forward (the model's uniformity hidden), alternated within
// the benchmark. Counters: pulled_ms, forward_ms (medians of 3), speedup.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "analysis/engines/ranked/rank_packing.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "puzzles/pieces.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "puzzles/tws_file.hpp"

namespace statespace {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// `levels` runs the sorted-levels engine on the same model from the same start.
template <class P, class Levels>
void ranked_over_levels(benchmark::State& state, const P& p, std::uint64_t positions, const Levels& levels) {
  using Clock = std::chrono::steady_clock;
  AnalyzeOptions o;
  o.progress = false;
  const auto start = p.goal();
  std::vector<double> seconds[2];
  for (auto _ : state) {
    for (int round = 0; round < 3; ++round) {
      for (int k : {round % 2, 1 - round % 2}) {
        const auto t0 = Clock::now();
        const AnalysisResult r = k == 0 ? analyze_ranked(p, o, start) : levels(o, start);
        seconds[k].push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        benchmark::DoNotOptimize(r.farthest.data());
        if (r.states != positions) state.SkipWithError("wrong number of positions");
      }
    }
  }
  state.counters["ranked_ms"] = 1e3 * median_of(seconds[0]);
  state.counters["levels_ms"] = 1e3 * median_of(seconds[1]);
  state.counters["speedup"] = median_of(seconds[1]) / median_of(seconds[0]);
  state.counters["positions"] = double(positions);
}

// The levels engine over p's ranks as words (RankPacked): successors by unrank,
// moves, rank, as the ranked engine makes them for a model without rank moves.
template <class P>
void over_rank_words(benchmark::State& state, const P& p, std::uint64_t positions) {
  const RankPacked<P> packed(p);
  const auto packing = *packed.packing(p.goal());
  ranked_over_levels(state, p, positions, [&](const AnalyzeOptions& o, const typename P::State& start) {
    return analyze_levels(packed, o, start, packing);
  });
}

void bm_grid3x3(benchmark::State& state) {
  const auto p = std::get<GraphTokens>(*make_file_puzzle(STATESPACE_SOURCE_DIR "/examples/puzzles/grid3x3.toml"));
  over_rank_words(state, p, 181'440);
}

void bm_tiles2x5(benchmark::State& state) { over_rank_words(state, Tiles(2, 5), 1'814'400); }

// The piece model packs its positions as their ranks itself.
void bm_cube2(benchmark::State& state) {
  const Pieces p = load_tws(STATESPACE_SOURCE_DIR "/examples/puzzles/cube2.tws");
  const auto packing = *p.packing(p.goal());
  ranked_over_levels(state, p, 3'674'160, [&](const AnalyzeOptions& o, const PieceState& start) {
    return analyze_levels(p, o, start, packing);
  });
}

// A uniform model with its uniformity hidden: every level is expanded forward.
struct ExpandsForward : Pieces {
  explicit ExpandsForward(const Pieces& p) : Pieces(p) {}
  [[nodiscard]] bool regular() const { return false; }
  [[nodiscard]] bool uniform() const { return false; }
};

void bm_pull(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const Pieces p = load_tws(STATESPACE_SOURCE_DIR "/bench/data/3p1-small.tws");
  const ExpandsForward forward(p);
  AnalyzeOptions o;
  o.progress = false;
  std::vector<double> seconds[2];
  for (auto _ : state) {
    for (int round = 0; round < 3; ++round) {
      for (int k : {round % 2, 1 - round % 2}) {
        const auto t0 = Clock::now();
        const AnalysisResult r = k == 0 ? analyze_ranked(p, o) : analyze_ranked(forward, o);
        seconds[k].push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        benchmark::DoNotOptimize(r.farthest.data());
        if (r.states != 53'747'712) state.SkipWithError("wrong number of positions");
      }
    }
  }
  state.counters["pulled_ms"] = 1e3 * median_of(seconds[0]);
  state.counters["forward_ms"] = 1e3 * median_of(seconds[1]);
  state.counters["speedup"] = median_of(seconds[1]) / median_of(seconds[0]);
}

BENCHMARK(bm_grid3x3)->Name("BM_RankedOverLevels/grid3x3")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(bm_tiles2x5)->Name("BM_RankedOverLevels/tiles2x5")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(bm_cube2)->Name("BM_RankedOverLevels/cube2")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(bm_pull)->Name("BM_RankedPull/3p1-small")->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace statespace
