// statespace analyze: runs the analysis pipeline on one or more puzzles and writes
// their reports. Every puzzle name and position is checked before the first
// analysis starts, so bad input never leaves half a batch written.
#include "analysis/analyze.hpp"

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "analysis/analyze_implicit.hpp"
#include "cli/cli.hpp"
#include "core/lookup.hpp"
#include "distributed/analyze_mpi.hpp"
#include "puzzles/registry.hpp"
#include "reports/puzzle_report.hpp"

namespace statespace::cli {

namespace {

struct Job {
  std::string name;
  AnyPuzzle puzzle;
};

void print_summary(const std::vector<AnalysisResult>& results, const std::filesystem::path& out) {
  std::cout << std::left << std::setw(12) << "puzzle" << std::right << std::setw(12) << "states" << std::setw(12)
            << "edges" << std::setw(14) << "eccentricity" << std::setw(10) << "farthest" << std::setw(10) << "seconds"
            << "\n";
  for (const auto& r : results) {
    std::cout << std::left << std::setw(12) << r.puzzle << std::right << std::setw(12) << r.states << std::setw(12)
              << r.edges << std::setw(14) << r.eccentricity() << std::setw(10) << r.farthest.size() << std::setw(10)
              << std::fixed << std::setprecision(3) << r.seconds << "\n";
  }
  for (const auto& r : results) {
    if (!r.goal) continue;
    std::cout << r.puzzle << " goal " << r.goal->goal << ": ";
    if (!r.goal->shortest) {
      std::cout << "not reachable from the start\n";
      continue;
    }
    std::cout << r.goal->reached << " goal positions reached, shortest solution " << *r.goal->shortest
              << " moves; hardest positions " << r.goal->hardest.size() << " at " << r.goal->layers.size() - 1
              << " moves from any goal\n";
  }
  std::cout << "reports written to " << out.string() << "/\n";
}

}  // namespace

int run_analyze(const Args& args, Context& context) {
  std::vector<std::string> names;
  std::string out = "reports-out", memory, lookup, moves;
  AnalyzeOptions o;
  std::uint64_t dot_limit = 10'000;
  bool all = false, quiet = false;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&names)->multitoken()->value_name("PUZZLE"),
                        "puzzles to analyse (see statespace list)")(
      "all", po::bool_switch(&all), "analyse every seed puzzle: nooff hex6 oshidori tiles:3x3")(
      "out", po::value(&out)->default_value(out)->value_name("DIR"), "report folder; each puzzle gets OUT/<puzzle>/")(
      "from", po::value(&o.from)->value_name("POSITION"),
      "start the BFS from this position (default: the goal); one puzzle only")(
      "goal", po::value(&o.goal)->value_name("POSITION"),
      "the goal position (default: the puzzle's goal); one puzzle only")(
      "all-pairs", po::bool_switch(&o.all_pairs),
      "also compute the true diameter (max eccentricity over all positions)")(
      "all-pairs-limit", po::value(&o.all_pairs_limit)->default_value(o.all_pairs_limit)->value_name("N"),
      "refuse --all-pairs by brute force above this many positions")("components", po::bool_switch(&o.components),
                                                                     "connected components of the whole rank space")(
      "dot-limit", po::value(&dot_limit)->default_value(dot_limit)->value_name("N"),
      "write graph.dot only up to this many positions")(
      "lookup", po::value(&lookup)->value_name("NAME"),
      ("visited-set strategy for enumeration: " + lookup_names() +
       " (default: ranked where the puzzle has a perfect hash, else hashed; linear ones also count comparisons)")
          .c_str())("engine", po::value(&o.engine)->default_value(o.engine)->value_name("NAME"),
                    "BFS engine: explicit (Boost CSR graph), implicit (two-bit BFS over ranks, tiles:RxC), mpi (the "
                    "implicit one over MPI processes: mpirun -np N statespace analyze ...) or auto (explicit while "
                    "its graph fits --memory)")("memory", po::value(&memory)->value_name("BYTES"),
                                                "memory budget in bytes, e.g. 8G (default: 75% of RAM)")(
      "checkpoint", po::value(&o.checkpoint)->value_name("DIR"),
      "implicit engine: save the BFS state in DIR after each level")(
      "checkpoint-every", po::value(&o.checkpoint_every)->value_name("SECONDS"),
      "checkpoint only when this long has passed since the last one (default 0: every level)")(
      "resume", po::value(&o.resume)->value_name("DIR"), "implicit engine: continue the run checkpointed in DIR")(
      "moves", po::value(&moves)->value_name("METRIC"),
      "sliding-block files: step, slide or path, overriding the file's moves")(
      "quiet,q", po::bool_switch(&quiet), "no progress lines and no summary table");
  po::positional_options_description positional;
  positional.add("puzzle", -1);
  po::variables_map vm;
  if (!parse_command(command("analyze"), options, positional, args, vm, context)) return 0;

  if (all) {
    const auto seeds = seed_puzzles();
    names.insert(names.end(), seeds.begin(), seeds.end());
  }
  if (names.empty()) throw UsageError("analyze: name at least one puzzle, or --all (see statespace list)");
  if ((!o.from.empty() || !o.goal.empty() || !o.checkpoint.empty() || !o.resume.empty()) && names.size() != 1) {
    throw UsageError("analyze: --from, --goal, --checkpoint and --resume need exactly one puzzle, got " +
                     std::to_string(names.size()));
  }
  if (!memory.empty()) o.memory = MemoryBudget(parse_bytes(memory));
  if (!lookup.empty()) o.lookup = parse_lookup(lookup);
  o.progress = !quiet;
  o.threads = threads_in_use(context);

  std::vector<Job> jobs;
  for (const auto& name : names) {
    jobs.push_back({name, make_puzzle(name)});
    if (!moves.empty()) std::visit([&](auto& p) { override_moves(p, moves); }, jobs.back().puzzle);
    std::visit([&](const auto& p) { (void)resolve_start(p, o), (void)resolve_engine(p, o); },
               jobs.back().puzzle);  // validate positions and engine options now
  }

  const auto threads = apply_threads(context);
  std::vector<AnalysisResult> results;
  for (const auto& job : jobs) {
    std::visit(
        [&](const auto& p) {
          Progress clock(p.name(), false);
          AnalysisRun<std::decay_t<decltype(p)>> run;
          if (auto mpi = analyze_if_mpi(p, o)) {
            if (!mpi->writes_reports) return;  // rank 0 writes them
            run.result = std::move(mpi->result);
          } else if (auto implicit = analyze_if_implicit(p, o)) {
            run.result = std::move(*implicit);
          } else {
            run = analyze_explicit(p, o);
          }
          run.result.threads = o.threads;
          run.result.seconds = clock.seconds();
          run.result.peak_bytes = peak_rss_bytes();
          std::optional<reports::GraphView> view;
          if (run.result.states <= dot_limit && run.result.engine == "explicit") {  // implicit keeps no graph
            view = reports::GraphView{&run.space.graph, {}, &run.distance};
            for (Vertex v = 0; v < run.space.vertices(); ++v) view->labels.push_back(p.format(run.space.state(v)));
          }
          if (run.result.goal && !run.result.goal->shortest) {
            std::cerr << "statespace: " << job.name << ": the goal " << run.result.goal->goal
                      << " is not reachable from the start (analysed anyway)\n";
          }
          reports::write_puzzle_report(out, run.result, view);
          results.push_back(std::move(run.result));
        },
        job.puzzle);
  }
  if (results.empty()) return 0;  // an MPI rank other than 0
  if (results.size() > 1) reports::write_summary_tables(out, results);
  if (!quiet) print_summary(results, out);
  return 0;
}

}  // namespace statespace::cli
