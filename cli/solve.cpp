// statespace solve: a shortest solution from a position to the goal, printed board
// by board as the seeds print them, or as CSV (step,position).
#include "analysis/solvers/solve.hpp"

#include <iostream>
#include <limits>

#include "analysis/solvers/bidirectional.hpp"
#include "analysis/solvers/graded_chain_solve.hpp"
#include "cli/args.hpp"
#include "cli/cli.hpp"
#include "cli/optimal.hpp"
#include "cli/table_solve.hpp"
#include "core/lookup.hpp"
#include "core/notation.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/registry.hpp"

namespace statespace::cli {

int run_solve(const Args& args, Context& context) {
  std::string name, position, goal_text, format = "boards", method = "bfs", lookup = "ranked", moves, metric;
  std::string comparisons_limit(kComparisonsLimitDefault);
  MemoryOption memory;
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
                    ".tws files: all-powers (default), quarter or given")(
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
  if (method == "ida" || !batch.empty() ||
      (vm["method"].defaulted() && goal_text.empty() && optimal_by_default(name))) {
    if (!goal_text.empty())
      throw UsageError("solve: the optimal solver (--method ida, --batch) solves to the goal only");
    return solve_optimal({name, position, batch, format, {pdb_dir, partition, memory.text}}, context);
  }
  if (method != "bfs" && method != "bidirectional") {
    throw ParseError("solve: unknown --method '" + method + "' (expected bfs, bidirectional or ida)");
  }
  const LookupKind lookup_kind = parse_lookup(lookup);
  if (method == "bidirectional" && !vm["lookup"].defaulted()) {
    throw UsageError("solve: --lookup applies to --method bfs (the bidirectional search indexes its states itself)");
  }
  const MemoryBudget budget = memory.budget();
  const std::uint64_t most_comparisons =
      parse_whole("--comparisons-limit", comparisons_limit, 0, std::numeric_limits<std::uint64_t>::max());

  AnyPuzzle puzzle = make_puzzle(name);
  apply_move_options(puzzle, moves, metric);
  return std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        constexpr bool kPartialGoal = GoalPredicatePuzzle<P>;
        bool partial = false;
        if constexpr (kPartialGoal) partial = goal_text.empty() && p.has_goal();
        // A puzzle file names its start, so every kind of file solves without a
        // POSITION; a built-in model only knows its goal.
        const bool from_file = is_puzzle_file_name(name);
        if (position.empty() && !partial && !from_file) {
          throw ParseError("solve: missing POSITION (usage: statespace solve PUZZLE POSITION [options])");
        }
        const auto file_start = [&] {
          if constexpr (requires { p.start(); }) {
            return p.start();
          } else {
            return p.goal();  // a blocks file's start
          }
        };
        const auto start = position.empty() ? file_start() : p.parse(position);
        const auto goal = goal_text.empty() ? p.goal() : p.parse(goal_text);
        const auto reaches = [&](const typename P::State& s) {
          if constexpr (kPartialGoal) {
            if (partial) return p.is_goal(s);
          }
          return s == goal;
        };
        if constexpr (ParityClassPuzzle<P>) {
          if (!p.same_class(start, goal)) throw UsageError(unsolvable_reason(p, start, goal, 0));
        }
        if (method == "bfs") check_comparisons(p, lookup_kind, most_comparisons);
        Progress progress(p.name() + " solve");
        Solution<std::decay_t<decltype(p)>> sol;
        std::string prefix, cost;  // the method when not the default; comparisons made
        if (method == "bidirectional" && partial) {
          throw UsageError("solve: --method bidirectional needs one goal position (use --goal POSITION)");
        }
        std::optional<Solution<P>> walked;
        if (vm["method"].defaulted() && goal_text.empty()) walked = solve_by_table(p, table, start);
        if (walked) {
          sol = std::move(*walked);
          prefix = "distance table: ";
        } else if (method == "bidirectional") {
          auto both = solve_bidirectional(p, start, goal, budget, &progress);
          sol = {std::move(both.path), both.stored};
          prefix = "bidirectional: ";
        } else if (auto chained = vm["lookup"].defaulted()
                                      ? solve_by_graded_chains(p, start, goal, partial, budget, &progress)
                                      : std::nullopt) {
          sol = std::move(*chained);
          prefix = "graded chain layers: ";
        } else {
          LookupKind kind = lookup_kind;
          if constexpr (!RankedPuzzle<P>) {
            if (kind == LookupKind::kRanked && vm["lookup"].defaulted()) kind = LookupKind::kHashed;
          } else if (kind == LookupKind::kRanked) {
            const std::uint64_t need = RankBitset::bytes_for(p.rank_space());
            // The default must not refuse a short 15-puzzle solve over a 5.2 TB bitset:
            // a hash set grows with the search instead (the queue stays budgeted).
            if (vm["lookup"].defaulted() && need > budget.bytes()) {
              kind = LookupKind::kHashed;
            } else {
              budget.require(need, p.name() + ": ranked visited set");
            }
          }
          with_lookup(kind, p, [&](auto& visited) {
            sol = solve_bfs_until(p, start, reaches, visited, budget, &progress);
            if (counts_comparisons(kind)) cost = ", " + with_commas(visited.stats().comparisons) + " comparisons";
          });
        }
        if constexpr (kPartialGoal) {
          if (sol.path.empty() && partial) {
            throw UsageError(p.name() + ": no solution from " + p.format(start) + ": none of the " +
                             std::to_string(sol.stored) + " positions it reaches matches the goal " + p.goal_text());
          }
        }
        if (sol.path.empty()) throw UsageError(unsolvable_reason(p, start, goal, sol.stored));
        const std::size_t moves = sol.path.size() - 1;
        if (format == "csv") {
          std::cout << "step,position\n";
          for (std::size_t i = 0; i < sol.path.size(); ++i) std::cout << i << "," << p.format(sol.path[i]) << "\n";
          return 0;
        }
        std::cout << p.name() << ": " << moves << (moves == 1 ? " move" : " moves") << " from " << p.format(start)
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
