// BM_Query/<board>: one query as `statespace query` answers it: a position's exact
// distance to the goal (the walk along the two-bit codes) and every move's distance
// after it, on a table mapped from disk. The table is built once by the implicit
// engine (tiles:3x4: 239.5 M positions, 60 MB, about half a minute on two cores)
// and written to the temp folder; each iteration then answers 10,000 random
// positions of the goal's class, and the counters give the median and the 99th
// percentile of one query in microseconds.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "analysis/tables/table_probe.hpp"
#include "reports/table_file.hpp"

namespace statespace {
namespace {

constexpr int kQueries = 10'000;

std::filesystem::path table_for(const Tiles& p) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("statespace-bench-" + std::to_string(p.rows()) + "x" + std::to_string(p.cols()) + ".table");
  AnalyzeOptions o;
  o.progress = false;
  o.table = true;
  const AnalysisResult r = implicit_run(p, p.goal(), o, implicit_options(o));
  reports::write_goal_table(path, *r.table);
  return path;
}

void BM_Query(benchmark::State& state) {
  const Tiles p(int(state.range(0)), int(state.range(1)));
  const auto path = table_for(p);
  const GoalTableFile table = GoalTableFile::open(path);
  const TableProbe<Tiles> probe(p, table);
  const TileIndex index(p.rows(), p.cols());
  const unsigned cls = index.class_of(p.goal());
  std::mt19937_64 rng(20261127);
  std::vector<Board> positions;
  for (int i = 0; i < kQueries; ++i) positions.push_back(index.class_unrank(rng() % index.class_size(), cls));
  std::vector<double> micros(positions.size());
  std::uint64_t distances = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const TableEntry e = probe.entry(positions[i]);
      const auto moves = probe.moves(positions[i], e);
      benchmark::DoNotOptimize(moves.data());
      micros[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      distances += e.distance;
    }
  }
  std::sort(micros.begin(), micros.end());
  state.counters["median_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[micros.size() * 99 / 100];
  state.counters["mean_distance"] = double(distances) / double(state.iterations() * positions.size());
  state.SetItemsProcessed(std::int64_t(state.iterations()) * kQueries);
  std::filesystem::remove(path);
}
BENCHMARK(BM_Query)->Args({3, 3})->Args({3, 4})->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace statespace
