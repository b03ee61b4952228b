// BM_Query/<board>: one query as `statespace query` answers it: a position's exact
// distance to the goal (the walk along the two-bit codes) and every move's distance
// after it, on a table mapped from disk. The table is built once by the implicit
// engine (tiles:3x4: 239.5 M positions, 60 MB, about half a minute on two cores)
// and written to the temp folder; each iteration then answers 10,000 random
// positions of the goal's class, and the counters give the median and the 99th
// percentile of one query in microseconds.
//
// BM_QueryFile/<file>: the same on a words table (sorted 64-bit words, a byte
// each, found by binary search) of a puzzle file: Klotski, and the English peg
// board with symmetry = "board" by single jumps (the levels engine) and by chain
// moves (the graded-chain engine): 23,475,688 classes a table, each built once
// (about 15 s each on two cores). The 10,000 positions are random entries of the
// table (dead ones included, most of peg solitaire's).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "analysis/engines/levels/analyze_chains.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/tables/table_probe.hpp"
#include "puzzles/puzzle_file.hpp"
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

// Times every position's query (its entry, then every move's) over the benchmark's
// iterations and sets the median and 99th percentile of one query in microseconds;
// `tally(entry, moves)` gives what the counter `name` averages per query.
template <class P, class Tally>
void time_queries(benchmark::State& state, const TableProbe<P>& probe, const std::vector<typename P::State>& positions,
                  const char* name, Tally tally) {
  std::vector<double> micros(positions.size());
  double total = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const TableEntry e = probe.entry(positions[i]);
      const auto moves = probe.moves(positions[i], e);
      benchmark::DoNotOptimize(moves.data());
      micros[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      total += tally(e, moves);
    }
  }
  std::sort(micros.begin(), micros.end());
  state.counters["median_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[micros.size() * 99 / 100];
  state.counters[name] = total / double(state.iterations() * positions.size());
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(positions.size()));
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
  time_queries(state, probe, positions, "mean_distance",
               [](const TableEntry& e, const auto&) { return double(e.distance); });
  std::filesystem::remove(path);
}
BENCHMARK(BM_Query)->Args({3, 3})->Args({3, 4})->Unit(benchmark::kMillisecond)->Iterations(3);

// A copy of an example file in the temp folder, with symmetry = "board" when asked
// (before the first [[rule]], where top-level keys go).
std::filesystem::path example_copy(const std::string& file, bool symmetric) {
  std::ifstream in(std::string(STATESPACE_SOURCE_DIR) + "/examples/puzzles/" + file);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  if (symmetric) s.insert(s.find("[[rule]]"), "symmetry = \"board\"\n\n");
  const auto path = std::filesystem::temp_directory_path() / ("statespace-bench-" + file);
  std::ofstream(path) << s;
  return path;
}

template <class P>
void query_words_table(benchmark::State& state, const P& p, const AnalysisResult& r) {
  const auto path = std::filesystem::temp_directory_path() / ("statespace-bench-" + p.name() + ".table");
  reports::write_goal_table(path, *r.table);
  const GoalTableFile table = GoalTableFile::open(path);
  const TableProbe<P> probe(p, table);
  const auto packing = p.packing(p.goal());  // the analysis's start: the table's words are its packing's
  std::mt19937_64 rng(20261127);
  std::vector<typename P::State> positions;
  for (int i = 0; i < kQueries; ++i) positions.push_back(packing->unpack(table.data()[rng() % table.header().entries]));
  time_queries(state, probe, positions, "mean_moves",
               [](const TableEntry&, const auto& moves) { return double(moves.size()); });
  std::filesystem::remove(path);
}

void BM_QueryKlotski(benchmark::State& state) {
  const Blocks p =
      std::get<Blocks>(*make_file_puzzle(std::string(STATESPACE_SOURCE_DIR) + "/examples/puzzles/klotski.toml"));
  AnalyzeOptions o;
  o.progress = false;
  o.table = true;
  query_words_table(state, p, analyze_levels(p, o));
}

void BM_QueryPeg(benchmark::State& state, const char* file) {
  const auto copy = example_copy(file, true);
  const Rules p = std::get<Rules>(*make_file_puzzle(copy.string()));
  AnalyzeOptions o;
  o.progress = false;
  o.table = true;
  const auto packing = p.packing(p.goal());
  const AnalysisResult r =
      packing->chain_graded() ? analyze_graded_chains(p, o, p.goal(), *packing) : analyze_levels(p, o);
  query_words_table(state, p, r);
  std::filesystem::remove(copy);
}
BENCHMARK(BM_QueryKlotski)->Name("BM_QueryFile/klotski")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_QueryPeg, peg_english_symmetric, "peg-english.toml")
    ->Name("BM_QueryFile/peg-english-symmetric")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_QueryPeg, peg_english_chain_symmetric, "peg-english-chain.toml")
    ->Name("BM_QueryFile/peg-english-chain-symmetric")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace
}  // namespace statespace
