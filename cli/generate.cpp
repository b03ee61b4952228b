// statespace generate: sliding-tile problems by seed 002's random walk or seed 004's
// uniform shuffle; their optimal lengths (csv) whenever a distance table fits; exact
// difficulty by sampling a BFS layer (--distance, --min/--max); and --compare, which
// sets the difficulty of walk and uniform problems against the true distribution.
// Where the distances come from is plan_generate()'s (analysis/generate_plan.hpp).
#include "analysis/problems/generate.hpp"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>

#include "analysis/generate_plan.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "cli/optimal.hpp"

namespace statespace::cli {

namespace {

constexpr std::uint64_t kMaxCount = 1'000'000'000;
constexpr std::uint64_t kDefaultCompareCount = 10'000;
constexpr std::uint64_t kBatch = std::uint64_t{1} << 16;

// Smallest d with at least half the mass at or below it.
std::size_t median(const std::vector<std::uint64_t>& counts) {
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  std::uint64_t seen = 0;
  for (std::size_t d = 0; d < counts.size(); ++d) {
    seen += counts[d];
    if (2 * seen >= total) return d;
  }
  return 0;
}

void print_comparison(const Tiles& t, const MethodComparison& c, std::uint64_t seed, bool csv) {
  if (csv) {
    std::cout << "distance,positions,uniform,walk\n";
    for (std::size_t d = 0; d < c.truth.size(); ++d) {
      std::cout << d << "," << c.truth[d] << "," << c.uniform[d] << "," << c.walk[d] << "\n";
    }
    return;
  }
  const double positions = double(std::accumulate(c.truth.begin(), c.truth.end(), std::uint64_t{0}));
  const double n = double(c.samples);
  std::cout << t.name() << ": optimal lengths of " << c.samples << " problems per method (seed " << seed
            << ", walk length " << c.walk_length << ") against all " << std::uint64_t(positions)
            << " solvable positions\n\n";
  std::cout << "distance   positions   true %   uniform  uniform %      walk   walk %\n";
  std::cout << std::fixed;
  for (std::size_t d = 0; d < c.truth.size(); ++d) {
    std::cout << std::setw(8) << d << std::setw(12) << c.truth[d] << std::setw(9) << std::setprecision(3)
              << 100.0 * double(c.truth[d]) / positions << std::setw(10) << c.uniform[d] << std::setw(11)
              << 100.0 * double(c.uniform[d]) / n << std::setw(10) << c.walk[d] << std::setw(9)
              << 100.0 * double(c.walk[d]) / n << "\n";
  }
  std::cout << std::setprecision(2) << "\nmean distance         true " << mean_distance(c.truth) << "   uniform "
            << mean_distance(c.uniform) << "   walk " << mean_distance(c.walk) << "\n";
  std::cout << "median distance       true " << median(c.truth) << "      uniform " << median(c.uniform)
            << "      walk " << median(c.walk) << "\n";
  std::cout << std::setprecision(3) << "total variation from the truth:   uniform "
            << total_variation(c.uniform, c.truth) << "   walk " << total_variation(c.walk, c.truth) << "\n";
  std::uint64_t odd = 0, beyond = 0;
  for (std::size_t d = 0; d < c.walk.size(); ++d) {
    if (d % 2 != std::size_t(c.walk_length % 2)) odd += c.walk[d];
    if (d > std::size_t(c.walk_length)) beyond += c.walk[d];
  }
  std::cout << "walk: every move flips the blank's colour, so a walk of " << c.walk_length << " moves ends at an "
            << (c.walk_length % 2 ? "odd" : "even") << " distance of at most " << c.walk_length << "\n      (here "
            << odd << " of the other parity, " << beyond << " beyond " << c.walk_length << ")\n";
}

}  // namespace

int run_generate(const Args& args, Context& context) {
  std::string name, count_text = "1", method_text = "uniform", walk_text = std::to_string(kDefaultWalkLength);
  std::string seed_text = "1", format_text = "canonical", distance_text, min_text, max_text;
  MemoryOption memory;
  std::string pdb_dir, partition, tries_text;
  bool compare = false;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&name)->required()->value_name("BOARD"), "the board, tiles:RxC")(
      "count", po::value(&count_text)->default_value(count_text)->value_name("N"),
      "problems to generate (with --compare: per method, default 10000)")(
      "method", po::value(&method_text)->default_value(method_text)->value_name("NAME"),
      "uniform: uniform over solvable boards (seed 004: shuffle, parity test, repair); walk: a random walk from "
      "the goal (seed 002)")("walk-length", po::value(&walk_text)->default_value(walk_text)->value_name("L"),
                             "moves of each walk")(
      "seed", po::value(&seed_text)->default_value(seed_text)->value_name("S"),
      "random seed; the same seed gives the same problems on every machine")(
      "format", po::value(&format_text)->default_value(format_text)->value_name("NAME"),
      "canonical (one position per line), paiza (rows of numbers, * for the blank, a blank line between "
      "problems) or csv (position,distance; the distance is filled in when a table fits: up to 12 cells)")(
      "distance", po::value(&distance_text)->value_name("D"),
      "exact difficulty: positions whose shortest solution has D moves, uniformly among them")(
      "min", po::value(&min_text)->value_name("A"), "exact difficulty: at least A moves (uniform over the range)")(
      "max", po::value(&max_text)->value_name("B"), "exact difficulty: at most B moves")(
      "compare", po::bool_switch(&compare),
      "print the distribution of optimal lengths of walk and uniform problems against the true one");
  memory.add_to(options);
  options.add_options()("pdb-dir", po::value(&pdb_dir)->value_name("DIR"),
                        "tiles:4x4: pattern database cache folder of the optimal solver")(
      "partition", po::value(&partition)->value_name("NAME"), "tiles:4x4: pattern databases (see solve --help)")(
      "max-tries", po::value(&tries_text)->value_name("N"),
      "tiles:4x4 --distance: uniform positions solved at most (default 1000 per problem)");
  po::positional_options_description positional;
  positional.add("puzzle", 1);
  po::variables_map vm;
  if (!parse_command(command("generate"), options, positional, args, vm, context)) return 0;

  const Tiles t = tiles_named(name, "generate");
  const GenerateMethod method = parse_generate_method(method_text);
  const ProblemFormat format = parse_problem_format(format_text);
  std::uint64_t count = parse_whole("--count", count_text, 1, kMaxCount);
  const int walk_length = int(parse_whole("--walk-length", walk_text, 0, 1'000'000'000));
  const std::uint64_t seed = parse_whole("--seed", seed_text, 0, std::numeric_limits<std::uint64_t>::max());
  const bool by_distance = vm.count("distance") || vm.count("min") || vm.count("max");
  if (vm.count("distance") && (vm.count("min") || vm.count("max"))) {
    throw UsageError("generate: give --distance D or --min A / --max B, not both");
  }
  if ((by_distance || compare) && !vm["method"].defaulted()) {
    throw UsageError(
        std::string("generate: ") +
        (compare ? "--compare runs both methods" : "--distance/--min/--max sample the BFS layer directly") +
        "; drop --method");
  }
  if (by_distance && compare) throw UsageError("generate: --compare and --distance/--min/--max do not combine");
  if (compare && format == ProblemFormat::kPaiza)
    throw UsageError("generate: --compare prints a table (--format canonical or csv)");
  if (compare && vm["count"].defaulted()) count = kDefaultCompareCount;
  // Read here, not after the table: a typo must not cost the minutes and memory of
  // building it. Without --max the table's deepest level is the bound.
  const auto limit = std::uint64_t(DistanceTable::kUnreached - 1);
  int lo = 0;
  std::optional<int> hi;
  if (vm.count("distance")) {
    lo = int(parse_whole("--distance", distance_text, 0, limit));
    hi = lo;
  } else {
    if (vm.count("min")) lo = int(parse_whole("--min", min_text, 0, limit));
    if (vm.count("max")) hi = int(parse_whole("--max", max_text, 0, limit));
  }
  if (hi && lo > *hi) {
    throw UsageError("generate: --min " + std::to_string(lo) + " exceeds --max " + std::to_string(*hi) +
                     " (expected --min A --max B with A at most B)");
  }
  const std::uint64_t tries = tries_text.empty() ? 0 : parse_whole("--max-tries", tries_text, 1, kMaxCount);
  const GeneratePlan plan = plan_generate(t, {by_distance, compare, format == ProblemFormat::kCsv});
  const bool by_search = plan.distances == Engine::ida;
  if (!by_search && (vm.count("pdb-dir") || vm.count("partition") || vm.count("max-tries"))) {
    throw UsageError(
        "generate: --pdb-dir, --partition and --max-tries belong to the optimal solver, used for "
        "--distance/--min/--max or --format csv on boards over " +
        std::to_string(DistanceTable::kMaxCells) + " cells; " + t.name() + " uses a distance table");
  }
  const MemoryBudget budget = memory.budget();
  const auto threads = apply_threads(context);

  if (by_search) {
    return generate_optimal(t,
                            {distance_text,
                             min_text,
                             max_text,
                             count,
                             seed,
                             tries,
                             method,
                             walk_length,
                             format,
                             {pdb_dir, partition, memory.text}},
                            context);
  }
  std::optional<DistanceTable> table;
  Progress progress(t.name() + " distance table");
  if (plan.table() && plan.required) {
    table = build_distance_table(t, budget, plan.table_engine(), &progress);
  } else if (plan.table()) {
    try {
      table = build_distance_table(t, budget, plan.table_engine(), &progress);
    } catch (const UsageError& e) {
      std::cerr << "statespace: generate: distance column left empty: " << e.what() << "\n";
    }
  }

  if (compare) {
    print_comparison(t, compare_methods(t, *table, count, walk_length, seed), seed, format == ProblemFormat::kCsv);
    return 0;
  }
  if (by_distance && !hi) {
    hi = table->max_distance();
    if (lo > *hi) {
      throw UsageError("generate: --min " + std::to_string(lo) + " exceeds the farthest distance, " +
                       std::to_string(*hi) + " (expected --min at most " + std::to_string(*hi) + ")");
    }
  }

  std::ostringstream out;
  if (format == ProblemFormat::kCsv) out << kProblemCsvHeader << "\n";
  const auto distance_of = [&](Board b) -> std::optional<int> {
    if (!table) return std::nullopt;
    return int(table->distance(t.rank(b)));
  };
  ProblemGenerator generator(t, method, walk_length, seed);
  Rng layer_rng(seed);
  for (std::uint64_t done = 0; done < count;) {
    const std::uint64_t n = std::min(kBatch, count - done);
    std::vector<Board> batch;
    if (by_distance) {
      batch = sample_distance(t, *table, lo, *hi, n, layer_rng);
    } else {
      for (std::uint64_t i = 0; i < n; ++i) batch.push_back(generator.next());
    }
    for (const Board b : batch) {
      if (format == ProblemFormat::kPaiza && done > 0) out << "\n";
      out << format_problem(t, b, format, distance_of(b)) << "\n";
      ++done;
    }
    std::cout << out.str();
    out.str({});
  }
  return 0;
}

}  // namespace statespace::cli
