// statespace solve: a shortest solution from a position to the goal, printed board
// by board as the seeds print them, or as CSV (step,position). The method is
// plan_solve()'s (analysis/solve_plan.hpp); this file parses and prints.
#include <iostream>
#include <limits>

#include "analysis/pipeline/pipeline_instances.hpp"
#include "analysis/solve_plan.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "cli/optimal.hpp"
#include "cli/table_solve.hpp"
#include "core/lookup.hpp"
#include "core/notation.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

namespace {

// A Sokoban level's solution as players write it: the counts, then LURD.
template <LurdPuzzle P>
int print_lurd(const P& p, const std::string& position) {
  const auto from = position.empty() ? p.placed_start() : p.placed(position);
  int pushes = 0, steps = 0;
  const auto lurd = p.lurd(from, &pushes, &steps);
  if (!lurd) throw UsageError("solve: " + p.name() + ": no solution from " + p.format(from));
  std::cout << p.name() << ": " << count_of(std::uint64_t(pushes), "push", "pushes") << ", "
            << count_of(std::uint64_t(steps), "move", "moves") << "\n"
            << *lurd << "\n";
  return 0;
}

}  // namespace

int run_solve(const Args& args, Context& context) {
  std::string name, position, goal_text, format = "boards", method = "bfs", lookup = "ranked", moves, metric;
  std::string comparisons_limit(kComparisonsLimitDefault);
  MemoryOption memory;
  bool boards = false;
  std::string batch, pdb_dir, partition, table;
  po::options_description options("Options");
  options.add_options()("puzzle", po::value(&name)->required()->value_name("PUZZLE"),
                        "the puzzle (see statespace list)")(
      "position", po::value(&position)->value_name("POSITION"),
      "the start position, quoted: \"N O L L / F O F _\" (puzzle files: default their start)")(
      "from", po::value(&position)->value_name("POSITION"), "the start position (same as POSITION)")(
      "moves", po::value(&moves)->value_name("MOVES"),
      "sliding-block files: step, slide or path, overriding the file's moves; .tws files: the moves to use, "
      "e.g. U,F,R")("metric", po::value(&metric)->value_name("METRIC"),
                    ".tws files: all-powers (default), quarter or given; Sokoban levels: pushes (default: fewest "
                    "pushes, then fewest moves) or moves (fewest moves, then fewest pushes)")(
      "boards", po::bool_switch(&boards), "Sokoban levels: the boards step by step instead of LURD")(
      "goal", po::value(&goal_text)->value_name("POSITION"), "the goal position (default: the puzzle's goal)")(
      "format", po::value(&format)->default_value(format)->value_name("FORMAT"),
      "boards (one board per step) or csv (step,position)")(
      "comparisons-limit", po::value(&comparisons_limit)->default_value(comparisons_limit)->value_name("N"),
      "refuse a linear --lookup that may compare states more often than this")(
      "method", po::value(&method)->default_value(method)->value_name("METHOD"),
      "bfs (forward from the position, seed 003's hex1.c), bidirectional (from both ends in one queue, hex2.c) or "
      "ida (optimal, on pattern databases; the default on tiles:4x4)")(
      "lookup", po::value(&lookup)->default_value(lookup)->value_name("NAME"),
      ("visited set of --method bfs: " + lookup_names() +
       " (linear ones count comparisons; the default ranked becomes hashed when its bitset exceeds --memory)")
          .c_str());
  options.add_options()("batch", po::value(&batch)->value_name("FILE"),
                        "optimal solver: one position per line (csv: position,length,seconds,nodes)")(
      "pdb-dir", po::value(&pdb_dir)->value_name("DIR"), "optimal solver: pattern database cache folder")(
      "partition", po::value(&partition)->value_name("NAME"),
      "optimal solver: 7-8, 6-6-3, 5-5-5 (tiles:4x4) or groups 1,2,3/4,5,6/...; default by --memory")(
      "table", po::value(&table)->value_name("FILE"),
      "walk this distance table (analyze --table) instead of searching; by default the one in "
      "reports-out/<puzzle>/ is walked when it exists");
  memory.add_to(options);
  po::positional_options_description positional;
  positional.add("puzzle", 1).add("position", 1);
  po::variables_map vm;
  if (!parse_command(command("solve"), options, positional, args, vm, context)) return 0;
  if (format != "boards" && format != "csv") {
    throw ParseError("solve: unknown --format '" + format + "' (expected boards or csv)");
  }
  if (method != "bfs" && method != "bidirectional" && method != "ida") {
    throw ParseError("solve: unknown --method '" + method + "' (expected bfs, bidirectional or ida)");
  }
  SolveRequest request;
  request.from = position;
  request.goal = goal_text;
  request.from_file = is_puzzle_file_name(name);
  request.method = vm["method"].defaulted()    ? Engine::automatic
                   : method == "ida"           ? Engine::ida
                   : method == "bidirectional" ? Engine::bidirectional
                                               : Engine::bfs;
  request.batch = !batch.empty();
  if (!vm["lookup"].defaulted()) request.lookup = parse_lookup(lookup);
  request.memory = memory.budget();
  request.most_comparisons =
      parse_whole("--comparisons-limit", comparisons_limit, 0, std::numeric_limits<std::uint64_t>::max());

  AnyPuzzle puzzle = make_puzzle(name);
  apply_move_options(puzzle, moves, metric);
  return std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        const SolvePlan<P> plan = plan_solve(p, request);
        if (std::holds_alternative<OptimalSolve>(plan.method)) {
          return solve_optimal({name, position, batch, format, {pdb_dir, partition, memory.text}}, context);
        }
        if constexpr (LurdPuzzle<P>) {
          if (!boards && format == "boards" && goal_text.empty()) return print_lurd(p, position);
        }
        std::optional<Solution<P>> walked;
        if (vm["method"].defaulted() && goal_text.empty()) walked = solve_by_table(p, table, plan.start);
        const SolveRun<P> run = walked ? SolveRun<P>{std::move(*walked), {}} : run_solve(p, request, plan);
        const Solution<P>& sol = run.solution;
        const std::size_t moves = sol.path.size() - 1;
        if (format == "csv") {
          std::cout << "step,position\n";
          for (std::size_t i = 0; i < sol.path.size(); ++i) std::cout << i << "," << p.format(sol.path[i]) << "\n";
          return 0;
        }
        const Engine engine = solve_engine(plan);
        const std::string prefix = walked                            ? "distance table: "
                                   : engine == Engine::bidirectional ? "bidirectional: "
                                   : engine == Engine::chains        ? "graded chain layers: "
                                                                     : "";
        const std::string cost = run.comparisons ? ", " + with_commas(*run.comparisons) + " comparisons" : "";
        std::cout << p.name() << ": " << moves << (moves == 1 ? " move" : " moves") << " from " << p.format(plan.start)
                  << " to " << p.format(sol.path.back()) << " (" << prefix << count_of(sol.stored, "state", "states")
                  << " stored" << cost << ")\n";
        std::vector<std::string> names(sol.path.size());  // names[i]: the move into step i
        if constexpr (MoveNamingPuzzle<P>) {
          std::cout << "moves:";
          for (std::size_t i = 1; i < sol.path.size(); ++i) {
            names[i] = p.move_name(sol.path[i - 1], sol.path[i]);
            std::cout << " " << names[i];
          }
          std::cout << "\n";
        }
        for (std::size_t i = 0; i < sol.path.size(); ++i) {
          std::cout << "\nstep " << i << (names[i].empty() ? "" : ": " + names[i]) << "\n"
                    << with_row_separator(p.format(sol.path[i]), "\n") << "\n";
        }
        return 0;
      },
      puzzle);
}

}  // namespace statespace::cli
